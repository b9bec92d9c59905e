/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Injection rules: which waiting messages are offered in
 * a delivery cycle (seed 000: GREEDY, RANDOM, RANDOM').
 *
 * Per pair, what is offered is always a count n of messages taken from
 * the head of the pair's queue, so pair order is kept.  The count has the
 * paper's distribution: for RANDOM, each of the q waiting messages flips
 * its own coin of probability p and n is the number of heads; for RANDOM'
 * n is the number of untried messages that drew this slot.  Messages of
 * one pair are interchangeable (same endpoints, ports drawn per message),
 * so sending the first n instead of the n that won their flips changes no
 * channel's load.  Stopping at the first lost flip would instead cap a
 * pair's offer at a geometric count (mean p / (1 - p) whatever q is),
 * starving pairs with long queues.
 *
 * The schedule is global to the fabric (U is every undelivered message)
 * and restarts when the backlog empties: the next message set starts a
 * fresh RANDOM (one GREEDY cycle, then lambda_guess = 2) or RANDOM'
 * (z = 1).  Messages arriving while a set is in progress join U.
 */
#ifndef FT_INJECT_H
#define FT_INJECT_H

#include "ft_topo.h"
#include "ft_rand.h"

enum ft_inject_rule {
	FT_INJECT_ALL,		/* GREEDY: every waiting message */
	FT_INJECT_RANDOM,	/* RANDOM, figures 2 and 3 */
	FT_INJECT_RANDOM_PRIME,	/* RANDOM', figure 7 */
	FT_INJECT_NR
};

/* Upper bound of k1 and k2 (r: a quarter), Q16: products fit in 64 bits. */
#define FT_INJECT_MAX_PARAM	(1024U << FT_Q16_SHIFT)
/* lambda_guess and z stop growing here (2^16 and 2^32 cycles). */
#define FT_INJECT_MAX_GUESS	0x100000000ULL
#define FT_INJECT_MAX_Z		0x100000000ULL
/*
 * Messages of one pair that draw per cycle (one coin each): bounds the
 * work of a cycle in atomic context. A pair with more waiting draws for
 * its first FT_INJECT_MAX_DRAWS; the rest draw in later cycles.
 */
#define FT_INJECT_MAX_DRAWS	4096U

/**
 * struct ft_inject_params - rule and RANDOM's constants, all Q16.
 * @rule: injection rule.
 * @r_q16: congestion parameter r, 1..256; 0: ft_congestion_r().
 * @k1_q16: k1; 0: 4 r.
 * @k2_q16: k2; 0: r.
 *
 * The proof's constants (k1 = 4 e^4 r^2 ln r, k2 = 36 r) are about 10^5
 * and 500; the authors expect much smaller ones to work.  The defaults
 * give each message about k1 / (r lambda) * lambda = 4 tries per inner
 * loop at probability 1 / (r lambda), each delivered with probability at
 * least 1/2 (Lemma 6), and make the lg n floor of the loop r lg n cycles.
 */
struct ft_inject_params {
	enum ft_inject_rule rule;
	u32 r_q16;
	u32 k1_q16;
	u32 k2_q16;
};

/**
 * struct ft_inject_pair - RANDOM' state a caller keeps per pair (zeroed).
 * @gen: pass this state belongs to; stale means no message tried yet.
 * @tried: messages of the queue already sent (and blocked) in this pass.
 */
struct ft_inject_pair {
	u32 gen;
	u32 tried;
};

/**
 * struct ft_inject - the fabric's injection schedule.
 * @rule: injection rule.
 * @r_q16: r in use.
 * @k1_q16: k1 in use.
 * @k2_q16: k2 in use.
 * @lg_n: lg n = max(1, ceil(log2 n)).
 * @lglg_n: max(1, ceil(log2 lg n)).
 * @phase: RANDOM: FT_RANDOM_* below.
 * @final: RANDOM: this cycle is TRY-GUESS's closing "send U".
 * @guess_q16: RANDOM: lambda_guess.
 * @lambda_q16: RANDOM: TRY-GUESS's lambda.
 * @reps: RANDOM: cycles left at this lambda (or in the final send).
 * @p_q32: this cycle's offer probability (all rules).
 * @z: RANDOM': cycles in this pass.
 * @slot: RANDOM': this cycle's slot, 1..z.
 * @gen: pass generation, bumped per pass and per restart.
 * @active: a message set is in progress (the last begin saw a backlog).
 */
struct ft_inject {
	enum ft_inject_rule rule;
	u32 r_q16;
	u32 k1_q16;
	u32 k2_q16;
	u32 lg_n;
	u32 lglg_n;
	u32 phase;
	u32 final;
	u64 guess_q16;
	u64 lambda_q16;
	u64 reps;
	u64 p_q32;
	u64 z;
	u64 slot;
	u32 gen;
	u32 active;
};

#define FT_RANDOM_IDLE		0	/* no message set in progress */
#define FT_RANDOM_FIRST		1	/* line 1: send M */
#define FT_RANDOM_SQUARE	2	/* lines 3-6: guesses squared */
#define FT_RANDOM_DOUBLE	3	/* lines 7-11: guesses doubled */

int ft_inject_init(struct ft_inject *inj, const struct ft_topo *t,
		   const struct ft_inject_params *p);
void ft_inject_begin(struct ft_inject *inj, u64 backlog);
u32 ft_inject_offer(struct ft_inject *inj, struct ft_rand *r,
		    struct ft_inject_pair *ps, u32 queued);
void ft_inject_pair_done(const struct ft_inject *inj,
			 struct ft_inject_pair *ps, u32 offered,
			 u32 delivered);
void ft_inject_end(struct ft_inject *inj);

#endif /* FT_INJECT_H */
