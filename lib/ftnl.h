/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ftnl: the thin libnl-genl layer every fattree program talks through.
 * It resolves the family, turns on extended acks and keeps the last
 * refusal's message so callers can show it.
 */
#ifndef FTNL_H
#define FTNL_H

#include <stdint.h>
#include <netlink/netlink.h>
#include <netlink/genl/genl.h>

struct ftnl {
	struct nl_sock *sk;
	int family;			/* generic netlink family id */
	uint32_t family_version;	/* version the kernel registered */
	char errmsg[256];		/* extended-ack message of the last refusal */
	int err_offset;			/* byte offset of the bad attribute, or -1 */
};

/* Returns 0, or a negative errno (-ENOENT when the module is not loaded). */
int ftnl_open(struct ftnl *nl);
void ftnl_close(struct ftnl *nl);

/*
 * Join @sk (allocated, not yet connected) to the family's multicast group
 * @group, for its notifications: no sequence numbers checked, reads that
 * do not block, each valid message passed to @cb with @arg. Returns 0 or
 * a negative libnl error; *@grp is the group's id, or the (negative)
 * error of looking it up when that is the step that failed, else 0.
 */
int ftnl_listen(struct nl_sock *sk, const char *group, nl_recvmsg_msg_cb_t cb, void *arg,
		int *grp);

/* A new request for @cmd; add attributes with libnl's nla_put_*(). */
struct nl_msg *ftnl_msg(struct ftnl *nl, uint8_t cmd, int flags);

/*
 * Send @msg (consumed) and read every reply until the ack or the end of the
 * dump. @reply, if set, is called for each reply message. Returns 0 or a
 * negative errno; on a refusal nl->errmsg holds the kernel's explanation.
 */
int ftnl_transact(struct ftnl *nl, struct nl_msg *msg,
		  int (*reply)(struct nl_msg *msg, void *arg), void *arg);

/*
 * A request for @cmd carrying the string @name in attribute @name_type and
 * @n entries of @size bytes in as many attributes @type as the 64 KiB
 * attribute limit needs, all in one message (so the kernel takes the
 * batch whole). Raises the socket's send buffer to fit. NULL on failure.
 */
struct nl_msg *ftnl_batch(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
			  int type, const void *v, uint32_t n, size_t size);

/*
 * Request @cmd (@flags: NLM_F_DUMP for a dump) about fabric @name, in
 * the string attribute @name_type, sent and answered as ftnl_transact()
 * does; -EMSGSIZE when the name does not fit.
 */
int ftnl_fabric_transact(struct ftnl *nl, uint8_t cmd, int flags, int name_type,
			 const char *name,
			 int (*reply)(struct nl_msg *msg, void *arg), void *arg);
/*
 * A dump's replies gathered in an array of @size-byte elements: the dump
 * of @cmd about fabric @name (attribute @name_type) passes @reply each
 * message and a struct ftnl_array (its ctx: @ctx), from which it takes a
 * new element with ftnl_array_next() for each object. Returns their
 * number, *@out holding them (the caller frees it), or a negative errno.
 */
struct ftnl_array {
	void *v;
	size_t n, cap, size;
	const void *ctx;	/* the caller's, for @reply */
};

void *ftnl_array_next(struct ftnl_array *a);
int ftnl_dump_array(struct ftnl *nl, uint8_t cmd, int name_type, const char *name,
		    int (*reply)(struct nl_msg *msg, void *arg), const void *ctx,
		    size_t size, void **out);
/* For ftnl_each_entry(): a copy of @entry as the next element of @arg. */
int ftnl_array_take(const void *entry, void *arg);
/*
 * The demand of fabric @name, a DEMAND_GET dump, as ftnl_dump_array()
 * returns it; a reply message without entries is torn (-EPROTO).
 */
struct fattree_demand;
int ftnl_demand(struct ftnl *nl, const char *name, struct fattree_demand **out);
/* Parse a reply's attributes against its attribute set. */
int ftnl_parse(struct nl_msg *msg, struct nlattr **tb, int maxattr);

/*
 * The wire's arrays of structs (FATTREE_A_DEMAND_ENTRY in dumps):
 * @fn(entry, arg) for each @size-byte entry of every top-level attribute
 * @type of @msg, in order, one or several per attribute, each
 * copied out to an aligned buffer first. Returns the number of entries,
 * -EPROTO for an attribute that is not a whole number of entries, or
 * @fn's first negative return. The typed form below fixes @type and @size.
 */
#define FTNL_ENTRY_MAX 256
long ftnl_each_entry(struct nl_msg *msg, int type, size_t size,
		     int (*fn)(const void *entry, void *arg), void *arg);
#define ftnl_each_demand(msg, fn, arg) \
	ftnl_each_entry(msg, FATTREE_A_DEMAND_ENTRY, sizeof(struct fattree_demand), fn, arg)

/*
 * The demand entries of one message copied out to a new array (the caller
 * frees it; NULL when there are none): their number, or -EPROTO for a
 * torn array, -ENOMEM.
 */
long ftnl_demand_entries(struct nl_msg *msg, struct fattree_demand **out);

/* "strerror: extended-ack message" for a failed transaction. */
const char *ftnl_strerror(const struct ftnl *nl, int err);

#endif /* FTNL_H */
