/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Circuits: (source leaf, destination leaf, up-ports, lanes, lease) that
 * reserve their lanes on every link of their path (seed 002's connection
 * model, with lanes). A fabric whose path choice is FT_PATH_CIRCUIT moves
 * only circuits' messages, each up to its lanes per cycle; under the
 * others (FT_PATH_SCHEDULED and FT_PATH_SCHEDULED_RANDOM are meant for
 * it) a pair's messages beyond its circuit's lanes, and those of pairs
 * without one, contend on the default path for the lanes no circuit
 * holds, and a pair whose circuit goes (deleted, expired, cut) takes its
 * default path again with its queue as it was.
 *
 * The table is preallocated; batches are admitted all or nothing: every
 * request is checked and every link keeps reserved <= lanes, or nothing
 * changes and the offending request is named. At most one circuit per
 * (source, destination) pair. Never allocates after init; safe in atomic
 * context.
 */
#ifndef FT_CIRCUITS_H
#define FT_CIRCUITS_H

#include "ft_lanes.h"

#define FT_CIRCUITS_MAX		0x100000U
#define FT_CIRCUIT_NONE		0xffffffffU

/**
 * struct ft_circuit_req - one circuit asked for.
 * @src: source leaf.
 * @dst: destination leaf.
 * @lanes: lanes reserved on every link of the path, >= 1.
 * @lease: cycles it lives; 0: until deleted.
 * @port: up-ports P_1..P_H (port[i - 1] = P_i, < w_i); entries beyond the
 *        pair's common level H are ignored.
 */
struct ft_circuit_req {
	u32 src;
	u32 dst;
	u32 lanes;
	u32 lease;
	u8 port[FT_MAX_LEVELS];
};

/**
 * struct ft_circuit - one installed circuit.
 * @src: source leaf.
 * @dst: destination leaf.
 * @lanes: lanes it reserves on each link of @path.
 * @hnext: next slot in its hash chain.
 * @expires: last cycle it serves (0: until deleted).
 * @created: cycles completed when it was admitted.
 * @carried: messages it carried.
 * @last_used: last cycle it carried a message (@created if never).
 * @left: lanes not yet given to an offer of its pair in cycle @left_cycle
 *        (ft_pairs_cycle(): the pair's flows share its lanes).
 * @left_cycle: the cycle @left is for, counted from 1 (0: none yet).
 * @path: its directed links, up then down.
 * @port: its up-ports P_1..P_H.
 */
struct ft_circuit {
	u32 src;
	u32 dst;
	u32 lanes;
	u32 hnext;
	u64 expires;
	u64 created;
	u64 carried;
	u64 last_used;
	u64 left_cycle;
	u32 left;
	struct ft_path path;
	u8 port[FT_MAX_LEVELS];
};

/* What became of a circuit, for struct ft_circuits' @event. */
enum ft_circuit_event {
	FT_CIRCUIT_INSTALLED,	/* admitted (ft_circuits_add()) */
	FT_CIRCUIT_DELETED,	/* asked away (ft_circuits_del()) */
	FT_CIRCUIT_EXPIRED,	/* its lease ended (ft_circuits_expire()) */
	FT_CIRCUIT_CUT,		/* its path lost a link (ft_circuits_cut()) */
};

/**
 * struct ft_circuits - the circuit table of one fabric.
 * @cap: slots.
 * @n: circuits installed.
 * @hmask: hash buckets - 1.
 * @c: the slots; a slot is in use when its circuit's @lanes is non-zero.
 * @bucket: hash heads by (src, dst).
 * @active: slots in use (@n of them): in admission order, except that
 *          removing one moves the last entry into its place.
 * @where: position of each slot in @active (FT_CIRCUIT_NONE when free).
 * @free: stack of free slots.
 * @nfree: slots on it.
 * @event: if set, told of every circuit installed (once admitted) or
 *         removed (before it goes), with @event_arg: the kernel's
 *         tracepoints. Called where the change is made, under the
 *         caller's lock.
 * @event_arg: its argument.
 */
struct ft_circuits {
	u32 cap;
	u32 n;
	u32 hmask;
	struct ft_circuit *c;
	u32 *bucket;
	u32 *active;
	u32 *where;
	u32 *free;
	u32 nfree;
	void (*event)(void *arg, const struct ft_circuit *c,
		      enum ft_circuit_event what);
	void *event_arg;
};

size_t ft_circuits_mem_size(u32 cap);
int ft_circuits_init(struct ft_circuits *cs, u32 cap);
void ft_circuits_destroy(struct ft_circuits *cs);

/*
 * Admit @n requests at once (cycle @now = cycles completed). Return 0, or
 * nothing changed and *@bad names the first offending request:
 * -FT_EINVAL (a leaf out of range, lanes 0 or above FT_MAX_LANES, a port
 * >= w_i), -FT_EEXIST (the pair has a circuit, or appears twice in the
 * batch), -FT_ENOSPC (some link would hold more reserved lanes than it
 * has: *@bad is the request that tipped it over; or the table is full:
 * *@bad is the first that did not fit). Checked in three passes, each in
 * request order: -FT_EINVAL for the whole batch, then -FT_EEXIST and room
 * in the table, then lanes.
 */
int ft_circuits_add(struct ft_circuits *cs, const struct ft_topo *t,
		    struct ft_lanes *l, const struct ft_circuit_req *req, u32 n,
		    u64 now, u32 *bad);

/**
 * enum ft_circuits_why - what a refused batch ran into, one kind for each
 * message a caller gives (the kernel's extended acks).
 * @FT_CIRCUITS_OK: nothing; the batch was admitted.
 * @FT_CIRCUITS_EMPTY: no entry at all (-FT_EINVAL).
 * @FT_CIRCUITS_TOO_MANY: more entries than the table has slots
 *	(-FT_E2BIG).
 * @FT_CIRCUITS_SAME_LEAF: a request joins a leaf to itself (-FT_EINVAL).
 * @FT_CIRCUITS_NO_ROOM: more requests than the table has free slots now
 *	(-FT_E2BIG).
 * @FT_CIRCUITS_BAD: no such leaf, a port P_i >= w_i, or lanes 0 or above
 *	FT_MAX_LANES (-FT_EINVAL).
 * @FT_CIRCUITS_EXISTS: the pair has a circuit, or an earlier request of
 *	the batch named it (-FT_EEXIST).
 * @FT_CIRCUITS_FAILED: the path crosses a failed link (-FT_ENOSPC).
 * @FT_CIRCUITS_LANES: a link of the path would hold more reserved lanes
 *	than it has (-FT_ENOSPC).
 */
enum ft_circuits_why {
	FT_CIRCUITS_OK,
	FT_CIRCUITS_EMPTY,
	FT_CIRCUITS_TOO_MANY,
	FT_CIRCUITS_SAME_LEAF,
	FT_CIRCUITS_NO_ROOM,
	FT_CIRCUITS_BAD,
	FT_CIRCUITS_EXISTS,
	FT_CIRCUITS_FAILED,
	FT_CIRCUITS_LANES,
};

/**
 * struct ft_circuits_refusal - why a batch was refused, and where.
 * @why: the kind.
 * @bad: the offending request, for the kinds that name one (SAME_LEAF,
 *	BAD, EXISTS, FAILED, LANES); 0 for the others.
 */
struct ft_circuits_refusal {
	enum ft_circuits_why why;
	u32 bad;
};

/*
 * Whether a batch of @n circuits, or of @n pairs to delete, could ever
 * be taken by the table, before anything is allocated for it: 0, or
 * -FT_EINVAL (FT_CIRCUITS_EMPTY) or -FT_E2BIG (FT_CIRCUITS_TOO_MANY).
 */
int ft_circuits_batch(const struct ft_circuits *cs, u32 n,
		      struct ft_circuits_refusal *rf);

/*
 * Admit a batch from outside (the kernel's CIRCUIT_ADD): a request must
 * join two different leaves and the table must have a free slot for each,
 * then ft_circuits_add() decides, and a lack of lanes on a failed link is
 * told apart from a lack of lanes. Return 0, or the error of *@rf's kind
 * (enum ft_circuits_why), nothing changed.
 */
int ft_circuits_admit(struct ft_circuits *cs, const struct ft_topo *t,
		      struct ft_lanes *l, const struct ft_circuit_req *req,
		      u32 n, u64 now, struct ft_circuits_refusal *rf);

/*
 * Delete the circuits of @n pairs (@pairs holds src, dst, src, dst, ...)
 * at once, releasing their lanes. Return 0, or -FT_ENOENT with nothing
 * changed and *@bad naming the first pair without a circuit (a pair named
 * twice counts as without one the second time).
 */
int ft_circuits_del(struct ft_circuits *cs, struct ft_lanes *l,
		    const u32 *pairs, u32 n, u32 *bad);

/* The circuit of (@src, @dst), or NULL. */
struct ft_circuit *ft_circuits_find(const struct ft_circuits *cs, u32 src,
				    u32 dst);

/* Delete every circuit whose lease ended before cycle @now + 1 (expires
 * <= @now); return how many.
 */
u32 ft_circuits_expire(struct ft_circuits *cs, struct ft_lanes *l, u64 now);

/* Delete every circuit whose path crosses a failed link (ft_fail.h);
 * return how many.
 */
u32 ft_circuits_cut(struct ft_circuits *cs, struct ft_lanes *l);

/* Delete one circuit by slot (used by del, expire and cut: @why). */
void ft_circuits_remove(struct ft_circuits *cs, struct ft_lanes *l, u32 slot,
			enum ft_circuit_event why);

#endif /* FT_CIRCUITS_H */
