// SPDX-License-Identifier: GPL-2.0
/*
 * genl_fuzz: random messages and mutations of valid messages of every
 * command of the "fattree" generic netlink family (TAP).
 *
 * Messages are built from a valid template of a command, then mutated:
 * attribute types (nested and byte-order flags included), lengths and
 * values, strings, dropped, duplicated, reordered and inserted (nested)
 * attributes, the genetlink header (another command's attributes, version,
 * reserved byte), the netlink header (flags, type, length), bit flips and
 * truncation; a tenth are random from scratch, and some buffers carry
 * several messages. Three phases, each a child process while the parent
 * keeps valid traffic going on fabrics of its own (create, step, inject,
 * circuits and every dump, with exact accounting checked): as root, as
 * nobody, and as nobody inside a user and network namespace of its own.
 *
 * Every request must be answered as netlink promises. The module counts
 * the requests that reached each command's handler, past the core's
 * header, permission and policy checks (/sys/kernel/debug/fattree/
 * requests); the parent knows how many of those were its own, so the rest
 * is the fuzzer's, and every handler must have been reached by it. An
 * unprivileged fuzzer must reach no handler of a command that changes
 * anything and never see one succeed. Afterwards the kernel log holds no
 * report, every fabric can be deleted, the module unloads and slab and
 * vmalloc use are back to their baseline from before the module was loaded.
 *
 * FT_FUZZ_MSGS (total messages, default 110000) and FT_FUZZ_SEED (default:
 * the time) tune a run; the seed is printed for replay.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "kselftest.h"
#include "ftnl.h"
#include "ft_selftest.h"
#include "ft_reserve.h"
#include "ft_cmds.h"
#include "ft_topo.h"
#include "linux/fattree_structs.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

#define NCMD		FT_CMD_NR	/* FATTREE_CMD_MAX + 1 */
#define CMD_OTHER	NCMD		/* not one of the family's commands */
#define FZ_MAXATTR	24
#define FZ_APAY		1536
#define FZ_BUF		(4 * 65536)
#define FZ_PACK		3		/* most messages in one send */
/*
 * Small limits, so that mutated shapes are refused before they allocate.
 * max_fabric_mb leaves room for the fuzzer's 8-leaf fabrics: 13.2 MiB by
 * the module's estimate on Debian's kernel, 17.2 MiB under lockdep (each
 * of the 65,600 pairs' sk_buff_head grows from 24 to 88 bytes), which
 * the debug lane refused at 16.
 */
#define LOAD_PARAMS	"max_fabrics=8 max_leaves=64 max_fabric_mb=32"
#define REQUESTS	"/sys/kernel/debug/fattree/requests"

_Static_assert(NCMD == FATTREE_CMD_MAX + 1, "ft_cmds.c is the spec's");

/*
 * The commands, by the names the module counts them under in the debugfs
 * file, and what the spec says of each (kmod/core/ft_cmds.c, generated
 * from it, as the module's names are): admin-perm ones change state,
 * every one with a do or a dump has a handler that the fuzzer must reach.
 * A command added to the spec later is fuzzed with random attributes
 * until it is given a template here, and the test asks that its handler
 * be reached all the same. A value that names no command at all is
 * taken for a change: nobody must never see it succeed.
 */
static const char *cname(int cmd)
{
	static char buf[16];

	if (cmd == 0)
		return "unspec";
	if (cmd == CMD_OTHER)
		return "other";
	if (cmd > 0 && cmd < NCMD && ft_cmd_names[cmd])
		return ft_cmd_names[cmd];
	snprintf(buf, sizeof(buf), "cmd-%d", cmd);
	return buf;
}

/* The phase fuzzed or reported runs in a user and network namespace of its own. */
static bool in_own_userns;

/*
 * Commands an unprivileged caller must not reach: those that change state
 * (admin-perm), and the reads kept to CAP_NET_ADMIN over the namespace
 * (uns-admin-perm: the demand dump, every pair's backlog) but from the
 * owner of a namespace of its own, which holds no fabric.
 */
static bool is_write(int cmd)
{
	if (cmd <= 0 || cmd >= NCMD)
		return false;
	if (!ft_cmd_names[cmd] || (ft_cmd_flags[cmd] & FT_CMD_ADMIN))
		return true;
	return (ft_cmd_flags[cmd] & FT_CMD_PRIV) && !in_own_userns;
}

/* Commands with a handler: a do or a dump (not UNSPEC, not DEMAND_NTF). */
static bool has_handler(int cmd)
{
	return cmd > 0 && cmd < NCMD &&
	       (ft_cmd_flags[cmd] & (FT_CMD_DO | FT_CMD_DUMP));
}

/* ---- randomness (xorshift64*), reproducible from the seed ---- */

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return rs * 2685821657736338717ULL;
}

static uint32_t rn(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool chance(unsigned int pct)
{
	return rn(100) < pct;
}

static const uint64_t interesting[] = {
	0, 1, 2, 3, 7, 8, 15, 16, 20, 21, 63, 64, 255, 256, 1000, 1023, 1024,
	4095, 4096, 65535, 65536, 65537, 999999, 1000001, 0x7fffffff,
	0x80000000, 0xfffffffe, 0xffffffff, 0x100000000ULL, 10000000000ULL,
	10000000001ULL, 0x7fffffffffffffffULL, 0xffffffffffffffffULL,
};

static uint64_t pick_value(void)
{
	if (chance(75))
		return interesting[rn(sizeof(interesting) / sizeof(interesting[0]))];
	return chance(50) ? rnd() : rnd() & 0xffff;
}

/* ---- messages: headers and a list of top-level attributes ---- */

struct fz_attr {
	uint16_t type;
	int32_t len;		/* nla_len to claim, -1: the real one */
	uint32_t plen;
	uint8_t p[FZ_APAY];
};

struct fz_msg {
	uint16_t type, flags, reserved;
	uint8_t cmd, version;
	int nattr;
	struct fz_attr a[FZ_MAXATTR];
};

static struct fz_attr *add_attr(struct fz_msg *m, uint16_t type, const void *p, uint32_t len)
{
	struct fz_attr *a;

	if (m->nattr == FZ_MAXATTR || len > FZ_APAY)
		return NULL;
	a = &m->a[m->nattr++];
	a->type = type;
	a->len = -1;
	a->plen = len;
	memcpy(a->p, p, len);
	return a;
}

static void add_u32(struct fz_msg *m, uint16_t type, uint32_t v)
{
	add_attr(m, type, &v, 4);
}

static void add_u64(struct fz_msg *m, uint16_t type, uint64_t v)
{
	add_attr(m, type, &v, 8);
}

static void add_str(struct fz_msg *m, uint16_t type, const char *s)
{
	add_attr(m, type, s, strlen(s) + 1);
}

static int family;
static uint32_t seqno = 1;

static void msg_init(struct fz_msg *m, uint8_t cmd, uint16_t flags)
{
	m->type = family;
	m->flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	m->cmd = cmd;
	m->version = FATTREE_GENL_VERSION;
	m->reserved = 0;
	m->nattr = 0;
}

/* Append the message to @buf at @off; returns its length (aligned). */
static uint32_t serialize(const struct fz_msg *m, uint8_t *buf, uint32_t off, uint32_t seq)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + off);
	struct genlmsghdr *g = (struct genlmsghdr *)(buf + off + NLMSG_HDRLEN);
	uint32_t pos = off + NLMSG_HDRLEN + GENL_HDRLEN;
	int i;

	for (i = 0; i < m->nattr; i++) {
		const struct fz_attr *a = &m->a[i];
		struct nlattr *na = (struct nlattr *)(buf + pos);

		if (pos + NLA_HDRLEN + NLA_ALIGN(a->plen) > FZ_BUF)
			break;
		na->nla_type = a->type;
		na->nla_len = a->len >= 0 ? (uint16_t)a->len : (uint16_t)(NLA_HDRLEN + a->plen);
		memcpy(buf + pos + NLA_HDRLEN, a->p, a->plen);
		memset(buf + pos + NLA_HDRLEN + a->plen, 0, NLA_ALIGN(a->plen) - a->plen);
		pos += NLA_HDRLEN + NLA_ALIGN(a->plen);
	}
	nlh->nlmsg_len = pos - off;
	nlh->nlmsg_type = m->type;
	nlh->nlmsg_flags = m->flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = 0;
	g->cmd = m->cmd;
	g->version = m->version;
	g->reserved = m->reserved;
	return pos - off;
}

/* ---- templates: a valid request of each command ---- */

/* The fuzzer's fabrics: fz0 (dmodk) and fz1 (circuit), kept by the
 * parent; fz2..fz4 come and go. All have 8 leaves, h = 2, m = (4, 2),
 * w = (1, 2) unless a mutation made them otherwise.
 */
static const char *pick_name(int cmd)
{
	static const char *const live[] = { "fz0", "fz1" };
	static const char *const spare[] = { "fz2", "fz3", "fz4" };
	static const char *const absent[] = { "nx", "fz9", "f", "1234567" };
	uint32_t r = rn(100);

	/* Creating and deleting fabrics is slow: mostly refused. */
	if (cmd == FATTREE_CMD_FABRIC_NEW)
		return r < 97 ? live[rn(2)] : spare[rn(3)];
	if (cmd == FATTREE_CMD_FABRIC_DEL)
		return r < 95 ? absent[rn(4)] : r < 99 ? spare[rn(3)] : live[rn(2)];
	return r < 80 ? live[rn(2)] : r < 90 ? spare[rn(3)] : absent[rn(4)];
}

/*
 * What FABRIC_SET changes, and FABRIC_NEW sets as well: the policies, the
 * period (mostly manual), the seed, a store-and-forward discipline and
 * ghosts (valid or not).
 */
static void tmpl_settings(struct fz_msg *m)
{
	if (chance(60))
		add_u32(m, FATTREE_A_FABRIC_PATH, rn(4));
	if (chance(40))
		add_u32(m, FATTREE_A_FABRIC_INJECTION, rn(3));
	if (chance(40))
		add_u32(m, FATTREE_A_FABRIC_ARBITRATION, rn(2));
	if (chance(30))
		add_u64(m, FATTREE_A_FABRIC_PERIOD_NS, chance(75) ? 0 : 1000000 * (1 + rn(5)));
	if (chance(45))
		add_u64(m, FATTREE_A_FABRIC_SEED, rnd());
	if (chance(10))
		add_u32(m, FATTREE_A_FABRIC_SAF_DISCIPLINE, rn(4));
	if (chance(10))
		add_u32(m, FATTREE_A_FABRIC_SAF_GHOSTS, rn(3));
}

static void tmpl_new(struct fz_msg *m)
{
	uint32_t h = 1 + rn(3), v[4], i;

	add_str(m, FATTREE_A_FABRIC_NAME, pick_name(FATTREE_CMD_FABRIC_NEW));
	add_u32(m, FATTREE_A_FABRIC_LEVELS, h);
	for (i = 0; i < h; i++)
		v[i] = 2 + rn(3);
	add_attr(m, FATTREE_A_FABRIC_DOWN, v, 4 * h);
	for (i = 0; i < h; i++)
		v[i] = i ? 1 + rn(2) : 1;
	add_attr(m, FATTREE_A_FABRIC_UP, v, 4 * h);
	if (chance(50)) {
		for (i = 0; i < h; i++)
			v[i] = 1 + rn(3);
		add_attr(m, FATTREE_A_FABRIC_LANES, v, 4 * h);
	} else if (chance(60)) {
		add_u32(m, FATTREE_A_FABRIC_PROFILE, rn(FATTREE_PROFILE_EXPLICIT));
		if (chance(50))
			add_u32(m, FATTREE_A_FABRIC_PROFILE_BASE, 1 + rn(2));
		if (chance(30))
			add_u32(m, FATTREE_A_FABRIC_PROFILE_ROOT, 1 + rn(8));
	}
	if (chance(50))
		add_u32(m, FATTREE_A_FABRIC_BACKLOG, 1 + rn(256));
	tmpl_settings(m);
	/* Store-and-forward mode and its q, fixed at creation, valid or not. */
	if (chance(20))
		add_u32(m, FATTREE_A_FABRIC_MODE, rn(3));
	if (chance(20))
		add_u32(m, FATTREE_A_FABRIC_SAF_Q, chance(80) ? 1 + rn(8) : (uint32_t)pick_value());
}

/* Fail or restore one link, one direction of it, or a switch's links. */
static void tmpl_link_set(struct fz_msg *m)
{
	add_str(m, FATTREE_A_LINK_FABRIC, pick_name(FATTREE_CMD_LINK_SET));
	add_attr(m, FATTREE_A_LINK_FAIL, (uint8_t[]){ chance(60) }, 1);
	switch (rn(3)) {
	case 0:
		add_u32(m, FATTREE_A_LINK_ID, rn(40));
		break;
	case 1:
		add_u32(m, FATTREE_A_LINK_LEVEL, 1 + rn(3));
		add_u32(m, FATTREE_A_LINK_NODE, rn(8));
		add_u32(m, FATTREE_A_LINK_PORT, rn(3));
		if (chance(30))
			add_u32(m, FATTREE_A_LINK_DIRECTION, rn(3));
		break;
	default:
		add_u32(m, FATTREE_A_LINK_SWITCH_LEVEL, rn(4));
		add_u32(m, FATTREE_A_LINK_SWITCH_NODE, rn(8));
		break;
	}
}

/*
 * A batch as the kernel takes it: one or two attributes @type, each of 1
 * to @most entries of @size bytes that @fill makes (zeroed first).
 */
static void add_entries(struct fz_msg *m, uint16_t type, size_t size, uint32_t most,
			void (*fill)(void *entry))
{
	uint64_t buf[32];	/* aligned for any of the structs */
	uint32_t k, i, n;

	for (k = 1 + rn(2); k; k--) {
		n = 1 + rn(most);
		if (n * size > sizeof(buf))
			n = sizeof(buf) / size;
		memset(buf, 0, sizeof(buf));
		for (i = 0; i < n; i++)
			fill((uint8_t *)buf + i * size);
		add_attr(m, type, buf, n * size);
	}
}

static void fill_row(void *entry)
{
	struct fattree_inject_row *r = entry;

	r->src = rn(8);
	r->dst = rn(8);
	r->count = 1 + rn(4);
}

/* Mostly the pairs deletions name, so both succeed. */
static void fill_circuit(void *entry)
{
	struct fattree_circuit *c = entry;

	c->src = rn(8);
	c->dst = chance(70) ? (c->src + 4) % 8 : (c->src + 1 + rn(7)) % 8;
	c->lanes = chance(80) ? 1 : 2;
	c->lease = chance(50) ? 0 : 1 + rn(40);
	c->port[1] = rn(2);
}

static void tmpl_circuit_del(struct fz_msg *m)
{
	struct fattree_pair p[4];
	uint32_t i, n = 1 + rn(4);

	add_str(m, FATTREE_A_CIRCUIT_FABRIC, pick_name(FATTREE_CMD_CIRCUIT_DEL));
	for (i = 0; i < n; i++) {
		p[i].src = rn(8);
		p[i].dst = chance(70) ? (p[i].src + 4) % 8 : rn(8);
	}
	add_attr(m, FATTREE_A_CIRCUIT_PAIR, p, n * sizeof(p[0]));
}

/* The fabric-name attribute is type 2 in every attribute set. */
static void tmpl(struct fz_msg *m, int cmd)
{
	msg_init(m, cmd, 0);
	switch (cmd) {
	case FATTREE_CMD_INFO_GET:
		break;
	case FATTREE_CMD_FABRIC_NEW:
		tmpl_new(m);
		break;
	case FATTREE_CMD_FABRIC_DEL:
	case FATTREE_CMD_STATS_RESET:
		add_str(m, FATTREE_A_FABRIC_NAME, pick_name(cmd));
		break;
	case FATTREE_CMD_FABRIC_GET:
		if (chance(40))
			m->flags |= NLM_F_DUMP;
		else
			add_str(m, FATTREE_A_FABRIC_NAME, pick_name(cmd));
		break;
	case FATTREE_CMD_FABRIC_SET:
		add_str(m, FATTREE_A_FABRIC_NAME, pick_name(cmd));
		tmpl_settings(m);
		break;
	case FATTREE_CMD_FABRIC_STEP:
		add_str(m, FATTREE_A_FABRIC_NAME, pick_name(cmd));
		add_u32(m, FATTREE_A_FABRIC_STEPS, 1 + rn(8));
		break;
	case FATTREE_CMD_FABRIC_INJECT:
		add_str(m, FATTREE_A_FABRIC_NAME, pick_name(cmd));
		add_entries(m, FATTREE_A_FABRIC_INJECT, sizeof(struct fattree_inject_row), 8,
			    fill_row);
		break;
	case FATTREE_CMD_CIRCUIT_ADD:
		add_str(m, FATTREE_A_CIRCUIT_FABRIC, pick_name(cmd));
		add_entries(m, FATTREE_A_CIRCUIT_ENTRY, sizeof(struct fattree_circuit), 4,
			    fill_circuit);
		break;
	case FATTREE_CMD_CIRCUIT_DEL:
		tmpl_circuit_del(m);
		break;
	case FATTREE_CMD_LINK_SET:
		tmpl_link_set(m);
		break;
	case FATTREE_CMD_LINK_GET:
	case FATTREE_CMD_LEAF_GET:
	case FATTREE_CMD_CIRCUIT_GET:
	case FATTREE_CMD_DEMAND_GET:
		m->flags |= NLM_F_DUMP;
		add_str(m, 2, pick_name(cmd));
		break;
	default:	/* DEMAND_NTF and commands that do not exist */
		if (chance(50))
			add_str(m, 2, pick_name(cmd));
		break;
	}
}

/* ---- mutations ---- */

static void random_payload(struct fz_attr *a)
{
	uint32_t i;

	switch (rn(5)) {
	case 0:
		a->plen = 4;
		*(uint32_t *)a->p = (uint32_t)pick_value();
		break;
	case 1:
		a->plen = 8;
		*(uint64_t *)a->p = pick_value();
		break;
	case 2:
		a->plen = 1 + rn(12);
		for (i = 0; i < a->plen - 1; i++)
			a->p[i] = 'a' + rn(26);
		a->p[a->plen - 1] = chance(80) ? 0 : 'z';
		break;
	case 3:
		a->plen = rn(3) ? rn(3) : 0;
		for (i = 0; i < a->plen; i++)
			a->p[i] = rnd();
		break;
	default:
		a->plen = rn(65);
		for (i = 0; i < a->plen; i++)
			a->p[i] = rnd();
		break;
	}
}

/* A nested attribute holding random attributes (nested ones too). */
static uint32_t random_nest(uint8_t *p, uint32_t room, int depth)
{
	uint32_t pos = 0, k = 1 + rn(4);

	while (k-- && pos + NLA_HDRLEN + 64 < room) {
		struct nlattr *na = (struct nlattr *)(p + pos);
		struct fz_attr a;

		if (depth < 3 && chance(30)) {
			a.plen = random_nest(p + pos + NLA_HDRLEN, room - pos - NLA_HDRLEN, depth + 1);
			na->nla_type = rn(24) | NLA_F_NESTED;
		} else {
			random_payload(&a);
			memcpy(p + pos + NLA_HDRLEN, a.p, a.plen);
			na->nla_type = rn(24);
		}
		na->nla_len = NLA_HDRLEN + a.plen;
		memset(p + pos + NLA_HDRLEN + a.plen, 0, NLA_ALIGN(a.plen) - a.plen);
		pos += NLA_HDRLEN + NLA_ALIGN(a.plen);
	}
	return pos;
}

static void insert_at(struct fz_msg *m, int at, const struct fz_attr *a)
{
	if (m->nattr == FZ_MAXATTR)
		return;
	memmove(&m->a[at + 1], &m->a[at], (m->nattr - at) * sizeof(m->a[0]));
	m->a[at] = *a;
	m->nattr++;
}

static struct fz_attr scratch;

static void mutate(struct fz_msg *m)
{
	struct fz_attr *a = m->nattr ? &m->a[rn(m->nattr)] : NULL;
	uint32_t i, off;

	switch (rn(14)) {
	case 0:		/* attribute type */
		if (!a)
			break;
		switch (rn(4)) {
		case 0: a->type = rn(24); break;
		case 1: a->type = rnd(); break;
		case 2: a->type |= NLA_F_NESTED; break;
		default: a->type |= NLA_F_NET_BYTEORDER; break;
		}
		break;
	case 1: {	/* the length the attribute claims */
		static const int32_t lens[] = { 0, 1, 2, 3, 4, 5, 7, 8, 0xffff };

		if (!a)
			break;
		switch (rn(4)) {
		case 0: a->len = lens[rn(9)]; break;
		case 1: a->len = NLA_HDRLEN + a->plen + 1 + rn(8); break;
		case 2: a->len = NLA_HDRLEN + (a->plen ? rn(a->plen) : 0); break;
		default: a->len = rn(0x10000); break;
		}
		break;
	}
	case 2:		/* huge, zero and boundary values */
	case 3:
		if (!a || a->plen < 4)
			break;
		off = 4 * rn(a->plen / 4);
		if (off + 8 <= a->plen && chance(40)) {
			uint64_t v = pick_value();

			memcpy(a->p + off, &v, 8);
		} else {
			uint32_t v = (uint32_t)pick_value();

			memcpy(a->p + off, &v, 4);
		}
		break;
	case 4:		/* payload length */
		if (!a)
			break;
		if (chance(50)) {
			a->plen = a->plen ? rn(a->plen) : 0;
		} else {
			uint32_t grow = 1 + rn(chance(90) ? 16 : FZ_APAY - a->plen);

			if (a->plen + grow > FZ_APAY)
				grow = FZ_APAY - a->plen;
			for (i = 0; i < grow; i++)
				a->p[a->plen + i] = chance(50) ? 0 : rnd();
			a->plen += grow;
		}
		break;
	case 5:		/* drop one */
		if (!a)
			break;
		memmove(a, a + 1, (&m->a[m->nattr] - (a + 1)) * sizeof(*a));
		m->nattr--;
		break;
	case 6:		/* duplicate one */
		if (a)
			insert_at(m, rn(m->nattr + 1), a);
		break;
	case 7:		/* a random attribute */
		scratch.type = chance(70) ? rn(24) : rnd();
		scratch.len = -1;
		random_payload(&scratch);
		insert_at(m, rn(m->nattr + 1), &scratch);
		break;
	case 8:		/* a nest of random attributes */
		scratch.type = rn(24) | (chance(70) ? NLA_F_NESTED : 0);
		scratch.len = -1;
		scratch.plen = random_nest(scratch.p, FZ_APAY, 0);
		insert_at(m, rn(m->nattr + 1), &scratch);
		break;
	case 9:		/* swap two */
		if (m->nattr >= 2) {
			int j = rn(m->nattr);

			scratch = *a;
			*a = m->a[j];
			m->a[j] = scratch;
		}
		break;
	case 10: {	/* strings: long, unterminated, empty, odd bytes */
		static const char *const odd[] = {
			"%d", "a/b", "a:b", " ", "..", ".", "x%s", "\xff\xfe", "a b",
			"abcdefg", "abcdefgh", "abcdefghijklmnopqrstuvwxyz",
		};
		const char *s = odd[rn(sizeof(odd) / sizeof(odd[0]))];

		if (!a)
			break;
		switch (rn(4)) {
		case 0:
			a->plen = strlen(s) + 1;
			memcpy(a->p, s, a->plen);
			break;
		case 1:		/* no NUL at all */
			a->plen = strlen(s);
			memcpy(a->p, s, a->plen);
			break;
		case 2:
			a->plen = 1;
			a->p[0] = 0;
			break;
		default:	/* NUL inside, then more */
			a->plen = 6;
			memcpy(a->p, "fz0\0zz", 6);
			break;
		}
		break;
	}
	case 11:	/* genetlink header */
		switch (rn(4)) {
		case 0: m->cmd = 1 + rn(FATTREE_CMD_MAX); break;	/* another's attributes */
		case 1: m->cmd = rnd(); break;
		case 2: m->version = rnd(); break;
		default: m->reserved = 1 + rn(0xffff); break;
		}
		break;
	case 12:	/* netlink flags */
		switch (rn(5)) {
		case 0: m->flags |= NLM_F_DUMP; break;
		case 1: m->flags ^= NLM_F_DUMP; break;
		case 2: m->flags |= (uint16_t)rnd() & ~(NLM_F_REQUEST | NLM_F_ACK); break;
		case 3: m->flags &= ~NLM_F_DUMP; m->flags |= NLM_F_ROOT; break;
		default: if (chance(20)) m->flags &= ~NLM_F_REQUEST; break;
		}
		break;
	default:	/* netlink type: control messages, or no family */
		m->type = chance(50) ? rn(NLMSG_MIN_TYPE) : 0x7ff0 + rn(16);
		break;
	}
}

/*
 * A step of up to 10^6 cycles is valid, and takes a while on a slow
 * machine: keep one in a hundred of the long ones.
 */
static void limit_steps(struct fz_msg *m)
{
	uint32_t steps;
	int i;

	if (m->cmd != FATTREE_CMD_FABRIC_STEP)
		return;
	for (i = 0; i < m->nattr; i++) {
		if (m->a[i].type != FATTREE_A_FABRIC_STEPS || m->a[i].plen < 4)
			continue;
		memcpy(&steps, m->a[i].p, 4);
		if (steps > 256 && steps <= 1000000 && !chance(1)) {
			steps = 1 + rn(256);
			memcpy(m->a[i].p, &steps, 4);
		}
	}
}

/* A message from scratch: a command number and random attributes. */
static void random_msg(struct fz_msg *m)
{
	uint32_t k;

	msg_init(m, rn(3) ? 1 + rn(FATTREE_CMD_MAX) : rnd(), chance(30) ? NLM_F_DUMP : 0);
	if (chance(5))
		m->version = rnd();
	for (k = rn(7); k; k--) {
		scratch.type = rn(24) | (chance(10) ? NLA_F_NESTED : 0);
		scratch.len = -1;
		if (chance(15))
			scratch.plen = random_nest(scratch.p, 256, 0);
		else
			random_payload(&scratch);
		insert_at(m, m->nattr, &scratch);
	}
}

/* ---- one fuzzing process ---- */

struct stats {
	long sent[NCMD + 1];		/* by the command a message names */
	long ok[NCMD + 1];
	long err[NCMD + 1];
	long silent;			/* refusals carrying no explanation */
	long silent_handler;		/* ... of requests the core let through */
	int silent_cmd, silent_errno;	/* the first of those */
	long messages;			/* netlink messages sent */
	long unanswered;		/* replies that never came */
	long writes_ok;			/* write commands that succeeded */
	long fabrics_seen;		/* fabrics in FABRIC_GET dumps */
	double secs;
	double busy[NCMD + 1];		/* time waiting for answers, by command */
	int last_errno;			/* of a send or receive that failed */
};

struct pending {
	uint32_t seq;
	int cmd;
	bool is_fabric_dump;
	bool well_formed;	/* ours, with a whole header and a handler */
	bool dump;
};

static int fz_socket(void)
{
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	int one = 1, rcv = 1 << 20;
	struct timeval tv = { .tv_sec = 10 };

	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcv, sizeof(rcv));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return fd;
}

/*
 * The replies a buffer must get, walked as netlink_rcv_skb() does: a
 * message whose length is short or runs past the buffer ends the walk
 * unanswered; every other one is acked (NLM_F_ACK is always set on
 * requests), ends its dump, or is refused.
 */
static int expect(uint8_t *buf, uint32_t len, struct pending *pd, int npd)
{
	uint32_t off = 0;
	int n = 0;

	while (len - off >= NLMSG_HDRLEN) {
		struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + off);
		uint32_t ml;

		if (nlh->nlmsg_len < NLMSG_HDRLEN || len - off < nlh->nlmsg_len)
			break;
		if ((nlh->nlmsg_flags & NLM_F_ACK) || ((nlh->nlmsg_flags & NLM_F_REQUEST) &&
						       nlh->nlmsg_type >= NLMSG_MIN_TYPE)) {
			struct genlmsghdr *g = NLMSG_DATA(nlh);
			int cmd = CMD_OTHER;

			if (nlh->nlmsg_type == family && (nlh->nlmsg_flags & NLM_F_REQUEST) &&
			    nlh->nlmsg_len >= NLMSG_HDRLEN + GENL_HDRLEN && g->cmd < NCMD)
				cmd = g->cmd;
			if (n < npd) {
				pd[n].seq = nlh->nlmsg_seq;
				pd[n].cmd = cmd;
				pd[n].is_fabric_dump = cmd == FATTREE_CMD_FABRIC_GET &&
					(nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
				pd[n].well_formed = cmd < NCMD && has_handler(cmd);
				pd[n].dump = (nlh->nlmsg_flags & NLM_F_DUMP) == NLM_F_DUMP;
				n++;
			}
		}
		ml = NLMSG_ALIGN(nlh->nlmsg_len);
		if (ml > len - off)
			ml = len - off;
		off += ml;
	}
	return n;
}

/* Does an error carry an explanation (message, offset or missing type)? */
static bool explained(struct nlmsghdr *nlh, int hdr)
{
	int len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - hdr;
	struct nlattr *a = (struct nlattr *)((char *)NLMSG_DATA(nlh) + NLMSG_ALIGN(hdr));

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return false;
	for (; len >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN && a->nla_len <= len;
	     len -= NLA_ALIGN(a->nla_len), a = (struct nlattr *)((char *)a + NLA_ALIGN(a->nla_len)))
		if (a->nla_type == NLMSGERR_ATTR_MSG || a->nla_type == NLMSGERR_ATTR_OFFS ||
		    a->nla_type == NLMSGERR_ATTR_MISS_TYPE)
			return true;
	return false;
}

/*
 * A refusal without an explanation. The core refuses without one an
 * unknown command or a dump of a command that has none (EOPNOTSUPP), a
 * change by whoever may not (EPERM), a dump while another runs on the
 * socket (EBUSY), and messages too short for their headers; for anything
 * else, the policy and the handlers must explain.
 */
static void silent(struct stats *st, const struct pending *pd, int err)
{
	st->silent++;
	if (!pd->well_formed || err == -EOPNOTSUPP || err == -EPERM ||
	    (pd->dump && err == -EBUSY))
		return;
	if (!st->silent_handler++) {
		st->silent_cmd = pd->cmd;
		st->silent_errno = -err;
	}
}

static uint8_t rbuf[FZ_BUF];
static int fzfd;

static void settle(struct stats *st, struct pending *pd, int npd, bool unpriv)
{
	int left = npd, i;

	while (left > 0) {
		ssize_t r = recv(fzfd, rbuf, sizeof(rbuf), 0);
		struct nlmsghdr *nlh;
		int len;

		if (r < 0) {
			if (errno == EINTR)
				continue;
			st->last_errno = errno;
			st->unanswered += left;
			return;
		}
		len = (int)r;
		for (nlh = (struct nlmsghdr *)rbuf; NLMSG_OK(nlh, len); nlh = NLMSG_NEXT(nlh, len)) {
			int err = 0;
			bool term = false;

			for (i = 0; i < npd; i++)
				if (pd[i].seq == nlh->nlmsg_seq && pd[i].cmd >= 0)
					break;
			if (i == npd)
				continue;	/* a late reply, or not ours */
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				err = ((struct nlmsgerr *)NLMSG_DATA(nlh))->error;
				term = true;
				if (err && !explained(nlh, sizeof(struct nlmsgerr)))
					silent(st, &pd[i], err);
			} else if (nlh->nlmsg_type == NLMSG_DONE) {
				if (nlh->nlmsg_len >= NLMSG_HDRLEN + sizeof(int))
					memcpy(&err, NLMSG_DATA(nlh), sizeof(int));
				term = true;
				if (err && !explained(nlh, sizeof(int)))
					silent(st, &pd[i], err);
			} else if (pd[i].is_fabric_dump) {
				st->fabrics_seen++;
			}
			if (!term)
				continue;
			st->sent[pd[i].cmd]++;
			if (err) {
				st->err[pd[i].cmd]++;
			} else {
				st->ok[pd[i].cmd]++;
				if (is_write(pd[i].cmd) && unpriv)
					st->writes_ok++;
			}
			pd[i].cmd = -1;
			left--;
		}
	}
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Send @count messages, reading every answer before going on. */
static void fuzz(long count, struct stats *st, bool unpriv)
{
	static uint8_t buf[FZ_BUF];
	static struct fz_msg m;
	struct pending pd[FZ_PACK];
	double t0 = now_s(), t;
	long sent = 0;

	while (sent < count) {
		uint32_t len = 0, k = chance(4) ? 2 + rn(FZ_PACK - 1) : 1, j, n;
		int npd, cmd;

		for (j = 0; j < k; j++) {
			if (chance(10)) {
				random_msg(&m);
			} else {
				uint32_t r = rn(100);

				tmpl(&m, r < 96 ? 1 + rn(FATTREE_CMD_MAX) :
					 r < 98 ? 0 : FATTREE_CMD_MAX + 1 + rn(240));
				if (!chance(12))
					for (n = 1 + rn(3); n; n--)
						mutate(&m);
				limit_steps(&m);
			}
			len += serialize(&m, buf, len, seqno++);
		}
		sent += k;
		if (k == 1) {
			struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

			switch (rn(40)) {
			case 0: case 1: case 2:	/* bit flips past the netlink header */
				if (len > NLMSG_HDRLEN)
					for (n = 1 + rn(8); n; n--) {
						j = NLMSG_HDRLEN + rn(len - NLMSG_HDRLEN);
						buf[j] ^= 1 << rn(8);
					}
				break;
			case 3: case 4: case 5:	/* truncated: the message ends early */
				len = NLMSG_HDRLEN + rn(len - NLMSG_HDRLEN + 1);
				nlh->nlmsg_len = len;
				break;
			case 6:		/* a length past the end: dropped unanswered */
				nlh->nlmsg_len = len + 1 + rn(64);
				break;
			case 7:		/* shorter than a netlink header */
				nlh->nlmsg_len = rn(NLMSG_HDRLEN);
				if (chance(50))
					len = 1 + rn(NLMSG_HDRLEN - 1);
				break;
			case 8:		/* no room for the genetlink header */
				len = NLMSG_HDRLEN + rn(GENL_HDRLEN);
				nlh->nlmsg_len = len;
				break;
			}
		}
		npd = expect(buf, len, pd, FZ_PACK);
		cmd = npd ? pd[0].cmd : CMD_OTHER;
		t = now_s();
		if (send(fzfd, buf, len, 0) < 0) {
			st->last_errno = errno;
			st->unanswered++;
			continue;
		}
		settle(st, pd, npd, unpriv);
		st->busy[cmd] += now_s() - t;
	}
	st->messages = sent;
	st->secs = now_s() - t0;
}

/* ---- the parent: valid traffic with exact accounting ---- */

struct valid {
	long n[NCMD];		/* requests of each command that reached the kernel */
	long rounds, failures, fabric_failures;
	long injected, delivered, circuits;
	char why[512];
};

static void vfail(struct valid *v, const char *fmt, ...)
{
	va_list ap;

	v->failures++;
	if (v->why[0])
		return;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof(v->why), fmt, ap);
	va_end(ap);
}

/* Count a request unless it never reached the kernel. */
static int vc(struct valid *v, int cmd, int err)
{
	if (err != -EIO && err != -ENOMEM)
		v->n[cmd]++;
	return err;
}

static int fabric_names(struct ftnl *nl, struct valid *v, struct ft_names *nm)
{
	return vc(v, FATTREE_CMD_FABRIC_GET, ft_fabric_names(nl, nm));
}

static int leaves(struct ftnl *nl, struct valid *v, const char *name)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_LEAF_GET, NLM_F_DUMP);
	int n = 0, err;

	nla_put_string(msg, FATTREE_A_LEAF_FABRIC, name);
	err = vc(v, FATTREE_CMD_LEAF_GET, ftnl_transact(nl, msg, ft_count_reply, &n));
	return err ? err : n;
}

static int info(struct ftnl *nl, struct valid *v)
{
	int n = 0, err;

	err = vc(v, FATTREE_CMD_INFO_GET,
		 ftnl_transact(nl, ftnl_msg(nl, FATTREE_CMD_INFO_GET, 0), ft_count_reply, &n));
	return err ? err : n;
}

static int set_manual(struct ftnl *nl, struct valid *v, const char *name)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_SET, 0);

	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	nla_put_u64(msg, FATTREE_A_FABRIC_PERIOD_NS, 0);
	return vc(v, FATTREE_CMD_FABRIC_SET, ftnl_transact(nl, msg, NULL, NULL));
}

/* fz0 and fz1: 8 leaves, h = 2, m = (4, 2), w = (1, 2), lanes (1, 2). */
static void fz_spec(struct ft_spec *s, const char *name, int path)
{
	ft_spec_kary(s, name, 2, 2);
	s->m[0] = 4;
	s->lanes[0] = 1;
	s->lanes[1] = 2;
	s->path = path;
}

static bool is_ours(const char *name)
{
	static const char *const ours[] = { "live", "vtmp", "fz0", "fz1", "fz2", "fz3", "fz4" };
	unsigned int i;

	for (i = 0; i < sizeof(ours) / sizeof(ours[0]); i++)
		if (!strcmp(name, ours[i]))
			return true;
	return false;
}

/* Inject on "live", step it until it drains: every message arrives. */
static void valid_live(struct ftnl *nl, struct valid *v)
{
	struct fattree_inject_row rows[4];
	struct ft_fabric_info a, b;
	uint32_t i, k = 1 + rn(4), total = 0;
	int err, steps = 0;

	for (i = 0; i < k; i++) {
		rows[i].src = rn(4);
		rows[i].dst = (rows[i].src + 1 + rn(3)) % 4;
		rows[i].count = 1 + rn(3);
		total += rows[i].count;
	}
	err = vc(v, FATTREE_CMD_FABRIC_GET, ft_fabric_get(nl, "live", &a));
	err = err ?: vc(v, FATTREE_CMD_FABRIC_INJECT, ft_fabric_inject(nl, "live", rows, k));
	if (err) {
		vfail(v, "live: get or inject: %s", ftnl_strerror(nl, err));
		return;
	}
	do {
		err = vc(v, FATTREE_CMD_FABRIC_STEP, ft_fabric_step(nl, "live", 4));
		err = err ?: vc(v, FATTREE_CMD_FABRIC_GET, ft_fabric_get(nl, "live", &b));
	} while (!err && b.synth_queued && ++steps < 64);
	if (err || b.synth_queued || b.synth_delivered - a.synth_delivered != total) {
		vfail(v, "live: %u injected, %llu delivered, %llu left (%s)", total,
		      (unsigned long long)(b.synth_delivered - a.synth_delivered),
		      (unsigned long long)b.synth_queued, err ? ftnl_strerror(nl, err) : "ok");
		return;
	}
	v->injected += total;
	v->delivered += b.synth_delivered - a.synth_delivered;
}

/* A circuit on "live": added, seen in the dump, deleted. */
static void valid_circuit(struct ftnl *nl, struct valid *v)
{
	struct fattree_circuit c = { .src = rn(4), .lanes = 1 };
	struct ftobj_circuit *ci = NULL;
	struct fattree_pair p;
	int err, n;

	c.dst = (c.src + 1 + rn(3)) % 4;
	c.port[1] = rn(2);
	p = (struct fattree_pair){ c.src, c.dst };
	err = vc(v, FATTREE_CMD_CIRCUIT_ADD, ft_circuit_add(nl, "live", &c, 1, NULL, NULL));
	n = err ? err : vc(v, FATTREE_CMD_CIRCUIT_GET, ftobj_circuits(nl, "live", &ci));
	free(ci);
	err = err ?: vc(v, FATTREE_CMD_CIRCUIT_DEL, ft_circuit_del(nl, "live", &p, 1));
	if (err || n != 1)
		vfail(v, "live: circuit add, dump (%d) or del: %s", n, ftnl_strerror(nl, err));
	else
		v->circuits++;
}

/* Dumps of everything on "live", with the counts its shape implies. */
static void valid_dumps(struct ftnl *nl, struct valid *v)
{
	struct fattree_demand *d = NULL;
	struct ftobj_link *l = NULL;
	int nlinks, nleaves, nd;

	nlinks = vc(v, FATTREE_CMD_LINK_GET, ftobj_links(nl, "live", &l));
	nleaves = leaves(nl, v, "live");
	nd = vc(v, FATTREE_CMD_DEMAND_GET, ft_demand(nl, "live", &d));
	free(l);
	free(d);
	if (nlinks != 16 || nleaves != 4 || nd != 0 || info(nl, v) != 1)
		vfail(v, "live: %d links, %d leaves, %d in demand", nlinks, nleaves, nd);
}

/* A fabric made, used and deleted. */
static void valid_tmp(struct ftnl *nl, struct valid *v)
{
	struct fattree_inject_row row = { 0, 3, 2 };
	struct ft_fabric_info fi;
	struct ft_spec s;
	int err;

	ft_spec_kary(&s, "vtmp", 1, 4);
	err = vc(v, FATTREE_CMD_FABRIC_NEW, ft_fabric_new(nl, &s));
	if (err == -ENOSPC)
		return;		/* the fuzzer holds every slot for now */
	err = err ?: vc(v, FATTREE_CMD_FABRIC_INJECT, ft_fabric_inject(nl, "vtmp", &row, 1));
	err = err ?: vc(v, FATTREE_CMD_FABRIC_STEP, ft_fabric_step(nl, "vtmp", 4));
	err = err ?: vc(v, FATTREE_CMD_FABRIC_GET, ft_fabric_get(nl, "vtmp", &fi));
	if (!err && fi.synth_delivered != 2)
		err = -EPROTO;
	err = vc(v, FATTREE_CMD_FABRIC_DEL, ft_fabric_del(nl, "vtmp")) ?: err;
	if (err)
		vfail(v, "vtmp: %s", ftnl_strerror(nl, err));
}

/*
 * Keep the fuzzer's fabrics there and manual (it may have deleted or
 * timed them), empty fz1's circuit table now and then so adds keep being
 * admitted, and delete fabrics the fuzzer made under other names.
 */
static void valid_repair(struct ftnl *nl, struct valid *v, long round)
{
	static const char *const fz[] = { "fz0", "fz1" };
	struct ft_fabric_info fi;
	struct ft_names nm;
	struct ft_spec s;
	int i, err;

	if (!fabric_names(nl, v, &nm))
		for (i = 0; i < nm.n; i++)
			if (!is_ours(nm.name[i]))
				vc(v, FATTREE_CMD_FABRIC_DEL, ft_fabric_del(nl, nm.name[i]));
	for (i = 0; i < 2; i++) {
		err = vc(v, FATTREE_CMD_FABRIC_GET, ft_fabric_get(nl, fz[i], &fi));
		if (err == -ENOENT) {
			fz_spec(&s, fz[i], i ? FATTREE_PATH_CIRCUIT : FATTREE_PATH_DMODK);
			err = vc(v, FATTREE_CMD_FABRIC_NEW, ft_fabric_new(nl, &s));
			if (err && err != -ENOSPC && err != -EEXIST)
				v->fabric_failures++;
		} else if (!err) {
			set_manual(nl, v, fz[i]);
		}
	}
	if (round % 4 == 0) {
		struct ftobj_circuit *ci = NULL;
		struct fattree_pair p[64];
		int n = vc(v, FATTREE_CMD_CIRCUIT_GET, ftobj_circuits(nl, "fz1", &ci));

		for (i = 0; i < n && i < 64; i++)
			p[i] = (struct fattree_pair){ ci[i].src, ci[i].dst };
		free(ci);
		if (n > 0)
			vc(v, FATTREE_CMD_CIRCUIT_DEL, ft_circuit_del(nl, "fz1", p, n < 64 ? n : 64));
	}
}

static void valid_round(struct ftnl *nl, struct valid *v)
{
	valid_repair(nl, v, v->rounds);
	valid_live(nl, v);
	valid_circuit(nl, v);
	valid_dumps(nl, v);
	if (v->rounds % 16 == 15)
		valid_tmp(nl, v);
	v->rounds++;
}

/* ---- after a phase: every fabric's reservations are its circuits' ---- */

static int shape_reply(struct nl_msg *msg, void *arg)
{
	struct ft_topo *t = arg;
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS];
	struct ftobj_fabric f;
	uint32_t h, i;

	if (ftobj_fabric_decode(msg, &f) || ftobj_fabric_shape(&f) || f.levels > FT_MAX_LEVELS)
		return -EINVAL;
	h = f.levels;
	for (i = 0; i < h; i++) {
		m[i] = f.down[i];
		w[i] = f.up[i];
		c[i] = f.lanes[i];
	}
	return ft_topo_init(t, h, m, w, c) ? -EINVAL : 0;
}

/*
 * For every directed link, the lanes of the circuits crossing it must be
 * its reserved lanes, and never more than its lanes. Returns the links
 * (and circuits) that disagree, or -errno.
 */
static int check_reservations(struct ftnl *nl, const char *name)
{
	struct nl_msg *msg = ftnl_msg(nl, FATTREE_CMD_FABRIC_GET, 0);
	struct ft_topo t;
	int err;

	nla_put_string(msg, FATTREE_A_FABRIC_NAME, name);
	err = ftnl_transact(nl, msg, shape_reply, &t);
	return err ? err : ft_check_reservations(nl, name, &t);
}

/* ---- the kernel's side: counters, log, memory ---- */

static int read_requests(long *n)
{
	FILE *f = fopen(REQUESTS, "r");
	char name[32];
	long v;
	int i, got = 0, known = 0;

	memset(n, 0, NCMD * sizeof(*n));
	if (!f)
		return -errno;
	while (fscanf(f, "%31s %ld", name, &v) == 2)
		for (i = 1; i < NCMD; i++)
			if (ft_cmd_names[i] && !strcmp(name, ft_cmd_names[i])) {
				n[i] = v;
				got++;
			}
	fclose(f);
	for (i = 1; i < NCMD; i++)
		known += !!ft_cmd_names[i];
	return got == known ? 0 : -EPROTO;
}

static int kmsg_fd = -1;

static void kmsg_open(void)
{
	kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kmsg_fd >= 0)
		lseek(kmsg_fd, 0, SEEK_END);
}

/* Kernel log records since kmsg_open() that report a problem. */
static int kmsg_reports(void)
{
	static const char *const bad[] = {
		"WARNING:", "BUG:", "Oops", "general protection fault", "Call Trace:",
		"UBSAN:", "KASAN:", "kmemleak:", "refcount_t:", "list_add corruption",
		"list_del corruption", "INFO: task", "soft lockup", "rcu_sched self-detected",
	};
	char rec[8192];
	int n = 0;
	unsigned int i;
	ssize_t r;

	if (kmsg_fd < 0)
		return -1;
	while ((r = read(kmsg_fd, rec, sizeof(rec) - 1)) > 0 || (r < 0 && errno == EPIPE)) {
		if (r <= 0)
			continue;
		rec[r] = '\0';
		for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
			if (strstr(rec, bad[i])) {
				ksft_print_msg("kernel: %s", strchr(rec, ';') ? strchr(rec, ';') + 1 : rec);
				n++;
				break;
			}
	}
	return n;
}

/* ---- phases ---- */

enum phase { AS_ROOT, AS_NOBODY, IN_USERNS };

static const char *const phase_name[] = {
	"as root", "as nobody", "as nobody in its own user and network namespace",
};

static int drop_to_nobody(void)
{
	return setgroups(0, NULL) || setgid(65534) || setuid(65534) || !geteuid() ? -1 : 0;
}

/* The fuzzer, a child; the parent keeps valid traffic going meanwhile. */
static int run_phase(enum phase ph, long count, uint64_t seed, struct stats *st,
		     struct ftnl *nl, struct valid *v, long *reached)
{
	long before[NCMD], after[NCMD];
	int status, i;
	pid_t pid;

	memset(st, 0, sizeof(*st));
	if (read_requests(before))
		return -1;
	in_own_userns = ph == IN_USERNS;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		rs = seed;
		if (ph != AS_ROOT && drop_to_nobody())
			_exit(3);
		if (ph == IN_USERNS && unshare(CLONE_NEWUSER | CLONE_NEWNET))
			_exit(4);
		fzfd = fz_socket();
		if (fzfd < 0)
			_exit(5);
		fuzz(count, st, ph != AS_ROOT);
		_exit(0);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		valid_round(nl, v);
		usleep(50000);
	}
	if (read_requests(after))
		return -1;
	for (i = 0; i < NCMD; i++)
		reached[i] = after[i] - before[i] - v->n[i];
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void report_phase(enum phase ph, const struct stats *st, const long *reached)
{
	int i;

	ksft_print_msg("%s: %ld messages in %.1f s (%.0f/s), %ld unanswered%s%s, %ld refusals without explanation\n",
		       phase_name[ph], st->messages, st->secs, st->messages / (st->secs ?: 1),
		       st->unanswered, st->last_errno ? ", last error: " : "",
		       st->last_errno ? strerror(st->last_errno) : "", st->silent);
	if (st->silent_handler)
		ksft_print_msg("  %ld past the core's checks, the first: %s, %s\n",
			       st->silent_handler, cname(st->silent_cmd),
			       strerror(st->silent_errno));
	ksft_print_msg("  %-14s %8s %8s %8s %9s %8s\n", "command", "answered", "ok", "refused",
		       "handler", "time s");
	for (i = 0; i <= NCMD; i++)
		if (st->sent[i])
			ksft_print_msg("  %-14s %8ld %8ld %8ld %9ld %8.2f\n", cname(i),
				       st->sent[i], st->ok[i], st->err[i],
				       i < NCMD ? reached[i] : 0, st->busy[i]);
}

static uint64_t env_num(const char *name, uint64_t def)
{
	const char *s = getenv(name);

	return s && *s ? strtoull(s, NULL, 0) : def;
}

static struct stats *shared_stats(void)
{
	void *p = mmap(NULL, sizeof(struct stats), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static int check_fabrics(struct ftnl *nl, struct valid *v)
{
	struct ft_names nm;
	int i, bad = 0, r;

	if (fabric_names(nl, v, &nm))
		return -1;
	for (i = 0; i < nm.n; i++) {
		r = check_reservations(nl, nm.name[i]);
		if (r) {
			ksft_print_msg("%s: %d links disagree with its circuits (%d)\n",
				       nm.name[i], r, r);
			bad++;
		}
	}
	return bad;
}

int main(void)
{
	long total = env_num("FT_FUZZ_MSGS", 110000);
	uint64_t seed = env_num("FT_FUZZ_SEED", (uint64_t)time(NULL));
	long per[3] = { total * 40 / 100, total * 50 / 100, 0 };
	long reached[3][NCMD], sum = 0, handled_min = -1;
	struct ft_mem base, after;
	struct stats *st[3];
	struct valid v = { 0 };
	struct ftnl nl;
	struct ft_names nm;
	int i, ph, rc, tries, ok;
	bool all;

	per[2] = total - per[0] - per[1];
	ksft_print_header();
	ksft_set_plan(12);
	ksft_print_msg("seed %llu (FT_FUZZ_SEED), %ld messages (FT_FUZZ_MSGS)\n",
		       (unsigned long long)seed, total);
	rs = seed ?: 1;
	if (geteuid())
		ksft_exit_skip("needs root\n");
	for (i = 0; i < 3; i++)
		st[i] = shared_stats();
	if (!st[0] || !st[1] || !st[2])
		ksft_exit_fail_msg("mmap: %s\n", strerror(errno));

	/* The baseline: no module. */
	if (ft_module_loaded() && ft_module_unload())
		ksft_exit_fail_msg("the module is loaded and will not unload: %s\n", strerror(errno));
	kmsg_open();
	ft_mem_snapshot(&base);
	rc = ft_module_load(LOAD_PARAMS);
	ksft_test_result(!rc, "module loaded (" LOAD_PARAMS ")\n");
	if (rc)
		ksft_exit_fail_msg("cannot load %s: %s\n", ft_module_path(), strerror(-rc));
	rc = ftnl_open(&nl);
	if (rc)
		ksft_exit_fail_msg("ftnl_open: %s\n", strerror(-rc));
	family = nl.family;
	rc = read_requests(reached[0]);
	if (rc == -EPROTO)
		ksft_exit_fail_msg("%s does not name every command this test knows\n", REQUESTS);
	if (rc)
		ksft_exit_fail_msg("%s: %s (debugfs missing?)\n", REQUESTS, strerror(-rc));
	{
		struct ft_spec s;

		ft_spec_kary(&s, "live", 2, 2);
		rc = ft_fabric_new(&nl, &s);
		fz_spec(&s, "fz0", FATTREE_PATH_DMODK);
		rc = rc ?: ft_fabric_new(&nl, &s);
		fz_spec(&s, "fz1", FATTREE_PATH_CIRCUIT);
		rc = rc ?: ft_fabric_new(&nl, &s);
		if (rc)
			ksft_exit_fail_msg("fabrics: %s\n", ftnl_strerror(&nl, rc));
	}

	for (ph = AS_ROOT; ph <= IN_USERNS; ph++) {
		memset(v.n, 0, sizeof(v.n));
		rc = run_phase(ph, per[ph], seed + 7919 * ph, st[ph], &nl, &v, reached[ph]);
		if (rc)
			ksft_print_msg("%s: the fuzzer exited with %d\n", phase_name[ph], rc);
		report_phase(ph, st[ph], reached[ph]);
		sum += st[ph]->messages;
		if (check_fabrics(&nl, &v))
			v.failures++, snprintf(v.why, sizeof(v.why), "reservations after %s",
					       phase_name[ph]);
		if (ph == AS_ROOT) {
			all = !rc && !st[ph]->unanswered && !st[ph]->silent_handler;
			ksft_test_result(all, "%s: %ld messages, every one answered, every refusal past the core explained\n",
					 phase_name[ph], st[ph]->messages);
			all = true;
			for (i = 1; i < NCMD; i++) {
				if (!has_handler(i))
					continue;
				if (reached[ph][i] <= 0)
					all = false;
				if (handled_min < 0 || reached[ph][i] < handled_min)
					handled_min = reached[ph][i];
			}
			ksft_test_result(all, "%s: every command's handler reached (fewest: %ld)\n",
					 phase_name[ph], handled_min);
		} else {
			all = !rc && !st[ph]->unanswered && !st[ph]->writes_ok;
			for (i = 1; i < NCMD; i++)
				if (is_write(i) && reached[ph][i])
					all = false;
			ksft_test_result(all, "%s: %ld messages answered, no change reached a handler or succeeded\n",
					 phase_name[ph], st[ph]->messages);
			if (ph == AS_NOBODY) {
				all = true;
				for (i = 1; i < NCMD; i++)
					if (has_handler(i) && !is_write(i) && reached[ph][i] <= 0)
						all = false;
				ksft_test_result(all, "%s: every read handler reached\n", phase_name[ph]);
			} else {
				ksft_test_result(!st[ph]->fabrics_seen,
						 "%s: no fabric of another namespace visible (%ld seen)\n",
						 phase_name[ph], st[ph]->fabrics_seen);
			}
		}
	}
	ksft_test_result(!v.failures, "valid traffic alongside: %ld rounds, %ld messages injected and delivered, %ld circuits%s%s\n",
			 v.rounds, v.delivered, v.circuits, v.failures ? ": " : "", v.why);
	ksft_test_result(sum >= 100000 || total < 100000, "%ld fuzz messages in all\n", sum);

	/* Every fabric goes; then the module. */
	ok = !fabric_names(&nl, &v, &nm);
	for (i = 0; ok && i < nm.n; i++)
		ok = !ft_fabric_del(&nl, nm.name[i]);
	ok = ok && ft_fabric_count(&nl) == 0;
	ftnl_close(&nl);
	rc = -1;
	for (tries = 0; rc && tries < 20; tries++) {
		rc = ft_module_unload();
		if (rc)
			usleep(250000);
	}
	ksft_test_result(ok && !rc, "every fabric deleted (%d), the module unloaded\n", nm.n);
	rc = kmsg_reports();
	ksft_test_result(!rc, "kernel log: %d reports\n", rc);

	/* Slab objects and vmalloc back to the baseline. Objects freed
	 * after an RCU grace period or by the namespace cleanup work may
	 * take a moment.
	 */
	for (tries = 0; tries < 20; tries++) {
		ft_mem_snapshot(&after);
		if (after.slab - base.slab < 256 << 10 &&
		    after.vmalloc - base.vmalloc <= ft_mem_vmalloc_slack())
			break;
		usleep(250000);
	}
	ksft_print_msg("memory: slab %+lld bytes (%lld before), vmalloc %+lld bytes\n",
		       after.slab - base.slab, base.slab, after.vmalloc - base.vmalloc);
	ksft_test_result(tries < 20, "slab and vmalloc back to their baseline\n");
	ksft_finished();
}
