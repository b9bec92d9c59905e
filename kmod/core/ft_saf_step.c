// SPDX-License-Identifier: GPL-2.0
/*
 * One store-and-forward step over the whole leveled network.
 *
 * Nodes run from the sinks (level 2h) down to the sources (level 0), so
 * every node reads its incoming edge queues before their senders write
 * them: it sees them as they were when the step began, what is sent
 * arrives for the next step, and a sender judges room by the count its
 * receiver recorded (@start) before taking anything.  Ghosts left in a
 * node's queues when it is through were there when the step began: they
 * are destroyed then.
 */
#include "ft_saf_int.h"

/* What a step carries from node to node. */
struct ft_saf_ctx {
	struct ft_saf *s;
	ft_saf_deliver_fn fn;
	void *arg;
	struct ft_saf_step_result *res;
	u32 t;		/* the batch's step, from 0 */
	u32 moved;	/* anything pushed, taken, destroyed or changed */
};

void ft_saf_heap_sift(struct ft_saf_he *hp, u32 i, u32 n)
{
	struct ft_saf_he tmp;
	u32 c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && hp[c + 1].key < hp[c].key)
			c++;
		if (hp[i].key <= hp[c].key)
			return;
		tmp = hp[i];
		hp[i] = hp[c];
		hp[c] = tmp;
		i = c;
	}
}

void ft_saf_heapify(struct ft_saf_he *hp, u32 n)
{
	u32 i;

	for (i = n / 2; i-- > 0;)
		ft_saf_heap_sift(hp, i, n);
}

/* Remove the smallest entry. */
void ft_saf_heap_pop(struct ft_saf_he *hp, u32 *n)
{
	hp[0] = hp[--*n];
	ft_saf_heap_sift(hp, 0, *n);
}

/*
 * Start of a node's step: note every incoming queue's packets other than
 * ghosts (the room its sender sees this step), the level's occupancy and
 * what each incoming link holds; forget which lanes of each outgoing
 * link were found full.  True if an incoming link holds nothing.
 */
static bool ft_saf_begin(struct ft_saf_ctx *c, const struct ft_saf_node *v)
{
	struct ft_saf *s = c->s;
	struct ft_saf_level *lv = &s->st.level[v->level];
	const struct ft_saf_link *in;
	struct ft_saf_edge_queue *q;
	bool empty = false;
	u32 k, e, l, held;

	for (k = 0; k < v->nin; k++) {
		l = s->in_link[v->in + k];
		in = &s->link[l];
		held = 0;
		for (e = in->edge; e < in->edge + in->lanes; e++) {
			q = &s->eq[e];
			q->start = q->count - q->ghosts;
			lv->occ_sum += q->count;
			if (q->count > lv->occ_max)
				lv->occ_max = q->count;
			held += q->count;
		}
		s->remain[l] = held;
		empty |= !held;
	}
	for (k = 0; k < v->nlink; k++)
		s->cursor[v->link + k] = 0;
	return empty;
}

/* Destroy the ghosts of edge queue @e, keeping the rest in order. */
static void ft_saf_bury(struct ft_saf_ctx *c, u32 e)
{
	struct ft_saf *s = c->s;
	struct ft_saf_edge_queue *q = &s->eq[e];
	u32 *r = ft_saf_ring(s, e);
	u32 i, from = q->head, to = q->head, v, n = q->count;

	for (i = 0; i < n; i++) {
		v = r[from];
		from = from + 1 == s->p.q ? 0 : from + 1;
		if (ft_saf_is_ghost(v))
			continue;
		r[to] = v;
		to = to + 1 == s->p.q ? 0 : to + 1;
	}
	c->moved += q->ghosts;
	q->count -= q->ghosts;
	q->ghosts = 0;
}

/*
 * End of a node's step: the ghosts in its incoming queues were all there
 * when the step began; they die.
 */
static void ft_saf_end(struct ft_saf_ctx *c, const struct ft_saf_node *v)
{
	u32 e;

	for (e = v->ein; e < v->ein + v->nein; e++)
		if (c->s->eq[e].ghosts)
			ft_saf_bury(c, e);
}

/* A lane of link @li still free this step (not used, not full). */
static u32 ft_saf_lane(struct ft_saf *s, u32 li)
{
	const struct ft_saf_link *l = &s->link[li];
	const struct ft_saf_edge_queue *q;
	u32 *cur = &s->cursor[li];

	for (; *cur < l->lanes; (*cur)++) {
		q = &s->eq[l->edge + *cur];
		if (!(q->flags & (FT_SAF_EQ_USED | FT_SAF_EQ_CLOSED)) &&
		    q->start < s->p.q)
			return l->edge + *cur;
	}
	return FT_SAF_NONE;
}

/* Which of @v's links @pk leaves by (its path fixed at batch start). */
static u32 ft_saf_next_link(const struct ft_saf *s,
			    const struct ft_saf_node *v,
			    const struct ft_saf_pkt *pk)
{
	const struct ft_topo *t = &s->topo;

	switch (v->kind) {
	case FT_SAF_SOURCE:
	case FT_SAF_UP:
		if (pk->hh == v->hw)
			return v->nlink - 1;	/* turn: the chain */
		return (pk->route / t->wprod[v->hw]) % t->w[v->hw + 1];
	case FT_SAF_TOP:
	case FT_SAF_DOWN:
		return ft_topo_digit(t, pk->dst, v->hw);
	default:
		return 0;
	}
}

/* An edge out of @v with room for @pk (*@li its link), or FT_SAF_NONE. */
static u32 ft_saf_edge_for(struct ft_saf *s, const struct ft_saf_node *v,
			   const struct ft_saf_pkt *pk, u32 *li)
{
	u32 p, e;

	if (s->p.path == FT_SAF_PATH_FIRSTFREE && pk->hh > v->hw &&
	    (v->kind == FT_SAF_SOURCE || v->kind == FT_SAF_UP)) {
		for (p = 0; p < s->topo.w[v->hw + 1]; p++) {
			e = ft_saf_lane(s, v->link + p);
			if (e != FT_SAF_NONE) {
				*li = v->link + p;
				return e;
			}
		}
		return FT_SAF_NONE;
	}
	*li = v->link + ft_saf_next_link(s, v, pk);
	return ft_saf_lane(s, *li);
}

/* Real packet @pi crosses edge @e of link @li. */
static void ft_saf_forward(struct ft_saf_ctx *c, u32 pi, u32 e, u32 li)
{
	struct ft_saf *s = c->s;
	struct ft_saf_pkt *pk = &s->pkt[pi];

	ft_saf_push(s, e, pi);
	s->eq[e].flags |= FT_SAF_EQ_USED;
	pk->pos++;
	pk->since = c->t + 1;
	s->st.hops++;
	c->res->hops++;
	c->moved++;
	/* ceil(carried / lanes) grows by at most one per packet */
	if (++s->carried[li] > (u64)s->b.congestion * s->link[li].lanes)
		s->b.congestion++;
}

/* Real packet @pi enters the final queue of sink @v. */
static void ft_saf_deliver(struct ft_saf_ctx *c, const struct ft_saf_node *v,
			   u32 pi)
{
	struct ft_saf *s = c->s;
	struct ft_saf_pkt *pk = &s->pkt[pi];
	u32 steps = c->t + 1;

	ft_warn_on(pk->dst != v->idx || pk->pos != s->depth);
	pk->state = FT_SAF_PKT_DELIVERED;
	s->b.delivered++;
	s->b.last = steps;
	s->st.delivered++;
	s->st.latency_sum += steps;
	if (steps > s->st.latency_max)
		s->st.latency_max = steps;
	c->res->delivered++;
	c->moved++;
	if (c->fn)
		c->fn(c->arg, pk, steps);
}

/*
 * End of a sender's step, on every outgoing edge it did not use and that
 * had room: once it has selected EOS, an EOS (the node is done when every
 * edge has one); otherwise a ghost (slot value @ghost, unless
 * FT_SAF_NONE).  Then every outgoing edge is free again for the next
 * step.
 */
static void ft_saf_out_end(struct ft_saf_ctx *c, struct ft_saf_node *v,
			   u32 ghost)
{
	struct ft_saf *s = c->s;
	struct ft_saf_edge_queue *q;
	bool eos = v->state == FT_SAF_EOS_OUT, open = false, room;
	u32 l, e, end, val;

	for (l = v->link; l < v->link + v->nlink; l++) {
		end = s->link[l].edge + s->link[l].lanes;
		for (e = s->link[l].edge; e < end; e++) {
			q = &s->eq[e];
			room = !(q->flags & (FT_SAF_EQ_USED | FT_SAF_EQ_CLOSED)) &&
			       q->start < s->p.q;
			q->flags &= ~FT_SAF_EQ_USED;
			if (eos) {
				open |= !room && !(q->flags & FT_SAF_EQ_CLOSED);
				if (!room)
					continue;
				val = FT_SAF_EOS;
				q->flags |= FT_SAF_EQ_CLOSED;
				s->st.eos++;
			} else {
				if (!room || ghost == FT_SAF_NONE)
					continue;
				val = ghost;
				s->st.ghosts++;
				c->res->ghosts++;
			}
			ft_saf_push(s, e, val);
			c->moved++;
		}
	}
	if (eos && !open)
		v->state = FT_SAF_DONE;
}

/* Does an EOS head every incoming edge queue of @v? */
static bool ft_saf_all_eos(const struct ft_saf *s, const struct ft_saf_node *v)
{
	u32 e;

	for (e = v->ein; e < v->ein + v->nein; e++)
		if (!s->eq[e].count || ft_saf_head(s, e) != FT_SAF_EOS)
			return false;
	return true;
}

/* EOS heads every input: take them all; the node now only sends EOS. */
static void ft_saf_select_eos(struct ft_saf_ctx *c, struct ft_saf_node *v)
{
	struct ft_saf *s = c->s;
	u32 e;

	for (e = v->ein; e < v->ein + v->nein; e++)
		ft_saf_pop(s, e);
	c->moved++;
	if (v->kind == FT_SAF_SINK) {
		v->state = FT_SAF_DONE;
		s->sinks_done++;
		return;
	}
	v->state = FT_SAF_EOS_OUT;	/* sent from ft_saf_out_end() on */
}

/* Head of leaf @leaf's initial queue: a packet, or its EOS. */
static u32 ft_saf_initial_head(const struct ft_saf *s, u32 leaf)
{
	u32 h = s->leaf_head[leaf];

	return h < s->leaf_off[leaf + 1] ? s->batch[h] : FT_SAF_EOS;
}

/*
 * The heads of @v's non-empty incoming edge queues into the heap, keyed
 * by rank order or by greedy priority; a source's initial queue instead.
 */
static u32 ft_saf_heads(struct ft_saf *s, const struct ft_saf_node *v)
{
	struct ft_saf_he *hp = s->heap;
	const struct ft_saf_link *in;
	bool rank = s->p.discipline == FT_SAF_RANK;
	u32 k, e, l, n = 0, head;

	if (v->kind == FT_SAF_SOURCE) {
		hp[0].ref = FT_SAF_NONE;
		hp[0].key = ft_saf_key(s, ft_saf_initial_head(s, v->idx));
		hp[0].link = 0;	/* never taken: it gives all it can */
		return 1;
	}
	for (k = 0; k < v->nin; k++) {
		l = s->in_link[v->in + k];
		in = &s->link[l];
		for (e = in->edge; e < in->edge + in->lanes; e++) {
			if (!s->eq[e].count)
				continue;
			head = ft_saf_head(s, e);
			hp[n].ref = e;
			hp[n].link = l;
			hp[n++].key = rank ? ft_saf_key(s, head) :
				      ft_saf_prio(s, &s->pkt[head], v->level);
		}
	}
	ft_saf_heapify(hp, n);
	return n;
}

/*
 * Section 2.2 at node @v: if every incoming link holds something, select
 * the smallest head, forward it (or, a ghost, take it), send ghosts of
 * it on the other edges.  With @picks != 1 go on selecting while each
 * selection is allowed: an edge queue gives one packet per step, and
 * a link whose queues are all taken empty bounds nothing more (its
 * sender's next packets only come after what it took).
 */
static void ft_saf_rank_node(struct ft_saf_ctx *c, struct ft_saf_node *v)
{
	struct ft_saf *s = c->s;
	struct ft_saf_he *top = &s->heap[0];
	u32 n, picks = 0, last = FT_SAF_NONE, val, e, li;

	if (v->state == FT_SAF_DONE)
		return;
	if (ft_saf_begin(c, v) && v->state == FT_SAF_ACTIVE) {
		if (c->t >= v->level)
			s->st.empty_waits++;	/* Lemma 2.2: not with ghosts */
		goto out;
	}
	if (v->state == FT_SAF_EOS_OUT)
		goto send;
	n = ft_saf_heads(s, v);
	while (n && (!s->p.picks || picks < s->p.picks)) {
		if (top->link & FT_SAF_TAKEN)
			break;		/* next from an edge that already gave */
		if (top->key == FT_SAF_KEY_EOS) {
			if (ft_saf_all_eos(s, v))
				ft_saf_select_eos(c, v);
			break;
		}
		val = top->ref == FT_SAF_NONE ? ft_saf_initial_head(s, v->idx) :
		      ft_saf_head(s, top->ref);
		picks++;
		last = val | FT_SAF_GHOST;
		if (!(val & FT_SAF_GHOST)) {
			if (v->kind == FT_SAF_SINK) {
				ft_saf_deliver(c, v, val);
			} else {
				e = ft_saf_edge_for(s, v, &s->pkt[val], &li);
				if (e == FT_SAF_NONE) {
					s->st.fdelays++;	/* f-delay */
					break;
				}
				ft_saf_forward(c, val, e, li);
			}
		}
		c->moved++;
		if (top->ref == FT_SAF_NONE) {
			s->leaf_head[v->idx]++;
			top->key = ft_saf_key(s, ft_saf_initial_head(s, v->idx));
			continue;
		}
		ft_saf_pop(s, top->ref);
		if (!--s->remain[top->link])
			break;		/* its link ran dry: no bound left */
		if (s->eq[top->ref].count) {
			top->key = ft_saf_key(s, ft_saf_head(s, top->ref));
			top->link |= FT_SAF_TAKEN;
			ft_saf_heap_sift(s->heap, 0, n);
		} else {
			ft_saf_heap_pop(s->heap, &n);
		}
	}
	if (v->state != FT_SAF_ACTIVE || !s->p.ghosts)
		last = FT_SAF_NONE;
send:
	ft_saf_out_end(c, v, last);
out:
	ft_saf_end(c, v);
}

/* A source under FIFO/farthest-first: its initial queue, head first. */
static void ft_saf_greedy_source(struct ft_saf_ctx *c, struct ft_saf_node *v)
{
	struct ft_saf *s = c->s;
	u32 picks = 0, pi, e, li;

	while ((!s->p.picks || picks < s->p.picks) &&
	       s->leaf_head[v->idx] < s->leaf_off[v->idx + 1]) {
		pi = s->batch[s->leaf_head[v->idx]];
		picks++;
		e = ft_saf_edge_for(s, v, &s->pkt[pi], &li);
		if (e == FT_SAF_NONE) {
			s->st.fdelays++;
			break;
		}
		ft_saf_forward(c, pi, e, li);
		s->leaf_head[v->idx]++;
	}
}

/*
 * FIFO or farthest-first at node @v: heads in priority order, each
 * forwarded if a next edge has room; an edge queue gives one packet per
 * step, an initial queue as many as there is room for.
 */
static void ft_saf_greedy_node(struct ft_saf_ctx *c, struct ft_saf_node *v)
{
	struct ft_saf *s = c->s;
	struct ft_saf_he *hp = s->heap;
	u32 n, e, out, pi, li, picks = 0;

	ft_saf_begin(c, v);
	if (v->kind == FT_SAF_SOURCE) {
		ft_saf_greedy_source(c, v);
		ft_saf_out_end(c, v, FT_SAF_NONE);
		return;
	}
	n = ft_saf_heads(s, v);
	while (n && (!s->p.picks || picks < s->p.picks)) {
		e = hp[0].ref;
		pi = ft_saf_head(s, e);
		picks++;
		ft_saf_heap_pop(hp, &n);
		if (v->kind == FT_SAF_SINK) {
			ft_saf_deliver(c, v, pi);
			ft_saf_pop(s, e);
			continue;
		}
		out = ft_saf_edge_for(s, v, &s->pkt[pi], &li);
		if (out == FT_SAF_NONE) {
			s->st.fdelays++;	/* stays at the head */
			continue;
		}
		ft_saf_forward(c, pi, out, li);
		ft_saf_pop(s, e);
	}
	ft_saf_out_end(c, v, FT_SAF_NONE);
}

/**
 * ft_saf_step() - one step of every node of the leveled network.
 * @s: engine.
 * @fn: called for each packet delivered, in the step (may be NULL).
 * @arg: its first argument.
 * @res: out, what the step did.
 *
 * With no batch in flight and packets queued, starts a batch first
 * (ft_saf_start()).  A batch that completes is retired at the end of the
 * step: every queue is empty again and its pool entries are free.  Never
 * allocates or sleeps; costs O(edges + packets moved * log fan-in).
 *
 * Return: 0.
 */
int ft_saf_step(struct ft_saf *s, ft_saf_deliver_fn fn, void *arg,
		struct ft_saf_step_result *res)
{
	struct ft_saf_ctx c = { .s = s, .fn = fn, .arg = arg, .res = res };
	u32 k, id;
	bool done;

	memset(res, 0, sizeof(*res));
	s->st.steps++;
	if (!s->running && (!s->npend || ft_saf_start(s)))
		return 0;
	if (!s->b.steps)
		res->started = s->b.packets;
	c.t = s->b.steps;
	for (k = s->depth + 1; k-- > 0;) {
		for (id = s->lvl_node[k]; id < s->lvl_node[k + 1]; id++) {
			if (s->p.discipline == FT_SAF_RANK)
				ft_saf_rank_node(&c, &s->node[id]);
			else
				ft_saf_greedy_node(&c, &s->node[id]);
		}
		if (s->st.level[k].occ_max > s->st.qmax)
			s->st.qmax = s->st.level[k].occ_max;
	}
	s->b.steps++;
	s->st.busy_steps++;
	if (!c.moved) {
		res->stalled = 1;
		s->b.stalled = 1;
		s->st.stalls++;
	}
	if (s->p.discipline == FT_SAF_RANK)
		done = s->sinks_done == s->topo.n;
	else
		done = s->b.delivered == s->b.packets;
	if (done) {
		ft_saf_finish(s);
		res->done = 1;
	}
	return 0;
}
