// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl: the thin libnl-genl layer every fattree program talks through.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <linux/netlink.h>
#include <netlink/genl/ctrl.h>
#include <netlink/genl/family.h>

#include "ftnl.h"
#include "ftobj.h"
#include "linux/fattree.h"
#include "linux/fattree_structs.h"

#ifndef SOL_NETLINK
#define SOL_NETLINK 270
#endif

struct ftnl_xfer {
	struct ftnl *nl;
	int (*reply)(struct nl_msg *msg, void *arg);
	void *arg;
	int err;
	bool done;
};

/* Look the family up in the controller's table: its id and version. */
static int ftnl_resolve(struct ftnl *nl)
{
	struct nl_cache *cache;
	struct genl_family *fam;
	int err;

	err = genl_ctrl_alloc_cache(nl->sk, &cache);
	if (err < 0)
		return -EIO;
	fam = genl_ctrl_search_by_name(cache, FATTREE_GENL_NAME);
	if (!fam) {
		nl_cache_free(cache);
		return -ENOENT;
	}
	nl->family = genl_family_get_id(fam);
	nl->family_version = genl_family_get_version(fam);
	genl_family_put(fam);
	nl_cache_free(cache);
	return 0;
}

int ftnl_open(struct ftnl *nl)
{
	int one = 1;
	int err;

	memset(nl, 0, sizeof(*nl));
	nl->err_offset = -1;
	nl->sk = nl_socket_alloc();
	if (!nl->sk)
		return -ENOMEM;
	if (genl_connect(nl->sk) < 0) {
		err = -errno ?: -EIO;
		goto fail;
	}
	/* Ask for the kernel's explanation of every refusal, and only the
	 * header of our request echoed back in errors.
	 */
	if (setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_EXT_ACK,
		       &one, sizeof(one)) ||
	    setsockopt(nl_socket_get_fd(nl->sk), SOL_NETLINK, NETLINK_CAP_ACK,
		       &one, sizeof(one))) {
		err = -errno;
		goto fail;
	}
	err = ftnl_resolve(nl);
	if (err)
		goto fail;
	return 0;
fail:
	nl_socket_free(nl->sk);
	nl->sk = NULL;
	return err;
}

void ftnl_close(struct ftnl *nl)
{
	nl_socket_free(nl->sk);
	nl->sk = NULL;
}

int ftnl_listen(struct nl_sock *sk, const char *group, nl_recvmsg_msg_cb_t cb, void *arg,
		int *grp)
{
	int err;

	*grp = 0;
	nl_socket_disable_seq_check(sk);
	err = genl_connect(sk);
	if (err < 0)
		return err;
	*grp = genl_ctrl_resolve_grp(sk, FATTREE_GENL_NAME, group);
	if (*grp < 0)
		return *grp;
	err = nl_socket_add_membership(sk, *grp);
	if (err < 0)
		return err;
	err = nl_socket_set_nonblocking(sk);
	if (err < 0)
		return err;
	return nl_socket_modify_cb(sk, NL_CB_VALID, NL_CB_CUSTOM, cb, arg);
}

struct nl_msg *ftnl_msg(struct ftnl *nl, uint8_t cmd, int flags)
{
	struct nl_msg *msg = nlmsg_alloc();

	if (!msg)
		return NULL;
	if (!genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, flags,
			 cmd, FATTREE_GENL_VERSION)) {
		nlmsg_free(msg);
		return NULL;
	}
	return msg;
}

struct nl_msg *ftnl_batch(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
			  int type, const void *v, uint32_t n, size_t size)
{
	uint32_t per = 65000 / size, i;
	size_t bytes = (size_t)n * size + 4096 + (n / per + 1) * NLA_HDRLEN;
	struct nl_msg *msg = nlmsg_alloc_size(bytes);
	int sndbuf = (int)(2 * bytes);

	if (!msg)
		return NULL;
	/* Only the send buffer: a caller may have raised the receive one. */
	if (setsockopt(nl_socket_get_fd(nl->sk), SOL_SOCKET, SO_SNDBUF, &sndbuf,
		       sizeof(sndbuf)) ||
	    !genlmsg_put(msg, NL_AUTO_PORT, NL_AUTO_SEQ, nl->family, 0, 0, cmd,
			 FATTREE_GENL_VERSION) ||
	    nla_put_string(msg, name_type, name))
		goto fail;
	for (i = 0; i < n; i += per)
		if (nla_put(msg, type, (n - i < per ? n - i : per) * size,
			    (const char *)v + (size_t)i * size))
			goto fail;
	return msg;
fail:
	nlmsg_free(msg);
	return NULL;
}

/* Pull NLMSGERR_ATTR_MSG and _OFFS out of an error's trailing TLVs. */
static void ftnl_parse_extack(struct ftnl *nl, struct nlmsgerr *e)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)((char *)e - NLMSG_HDRLEN);
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t skip = sizeof(*e);
	struct nlattr *attrs;
	int len;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		skip += e->msg.nlmsg_len - NLMSG_HDRLEN;
	len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)skip;
	if (len <= 0)
		return;
	attrs = (struct nlattr *)((char *)e + NLMSG_ALIGN(skip));
	if (nla_parse(tb, NLMSGERR_ATTR_MAX, attrs, len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(nl->errmsg, sizeof(nl->errmsg), "%s",
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		nl->err_offset = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

static int ftnl_on_error(struct sockaddr_nl *who, struct nlmsgerr *e, void *arg)
{
	struct ftnl_xfer *x = arg;

	(void)who;
	x->err = e->error;
	x->done = true;
	ftnl_parse_extack(x->nl, e);
	return NL_STOP;
}

/* The end of a dump: NLMSG_DONE carries the dump's error, if any, and
 * (with extended acks) its explanation, laid out as an nlmsgerr's TLVs.
 */
static void ftnl_parse_done(struct ftnl_xfer *x, struct nlmsghdr *nlh)
{
	struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	int len = (int)nlh->nlmsg_len - NLMSG_HDRLEN - (int)sizeof(int);
	int err;

	if (nlh->nlmsg_type != NLMSG_DONE || len < 0)
		return;
	memcpy(&err, NLMSG_DATA(nlh), sizeof(err));
	if (err >= 0)
		return;
	x->err = err;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || len == 0 ||
	    nla_parse(tb, NLMSGERR_ATTR_MAX,
		      (struct nlattr *)((char *)NLMSG_DATA(nlh) + sizeof(int)), len, NULL))
		return;
	if (tb[NLMSGERR_ATTR_MSG])
		snprintf(x->nl->errmsg, sizeof(x->nl->errmsg), "%s",
			 (char *)nla_data(tb[NLMSGERR_ATTR_MSG]));
	if (tb[NLMSGERR_ATTR_OFFS])
		x->nl->err_offset = (int)nla_get_u32(tb[NLMSGERR_ATTR_OFFS]);
}

static int ftnl_on_finish(struct nl_msg *msg, void *arg)
{
	struct ftnl_xfer *x = arg;

	ftnl_parse_done(x, nlmsg_hdr(msg));
	x->done = true;
	return NL_STOP;
}

static int ftnl_on_valid(struct nl_msg *msg, void *arg)
{
	struct ftnl_xfer *x = arg;
	int err;

	if (!x->reply)
		return NL_OK;
	err = x->reply(msg, x->arg);
	if (err < 0 && !x->err) {
		x->err = err;
		/* A reply that would not decode: say what was wrong with it. */
		if (err == -EPROTO && ftobj_error()[0])
			snprintf(x->nl->errmsg, sizeof(x->nl->errmsg), "%s", ftobj_error());
	}
	return NL_OK;
}

int ftnl_transact(struct ftnl *nl, struct nl_msg *msg,
		  int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	struct ftnl_xfer x = { .nl = nl, .reply = reply, .arg = arg };
	struct nl_cb *cb;
	int err;

	nl->errmsg[0] = '\0';
	nl->err_offset = -1;
	ftobj_error_clear();
	/* A do request asks for an ack so "done" is always signalled; a dump
	 * ends with NLMSG_DONE instead.
	 */
	if (!(nlmsg_hdr(msg)->nlmsg_flags & NLM_F_DUMP))
		nlmsg_hdr(msg)->nlmsg_flags |= NLM_F_ACK;
	err = nl_send_auto(nl->sk, msg);
	nlmsg_free(msg);
	if (err < 0)
		return -EIO;

	cb = nl_cb_alloc(NL_CB_DEFAULT);
	if (!cb)
		return -ENOMEM;
	nl_cb_err(cb, NL_CB_CUSTOM, ftnl_on_error, &x);
	nl_cb_set(cb, NL_CB_ACK, NL_CB_CUSTOM, ftnl_on_finish, &x);
	nl_cb_set(cb, NL_CB_FINISH, NL_CB_CUSTOM, ftnl_on_finish, &x);
	nl_cb_set(cb, NL_CB_VALID, NL_CB_CUSTOM, ftnl_on_valid, &x);
	while (!x.done) {
		err = nl_recvmsgs(nl->sk, cb);
		if (err < 0 && !x.done) {
			x.err = -EIO;
			break;
		}
	}
	nl_cb_put(cb);
	return x.err;
}

int ftnl_fabric_transact(struct ftnl *nl, uint8_t cmd, int flags, int name_type,
			 const char *name,
			 int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	struct nl_msg *msg = ftnl_msg(nl, cmd, flags);

	if (!msg)
		return -ENOMEM;
	if (nla_put_string(msg, name_type, name)) {
		nlmsg_free(msg);
		return -EMSGSIZE;
	}
	return ftnl_transact(nl, msg, reply, arg);
}

void *ftnl_array_next(struct ftnl_array *a)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 256;
		void *v = realloc(a->v, cap * a->size);

		if (!v)
			return NULL;
		a->v = v;
		a->cap = cap;
	}
	return (char *)a->v + a->size * a->n++;
}

int ftnl_array_take(const void *entry, void *arg)
{
	struct ftnl_array *a = arg;
	void *e = ftnl_array_next(a);

	if (!e)
		return -ENOMEM;
	memcpy(e, entry, a->size);
	return 0;
}

int ftnl_dump_array(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
		    int (*reply)(struct nl_msg *msg, void *arg), const void *ctx,
		    size_t size, void **out)
{
	struct ftnl_array a = { .size = size, .ctx = ctx };
	int err;

	err = ftnl_fabric_transact(nl, cmd, NLM_F_DUMP, name_type, name, reply, &a);
	if (err) {
		free(a.v);
		return err;
	}
	*out = a.v;
	return (int)a.n;
}

static int ftnl_demand_reply(struct nl_msg *msg, void *arg)
{
	long n = ftnl_each_demand(msg, ftnl_array_take, arg);

	return n < 0 ? (int)n : n ? 0 : -EPROTO;
}

int ftnl_demand(struct ftnl *nl, const char *name, struct fattree_demand **out)
{
	return ftnl_dump_array(nl, FATTREE_CMD_DEMAND_GET, FATTREE_A_DEMAND_FABRIC, name,
			       ftnl_demand_reply, NULL, sizeof(**out), (void **)out);
}

int ftnl_parse(struct nl_msg *msg, struct nlattr **tb, int maxattr)
{
	return genlmsg_parse(nlmsg_hdr(msg), 0, tb, maxattr, NULL) ? -EINVAL : 0;
}

long ftnl_each_entry(struct nl_msg *msg, int type, size_t size,
		     int (*fn)(const void *entry, void *arg), void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	_Alignas(8) unsigned char e[FTNL_ENTRY_MAX];
	long seen = 0;
	struct nlattr *a;
	size_t len, k;
	int rem, err;

	if (!size || size > sizeof(e))
		return -EINVAL;
	nla_for_each_attr(a, genlmsg_attrdata(nlmsg_data(nlh), 0),
			  genlmsg_attrlen(nlmsg_data(nlh), 0), rem) {
		if (nla_type(a) != type)
			continue;
		len = (size_t)nla_len(a);
		if (len % size)
			return -EPROTO;
		for (k = 0; k < len; k += size) {
			/* The array is only 4-byte aligned in the message. */
			memcpy(e, (const char *)nla_data(a) + k, size);
			err = fn(e, arg);
			if (err < 0)
				return err;
			seen++;
		}
	}
	return seen;
}

long ftnl_demand_entries(struct nl_msg *msg, struct fattree_demand **out)
{
	struct ftnl_array a = { .size = sizeof(**out) };
	long n = ftnl_each_demand(msg, ftnl_array_take, &a);

	if (n < 0) {
		free(a.v);
		a.v = NULL;
	}
	*out = a.v;
	return n;
}

const char *ftnl_strerror(const struct ftnl *nl, int err)
{
	static char buf[384];

	if (nl->errmsg[0])
		snprintf(buf, sizeof(buf), "%s: %s", strerror(-err), nl->errmsg);
	else
		snprintf(buf, sizeof(buf), "%s", strerror(-err));
	return buf;
}
