// SPDX-License-Identifier: GPL-2.0
/*
 * fattree: the delivery-cycle engine of a fabric.
 *
 * A cycle runs the shared engine core (core/ft_pairs.c, core/ft_cycle.c)
 * over the fabric's waiting messages under the fabric's lock, takes the
 * delivered packets off their pairs' queues, and hands them to their
 * destination leaves after the lock is dropped; a store-and-forward
 * fabric runs one step of its ft_saf instead (saf.c). Cycles run either when
 * stepped over netlink or from a kernel thread every period; a thread
 * that wakes late runs the cycles it missed (up to FT_CATCHUP_MAX per
 * wake-up that have work) and counts them as overruns, so the cycle rate
 * holds as long as the machine keeps up; when it cannot, the thread no
 * longer sleeps but still yields the CPU between cycles. A quiet fabric
 * (ft_engine_quiet()) counts any number of cycles at once, and its thread
 * dozes: it sleeps until there is work (ft_engine_kick()) or for
 * FT_DOZE_MAX_MS at most, and the cycles due meanwhile are counted by
 * whoever looks first (ft_engine_sync()).
 */
#include <linux/kthread.h>
#include <linux/sched/clock.h>
#include <linux/sched/signal.h>
#include <linux/skbuff.h>

#include "fattree.h"
#include "trace.h"

/* Demand scans run by every fabric, and the most pairs one hold of a
 * fabric's lock looked at for demand (a scan's or a dump's), in debugfs:
 * debugging aids.
 */
atomic_t ft_engine_demand_scans = ATOMIC_INIT(0);
atomic_t ft_engine_demand_hold_most = ATOMIC_INIT(0);

static void ft_engine_demand_looked(u32 pairs)
{
	int most = atomic_read(&ft_engine_demand_hold_most);

	do {
		if ((int)pairs <= most)
			return;
	} while (!atomic_try_cmpxchg(&ft_engine_demand_hold_most, &most, pairs));
}

struct ft_deliver {
	struct ft_fab *fab;
	struct sk_buff_head out;
};

/* Core callback, under the fabric's lock: @n messages of a pair arrived. */
static void ft_engine_done(void *arg, u32 slot, const struct ft_pair *p, u32 n)
{
	struct ft_deliver *d = arg;
	struct ft_fab *fab = d->fab;
	struct ft_leaf *src = fab->leaf[p->src];
	struct ft_leaf *dst = fab->leaf[p->dst];
	u64 now = fab->eng.cycle;

	src->st.sent += n;
	dst->st.delivered += n;
	fab->st.delivered += n;
	if (p->tag == FT_TAG_SYNTH) {
		fab->st.synth_delivered += n;
		if (!p->queued)
			fab->synth_pairs--;
		return;
	}
	while (n--) {
		struct sk_buff *skb = __skb_dequeue(&fab->slotq[slot]);

		if (WARN_ON_ONCE(!skb))
			break;
		dst->st.latency[ft_latency_bucket(now - ft_skb_cb(skb)->cycle)]++;
		trace_fattree_deliver(fab, p->src, p->dst,
				      now - ft_skb_cb(skb)->cycle, skb->len);
		src->st.bytes_sent += skb->len;
		dst->st.bytes_delivered += skb->len;
		src->backlog--;
		ft_skb_cb(skb)->dst = p->dst;
		__skb_queue_tail(&d->out, skb);
	}
	ft_leaf_wake(src);
}

/*
 * The messages the cycle just run stopped, for the fattree_blocked
 * tracepoint: at a link, or behind an earlier message of their pair (-1).
 * Messages a circuit fabric offered without a circuit's lanes, or that
 * have no working path, were not contending: they are not listed. Under
 * the fabric's lock.
 */
static void ft_engine_trace_blocked(struct ft_fab *fab)
{
	const struct ft_cycle_scratch *sc = &fab->eng.scratch;
	u32 k;

	for (k = 0; k < sc->nmsgs; k++) {
		const struct ft_cycle_msg *m = &sc->msg[k];

		if (m->flags & FT_MSG_DEAD)
			trace_fattree_blocked(fab, m->src, m->dst,
					      m->flags & FT_MSG_ORDER ? -1 : (s32)m->at);
	}
}

/*
 * Whether a cycle would change nothing but the cycle count: the last one
 * ran the core with no pair waiting and no circuit held (so its scratch
 * and injection schedule are at rest, and its configuration passed), and
 * that still holds. Cycles that nobody traces can then be counted
 * without running them, as many at once as are due. Under the fabric's
 * lock.
 */
static bool ft_engine_quiet(const struct ft_fab *fab)
{
	return fab->quiet && !fab->pairs.nactive && !fab->circ.n &&
	       !trace_fattree_cycle_enabled();
}

/*
 * The longest a quiet fabric's thread sleeps: what it does not hear of
 * (the fattree_cycle tracepoint being enabled) takes this long at most
 * to be seen.
 */
#define FT_DOZE_MAX_MS	200

/* Count the cycles due by now while the thread dozes. Under fab->lock. */
static void ft_engine_doze_count(struct ft_fab *fab)
{
	ktime_t now = ktime_get();
	s64 late = ktime_to_ns(ktime_sub(now, fab->doze_next));
	u64 due;

	if (late >= 0) {
		due = div64_u64(late, fab->period_ns) + 1;
		fab->eng.cycle += due;
		fab->doze_next = ktime_add_ns(fab->doze_next, due * fab->period_ns);
	}
	fab->st.run_ns = ktime_to_ns(ktime_sub(now, fab->run_start));
}

/*
 * A dozing fabric's cycle count and running time brought up to now, for
 * whoever reads or stamps them. Under fab->lock.
 */
void ft_engine_sync(struct ft_fab *fab)
{
	if (fab->dozer)
		ft_engine_doze_count(fab);
}

/* The doze over, its cycles counted; returns the thread. Under fab->lock. */
static struct task_struct *ft_engine_doze_end(struct ft_fab *fab)
{
	struct task_struct *t = fab->dozer;

	ft_engine_doze_count(fab);
	WRITE_ONCE(fab->dozer, NULL);
	return t;
}

void __ft_engine_kick(struct ft_fab *fab)
{
	wake_up_process(ft_engine_doze_end(fab));
}

/*
 * Work units of a store-and-forward batch's preparation per hold of the
 * fabric's lock (ft_saf_prepare(): a packet counted, or ranked, routed
 * and placed, a heap entry filled, a level of a heap sifted). A pool of
 * 2^23 prepared in one hold kept the lock, bottom halves off, for 5.6 s
 * under emulation, a leaf's stats reader waiting as long; in pieces of
 * this size, a reader waited 15 ms at most (tools/bench/saf_hold.sh).
 */
#define FT_SAF_PREP_BUDGET	16384

/*
 * A store-and-forward fabric's next batch, when the cycle is to start
 * one: prepared in pieces of FT_SAF_PREP_BUDGET units, the lock let go
 * and the CPU offered between them, so the senders, the stats readers and
 * this CPU's softirqs wait for a piece, not for the whole pool. What is
 * queued meanwhile waits for the batch after. Called and returning with
 * fab->lock held; the caller holds fab->step_lock, so no cycle and no
 * change of path or seed comes between the pieces; a teardown that drops
 * the packets meanwhile drops the preparation too.
 *
 * The pause between two pieces is for a guest whose hypervisor offers no
 * paravirtual spinlock: its spinlocks are then test-and-set
 * (virt_spin_lock()), and a waiter that never finds the lock free in the
 * moment between two pieces waits for all of them. Under emulation,
 * where the vCPUs take turns on one thread, it is the pause that hands
 * the turn to the waiter: without it a stats reader still waited 3.8 s
 * for the pieces of 8 M messages.
 */
static void ft_engine_saf_prepare(struct ft_fab *fab)
{
	struct ft_saf *s = &fab->saf->eng;

	while (!s->running && s->npend) {
		if (ft_saf_prepare(s, FT_SAF_PREP_BUDGET))
			break;
		spin_unlock_bh(&fab->lock);
		cond_resched();
		cpu_relax();
		spin_lock_bh(&fab->lock);
	}
}

/*
 * Up to @n delivery cycles: all of them when the fabric is quiet, else
 * one. Sets *@ran to the cycles run. The time inside is read from the
 * scheduler's clock (local_clock()), which costs far less than
 * ktime_get() where the clocksource is a device (a guest's HPET): the
 * cycle rate depends on the time around a cycle too. Caller holds
 * fab->step_lock.
 */
static int ft_engine_cycles(struct ft_fab *fab, u64 n, u64 *ran)
{
	struct ft_deliver d = { .fab = fab };
	struct ft_cycle_result res = { 0 };
	struct sk_buff *skb;
	u64 t0 = local_clock();
	bool idle, hold;
	int err = 0;
	u32 i;

	__skb_queue_head_init(&d.out);
	*ran = 1;
	spin_lock_bh(&fab->lock);
	ft_engine_sync(fab);	/* a step while the thread dozes */
	if (ft_engine_quiet(fab)) {
		fab->eng.cycle += n;
		*ran = n;
		fab->st.cycle_ns += local_clock() - t0;
		spin_unlock_bh(&fab->lock);
		return 0;
	}
	if (fab->saf) {
		ft_engine_saf_prepare(fab);
		res.delivered = ft_fab_saf_cycle(fab, &d.out);
		goto unlock;
	}
	idle = !fab->pairs.nactive && !fab->circ.n;
	err = ft_pairs_cycle(&fab->pairs, &fab->eng, &fab->circ, ft_engine_done, &d, &res);
	fab->quiet = !err && idle;
	if (!err && trace_fattree_blocked_enabled())
		ft_engine_trace_blocked(fab);
	if (!err) {
		fab->st.offered += res.offered;
		fab->st.blocked += res.offered - res.delivered;
		fab->st.failure_held += res.failed;
		for (i = 0; i < fab->pairs.noff; i++) {
			const struct ft_offer *o = &fab->pairs.off[i];

			fab->leaf[o->src]->st.blocked += o->count - o->delivered;
		}
		if (res.delivered && !fab->pairs.queued)
			fab->st.drained_cycle = fab->eng.cycle;
	}
unlock:
	t0 = local_clock() - t0;
	fab->st.cycle_ns += t0;
	if (!err)
		trace_fattree_cycle(fab, res.offered, res.delivered,
				    res.offered - res.delivered, t0);
	spin_unlock_bh(&fab->lock);

	/* A store-and-forward fabric keeps what a receiver has no room
	 * for itself (saf.c): only the pair pool's leaves are held.
	 */
	hold = !fab->saf;
	while ((skb = __skb_dequeue(&d.out))) {
		struct ft_leaf *dst = fab->leaf[ft_skb_cb(skb)->dst];

		ft_leaf_deliver(dst, skb, false);
		ft_leaf_kick(dst);
		if (hold)
			ft_leaf_rx_check(dst);
	}
	return err;
}

/*
 * One batch of the demand listing (ft_pairs_demand()) from *@pos, under
 * one hold of the fabric's lock that looks at FT_DEMAND_LOOK pairs at
 * most, so neither a scan nor anyone's dump keeps the engine and the
 * leaves out for long, however many pairs wait. Returns the entries put
 * in @out, the cycle they are of in *@cycle, and in *@end whether the
 * listing is done.
 */
u32 ft_engine_demand_batch(struct ft_fab *fab, u32 *pos, struct ft_pairs_demand *out,
			   u32 max, u64 *cycle, bool *end)
{
	u32 from = *pos, n;

	spin_lock_bh(&fab->lock);
	ft_engine_sync(fab);
	*cycle = fab->eng.cycle;
	n = ft_pairs_demand(&fab->pairs, &fab->circ, FT_NTAGS, *cycle, pos, out, max,
			    FT_DEMAND_LOOK);
	*end = *pos >= fab->pairs.nactive;
	spin_unlock_bh(&fab->lock);
	ft_engine_demand_looked(*pos - from);
	return n;
}

/*
 * Announce the pairs in demand on the "demand" group, in messages whose
 * last carries FATTREE_A_DEMAND_LAST; when demand has just drained, an
 * announcement without entries says so. A timed fabric announces a pair
 * new between two leaves at once, in the cycle it came (a scheduler's
 * round trip is counted in cycles), but not sooner than FT_DEMAND_NEW_US
 * after the last announcement, so traffic that makes new pairs all the
 * time is not scanned and announced every cycle of a fast fabric;
 * otherwise at most once per FT_DEMAND_INTERVAL_MS. A step always
 * announces its result.
 * Only when someone listens, checked before the pairs are scanned; a
 * listener that missed some resynchronises with the demand dump. Process
 * context, under fab->step_lock.
 */
void ft_engine_demand(struct ft_fab *fab, bool now)
{
	u32 pos = 0, n, total = 0, born;
	ktime_t t;
	bool end;
	u64 cycle;

	born = READ_ONCE(fab->pairs.born);
	if (!now && time_before(jiffies, fab->demand_next)) {
		/* The clock only for a new pair inside the interval. */
		if (born == fab->demand_born)
			return;
		t = ktime_get();
		if (ktime_before(t, fab->demand_new_next))
			return;
	} else {
		t = ktime_get();
	}
	fab->demand_born = born;
	fab->demand_new_next = ktime_add_us(t, FT_DEMAND_NEW_US);
	fab->demand_next = jiffies + msecs_to_jiffies(FT_DEMAND_INTERVAL_MS);
	/* No scan under the fabric's lock for nobody: a listener that
	 * joins later hears the next announcement, or dumps.
	 */
	if (!ft_genl_demand_listened(fab)) {
		fab->demand_announced = 0;
		return;
	}
	atomic_inc(&ft_engine_demand_scans);
	do {
		n = ft_engine_demand_batch(fab, &pos, fab->demand, fab->demand_max,
					   &cycle, &end);
		total += n;
		/* The last batch may hold nothing: LAST then comes in an
		 * empty message, as does the news that demand drained.
		 */
		if (n || (end && (total || fab->demand_announced))) {
			trace_fattree_demand(fab, cycle, n, end);
			ft_genl_demand_notify(fab, cycle, n, end);
		}
		if (!end)
			cond_resched();
	} while (!end);
	fab->demand_announced = total;
}

int ft_engine_step(struct ft_fab *fab, u32 steps)
{
	int err = 0;
	u64 ran;

	mutex_lock(&fab->step_lock);
	/* One cycle at a time even when quiet: whatever the others queue
	 * between two cycles of a step still goes in the step's next one.
	 */
	while (steps-- && !err) {
		err = ft_engine_cycles(fab, 1, &ran);
		if (fatal_signal_pending(current))
			err = -EINTR;
		cond_resched();
	}
	ft_engine_demand(fab, true);
	mutex_unlock(&fab->step_lock);
	return err;
}

/*
 * The @missed cycles a late wake-up slept through: those with work one at
 * a time, FT_CATCHUP_MAX at most (the rest are lost), yielding between
 * them; once the fabric is quiet, all that are left at once.
 */
static void ft_engine_catchup(struct ft_fab *fab, u64 missed)
{
	u32 worked = 0;
	u64 ran;

	while (missed && !kthread_should_stop()) {
		cond_resched();
		ft_engine_cycles(fab, missed, &ran);
		missed -= ran;
		if (ran == 1 && ++worked == FT_CATCHUP_MAX)
			break;
	}
}

/*
 * Doze while the fabric is quiet and no announcement is owed (the one
 * that says demand drained may wait for its interval): nothing arrives
 * but through ft_engine_kick(), which counts the cycles due so far and
 * wakes the thread. Returns the due time of the next cycle to run.
 */
static ktime_t ft_engine_doze(struct ft_fab *fab, ktime_t next, bool owed)
{
	ktime_t until;
	bool doze;

	spin_lock_bh(&fab->lock);
	doze = !owed && ft_engine_quiet(fab);
	if (doze) {
		fab->dozer = current;
		fab->doze_next = next;
	}
	spin_unlock_bh(&fab->lock);
	if (!doze)
		return next;
	until = ktime_add_ms(next, FT_DOZE_MAX_MS);
	/* A kick or a stop before the state is set is seen here. */
	set_current_state(TASK_INTERRUPTIBLE);
	if (READ_ONCE(fab->dozer) == current && !kthread_should_stop())
		schedule_hrtimeout_range(&until, NSEC_PER_MSEC * FT_DOZE_MAX_MS / 4,
					 HRTIMER_MODE_ABS);
	__set_current_state(TASK_RUNNING);
	spin_lock_bh(&fab->lock);
	if (fab->dozer)			/* not kicked: the time is up */
		ft_engine_doze_end(fab);
	next = fab->doze_next;
	spin_unlock_bh(&fab->lock);
	return next;
}

static int ft_engine_thread(void *data)
{
	struct ft_fab *fab = data;
	u64 period = fab->period_ns;
	ktime_t start = ktime_get(), next = start, now;
	u64 late, missed, ran;
	bool owed;

	spin_lock_bh(&fab->lock);
	fab->run_start = start;
	spin_unlock_bh(&fab->lock);
	while (!kthread_should_stop()) {
		next = ktime_add_ns(next, period);
		mutex_lock(&fab->step_lock);
		ft_engine_cycles(fab, 1, &ran);
		/* The one clock read of a wake-up: the cycles due by @now
		 * are run (or lost) before the thread sleeps again.
		 */
		now = ktime_get();
		late = ktime_to_ns(ktime_sub(now, next));
		if ((s64)late > 0) {
			/* Run the periods we slept through, counted. */
			missed = div64_u64(late, period) + 1;
			fab->st.overruns += missed;
			next = ktime_add_ns(next, missed * period);
			ft_engine_catchup(fab, missed);
		}
		fab->st.run_ns = ktime_to_ns(ktime_sub(now, start));
		ft_engine_demand(fab, false);
		owed = fab->demand_announced;
		mutex_unlock(&fab->step_lock);

		if (!kthread_should_stop())
			next = ft_engine_doze(fab, next, owed);
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule_hrtimeout_range(&next, period / 8, HRTIMER_MODE_ABS);
		__set_current_state(TASK_RUNNING);
	}
	return 0;
}

/*
 * Every running cycle thread, whatever its namespace, so that unloading
 * can stop them all before the family goes: a thread announces demand on
 * the family's group, which must not outlive the family.
 */
static DEFINE_MUTEX(ft_engines_lock);	/* the list, fab->thread, the flag */
static LIST_HEAD(ft_engines);
static bool ft_engines_stopped;		/* unloading: start no thread */

static void ft_engine_stop_locked(struct ft_fab *fab)
{
	lockdep_assert_held(&ft_engines_lock);
	if (fab->thread) {
		kthread_stop(fab->thread);
		fab->thread = NULL;
		list_del(&fab->engine_node);
	}
}

void ft_engine_stop(struct ft_fab *fab)
{
	mutex_lock(&ft_engines_lock);
	ft_engine_stop_locked(fab);
	mutex_unlock(&ft_engines_lock);
}

/* Stop every cycle thread for good: the module is going. */
void ft_engine_stop_all(void)
{
	struct ft_fab *fab, *tmp;

	mutex_lock(&ft_engines_lock);
	ft_engines_stopped = true;
	list_for_each_entry_safe(fab, tmp, &ft_engines, engine_node)
		ft_engine_stop_locked(fab);
	mutex_unlock(&ft_engines_lock);
}

int ft_engine_set_period(struct ft_fab *fab, u64 period_ns)
{
	struct task_struct *t;
	int err = 0;

	mutex_lock(&ft_engines_lock);
	ft_engine_stop_locked(fab);
	fab->period_ns = period_ns;
	if (!period_ns)
		goto out;
	t = ft_engines_stopped ? ERR_PTR(-ESHUTDOWN) :
		kthread_run(ft_engine_thread, fab, "fattree/%s", fab->name);
	if (IS_ERR(t)) {
		fab->period_ns = 0;
		err = PTR_ERR(t);
		goto out;
	}
	fab->thread = t;
	list_add(&fab->engine_node, &ft_engines);
out:
	mutex_unlock(&ft_engines_lock);
	return err;
}

int ft_engine_configure(struct ft_fab *fab, enum fattree_path path,
			enum fattree_injection inj,
			enum fattree_arbitration arb, u64 seed)
{
	struct ft_inject_params ip = { .rule = (enum ft_inject_rule)inj };
	int err;

	mutex_lock(&fab->step_lock);
	spin_lock_bh(&fab->lock);
	err = ft_inject_init(&fab->eng.inject, &fab->eng.topo, &ip);
	if (!err && fab->saf)
		ft_fab_saf_configure(fab, path, seed);
	if (!err) {
		fab->eng.cfg.path = (enum ft_path_choice)path;
		fab->eng.cfg.arb = (enum ft_arbitration)arb;
		if (seed != fab->seed)
			ft_rand_seed(&fab->eng.rand, seed);
		fab->path = path;
		fab->injection = inj;
		fab->arbitration = arb;
		fab->seed = seed;
	}
	/* The next cycle runs the core, which checks the new settings. */
	fab->quiet = false;
	ft_engine_kick(fab);
	spin_unlock_bh(&fab->lock);
	mutex_unlock(&fab->step_lock);
	return err;
}

/*
 * Rows added per hold of the fabric's lock when a batch cannot fail. A
 * request may carry 16n rows (a million at 65,536 leaves): held through
 * all of them, the lock, bottom halves off, would keep the cycle thread,
 * the senders and this CPU's softirqs waiting for tens of milliseconds,
 * seconds under emulation.
 */
#define FT_INJECT_CHUNK	1024

/*
 * Whether @nrows rows of @total messages in all fit, whatever pairs they
 * name: each row takes at most one new pair, and no pair can pass 2^32 - 1
 * messages when all that waits and the batch together do not. Only cycles
 * run beside an inject (every request on a namespace's fabrics holds its
 * ft_net_lock()), and they only take pairs and messages away: what fits
 * now still fits after the lock is let go between chunks.
 */
static bool ft_engine_inject_fits(const struct ft_fab *fab, u32 nrows,
				  u64 total)
{
	return nrows <= fab->synth_pairs_max - fab->synth_pairs &&
	       total <= U32_MAX - min_t(u64, fab->pairs.queued, U32_MAX);
}

/*
 * Add one row: -ENOSPC, the row taken back, when it needs a new pair past
 * the synthetic share; ft_pairs_add()'s error when its pair would pass
 * 2^32 - 1 messages. Neither for a row of a batch that fits.
 */
static int ft_engine_inject_row(struct ft_fab *fab,
				const struct fattree_inject_row *r)
{
	u32 before = fab->pairs.nactive;
	int err;

	err = ft_pairs_add(&fab->pairs, r->src, r->dst, FT_TAG_SYNTH, r->count,
			   fab->eng.cycle, NULL);
	if (err)
		return err;
	if (fab->pairs.nactive != before &&
	    fab->synth_pairs == fab->synth_pairs_max) {
		ft_pairs_unadd(&fab->pairs, r->src, r->dst, FT_TAG_SYNTH,
			       r->count);
		return -ENOSPC;
	}
	fab->synth_pairs += fab->pairs.nactive - before;
	fab->st.synth_queued += r->count;
	return 0;
}

/*
 * All or nothing, in one hold of the lock: rows of a pair already
 * waiting, or named twice, add to its count and take no slot; a row that
 * needs a new pair past the synthetic share (at most n^2, so possibly
 * few) takes the whole batch back. Only for a batch that may not fit.
 */
static int ft_engine_inject_exact(struct ft_fab *fab,
				  const struct fattree_inject_row *rows,
				  u32 nrows, struct netlink_ext_ack *extack)
{
	int err = 0;
	u32 i;

	for (i = 0; i < nrows; i++) {
		err = ft_engine_inject_row(fab, &rows[i]);
		if (err)
			break;
	}
	if (!err)
		return 0;
	if (err == -ENOSPC)
		NL_SET_ERR_MSG_MOD(extack,
				   "more synthetic pairs than the fabric can hold at once");
	else
		NL_SET_ERR_MSG_MOD(extack,
				   "a pair would hold more than 2^32 - 1 messages");
	while (i--) {
		u32 before = fab->pairs.nactive;

		ft_pairs_unadd(&fab->pairs, rows[i].src, rows[i].dst,
			       FT_TAG_SYNTH, rows[i].count);
		fab->synth_pairs -= before - fab->pairs.nactive;
		fab->st.synth_queued -= rows[i].count;
	}
	return err;
}

/*
 * Add a batch of synthetic messages, all or nothing. A batch that fits
 * whatever it names goes in chunks of FT_INJECT_CHUNK rows, the lock let
 * go between them: a cycle may carry the first chunks before the last is
 * in, as if they had come in requests of their own. Process context.
 */
int ft_engine_inject(struct ft_fab *fab, const struct fattree_inject_row *rows,
		     u32 nrows, struct netlink_ext_ack *extack)
{
	u64 total = 0;
	int err = 0;
	u32 i;

	for (i = 0; i < nrows; i++)
		total += rows[i].count;
	spin_lock_bh(&fab->lock);
	ft_engine_kick(fab);
	if (fab->saf) {
		err = ft_fab_saf_inject(fab, rows, nrows, extack);
	} else if (!ft_engine_inject_fits(fab, nrows, total)) {
		err = ft_engine_inject_exact(fab, rows, nrows, extack);
	} else {
		for (i = 0; i < nrows; i++) {
			if (i && !(i % FT_INJECT_CHUNK)) {
				spin_unlock_bh(&fab->lock);
				cond_resched();
				spin_lock_bh(&fab->lock);
				ft_engine_kick(fab);
			}
			WARN_ON_ONCE(ft_engine_inject_row(fab, &rows[i]));
		}
	}
	spin_unlock_bh(&fab->lock);
	return err;
}

/* Drop every waiting packet and refuse new ones: the fabric is going. */
void ft_engine_drop_all(struct ft_fab *fab)
{
	struct sk_buff_head dead;
	u32 i;

	__skb_queue_head_init(&dead);
	spin_lock_bh(&fab->lock);
	fab->dead = true;
	if (fab->saf)
		ft_fab_saf_drop_all(fab, &dead);
	for (i = 0; i < fab->pairs.nactive; i++) {
		u32 s = fab->pairs.active[i];
		struct ft_leaf *src = fab->leaf[fab->pairs.pair[s].src];

		if (fab->pairs.pair[s].tag == FT_TAG_PACKET &&
		    !skb_queue_empty(&fab->slotq[s]))
			ft_leaf_drop(src, FT_DROP_TEARDOWN,
				     skb_queue_len(&fab->slotq[s]));
		skb_queue_splice_tail_init(&fab->slotq[s], &dead);
	}
	spin_unlock_bh(&fab->lock);
	__skb_queue_purge(&dead);
}

/*
 * Admit @n circuits at once, all or nothing, with the rules of a request
 * from outside (ft_circuits_admit(), which says in *@rf why a batch was
 * refused and which request it was). *@count: the circuits installed
 * after.
 */
int ft_engine_circuits_add(struct ft_fab *fab, const struct ft_circuit_req *req, u32 n,
			   struct ft_circuits_refusal *rf, u32 *count)
{
	int err;

	spin_lock_bh(&fab->lock);
	ft_engine_kick(fab);
	err = ft_circuits_admit(&fab->circ, &fab->eng.topo, &fab->eng.lanes, req, n,
				fab->eng.cycle, rf);
	*count = fab->circ.n;
	spin_unlock_bh(&fab->lock);
	return err;
}

/* Delete the circuits of @n pairs at once (ft_circuits_del()). */
int ft_engine_circuits_del(struct ft_fab *fab, const u32 *pairs, u32 n, u32 *bad,
			   u32 *count)
{
	int err;

	spin_lock_bh(&fab->lock);
	err = ft_circuits_del(&fab->circ, &fab->eng.lanes, pairs, n, bad);
	*count = fab->circ.n;
	spin_unlock_bh(&fab->lock);
	return err;
}

/* The circuit table's news, for the fattree_circuit tracepoint. */
void ft_engine_circuit_event(void *arg, const struct ft_circuit *c,
			     enum ft_circuit_event what)
{
	trace_fattree_circuit(arg, c->src, c->dst, c->lanes, what);
}

/* Fail or restore one cause of directed link @id; 1 if it changed. */
static u32 ft_engine_fail_link(struct ft_fab *fab, u32 id, u32 bit, bool on)
{
	bool was = ft_fail_is_failed(&fab->eng.lanes, id);

	if (ft_fail_link(&fab->eng.lanes, &fab->eng.topo, id, bit, on) <= 0)
		return 0;
	if (ft_fail_is_failed(&fab->eng.lanes, id) != was)
		trace_fattree_link(fab, id, on);
	return 1;
}

/*
 * Fail (@on) or restore the links of @fs. Circuits across a link that
 * fails are torn down, so their pairs are in demand again; any change is
 * announced on the demand group at once. Process context.
 */
void ft_engine_fail(struct ft_fab *fab, const struct ft_fail_set *fs, bool on,
		    struct ft_fail_result *res)
{
	struct ft_fabric *e = &fab->eng;
	u32 k, n, id, bit;

	memset(res, 0, sizeof(*res));
	mutex_lock(&fab->step_lock);
	spin_lock_bh(&fab->lock);
	for (k = 0; k < fs->nids; k++)
		res->changed += ft_engine_fail_link(fab, fs->id[k], FT_FAIL_SELF, on);
	n = fs->sw ? ft_fail_switch_nlinks(&e->topo, fs->level) : 0;
	for (k = 0; k < n; k++)
		if (!ft_fail_switch_link(&e->topo, fs->level, fs->node, k, &id, &bit))
			res->changed += ft_engine_fail_link(fab, id, bit, on);
	if (on)
		res->cut = ft_circuits_cut(&fab->circ, &e->lanes);
	fab->st.circuits_cut += res->cut;
	res->failed = e->lanes.nfailed;
	spin_unlock_bh(&fab->lock);
	if (res->changed)
		ft_engine_demand(fab, true);
	mutex_unlock(&fab->step_lock);
}

/*
 * Zero the fabric's counters and its links'. What is waiting, the cycle
 * count, circuits and the leaves' device counters stay.
 */
void ft_engine_reset_stats(struct ft_fab *fab)
{
	struct ft_fab_stats *st = &fab->st;

	mutex_lock(&fab->step_lock);
	spin_lock_bh(&fab->lock);
	memset(fab->eng.stats, 0, fab->eng.lanes.n * sizeof(*fab->eng.stats));
	st->synth_queued -= st->synth_delivered;
	st->synth_delivered = 0;
	st->offered = 0;
	st->delivered = 0;
	st->blocked = 0;
	st->control = 0;
	st->overruns = 0;
	st->cycle_ns = 0;
	st->failure_held = 0;
	st->circuits_cut = 0;
	spin_unlock_bh(&fab->lock);
	mutex_unlock(&fab->step_lock);
}
