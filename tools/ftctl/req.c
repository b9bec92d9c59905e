// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl: requests that remember their attributes, so that a refusal whose
 * extended ack points at a byte offset can be told back to the user as
 * the word of the command line it came from; reply attribute getters that
 * check lengths; socket sizing; JSON output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <json-c/json.h>

#include "ftctl.h"
#include "linux/fattree.h"

#ifndef SO_SNDBUFFORCE
#define SO_SNDBUFFORCE 32
#endif

bool ftctl_req_init(struct ftctl *ctl, struct ftctl_req *r, uint8_t cmd,
		    int flags, size_t size)
{
	memset(r, 0, sizeof(*r));
	r->msg = size ? nlmsg_alloc_size(size) : nlmsg_alloc();
	if (!r->msg)
		return false;
	if (!genlmsg_put(r->msg, NL_AUTO_PORT, NL_AUTO_SEQ, ctl->nl.family, 0,
			 flags, cmd, FATTREE_GENL_VERSION)) {
		nlmsg_free(r->msg);
		r->msg = NULL;
		return false;
	}
	return true;
}

void ftctl_req_free(struct ftctl_req *r)
{
	if (r->msg)
		nlmsg_free(r->msg);
	r->msg = NULL;
}

size_t ftctl_req_room(const struct ftctl_req *r)
{
	size_t used = NLMSG_ALIGN(nlmsg_hdr(r->msg)->nlmsg_len);
	size_t size = nlmsg_get_max_size(r->msg);

	return size > used ? size - used : 0;
}

int ftctl_put(struct ftctl_req *r, int type, const char *aname,
	      const void *data, size_t len, const char *fmt, ...)
{
	/* libnl appends at the aligned tail of the message */
	uint32_t off = NLMSG_ALIGN(nlmsg_hdr(r->msg)->nlmsg_len);
	struct ftctl_attr_rec *rec;
	va_list ap;

	if (len > 0xffff - NLA_HDRLEN || nla_put(r->msg, type, (int)len, data))
		return -EMSGSIZE;
	if (r->n >= FTCTL_REQ_MAX_ATTRS)
		return 0;	/* sent, only not described */
	rec = &r->rec[r->n++];
	rec->off = off;
	rec->len = NLA_HDRLEN + (uint32_t)len;
	rec->aname = aname;
	va_start(ap, fmt);
	vsnprintf(rec->what, sizeof(rec->what), fmt, ap);
	va_end(ap);
	return 0;
}

/* Which of our attributes holds byte @off of the request. */
static void req_explain_offset(const struct ftctl_req *r, const char *what,
			       int off)
{
	unsigned int i;

	if (off < 0)
		return;
	if (r->explain && r->explain(r, what, off, r->explain_arg))
		return;
	if ((size_t)off < NLMSG_HDRLEN + GENL_HDRLEN) {
		fprintf(stderr, "ftctl %s: the kernel pointed at the request header (byte %d)\n",
			what, off);
		return;
	}
	for (i = 0; i < r->n; i++) {
		const struct ftctl_attr_rec *rec = &r->rec[i];

		if ((uint32_t)off >= rec->off &&
		    (uint32_t)off < rec->off + rec->len) {
			fprintf(stderr, "ftctl %s: the kernel pointed at '%s' (%s)\n",
				what, rec->what, rec->aname);
			return;
		}
	}
	fprintf(stderr, "ftctl %s: the kernel pointed at byte %d of the request\n",
		what, off);
}

int ftctl_req_run(struct ftctl *ctl, struct ftctl_req *r, const char *what,
		  int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	struct nl_msg *msg = r->msg;
	int err;

	r->msg = NULL;		/* ftnl_transact consumes it */
	err = ftnl_transact(&ctl->nl, msg, reply, arg);
	if (!err)
		return FTCTL_EXIT_OK;
	ftctl_fail(ctl, what, err);
	if (err == -EPERM && !ctl->nl.errmsg[0])
		fprintf(stderr, "ftctl %s: changing fabrics needs CAP_NET_ADMIN\n",
			what);
	req_explain_offset(r, what, ctl->nl.err_offset);
	return FTCTL_EXIT_FAIL;
}

int ftctl_fabric_req(struct ftctl *ctl, uint8_t cmd, int flags, int attr,
		     const char *aname, const char *name, const char *what,
		     int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	struct ftctl_req r;

	if (!ftctl_req_init(ctl, &r, cmd, flags, 0))
		return ftctl_fail(ctl, what, -ENOMEM);
	if (name && ftctl_put(&r, attr, aname, name, strlen(name) + 1,
			      "fabric name %s", name)) {
		ftctl_req_free(&r);
		return ftctl_fail(ctl, what, -EMSGSIZE);
	}
	return ftctl_req_run(ctl, &r, what, reply, arg);
}

int ftctl_fail(const struct ftctl *ctl, const char *what, int err)
{
	fprintf(stderr, "ftctl: %s: %s\n", what, ftnl_strerror(&ctl->nl, err));
	return FTCTL_EXIT_FAIL;
}

void ftctl_cols_read(const struct ftctl_col *c, size_t n, const void *obj, uint64_t has,
		     uint64_t *v, bool *present)
{
	uint32_t v32;
	size_t i;

	for (i = 0; i < n; i++) {
		const char *p = (const char *)obj + c[i].off;

		present[i] = (has >> c[i].attr) & 1;
		if (c[i].u64) {
			memcpy(&v[i], p, sizeof(v[i]));
		} else {
			memcpy(&v32, p, sizeof(v32));
			v[i] = v32;
		}
	}
}

void ftctl_cols_json(struct json_object *o, const struct ftctl_col *c, size_t from,
		     size_t to, const uint64_t *v, const bool *present)
{
	size_t i;

	for (i = from; i < to; i++)
		if (present[i])
			json_object_object_add(o, c[i].key, json_object_new_uint64(v[i]));
}

void ftctl_cols_cells(size_t n, const uint64_t *v, const bool *present, char (*cell)[24])
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (present[i])
			snprintf(cell[i], sizeof(cell[i]), "%" PRIu64, v[i]);
		else
			snprintf(cell[i], sizeof(cell[i]), "-");
	}
}

void ftctl_dump_item(struct ftctl_dump *d, struct json_object *o)
{
	bool first = !d->started;

	if (first)
		ftctl_json_array_begin();
	d->started = true;
	ftctl_json_array_item(o, &first);
	json_object_put(o);
}

int ftctl_dump_run(struct ftctl_dump *d, uint8_t cmd, int attr, const char *aname,
		   const char *name, const char *what,
		   int (*reply)(struct nl_msg *msg, void *arg))
{
	int rc;

	rc = ftctl_fabric_req(d->ctl, cmd, NLM_F_DUMP, attr, aname, name, what, reply, d);
	if (d->ctl->json)
		ftctl_json_dump_end(d->started, rc);
	return rc;
}

void ftctl_tune_socket(struct ftctl *ctl)
{
	/*
	 * Dumps of big fabrics: room for many replies in flight, and a
	 * receive buffer that takes the kernel's 32 KiB dump messages.
	 */
	nl_socket_set_buffer_size(ctl->nl.sk, 4 << 20, 1 << 20);
	nl_socket_set_msg_buf_size(ctl->nl.sk, 64 << 10);
}

size_t ftctl_max_request(struct ftctl *ctl, size_t want)
{
	int fd = nl_socket_get_fd(ctl->nl.sk);
	int v = (int)want + 4096;
	socklen_t len = sizeof(v);

	/*
	 * Netlink refuses a request longer than the send buffer less 32
	 * bytes. The privileged option lifts wmem_max; without it the
	 * buffer stays where ftctl_tune_socket() could put it.
	 */
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUFFORCE, &v, sizeof(v));
	if (getsockopt(fd, SOL_SOCKET, SO_SNDBUF, &v, &len) || v < 4096)
		return 4096 - 64;
	if ((size_t)v - 64 < want)
		return (size_t)v - 64;
	return want;
}

void ftctl_json_print(struct json_object *o)
{
	printf("%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY |
						       JSON_C_TO_STRING_NOSLASHESCAPE));
}

void ftctl_json_array_begin(void)
{
	printf("[");
}

void ftctl_json_array_item(struct json_object *o, bool *first)
{
	printf("%s\n  %s", *first ? "" : ",",
	       json_object_to_json_string_ext(o, JSON_C_TO_STRING_SPACED |
					      JSON_C_TO_STRING_NOSLASHESCAPE));
	*first = false;
}

void ftctl_json_array_end(void)
{
	printf("\n]\n");
}

void ftctl_json_dump_end(bool started, int rc)
{
	if (!started && rc)
		return;
	if (!started)
		ftctl_json_array_begin();
	ftctl_json_array_end();
}
