// SPDX-License-Identifier: GPL-2.0
/*
 * ftnl_each_entry(): the one decoder of the wire's arrays of structs, on
 * demand dump messages built here as the kernel lays them out (one entry
 * per attribute), packed several to an attribute, torn, and misaligned.
 */
#include <errno.h>
#include <string.h>
#include <netlink/genl/genl.h>

#include "tap.h"
#include "ftnl.h"
#include "linux/fattree.h"
#include "linux/fattree_structs.h"

struct seen {
	struct fattree_demand d[16];
	int n, stop_at;
};

static int take(const void *e, void *arg)
{
	struct seen *s = arg;

	if (s->n == s->stop_at)
		return -E2BIG;
	memcpy(&s->d[s->n++], e, sizeof(s->d[0]));
	return 0;
}

static struct nl_msg *dump_msg(void)
{
	struct nl_msg *msg = nlmsg_alloc();

	genlmsg_put(msg, 0, 0, 0x20, 0, NLM_F_MULTI, FATTREE_CMD_DEMAND_GET, 1);
	nla_put_string(msg, FATTREE_A_DEMAND_FABRIC, "f0");
	return msg;
}

static struct fattree_demand entry(uint32_t i)
{
	struct fattree_demand d = {
		.src = i, .dst = 100 + i, .backlog = 7 * i, .circuit_lanes = i & 1,
		.age = 0x100000000ULL + i,
	};

	return d;
}

/* The first @n entries taken are entry(0..n-1). */
static int same(const struct seen *s, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		struct fattree_demand d = entry((uint32_t)i);

		if (memcmp(&s->d[i], &d, sizeof(d)))
			return 0;
	}
	return s->n >= n;
}

int main(void)
{
	struct fattree_demand d[3] = { entry(0), entry(1), entry(2) };
	struct seen s = { .stop_at = -1 };
	struct nl_msg *msg = dump_msg();
	long n;

	/* One per attribute, with a u32 before them: the u64 field sits 4-byte aligned. */
	nla_put_u32(msg, FATTREE_A_DEMAND_CYCLE, 9);
	nla_put(msg, FATTREE_A_DEMAND_ENTRY, sizeof(d[0]), &d[0]);
	nla_put(msg, FATTREE_A_DEMAND_ENTRY, sizeof(d[1]), &d[1]);
	n = ftnl_each_demand(msg, take, &s);
	tap_ok(n == 2 && s.n == 2 && same(&s, 2),
	       "one entry per attribute: both, in order, intact (%ld)", n);
	/* Several packed in one attribute are taken too. */
	nla_put(msg, FATTREE_A_DEMAND_ENTRY, sizeof(d), d);
	s.n = 0;
	n = ftnl_each_demand(msg, take, &s);
	tap_ok(n == 5 && s.n == 5 && same(&s, 2) && !memcmp(&s.d[2], &d[0], sizeof(d)),
	       "three packed in one attribute after two: five (%ld)", n);
	s.n = 0;
	s.stop_at = 3;
	n = ftnl_each_demand(msg, take, &s);
	tap_ok(n == -E2BIG && s.n == 3, "the callback's error stops the walk and is returned");
	nlmsg_free(msg);

	msg = dump_msg();
	n = ftnl_each_demand(msg, take, &s);
	tap_ok(n == 0, "a message without entries: none");
	nla_put(msg, FATTREE_A_DEMAND_ENTRY, sizeof(d[0]) - 4, &d[0]);
	s.n = 0;
	s.stop_at = -1;
	n = ftnl_each_demand(msg, take, &s);
	tap_ok(n == -EPROTO && s.n == 0, "a torn entry: -EPROTO, nothing taken");
	tap_ok(ftnl_each_entry(msg, FATTREE_A_DEMAND_ENTRY, FTNL_ENTRY_MAX + 1, take, &s) ==
	       -EINVAL, "an entry larger than the decoder's buffer is refused");
	nlmsg_free(msg);
	return tap_done();
}
