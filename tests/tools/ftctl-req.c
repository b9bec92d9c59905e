// SPDX-License-Identifier: GPL-2.0
/*
 * ftctl with a stand-in kernel, for tests/tools/ftctl-args: linked from
 * ftctl's own objects with -Wl,--wrap=ftnl_open,--wrap=ftctl_req_run, it
 * parses and builds every request as ftctl does, then prints each one
 * instead of sending it: the attributes as ftctl recorded them (name,
 * length), then the whole message in hex. Two command lines that print
 * the same sent the same bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <netlink/msg.h>
#include <netlink/socket.h>

#include "ftctl.h"

int __wrap_ftnl_open(struct ftnl *nl);
int __wrap_ftctl_req_run(struct ftctl *ctl, struct ftctl_req *r, const char *what,
			 int (*reply)(struct nl_msg *msg, void *arg), void *arg);

/* A socket that is never connected, and a made-up family. */
int __wrap_ftnl_open(struct ftnl *nl)
{
	memset(nl, 0, sizeof(*nl));
	nl->err_offset = -1;
	nl->sk = nl_socket_alloc();
	nl->family = 0x42;
	return nl->sk ? 0 : -ENOMEM;
}

int __wrap_ftctl_req_run(struct ftctl *ctl, struct ftctl_req *r, const char *what,
			 int (*reply)(struct nl_msg *msg, void *arg), void *arg)
{
	struct nlmsghdr *h = nlmsg_hdr(r->msg);
	const unsigned char *b = (const unsigned char *)h;
	unsigned int i;

	(void)ctl;
	(void)reply;
	(void)arg;
	printf("request %s: %u bytes\n", what, h->nlmsg_len);
	for (i = 0; i < r->n; i++)
		printf("  %s (%u bytes)\n", r->rec[i].aname, r->rec[i].len);
	for (i = 0; i < h->nlmsg_len; i++)
		printf("%02x%s", b[i], i % 16 == 15 || i + 1 == h->nlmsg_len ? "\n" : " ");
	ftctl_req_free(r);
	return FTCTL_EXIT_OK;
}
