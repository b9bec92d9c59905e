// SPDX-License-Identifier: GPL-2.0
/*
 * GREEDY, RANDOM and RANDOM' as per-cycle schedules.
 *
 * RANDOM (seed 000, figures 2-3) is a loop nest; here it is unrolled
 * into a state machine advanced once per delivery cycle:
 *
 *   FIRST   send M                                  (p = 1, one cycle)
 *   SQUARE  while k1 g < k2 lg n: TRY-GUESS(g); g = g^2     (g from 2)
 *   DOUBLE  g = (k2 / k1) lg n lg(lg n); forever: TRY-GUESS(g); g = 2 g
 *   TRY-GUESS(g): lambda = g; while lambda > 1: max(k1 lambda, k2 lg n)
 *           cycles at p = 1 / (r lambda); lambda = lambda / 2.  Then one
 *           cycle at p = 1 (send U).
 *
 * The "U != empty" tests are the caller's backlog: ft_inject_begin()
 * with an empty backlog restarts the schedule.
 */
#include "ft_inject.h"
#include "ft_load.h"
#include "ft_math.h"

/* g^2 in Q16, saturating at FT_INJECT_MAX_GUESS (2^24 squared is 2^32). */
static u64 ft_q16_square(u64 g)
{
	if (g >= (1ULL << 24))
		return FT_INJECT_MAX_GUESS;
	return ft_min_u64((g * g) >> FT_Q16_SHIFT, FT_INJECT_MAX_GUESS);
}

/* Start one round of TRY-GUESS at the current lambda. */
static void ft_random_round(struct ft_inject *inj)
{
	u64 a, b, inv_r;

	if (inj->lambda_q16 <= FT_Q16_ONE) {
		inj->final = 1;
		inj->reps = 1;
		inj->p_q32 = FT_Q32_ONE;
		return;
	}
	inj->final = 0;
	/* max{k1 lambda, k2 lg n} cycles, rounded up (Q32 products). */
	a = (inj->k1_q16 * inj->lambda_q16 + FT_Q32_ONE - 1) >> 32;
	b = ((u64)inj->k2_q16 * (inj->lg_n << FT_Q16_SHIFT) +
	     FT_Q32_ONE - 1) >> 32;
	inj->reps = ft_max_u64(ft_max_u64(a, b), 1);
	/* p = 1 / (r lambda) = (2^48 / r) * 2^16 / lambda, r >= 1. */
	inv_r = ft_div64(1ULL << 48, inj->r_q16);
	inj->p_q32 = ft_min_u64(ft_div64(inv_r << 16, inj->lambda_q16),
				FT_Q32_ONE);
}

static void ft_random_guess(struct ft_inject *inj)
{
	inj->lambda_q16 = inj->guess_q16;
	ft_random_round(inj);
}

/* Enter the doubling phase (line 7). */
static void ft_random_double(struct ft_inject *inj)
{
	u64 g = (u64)inj->k2_q16 * inj->lg_n * inj->lglg_n << FT_Q16_SHIFT;

	inj->phase = FT_RANDOM_DOUBLE;
	g = ft_div64(g, inj->k1_q16);
	inj->guess_q16 = ft_min_u64(ft_max_u64(g, 2 * FT_Q16_ONE),
				    FT_INJECT_MAX_GUESS);
	ft_random_guess(inj);
}

/* The squaring loop's test, line 3: k1 lambda_guess < k2 lg n. */
static void ft_random_square(struct ft_inject *inj)
{
	u64 lhs = inj->k1_q16 * inj->guess_q16;
	u64 rhs = (u64)inj->k2_q16 * (inj->lg_n << FT_Q16_SHIFT);

	inj->phase = FT_RANDOM_SQUARE;
	if (lhs < rhs)
		ft_random_guess(inj);
	else
		ft_random_double(inj);
}

static void ft_random_end(struct ft_inject *inj)
{
	switch (inj->phase) {
	case FT_RANDOM_FIRST:
		inj->guess_q16 = 2 * FT_Q16_ONE;
		ft_random_square(inj);
		return;
	case FT_RANDOM_SQUARE:
	case FT_RANDOM_DOUBLE:
		break;
	default:
		return;
	}
	if (--inj->reps)
		return;
	if (!inj->final) {
		inj->lambda_q16 /= 2;
		ft_random_round(inj);
		return;
	}
	if (inj->phase == FT_RANDOM_SQUARE) {
		inj->guess_q16 = ft_q16_square(inj->guess_q16);
		ft_random_square(inj);
	} else {
		inj->guess_q16 = ft_min_u64(2 * inj->guess_q16,
					    FT_INJECT_MAX_GUESS);
		ft_random_guess(inj);
	}
}

static void ft_inject_restart(struct ft_inject *inj)
{
	inj->active = 0;
	inj->phase = FT_RANDOM_IDLE;
	inj->final = 0;
	inj->reps = 0;
	inj->guess_q16 = 0;
	inj->lambda_q16 = 0;
	inj->p_q32 = 0;
	inj->z = 1;
	inj->slot = 1;
	inj->gen++;
}

/**
 * ft_inject_init() - set up a fabric's injection schedule.
 * @inj: schedule to fill.
 * @t: topology (for lg n and the default r).
 * @p: rule and constants; zero constants take the defaults.
 *
 * Return: 0 or -FT_EINVAL.
 */
int ft_inject_init(struct ft_inject *inj, const struct ft_topo *t,
		   const struct ft_inject_params *p)
{
	memset(inj, 0, sizeof(*inj));
	if (p->rule >= FT_INJECT_NR)
		return -FT_EINVAL;
	inj->rule = p->rule;
	inj->r_q16 = p->r_q16 ? p->r_q16 : ft_congestion_r(t);
	inj->k1_q16 = p->k1_q16 ? p->k1_q16 : 4 * inj->r_q16;
	inj->k2_q16 = p->k2_q16 ? p->k2_q16 : inj->r_q16;
	if (inj->r_q16 < FT_Q16_ONE || inj->r_q16 > FT_INJECT_MAX_PARAM / 4 ||
	    inj->k1_q16 > FT_INJECT_MAX_PARAM ||
	    inj->k2_q16 > FT_INJECT_MAX_PARAM) {
		memset(inj, 0, sizeof(*inj));
		return -FT_EINVAL;
	}
	inj->lg_n = ft_max_u32(ft_ilog2_ceil(t->n), 1);
	inj->lglg_n = ft_max_u32(ft_ilog2_ceil(inj->lg_n), 1);
	ft_inject_restart(inj);
	return 0;
}

/**
 * ft_inject_begin() - decide this cycle's offer probability.
 * @inj: schedule.
 * @backlog: messages waiting in the whole fabric now; 0 restarts the
 *           schedule (the message set is done).
 */
void ft_inject_begin(struct ft_inject *inj, u64 backlog)
{
	if (!backlog) {
		if (inj->active)
			ft_inject_restart(inj);
		return;
	}
	inj->active = 1;
	switch (inj->rule) {
	case FT_INJECT_ALL:
		inj->p_q32 = FT_Q32_ONE;
		break;
	case FT_INJECT_RANDOM:
		if (inj->phase == FT_RANDOM_IDLE) {
			inj->phase = FT_RANDOM_FIRST;
			inj->p_q32 = FT_Q32_ONE;
		}
		break;
	default:
		/* Slot i of z: an untried message picks it w.p. 1/(z-i+1). */
		inj->p_q32 = ft_div64(FT_Q32_ONE, inj->z - inj->slot + 1);
		break;
	}
}

static u32 ft_inject_binomial(struct ft_rand *r, u32 n, u64 p_q32)
{
	u32 k, c = 0;

	if (p_q32 >= FT_Q32_ONE)
		return n;
	for (k = 0; k < n && p_q32; k++)
		c += ft_rand_coin(r, p_q32);
	return c;
}

/**
 * ft_inject_offer() - how many head messages of one pair to offer.
 * @inj: schedule, after ft_inject_begin().
 * @r: the fabric's generator.
 * @ps: the pair's RANDOM' state (unused, may be NULL, for other rules).
 * @queued: messages waiting in the pair's queue.
 *
 * Cost: O(@queued) coin flips for random and random-prime, O(1) for all
 * and for cycles at probability 1.
 *
 * Return: n <= @queued; offer the first n messages of the queue.
 */
u32 ft_inject_offer(struct ft_inject *inj, struct ft_rand *r,
		    struct ft_inject_pair *ps, u32 queued)
{
	u32 untried;

	switch (inj->rule) {
	case FT_INJECT_ALL:
		return queued;
	case FT_INJECT_RANDOM:
		return ft_inject_binomial(r, queued, inj->p_q32);
	default:
		break;
	}
	if (ps->gen != inj->gen) {
		ps->gen = inj->gen;
		ps->tried = 0;
	}
	untried = queued > ps->tried ? queued - ps->tried : 0;
	return ft_inject_binomial(r, untried, inj->p_q32);
}

/**
 * ft_inject_pair_done() - tell RANDOM' what became of a pair's offer.
 * @inj: schedule.
 * @ps: the pair's state.
 * @offered: what ft_inject_offer() returned this cycle.
 * @delivered: how many of them were delivered.
 *
 * The @offered - @delivered blocked ones have used their slot of this
 * pass; they wait, unsent, for the next pass (z doubled).
 */
void ft_inject_pair_done(const struct ft_inject *inj,
			 struct ft_inject_pair *ps, u32 offered,
			 u32 delivered)
{
	if (inj->rule != FT_INJECT_RANDOM_PRIME || ps->gen != inj->gen ||
	    ft_warn_on(delivered > offered))
		return;
	ps->tried += offered - delivered;
}

/**
 * ft_inject_end() - advance the schedule past this cycle.
 * @inj: schedule.
 */
void ft_inject_end(struct ft_inject *inj)
{
	if (!inj->active)
		return;
	switch (inj->rule) {
	case FT_INJECT_RANDOM:
		ft_random_end(inj);
		break;
	case FT_INJECT_RANDOM_PRIME:
		if (++inj->slot > inj->z) {
			inj->z = ft_min_u64(2 * inj->z, FT_INJECT_MAX_Z);
			inj->slot = 1;
			inj->gen++;
		}
		break;
	default:
		break;
	}
}
