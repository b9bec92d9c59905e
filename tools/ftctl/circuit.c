// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl circuit: add, delete and show a fabric's circuits.
 *
 * A batch (one circuit, a file of them, or every circuit of the fabric for
 * "del all") goes to the kernel as ONE request, so it is admitted or
 * refused as a whole: as many FATTREE_A_CIRCUIT_ENTRY (or _PAIR)
 * attributes of at most 64 KiB as it takes. The kernel points a refusal at
 * the offending entry inside its attribute; ftctl maps that byte back to
 * the entry and to the line of the file it came from.
 *
 * The command line and the file are checked before netlink is opened;
 * what needs the fabric's shape (leaves, ports below w_i, the number of
 * ports a pair needs) is checked against FABRIC_GET before the batch is
 * sent.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "ftobj.h"
#include "linux/fattree_structs.h"

#define MAXP		FATTREE_MAX_LEVELS
#define MAX_PORT	(FATTREE_MAX_PARENTS - 1)
/* Payload of one attribute: at most 65535 bytes, header included. */
#define ATTR_PAYLOAD	(0xffff - NLA_HDRLEN)
#define ROW_SYNTAX	"'src dst [lanes [lease [p1,p2,...]]]'"

/* One circuit (add) or pair (del) as the user gave it. */
struct circ_row {
	uint32_t src, dst, lanes, lease;
	uint32_t line;		/* of the file; 0: command line or dump */
	bool has_ports;
	uint8_t nports;
	uint8_t port[MAXP];
};

static struct circ_req {
	char name[FATTREE_NAME_LEN];
	const char *file;	/* path as typed, or NULL */
	const char *fname;	/* for messages: the path or "<stdin>" */
	bool all;		/* del NAME all */
	struct circ_row *rows;
	size_t n, cap;
} cr;

/* The fabric's shape, from FABRIC_GET. */
/* The fabric's shape: h levels of m down and w up ports, n leaves. */
struct fab_shape {
	uint32_t h, leaves;
	uint32_t m[FATTREE_MAX_LEVELS], w[FATTREE_MAX_LEVELS];
};

static const char *fmt_ports(const uint8_t *p, unsigned int n, char *buf,
			     size_t len)
{
	size_t off = 0;
	unsigned int i;

	if (!n) {
		snprintf(buf, len, "-");
		return buf;
	}
	buf[0] = '\0';
	for (i = 0; i < n && off < len; i++)
		off += (size_t)snprintf(buf + off, len - off, "%s%u",
					i ? "," : "", p[i]);
	return buf;
}

/* "rows.txt:12: " for a file row, "" otherwise. */
static const char *row_where(const struct circ_row *row, char *buf, size_t len)
{
	if (row->line && cr.fname)
		snprintf(buf, len, "%s:%" PRIu32 ": ", cr.fname, row->line);
	else
		buf[0] = '\0';
	return buf;
}

static struct circ_row *new_row(const char *cmd)
{
	struct circ_row *rows;
	size_t ncap;

	if (cr.n == cr.cap) {
		ncap = cr.cap ? 2 * cr.cap : 256;
		rows = realloc(cr.rows, ncap * sizeof(*rows));
		if (!rows) {
			fprintf(stderr, "ftctl %s: out of memory after %zu rows\n",
				cmd, cr.n);
			return NULL;
		}
		cr.rows = rows;
		cr.cap = ncap;
	}
	memset(&cr.rows[cr.n], 0, sizeof(cr.rows[0]));
	return &cr.rows[cr.n++];
}

/* --- parsing --- */

static int parse_ports(const char *cmd, const char *where, const char *word,
		       struct circ_row *row)
{
	uint32_t v[MAXP];
	unsigned int n = 0, i;
	int err;

	err = ftctl_parse_u32_list_at(cmd, where, "ports", word, 0, MAX_PORT, v,
				      0, MAXP, &n);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		row->port[i] = (uint8_t)v[i];
	row->nports = (uint8_t)n;
	row->has_ports = true;
	return 0;
}

/* One line of a circuit file: src dst [lanes [lease [p1,p2,...]]]. */
static int parse_line(const char *cmd, const char *where, char **tok,
		      unsigned int k, uint32_t lineno)
{
	static const char *const what[] = {
		"source leaf", "destination leaf", "lanes", "lease",
	};
	static const uint32_t min[] = { 0, 0, 1, 0 };
	struct circ_row *row;
	uint32_t v[4] = { 0, 0, 1, 0 };
	uint64_t x = 0;
	unsigned int i;
	int err;

	if (k < 2)
		return ftctl_usage_err(cmd, "%smissing the destination leaf after '%s' (a row is %s)",
				       where, tok[0], ROW_SYNTAX);
	for (i = 0; i < k && i < 4; i++) {
		err = ftctl_parse_u64_at(cmd, where, what[i], tok[i], min[i],
					 UINT32_MAX, &x);
		if (err)
			return err;
		v[i] = (uint32_t)x;
	}
	row = new_row(cmd);
	if (!row)
		return FTCTL_EXIT_FAIL;
	row->src = v[0];
	row->dst = v[1];
	row->lanes = v[2];
	row->lease = v[3];
	row->line = lineno;
	if (k == 5)
		return parse_ports(cmd, where, tok[4], row);
	return 0;
}

static int read_rows(const char *cmd, const char *path)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	char where[512], *line = NULL, *p, *save, *tok[5];
	uint32_t lineno = 0;
	size_t cap = 0;
	unsigned int k;
	int err = 0;

	if (!f)
		return ftctl_usage_err(cmd, "cannot read circuit file '%s': %s",
				       path, strerror(errno));
	cr.file = path;
	cr.fname = f == stdin ? "<stdin>" : path;
	while (!err && getline(&line, &cap, f) >= 0) {
		lineno++;
		p = strchr(line, '#');
		if (p)
			*p = '\0';
		snprintf(where, sizeof(where), "%s:%" PRIu32 ": ", cr.fname, lineno);
		k = 0;
		for (p = strtok_r(line, " \t\r\n", &save); p;
		     p = strtok_r(NULL, " \t\r\n", &save)) {
			if (k == 5) {
				err = ftctl_usage_err(cmd, "%sextra word '%s' (a row is %s)",
						      where, p, ROW_SYNTAX);
				break;
			}
			tok[k++] = p;
		}
		if (!err && k)
			err = parse_line(cmd, where, tok, k, lineno);
	}
	if (!err && ferror(f))
		err = ftctl_usage_err(cmd, "cannot read circuit file '%s': %s",
				      path, strerror(errno));
	if (!err && !cr.n)
		err = ftctl_usage_err(cmd, "circuit file '%s' has no rows", cr.fname);
	free(line);
	if (f != stdin)
		fclose(f);
	return err;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct circ_row *x = &cr.rows[*(const size_t *)a];
	const struct circ_row *y = &cr.rows[*(const size_t *)b];
	size_t i = *(const size_t *)a, j = *(const size_t *)b;

	if (x->src != y->src)
		return x->src < y->src ? -1 : 1;
	if (x->dst != y->dst)
		return x->dst < y->dst ? -1 : 1;
	return i < j ? -1 : i > j;
}

/*
 * A pair named twice: the kernel would refuse the batch (at most one
 * circuit per pair); say which lines here, where it is clear.
 */
static int check_duplicates(const char *cmd, bool add)
{
	size_t *idx, i, first = 0, again = SIZE_MAX;
	const struct circ_row *a, *b;
	char where[512];

	if (cr.n < 2)
		return 0;
	idx = malloc(cr.n * sizeof(*idx));
	if (!idx) {
		fprintf(stderr, "ftctl %s: out of memory\n", cmd);
		return FTCTL_EXIT_FAIL;
	}
	for (i = 0; i < cr.n; i++)
		idx[i] = i;
	qsort(idx, cr.n, sizeof(*idx), cmp_pair);
	/* the earliest second mention of any pair */
	for (i = 1; i < cr.n; i++) {
		a = &cr.rows[idx[i - 1]];
		b = &cr.rows[idx[i]];
		if (a->src == b->src && a->dst == b->dst &&
		    (i < 2 || cr.rows[idx[i - 2]].src != a->src ||
		     cr.rows[idx[i - 2]].dst != a->dst) &&
		    (again == SIZE_MAX || idx[i] < again)) {
			again = idx[i];
			first = idx[i - 1];
		}
	}
	free(idx);
	if (again == SIZE_MAX)
		return 0;
	a = &cr.rows[first];
	b = &cr.rows[again];
	return ftctl_usage_err(cmd, "%spair %" PRIu32 " -> %" PRIu32 " again (first at line %" PRIu32 "); %s",
			       row_where(b, where, sizeof(where)), b->src, b->dst,
			       a->line, add ? "a pair has at most one circuit" :
			       "its circuit goes once");
}

/* --- the fabric's shape, and circuits made whole against it --- */

static int shape_reply(struct nl_msg *msg, void *arg)
{
	return ftobj_fabric_decode(msg, arg);
}

static int get_shape(struct ftctl *ctl, const char *what, struct fab_shape *s)
{
	struct ftobj_fabric f = { 0 };
	unsigned int i;
	int rc;

	memset(s, 0, sizeof(*s));
	rc = FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_FABRIC_GET, 0, FATTREE_A_FABRIC_NAME,
			      cr.name, what, shape_reply, &f);
	if (rc)
		return rc;
	if (!FTOBJ_HAS(&f, FATTREE_A_FABRIC_LEVELS) || !FTOBJ_HAS(&f, FATTREE_A_FABRIC_LEAVES) ||
	    !f.levels || f.levels > MAXP || f.ndown != f.levels || f.nup != f.levels)
		return ftctl_fail(ctl, what, -EPROTO);
	for (i = 0; i < f.levels; i++)
		if (!f.down[i] || !f.up[i])
			return ftctl_fail(ctl, what, -EPROTO);
	s->h = f.levels;
	s->leaves = f.leaves;
	memcpy(s->m, f.down, sizeof(s->m));
	memcpy(s->w, f.up, sizeof(s->w));
	return FTCTL_EXIT_OK;
}

/* H: the level of the lowest common ancestors of @src and @dst. */
static unsigned int common_level(const struct fab_shape *s, uint32_t src,
				 uint32_t dst)
{
	unsigned int i = 0;

	while (src != dst && i < s->h) {
		src /= s->m[i];
		dst /= s->m[i];
		i++;
	}
	return i;
}

/*
 * Make @row a struct fattree_circuit for fabric @s: leaves in range, its
 * ports (given: exactly H of them, P_i < w_i; or destination mod k,
 * P_i = (dst div W_(i-1)) mod w_i). On error print it and return 1.
 */
static int make_circuit(const char *what, const struct fab_shape *s,
			struct circ_row *row, struct fattree_circuit *c)
{
	char where[512], buf[96];
	unsigned int hh, i;
	uint64_t wprod = 1;

	row_where(row, where, sizeof(where));
	if (row->src >= s->leaves || row->dst >= s->leaves) {
		fprintf(stderr, "ftctl %s: %s%s leaf %" PRIu32 " is not a leaf of %s (leaves 0-%" PRIu32 ")\n",
			what, where, row->src >= s->leaves ? "source" : "destination",
			row->src >= s->leaves ? row->src : row->dst, cr.name,
			s->leaves - 1);
		return FTCTL_EXIT_FAIL;
	}
	hh = common_level(s, row->src, row->dst);
	if (row->has_ports && row->nports != hh) {
		fprintf(stderr, "ftctl %s: %sports %s: %u value%s, but leaves %" PRIu32 " and %" PRIu32 " meet at level %u, so the path takes %u up-port%s (P_1..P_H)\n",
			what, where, fmt_ports(row->port, row->nports, buf, sizeof(buf)),
			row->nports, row->nports == 1 ? "" : "s", row->src, row->dst,
			hh, hh, hh == 1 ? "" : "s");
		return FTCTL_EXIT_FAIL;
	}
	if (!row->has_ports) {
		for (i = 0; i < hh; i++) {
			row->port[i] = (uint8_t)((row->dst / wprod) % s->w[i]);
			if (wprod <= UINT32_MAX)
				wprod *= s->w[i];
		}
		row->nports = (uint8_t)hh;
	}
	for (i = 0; i < hh; i++) {
		if (row->port[i] < s->w[i])
			continue;
		fprintf(stderr, "ftctl %s: %sports %s: P_%u = %u, but level-%u nodes have %" PRIu32 " up-port%s (w_%u = %" PRIu32 ")\n",
			what, where, fmt_ports(row->port, row->nports, buf, sizeof(buf)),
			i + 1, row->port[i], i, s->w[i], s->w[i] == 1 ? "" : "s",
			i + 1, s->w[i]);
		return FTCTL_EXIT_FAIL;
	}
	memset(c, 0, sizeof(*c));
	c->src = row->src;
	c->dst = row->dst;
	c->lanes = row->lanes;
	c->lease = row->lease;
	memcpy(c->port, row->port, hh);
	return FTCTL_EXIT_OK;
}

/* --- one batch in one request --- */

struct batch_attr {
	uint32_t off;		/* of the attribute, from the netlink header */
	uint32_t len;		/* its payload */
	size_t first;		/* its first entry */
};

struct batch {
	const char *verb;	/* "added", "deleted" */
	bool add;
	size_t elem, n;
	struct batch_attr *attrs;
	size_t nattrs;
	struct ftobj_circuit_count reply;	/* circuits in the fabric */
};

static bool batch_explain(const struct ftctl_req *r, const char *what, int off,
			  void *arg)
{
	const struct batch *b = arg;
	const struct batch_attr *a;
	const struct circ_row *row;
	char where[512], buf[96];
	uint32_t o = (uint32_t)off;
	size_t i, k;

	(void)r;
	for (i = 0; i < b->nattrs; i++) {
		a = &b->attrs[i];
		if (o < a->off + NLA_HDRLEN || o >= a->off + NLA_HDRLEN + a->len)
			continue;
		k = a->first + (o - a->off - NLA_HDRLEN) / b->elem;
		if (k >= cr.n)
			return false;
		row = &cr.rows[k];
		row_where(row, where, sizeof(where));
		if (b->add)
			fprintf(stderr, "ftctl %s: the kernel pointed at %scircuit %" PRIu32 " -> %" PRIu32 " lanes %" PRIu32 " lease %" PRIu32 " ports %s (entry %zu of %zu); none was added\n",
				what, where, row->src, row->dst, row->lanes,
				row->lease, fmt_ports(row->port, row->nports, buf, sizeof(buf)),
				k + 1, cr.n);
		else
			fprintf(stderr, "ftctl %s: the kernel pointed at %spair %" PRIu32 " -> %" PRIu32 " (entry %zu of %zu)%s; none was deleted\n",
				what, where, row->src, row->dst, k + 1, cr.n,
				cr.all ? ", listed by the dump just before: deleted meanwhile?" : "");
		return true;
	}
	return false;
}

static int count_reply(struct nl_msg *msg, void *arg)
{
	struct batch *b = arg;

	return ftobj_circuit_count_decode(msg, &b->reply);
}

/* Describe the entries @first..@first+@k-1 of an attribute. */
static void attr_what(char *buf, size_t len, const struct batch *b,
		      size_t first, size_t k)
{
	const struct circ_row *r0 = &cr.rows[first];
	const struct circ_row *r1 = &cr.rows[first + k - 1];
	const char *kind = b->add ? "circuits" : "pairs";

	if (cr.file)
		snprintf(buf, len, "%s %zu-%zu (lines %" PRIu32 "-%" PRIu32 " of %s)",
			 kind, first + 1, first + k, r0->line, r1->line, cr.fname);
	else if (cr.all)
		snprintf(buf, len, "%s %zu-%zu of the dump", kind, first + 1,
			 first + k);
	else
		snprintf(buf, len, "SRC DST %" PRIu32 " %" PRIu32, r0->src, r0->dst);
}

static void print_result(struct ftctl *ctl, const struct batch *b)
{
	struct json_object *o;

	if (ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "name", json_object_new_string(cr.name));
		json_object_object_add(o, b->verb, json_object_new_uint64(b->n));
		json_object_object_add(o, "circuits", json_object_new_uint64(b->reply.count));
		ftctl_json_print(o);
		json_object_put(o);
		return;
	}
	printf("%s: %s %zu circuit%s, %" PRIu32 " installed\n", cr.name, b->verb,
	       b->n, b->n == 1 ? "" : "s", b->reply.count);
}

/* The request of send_batch(); b->reply holds the reply. */
static int send_batch_req(struct ftctl *ctl, const char *what, uint8_t cmd,
			  int type, const char *aname, const void *data,
			  struct batch *b)
{
	size_t per = ATTR_PAYLOAD / b->elem, size, max, done, k;
	char desc[160];
	struct ftctl_req r;
	int rc;

	b->nattrs = (b->n + per - 1) / per;
	b->attrs = calloc(b->nattrs, sizeof(*b->attrs));
	if (!b->attrs)
		return ftctl_fail(ctl, what, -ENOMEM);
	size = NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(NLA_HDRLEN + FATTREE_NAME_LEN) +
	       b->nattrs * NLA_HDRLEN + NLA_ALIGN(b->n * b->elem) +
	       b->nattrs * NLA_ALIGNTO;
	max = ftctl_max_request(ctl, size);
	if (max < size) {
		fprintf(stderr, "ftctl %s: a batch of %zu %s is one request of %zu bytes, and this socket sends at most %zu (as root ftctl raises the limit; else raise net.core.wmem_max)\n",
			what, b->n, b->add ? "circuits" : "pairs", size, max);
		return FTCTL_EXIT_FAIL;
	}
	if (!ftctl_req_init(ctl, &r, cmd, 0, size))
		return ftctl_fail(ctl, what, -ENOMEM);
	r.explain = batch_explain;
	r.explain_arg = b;
	if (FTCTL_PUT_STR(&r, FATTREE_A_CIRCUIT_FABRIC, cr.name, "fabric name %s",
			  cr.name))
		goto full;
	for (done = 0; done < b->n; done += k) {
		k = b->n - done < per ? b->n - done : per;
		attr_what(desc, sizeof(desc), b, done, k);
		b->attrs[done / per] = (struct batch_attr){
			.off = NLMSG_ALIGN(nlmsg_hdr(r.msg)->nlmsg_len),
			.len = (uint32_t)(k * b->elem),
			.first = done,
		};
		if (ftctl_put(&r, type, aname, (const char *)data + done * b->elem,
			      k * b->elem, "%s", desc))
			goto full;
	}
	rc = ftctl_req_run(ctl, &r, what, count_reply, b);
	if (!rc && !FTOBJ_HAS(&b->reply, FATTREE_A_CIRCUIT_COUNT))
		rc = ftctl_fail(ctl, what, -EPROTO);
	return rc;
full:
	ftctl_req_free(&r);
	return ftctl_fail(ctl, what, -EMSGSIZE);
}

/*
 * Send @n entries of @elem bytes at @data as attributes @type of one
 * request @cmd, and print the outcome. Returns an exit code.
 */
static int send_batch(struct ftctl *ctl, const char *what, uint8_t cmd,
		      int type, const char *aname, const void *data,
		      struct batch *b)
{
	int rc = send_batch_req(ctl, what, cmd, type, aname, data, b);

	if (!rc)
		print_result(ctl, b);
	free(b->attrs);
	b->attrs = NULL;
	return rc;
}

/*
 * What add and del take after the fabric name, argv[2] on: "file FILE"
 * (rows @rows), or "SRC DST" into a new *@row, NULL for a file.
 */
static int parse_rows(const char *cmd, int argc, char **argv, const char *rows,
		      bool add, struct circ_row **row)
{
	int err;

	*row = NULL;
	if (!strcmp(argv[2], "file")) {
		if (argc < 4)
			return ftctl_usage_err(cmd, "'file' needs a FILE (rows %s; - for stdin)",
					       rows);
		if (argc > 4)
			return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[4]);
		err = read_rows(cmd, argv[3]);
		return err ? err : check_duplicates(cmd, add);
	}
	*row = new_row(cmd);
	if (!*row)
		return FTCTL_EXIT_FAIL;
	err = ftctl_parse_u32(cmd, "source leaf SRC", argv[2], 0, UINT32_MAX,
			      &(*row)->src);
	if (err)
		return err;
	if (argc < 4)
		return ftctl_usage_err(cmd, "missing the destination leaf DST after '%s'",
				       argv[2]);
	return ftctl_parse_u32(cmd, "destination leaf DST", argv[3], 0, UINT32_MAX,
			       &(*row)->dst);
}

/* The fabric NAME and something after it: @after says what. */
static int parse_name_then(const char *cmd, int argc, char **argv, const char *after)
{
	int err = ftctl_parse_fabric_arg(cmd, argc, argv, cr.name, false);

	if (!err && argc < 3)
		return ftctl_usage_err(cmd, "expected %s after the name", after);
	return err;
}

/* --- add --- */

static int add_parse(struct ftctl *ctl, int argc, char **argv)
{
	static const char *const opts[] = { "lanes", "lease", "ports" };
	const char *cmd = "circuit add";
	struct circ_row *row;
	bool given[3] = { 0 };
	const char *v;
	uint64_t x = 0;
	int i, k, err;

	(void)ctl;
	err = parse_name_then(cmd, argc, argv, "SRC DST or 'file FILE'");
	if (err)
		return err;
	err = parse_rows(cmd, argc, argv, ROW_SYNTAX, true, &row);
	if (err || !row)
		return err;
	row->lanes = 1;
	for (i = 4; !err && i < argc; i++) {
		k = ftctl_find(argv[i], opts, 3);
		if (k < 0)
			return ftctl_usage_err(cmd, "unknown option '%s' (expected lanes, lease or ports)",
					       argv[i]);
		v = ftctl_opt_value(cmd, argc, argv, &i, &given[k],
				    k == 0 ? "N: lanes on every link of the path" :
				    k == 1 ? "CYCLES: how long it lives; 0 until deleted" :
				    "P1,...,PH: an up-port per level of the path");
		if (!v)
			return FTCTL_EXIT_USAGE;
		if (k == 2) {
			err = parse_ports(cmd, "", v, row);
			continue;
		}
		err = ftctl_parse_u64(cmd, opts[k], v, k == 0 ? 1 : 0, UINT32_MAX, &x);
		if (!err && k == 0)
			row->lanes = (uint32_t)x;
		else if (!err)
			row->lease = (uint32_t)x;
	}
	return err;
}

static int add_run(struct ftctl *ctl)
{
	struct batch b = { .verb = "added", .add = true,
			   .elem = sizeof(struct fattree_circuit), .n = cr.n };
	struct fattree_circuit *c;
	struct fab_shape s;
	char what[64];
	size_t i;
	int rc;

	snprintf(what, sizeof(what), "circuit add %s", cr.name);
	rc = get_shape(ctl, what, &s);
	if (rc)
		return rc;
	c = calloc(cr.n, sizeof(*c));
	if (!c)
		return ftctl_fail(ctl, what, -ENOMEM);
	for (i = 0; i < cr.n && !rc; i++)
		rc = make_circuit(what, &s, &cr.rows[i], &c[i]);
	if (!rc)
		rc = send_batch(ctl, what, FATTREE_CMD_CIRCUIT_ADD,
				FATTREE_A_CIRCUIT_ENTRY, "FATTREE_A_CIRCUIT_ENTRY",
				c, &b);
	free(c);
	return rc;
}

static void add_help(FILE *f)
{
	fprintf(f,
		"Install a circuit from leaf SRC to leaf DST: it reserves its lanes on\n"
		"every link of its path until it is deleted or its lease ends.\n"
		"  lanes N         lanes on each link of the path (default 1)\n"
		"  lease CYCLES    delivery cycles it lives (default 0: until deleted)\n"
		"  ports P1,...,PH the up-port taken when leaving each level 0..H-1 on\n"
		"                  the way up to level H, where SRC and DST meet; one per\n"
		"                  level (P_1 is 0 when w_1 = 1). Default: destination mod\n"
		"                  k, P_i = (DST div (w_1*...*w_(i-1))) mod w_i\n"
		"With 'file FILE' ('-' for standard input), one circuit per line:\n"
		"    # comment\n"
		"    0 13              # src dst\n"
		"    1 12 2 500 0,1,3  # src dst lanes lease ports\n"
		"The circuits go to the kernel as one batch, admitted all or nothing: a\n"
		"row that names no leaf, a port beyond w_i, a pair named twice, or a\n"
		"circuit the kernel refuses (its pair has one already, a link would\n"
		"exceed its lanes) is reported with its line, and nothing is added.\n"
		"Prints how many circuits were added and how many the fabric holds.\n");
}

/* --- del --- */

static int del_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "circuit del";
	struct circ_row *row;
	int err;

	(void)ctl;
	err = parse_name_then(cmd, argc, argv, "SRC DST, 'file FILE' or 'all'");
	if (err)
		return err;
	if (!strcmp(argv[2], "all")) {
		if (argc > 3)
			return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[3]);
		cr.all = true;
		return 0;
	}
	err = parse_rows(cmd, argc, argv, "'src dst'", false, &row);
	if (!err && row && argc > 4)
		return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[4]);
	return err;
}

static int del_all_reply(struct nl_msg *msg, void *arg)
{
	struct ftobj_circuit c;
	struct circ_row *row;
	int err;

	(void)arg;
	err = ftobj_circuit_decode(msg, &c);
	if (err)
		return err;
	row = new_row("circuit del");
	if (!row)
		return -ENOMEM;
	row->src = c.src;
	row->dst = c.dst;
	return 0;
}

static int circuit_dump(struct ftctl *ctl, const char *what,
			int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	return FTCTL_FABRIC_REQ(ctl, FATTREE_CMD_CIRCUIT_GET, NLM_F_DUMP, FATTREE_A_CIRCUIT_FABRIC,
				cr.name, what, reply, arg);
}

static int del_run(struct ftctl *ctl)
{
	struct batch b = { .verb = "deleted", .elem = sizeof(struct fattree_pair) };
	struct fattree_pair *p;
	char what[64];
	size_t i;
	int rc;

	snprintf(what, sizeof(what), "circuit del %s", cr.name);
	if (cr.all) {
		rc = circuit_dump(ctl, what, del_all_reply, NULL);
		if (rc)
			return rc;
		if (!cr.n) {
			/* Nothing to send (the kernel refuses an empty batch). */
			b.n = 0;
			print_result(ctl, &b);
			return FTCTL_EXIT_OK;
		}
	}
	b.n = cr.n;
	p = calloc(cr.n, sizeof(*p));
	if (!p)
		return ftctl_fail(ctl, what, -ENOMEM);
	for (i = 0; i < cr.n; i++) {
		p[i].src = cr.rows[i].src;
		p[i].dst = cr.rows[i].dst;
	}
	rc = send_batch(ctl, what, FATTREE_CMD_CIRCUIT_DEL, FATTREE_A_CIRCUIT_PAIR,
			"FATTREE_A_CIRCUIT_PAIR", p, &b);
	free(p);
	return rc;
}

static void del_help(FILE *f)
{
	fprintf(f,
		"Delete the circuit of the pair SRC -> DST; of every pair of FILE ('-'\n"
		"for standard input; one 'src dst' per line, '#' comments; the further\n"
		"columns of an add file are checked and ignored, so the file that\n"
		"added circuits deletes them); or, with 'all', every circuit of the\n"
		"fabric (listed by a dump, deleted in one batch). All or nothing: a\n"
		"pair without a circuit is reported (with its line) and nothing is\n"
		"deleted. Prints how many were deleted and how many remain.\n");
}

/* --- show --- */

static int show_reply(struct nl_msg *msg, void *arg)
{
	struct ftctl_dump *d = arg;
	struct json_object *o, *ports;
	char pb[96], eb[24];
	struct ftobj_circuit c;
	unsigned int i;
	int err;

	err = ftobj_circuit_decode(msg, &c);
	if (err)
		return err;
	if (d->ctl->json) {
		o = json_object_new_object();
		json_object_object_add(o, "src", json_object_new_uint64(c.src));
		json_object_object_add(o, "dst", json_object_new_uint64(c.dst));
		json_object_object_add(o, "lanes", json_object_new_uint64(c.lanes));
		ports = json_object_new_array();
		for (i = 0; i < c.nports; i++)
			json_object_array_add(ports, json_object_new_uint64(c.ports[i]));
		json_object_object_add(o, "ports", ports);
		json_object_object_add(o, "created", json_object_new_uint64(c.created));
		json_object_object_add(o, "expires", c.expires ?
				       json_object_new_uint64(c.expires) :
				       json_object_new_null());
		json_object_object_add(o, "carried", json_object_new_uint64(c.carried));
		json_object_object_add(o, "idle", json_object_new_uint64(c.idle));
		ftctl_dump_item(d, o);
		return 0;
	}
	if (!d->started)
		printf("%8s %8s %5s %-16s %12s %12s %12s %12s\n", "src", "dst",
		       "lanes", "ports", "created", "expires", "carried", "idle");
	d->started = true;
	if (c.expires)
		snprintf(eb, sizeof(eb), "%" PRIu64, c.expires);
	else
		snprintf(eb, sizeof(eb), "-");
	printf("%8" PRIu32 " %8" PRIu32 " %5" PRIu32 " %-16s %12" PRIu64 " %12s %12" PRIu64 " %12" PRIu64 "\n",
	       c.src, c.dst, c.lanes, fmt_ports(c.ports, c.nports, pb, sizeof(pb)),
	       c.created, eb, c.carried, c.idle);
	return 0;
}

static int show_parse(struct ftctl *ctl, int argc, char **argv)
{
	const char *cmd = "circuit show";
	int err;

	(void)ctl;
	err = ftctl_parse_fabric_arg(cmd, argc, argv, cr.name, false);
	if (!err && argc > 2)
		return ftctl_usage_err(cmd, "unexpected argument '%s'", argv[2]);
	return err;
}

static int show_run(struct ftctl *ctl)
{
	struct ftctl_dump d = { .ctl = ctl };
	char what[64];
	int rc;

	snprintf(what, sizeof(what), "circuit show %s", cr.name);
	rc = FTCTL_DUMP_RUN(&d, FATTREE_CMD_CIRCUIT_GET, FATTREE_A_CIRCUIT_FABRIC, cr.name, what,
			    show_reply);
	/* A table's rows start it: none printed, none in the fabric. */
	if (!ctl->json && !rc && !d.started)
		printf("%s: no circuits\n", cr.name);
	return rc;
}

static void show_help(FILE *f)
{
	fprintf(f,
		"One line per circuit of fabric NAME, in the order they were admitted:\n"
		"  src dst lanes     the pair and the lanes it holds on each link\n"
		"  ports             its up-ports P_1..P_H (- when SRC = DST)\n"
		"  created           the cycle count when it was admitted\n"
		"  expires           the last cycle it serves (- : until deleted)\n"
		"  carried           messages it carried\n"
		"  idle              cycles since it last carried one (or was admitted)\n"
		"With --json: an array of objects, one per line (expires null: none).\n");
}

static const struct ftctl_subcmd circuit_subs[] = {
	{ "add", "NAME SRC DST [lanes N] [lease CYCLES] [ports P1,...,PH] | NAME file FILE",
	  "install circuits, one batch all or nothing", add_help, add_parse,
	  add_run },
	{ "del", "NAME SRC DST | NAME file FILE | NAME all",
	  "delete circuits, one batch all or nothing", del_help, del_parse,
	  del_run },
	{ "show", "NAME", "show a fabric's circuits", show_help, show_parse,
	  show_run },
};

FTCTL_OBJECT(circuit, "COMMAND ...", "circuits",
	     "Install, delete and inspect the circuits of a fabric.",
	     "show", circuit_subs);
