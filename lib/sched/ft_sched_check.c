// SPDX-License-Identifier: GPL-2.0
/*
 * The validator: ft_topo_path() and a lane count per directed link,
 * nothing from the schedulers.
 */
#include <stdarg.h>

#include "ft_sched_check.h"

__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (why && len) {
		va_start(ap, fmt);
		vsnprintf(why, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static bool req_valid(const struct ft_topo *t, const struct ft_sched_req *r)
{
	return r->src < t->n && r->dst < t->n && r->lanes >= 1;
}

/* The path of a granted request, checked; 0 or -1 with @why. */
static int granted_path(const struct ft_topo *t, const struct ft_sched_req *r,
			const struct ft_sched_out *o, u32 j,
			struct ft_path *p, char *why, size_t len)
{
	u32 i, hh = ft_topo_common_level(t, r->src, r->dst);
	u32 port[FT_MAX_LEVELS];

	for (i = 0; i < FT_MAX_LEVELS; i++)
		port[i] = o->port[i];
	if (o->hh != hh)
		return bad(why, len, "request %u: H %u, expected %u", j,
			   o->hh, hh);
	if (ft_topo_path(t, r->src, r->dst, port, p))
		return bad(why, len, "request %u: invalid ports", j);
	if (p->n != 2 * hh)
		return bad(why, len, "request %u: path of %u links, H %u", j,
			   p->n, hh);
	for (i = hh; i < FT_MAX_LEVELS; i++)
		if (o->port[i])
			return bad(why, len, "request %u: port beyond H", j);
	for (i = 0; i < hh; i++)
		if (o->port[i] >= t->w[i + 1])
			return bad(why, len, "request %u: P_%u >= w", j, i + 1);
	return 0;
}

/* Statuses against the requests; lanes_one: INVALID also for lanes != 1. */
static int check_status(const struct ft_topo *t,
			const struct ft_sched_req *r,
			const struct ft_sched_out *o, u32 j, bool lanes_one,
			char *why, size_t len)
{
	bool valid = req_valid(t, r) && (!lanes_one || r->lanes == 1);

	if (o->status > FT_SCHED_INVALID)
		return bad(why, len, "request %u: status %u", j, o->status);
	if (valid != (o->status != FT_SCHED_INVALID))
		return bad(why, len, "request %u: %s but marked %s", j,
			   valid ? "valid" : "invalid",
			   o->status == FT_SCHED_INVALID ? "invalid" :
			   "valid");
	if (o->status == FT_SCHED_REFUSED) {
		u32 hh = ft_topo_common_level(t, r->src, r->dst);

		if (!hh)
			return bad(why, len, "request %u: H = 0 refused", j);
		if (o->fail_level < 1 || o->fail_level > hh ||
		    o->fail_where < FT_SCHED_AT_UP ||
		    o->fail_where > FT_SCHED_AT_BOTH)
			return bad(why, len,
				   "request %u: refused at level %u/%u", j,
				   o->fail_level, o->fail_where);
	}
	return 0;
}

int ft_sched_check_round(const struct ft_topo *t, const u32 *free_before,
			 const u32 *free_after, bool exact,
			 const struct ft_sched_req *req, u32 n,
			 const struct ft_sched_out *out, char *why,
			 size_t len)
{
	u32 ndl = ft_topo_dlinks(t), j, k;
	struct ft_path p;
	u64 *used = calloc(ndl, sizeof(u64));
	int err = -1;

	if (!used)
		return bad(why, len, "out of memory");
	for (j = 0; j < n; j++) {
		if (check_status(t, &req[j], &out[j], j, false, why, len))
			goto done;
		if (out[j].status != FT_SCHED_GRANTED)
			continue;
		if (granted_path(t, &req[j], &out[j], j, &p, why, len))
			goto done;
		for (k = 0; k < p.n; k++)
			used[p.link[k]] += req[j].lanes;
	}
	for (k = 0; k < ndl; k++) {
		if (used[k] > free_before[k]) {
			bad(why, len, "link %u carries %llu lanes of %u free",
			    k, (unsigned long long)used[k], free_before[k]);
			goto done;
		}
		if (!free_after)
			continue;
		if (free_after[k] > free_before[k]) {
			bad(why, len, "link %u gained lanes: %u -> %u", k,
			    free_before[k], free_after[k]);
			goto done;
		}
		if (free_before[k] - free_after[k] < used[k] ||
		    (exact && free_before[k] - free_after[k] != used[k])) {
			bad(why, len,
			    "link %u: %u -> %u free but granted paths use %llu",
			    k, free_before[k], free_after[k],
			    (unsigned long long)used[k]);
			goto done;
		}
	}
	err = 0;
done:
	free(used);
	return err;
}

int ft_sched_check_cycles(const struct ft_topo *t, const u32 *cap,
			  const struct ft_sched_req *msg, u32 n,
			  const struct ft_sched_out *out,
			  const struct ft_sched_cycles *cyc, char *why,
			  size_t len)
{
	u32 ndl = ft_topo_dlinks(t), j, k, c, x, ngranted = 0, i;
	u32 port[FT_MAX_LEVELS];
	u32 *load = calloc(ndl, sizeof(u32));
	u8 *seen = calloc(n + 1, 1);
	bool w1 = true;
	struct ft_path p;
	int err = -1;

	if (!load || !seen) {
		bad(why, len, "out of memory");
		goto done;
	}
	for (i = 1; i <= t->h; i++)
		w1 &= t->w[i] == 1;
	for (j = 0; j < n; j++) {
		if (check_status(t, &msg[j], &out[j], j, true, why, len))
			goto done;
		if (out[j].status == FT_SCHED_GRANTED) {
			ngranted++;
			if (out[j].cycle >= cyc->n) {
				bad(why, len, "message %u: cycle %u of %u", j,
				    out[j].cycle, cyc->n);
				goto done;
			}
		}
		if (out[j].status != FT_SCHED_REFUSED || !w1)
			continue;
		/* w = 1: the path is forced; some link must have no lane. */
		for (k = 0; k < FT_MAX_LEVELS; k++)
			port[k] = out[j].port[k];
		ft_topo_path(t, msg[j].src, msg[j].dst, port, &p);
		for (k = 0; k < p.n && cap[p.link[k]]; k++)
			;
		if (k == p.n) {
			bad(why, len, "message %u refused on a usable path",
			    j);
			goto done;
		}
	}
	if (!cyc->start || cyc->start[0] || cyc->start[cyc->n] != cyc->nmsg ||
	    cyc->nmsg != ngranted) {
		bad(why, len, "cycle lists hold %u messages, %u scheduled",
		    cyc->nmsg, ngranted);
		goto done;
	}
	for (c = 0; c < cyc->n; c++) {
		if (cyc->start[c + 1] < cyc->start[c]) {
			bad(why, len, "cycle %u: bad offsets", c);
			goto done;
		}
		for (x = cyc->start[c]; x < cyc->start[c + 1]; x++) {
			j = cyc->msg[x];
			if (j >= n || seen[j] ||
			    out[j].status != FT_SCHED_GRANTED ||
			    out[j].cycle != c) {
				bad(why, len, "cycle %u: message %u %s", c, j,
				    j >= n ? "out of range" :
				    seen[j] ? "seen twice" :
				    "not scheduled in it");
				goto done;
			}
			seen[j] = 1;
			if (granted_path(t, &msg[j], &out[j], j, &p, why,
					 len))
				goto done;
			for (k = 0; k < p.n; k++)
				if (++load[p.link[k]] > cap[p.link[k]]) {
					bad(why, len,
					    "cycle %u: link %u over %u lanes",
					    c, p.link[k], cap[p.link[k]]);
					goto done;
				}
		}
		for (x = cyc->start[c]; x < cyc->start[c + 1]; x++) {
			j = cyc->msg[x];
			for (k = 0; k < FT_MAX_LEVELS; k++)
				port[k] = out[j].port[k];
			ft_topo_path(t, msg[j].src, msg[j].dst, port, &p);
			for (k = 0; k < p.n; k++)
				load[p.link[k]] = 0;
		}
	}
	err = 0;
done:
	free(load);
	free(seen);
	return err;
}
