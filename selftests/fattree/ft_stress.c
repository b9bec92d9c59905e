// SPDX-License-Identifier: GPL-2.0
/*
 * ft_stress: load for faults_test.sh, as fast as netlink goes.
 *
 *   ft_stress cycles N [NAME]
 *	N times: create fabric NAME (default "cyc"; FT(1, 2), manually
 *	stepped), queue synthetic messages, step it until they arrive,
 *	delete it. Prints "cycles N ms T" and exits 1 at the first step
 *	that fails. Several at once, under other names, overlap the RCU
 *	grace periods that deleting network devices waits for.
 *   ft_stress circuits FABRIC SECONDS SEED
 *	For SECONDS: random batches of 1 to 8 circuit additions (random
 *	pairs, up-ports, 1 or 2 lanes, a lease or none) and deletions on
 *	FABRIC, a k-ary fabric of 16 leaves with h = 2. Refusals are part
 *	of the game; anything but EEXIST, ENOSPC and ENOENT (and E2BIG when
 *	the table is full) is an error. Prints the counts.
 *   ft_stress mem
 *	Prints "slab BYTES vmalloc BYTES vslack BYTES": slab objects and
 *	vmalloc in use after dropping caches and flushing per-CPU slabs, and
 *	the vmalloc difference that is no leak (ft_mem_vmalloc_slack()).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ftnl.h"
#include "ft_selftest.h"

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int cycles(struct ftnl *nl, long n, const char *name)
{
	struct fattree_inject_row row = { 0, 1, 2 };
	struct ft_fabric_info fi;
	double t0 = now_s();
	struct ft_spec s;
	long i;
	int err = 0;

	ft_spec_kary(&s, name, 1, 2);
	for (i = 0; i < n && !err; i++) {
		err = ft_fabric_new(nl, &s);
		err = err ?: ft_fabric_inject(nl, name, &row, 1);
		err = err ?: ft_fabric_step(nl, name, 2);
		err = err ?: ft_fabric_get(nl, name, &fi);
		if (!err && fi.synth_delivered != row.count)
			err = -EPROTO;
		if (err)
			fprintf(stderr, "ft_stress: cycle %ld: %s\n", i, ftnl_strerror(nl, err));
		err = ft_fabric_del(nl, name) ?: err;
	}
	printf("cycles %ld ms %.0f\n", i, (now_s() - t0) * 1e3);
	return err ? 1 : 0;
}

static uint64_t rs;

static uint32_t rn(uint32_t n)
{
	rs ^= rs >> 12;
	rs ^= rs << 25;
	rs ^= rs >> 27;
	return (uint32_t)((rs * 2685821657736338717ULL) >> 32) % n;
}

static int circuits(struct ftnl *nl, const char *name, double secs, uint64_t seed)
{
	long added = 0, deleted = 0, refused = 0, bad = 0, batches = 0;
	double end = now_s() + secs;
	struct fattree_circuit c[8];
	struct fattree_pair p[8];
	uint32_t k, i;
	int err;

	rs = seed | 1;
	while (now_s() < end) {
		k = 1 + rn(8);
		if (rn(3)) {
			memset(c, 0, sizeof(c));
			for (i = 0; i < k; i++) {
				c[i].src = rn(16);
				c[i].dst = (c[i].src + 1 + rn(15)) % 16;
				c[i].lanes = 1 + rn(2);
				c[i].lease = rn(2) ? 0 : 1 + rn(200);
				c[i].port[1] = rn(4);
			}
			err = ft_circuit_add(nl, name, c, k, NULL, NULL);
			if (!err)
				added += k;
		} else {
			for (i = 0; i < k; i++) {
				p[i].src = rn(16);
				p[i].dst = rn(16);
			}
			err = ft_circuit_del(nl, name, p, k);
			if (!err)
				deleted += k;
		}
		batches++;
		if (err == -EEXIST || err == -ENOSPC || err == -ENOENT || err == -E2BIG) {
			refused++;
		} else if (err) {
			if (!bad++)
				fprintf(stderr, "ft_stress: %s\n", ftnl_strerror(nl, err));
		}
	}
	printf("batches %ld added %ld deleted %ld refused %ld errors %ld\n",
	       batches, added, deleted, refused, bad);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct ftnl nl;
	int err;

	if (argc == 2 && !strcmp(argv[1], "mem")) {
		struct ft_mem m;

		if (ft_mem_snapshot(&m))
			return 1;
		printf("slab %lld vmalloc %lld vslack %lld\n", m.slab, m.vmalloc,
		       ft_mem_vmalloc_slack());
		return 0;
	}
	if (argc < 3 || (strcmp(argv[1], "cycles") && strcmp(argv[1], "circuits")) ||
	    (!strcmp(argv[1], "circuits") && argc != 5) || (!strcmp(argv[1], "cycles") && argc > 4)) {
		fprintf(stderr, "usage: ft_stress cycles N [NAME] | circuits FABRIC SECONDS SEED | mem\n");
		return 2;
	}
	err = ftnl_open(&nl);
	if (err) {
		fprintf(stderr, "ft_stress: %s\n", strerror(-err));
		return 1;
	}
	if (!strcmp(argv[1], "cycles"))
		err = cycles(&nl, strtol(argv[2], NULL, 0), argc == 4 ? argv[3] : "cyc");
	else
		err = circuits(&nl, argv[2], strtod(argv[3], NULL), strtoull(argv[4], NULL, 0));
	ftnl_close(&nl);
	return err;
}
