// SPDX-License-Identifier: GPL-2.0
#include "util.h"

const u32 ones[FT_MAX_LEVELS] = {
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

int ft_lw(struct ft_topo *t, u32 l, u32 w, u32 lanes)
{
	u32 m[FT_MAX_LEVELS], ww[FT_MAX_LEVELS], c[FT_MAX_LEVELS], i;

	for (i = 0; i < l; i++) {
		m[i] = w;
		ww[i] = i ? w : 1;
		c[i] = lanes;
	}
	return ft_topo_init(t, l, m, ww, c);
}

void perm_reqs(struct ft_sched_req *q, const u32 *perm, u32 n, u32 lanes)
{
	u32 i;

	for (i = 0; i < n; i++) {
		q[i].src = i;
		q[i].dst = perm[i];
		q[i].lanes = lanes;
	}
}

void random_shape(struct ft_rand *r, struct ft_topo *t, u32 max_h)
{
	u32 h, m[FT_MAX_LEVELS], w[FT_MAX_LEVELS], c[FT_MAX_LEVELS], i, n;

	do {
		h = 1 + ft_rand_below(r, max_h);
		n = 1;
		for (i = 0; i < h; i++) {
			m[i] = 2 + ft_rand_below(r, 4);
			w[i] = 1 + ft_rand_below(r, m[i] + 1);
			c[i] = 1 + ft_rand_below(r, 3);
			n *= m[i];
		}
	} while (n > 400 || ft_topo_init(t, h, m, w, c));
}

void trial_shape(struct ft_rand *r, struct ft_topo *t, u32 trial, u32 every,
		 u32 lanes, u32 max_h)
{
	if (trial % every)
		random_shape(r, t, max_h);
	else
		ft_lw(t, 2 + trial % 3, 4, 1 + trial % lanes);
}

int run_checked(struct ft_sched *s, const struct ft_sched_opts *o,
		const struct ft_sched_req *q, u32 n, struct ft_sched_out *out,
		struct ft_sched_stats *st, char *why, size_t len)
{
	const struct ft_topo *t = ft_sched_topo(s);
	u32 nd = ft_topo_dlinks(t);
	u32 *before = malloc(nd * sizeof(u32));
	bool exact;
	int err;

	if (!before)
		return -1;
	memcpy(before, ft_sched_free_lanes(s), nd * sizeof(u32));
	err = ft_sched_run(s, o, q, n, out, st);
	if (err) {
		snprintf(why, len, "ft_sched_run: %d", err);
		free(before);
		return -1;
	}
	exact = o->release_on_failure || o->algo == FT_SCHED_RANDOM ||
		o->algo == FT_SCHED_OPTIMAL;
	err = ft_sched_check_round(t, before, ft_sched_free_lanes(s), exact,
				   q, n, out, why, len);
	free(before);
	return err;
}

const char *pattern_name(enum pattern k)
{
	static const char *const names[] = {
		"permutation", "all-to-all subset", "hot spot", "random pairs",
		"shift",
	};

	return k < PAT_NPATTERNS ? names[k] : "?";
}

u32 make_pattern(struct ft_rand *r, const struct ft_topo *t, enum pattern k,
		 u32 max_lanes, struct ft_sched_req *q, u32 max)
{
	u32 n = t->n, i, j, c = 0, *p, hot, nhot;

	switch (k) {
	case PAT_PERM:
		p = malloc(n * sizeof(u32));
		ft_rand_perm(r, p, n);
		for (i = 0; i < n && c < max; i++)
			q[c++] = (struct ft_sched_req){ i, p[i], 1 };
		free(p);
		break;
	case PAT_A2A:
		for (i = 0; i < n; i++)
			for (j = 0; j < n && c < max; j++)
				if (i != j && !ft_rand_below(r, 4))
					q[c++] = (struct ft_sched_req){ i, j,
									1 };
		break;
	case PAT_HOT:
		nhot = 1 + ft_rand_below(r, 3);
		for (i = 0; i < n && c < max; i++) {
			hot = ft_rand_below(r, nhot) * (n / nhot);
			q[c++] = (struct ft_sched_req){ i, hot, 1 };
		}
		break;
	case PAT_RANDOM:
		for (i = 0; i < n && c < max; i++)
			q[c++] = (struct ft_sched_req){
				ft_rand_below(r, n), ft_rand_below(r, n), 1 };
		break;
	default:
		for (i = 0; i < n && c < max; i++)
			q[c++] = (struct ft_sched_req){ i, (i + n / 2) % n, 1 };
		break;
	}
	for (i = 0; i < c; i++)
		q[i].lanes = 1 + ft_rand_below(r, max_lanes);
	return c;
}

void random_reservations(struct ft_rand *r, struct ft_sched *s, u32 count)
{
	const struct ft_topo *t = ft_sched_topo(s);
	u32 port[FT_MAX_LEVELS], i, k;

	for (k = 0; k < count; k++) {
		for (i = 0; i < t->h; i++)
			port[i] = ft_rand_below(r, t->w[i + 1]);
		/* Refused when full: that is fine, it is only load. */
		ft_sched_take(s, ft_rand_below(r, t->n), ft_rand_below(r, t->n),
			      port, 1 + ft_rand_below(r, 2));
	}
}
