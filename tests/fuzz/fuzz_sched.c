// SPDX-License-Identifier: GPL-2.0
/*
 * Harness: the scheduling library (lib/sched) on arbitrary request
 * sets, judged by its independent checker (ft_sched_check.c).
 *
 * A small fabric (now and then one level with more than 64 parents, so
 * the multi-word availability vectors run), free lanes full, random or
 * arbitrary (circuits in place, or more than the links have), then rounds
 * from the bytes: requests with any leaves and lanes, any algorithm,
 * order (invalid ones too), release, random fit, seed and rearrangement
 * budget. ft_sched_run() refuses exactly the invalid options; otherwise
 * ft_sched_check_round() must accept the round (statuses, H, paths, lanes
 * per link against the free lanes before and after, exactly what was
 * granted for the algorithms that keep nothing on refusal). Rounds chain
 * on what is left; giving every granted path back (ft_sched_give())
 * restores the free lanes of the all-or-nothing algorithms exactly.
 * Leiserson's schedule of the same set must pass ft_sched_check_cycles().
 */
#include <stdint.h>
#include <stdio.h>

#include "sched/ft_sched.h"
#include "sched/ft_sched_check.h"
#include "fz_shape.h"
#include "fz_trap.h"

#define MAX_REQS	48
#define MAX_ROUNDS	4

static const struct fz_limits lim = { .h = 4, .m = 5, .w = 4, .lanes = 3, .n = 256 };

struct round {
	struct ft_sched_opts o;
	struct ft_sched_req req[MAX_REQS];
	struct ft_sched_out out[MAX_REQS];
	u32 n;
};

/* A shape, sometimes with a wide top level (w up to 80: two words). */
static void shape(struct fz_bytes *b, struct ft_topo *t)
{
	u32 m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], lanes[FT_MAX_LEVELS], h;

	h = fz_shape(b, &lim, m, w, lanes);
	if (h > 1 && !(fz_u8(b) % 8))
		w[h - 1] = fz_range(b, 60, 80);
	FZ_CHECK(!ft_topo_init(t, h, m, w, lanes), "a small shape refused");
}

/*
 * Free lanes: all, some (circuits in place), or anything at all; true
 * when no link has more free lanes than it has lanes.
 */
static bool set_free(struct fz_bytes *b, struct ft_sched *s,
		     const struct ft_topo *t, u32 *free_lanes)
{
	u32 mode = fz_u8(b) % 4, i, n = ft_topo_dlinks(t), lvl, local, dir;

	if (!mode)
		return true;
	for (i = 0; i < n; i++) {
		ft_topo_dlink_decode(t, i, &lvl, &local, &dir);
		free_lanes[i] = mode < 3 ? fz_range(b, 0, t->lanes[lvl]) :
				fz_u8(b) % 8 ? fz_range(b, 0, 2 * t->lanes[lvl]) : fz_u32(b);
	}
	FZ_CHECK(!ft_sched_set_free(s, free_lanes), "ft_sched_set_free");
	return mode < 3;
}

static void make_round(struct fz_bytes *b, const struct ft_topo *t,
		       struct round *r)
{
	bool unit;
	u32 i;

	r->o.algo = fz_range(b, 0, FT_SCHED_NALGOS);
	ft_sched_opts_default(&r->o, r->o.algo);
	r->o.order = fz_range(b, 0, FT_SCHED_NORDERS);
	r->o.release_on_failure = fz_u8(b) & 1;
	r->o.random_fit = fz_u8(b) & 1;
	r->o.seed = fz_u64(b);
	r->o.rearrange = fz_u8(b) & 1 ? fz_range(b, 0, 300) : FT_SCHED_REARRANGE_DEFAULT;
	/* one lane each: OPTIMAL's exact pass and Leiserson's messages */
	unit = fz_u8(b) & 1;
	r->n = fz_range(b, 0, MAX_REQS);
	for (i = 0; i < r->n; i++) {
		r->req[i].src = fz_u8(b) % 16 ? fz_range(b, 0, t->n - 1) : fz_u32(b);
		r->req[i].dst = fz_u8(b) % 16 ? fz_range(b, 0, t->n - 1) : fz_u32(b);
		r->req[i].lanes = unit ? 1 : fz_u8(b) % 16 ? fz_range(b, 0, 3) : fz_u32(b);
	}
}

/* Refused requests keep nothing: release, or all-or-nothing algorithms. */
static bool exact(const struct ft_sched_opts *o)
{
	return o->release_on_failure || o->algo == FT_SCHED_RANDOM ||
	       o->algo == FT_SCHED_OPTIMAL;
}

/* One round, checked; false when the options were (rightly) refused. */
static bool run_round(struct ft_sched *s, const struct ft_topo *t,
		      struct round *r, u32 *before, size_t bytes)
{
	char why[256];
	int err;

	memcpy(before, ft_sched_free_lanes(s), bytes);
	err = ft_sched_run(s, &r->o, r->req, r->n, r->out, NULL);
	if (r->o.algo >= FT_SCHED_NALGOS || r->o.order >= FT_SCHED_NORDERS) {
		FZ_CHECK(err == -EINVAL, "options %d/%d accepted: %d", r->o.algo,
			 r->o.order, err);
		FZ_CHECK(!memcmp(before, ft_sched_free_lanes(s), bytes),
			 "refused options changed the free lanes");
		return false;
	}
	FZ_CHECK(!err, "ft_sched_run(%s): %d", ft_sched_algo_name(r->o.algo), err);
	FZ_CHECK(!ft_sched_check_round(t, before, ft_sched_free_lanes(s),
				       exact(&r->o), r->req, r->n, r->out, why,
				       sizeof(why)),
		 "%s order %s%s%s, %u requests: %s", ft_sched_algo_name(r->o.algo),
		 ft_sched_order_name(r->o.order),
		 r->o.release_on_failure ? " release" : "",
		 r->o.random_fit ? " random-fit" : "", r->n, why);
	return true;
}

/* Give a round's granted paths back. */
static void give_back(struct ft_sched *s, const struct round *r)
{
	u32 port[FT_MAX_LEVELS], i;
	int err;

	for (i = 0; i < r->n; i++) {
		if (r->out[i].status != FT_SCHED_GRANTED || !r->out[i].hh)
			continue;
		ft_sched_ports(&r->out[i], port);
		err = ft_sched_give(s, r->req[i].src, r->req[i].dst, port,
				    r->req[i].lanes);
		FZ_CHECK(!err, "giving back request %u: %d", i, err);
	}
}

static void leiserson(struct fz_bytes *b, struct ft_sched *s,
		      const struct ft_topo *t, const struct round *r)
{
	struct ft_sched_out out[MAX_REQS];
	struct ft_sched_cycles cyc;
	char why[256];
	int err;

	err = ft_sched_leiserson(s, r->req, r->n, fz_u8(b) & 1, out, &cyc, NULL);
	FZ_CHECK(!err, "ft_sched_leiserson: %d", err);
	FZ_CHECK(!ft_sched_check_cycles(t, ft_sched_free_lanes(s), r->req, r->n,
					out, &cyc, why, sizeof(why)),
		 "leiserson, %u messages: %s", r->n, why);
	ft_sched_cycles_free(&cyc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fz_bytes b = { data, size };
	struct round *r = calloc(MAX_ROUNDS, sizeof(*r));
	u32 *start, *before, k, nr = 0;
	struct ft_sched *s;
	bool within;
	struct ft_topo t;
	size_t bytes;

	shape(&b, &t);
	bytes = (size_t)ft_topo_dlinks(&t) * sizeof(u32);
	s = ft_sched_create(&t);
	start = malloc(bytes);
	before = malloc(bytes);
	if (!r || !s || !start || !before)
		abort();
	within = set_free(&b, s, &t, start);
	memcpy(start, ft_sched_free_lanes(s), bytes);
	if (fz_u8(&b) % 4 == 0) {
		make_round(&b, &t, &r[0]);
		leiserson(&b, s, &t, &r[0]);
		FZ_CHECK(!memcmp(start, ft_sched_free_lanes(s), bytes),
			 "leiserson changed the free lanes");
	}
	while (nr < MAX_ROUNDS && fz_more(&b)) {
		make_round(&b, &t, &r[nr]);
		nr += run_round(s, &t, &r[nr], before, bytes);
	}
	for (k = 0; k < nr && exact(&r[k].o); k++)
		;
	if (within && k == nr) {	/* every round kept only what it granted */
		for (k = nr; k-- > 0;)
			give_back(s, &r[k]);
		FZ_CHECK(!memcmp(start, ft_sched_free_lanes(s), bytes),
			 "giving every grant back did not restore the free lanes");
	}
	ft_sched_destroy(s);
	free(start);
	free(before);
	free(r);
	return 0;
}
