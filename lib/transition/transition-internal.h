/*
 * transition-internal.h - what the files of lib/transition/ share and no
 * one else may use: the union checker (union_check.c), which the planner,
 * the replay and the one-shot judgement all drive, and the planner's
 * state, which its three files (plan_order.c, plan_fit.c, transition.c)
 * work on together.
 */
#ifndef DQR_TRANSITION_INTERNAL_H
#define DQR_TRANSITION_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "deps/cdg.h"
#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/relay.h"
#include "routes/union_loops.h"
#include "transition/transition.h"
#include "transition/union_check.h"
#include "util/mem.h"

/* ------------------------------------------------------------ checker */

#define TURN_WORDS 4		/* 256 bits: every port number */
#define PORT_SLOTS 256		/* counters per switch: one per port */

struct turn_bits {
	uint64_t w[TURN_WORDS];
};

/*
 * A union state: every entry is a's or b's.  Where they agree it is
 * single valued.  DLIDs flagged active may differ at some point of the
 * checker's life; the others must stay as they were when it was sealed.
 * What a holds is cached (uchk_rebase() after changing a), so that a
 * check only adds the turns of the DLIDs where b differs from a.
 */
struct uchk {
	const struct dqr_fabric *f;
	uint32_t nv;			/* vertices: f->num_ports */
	uint32_t ns;			/* switches */
	uint32_t lc;			/* lid_count of a and b */
	uint32_t num_channels;
	struct dqr_lfts *a, *b;		/* owned */

	uint8_t *active;		/* per LID */
	uint32_t *act, num_act;		/* active judged LIDs */
	uint8_t *skip_loop;		/* per LID: loops not judged */
	int no_cdg;			/* dependencies not judged */

	/* per channel: port_base of the node it enters, DQR_NONE if idle */
	uint32_t *rbase;
	uint32_t *ends, *end_sw, num_ends;	/* end ports and switches */
	uint32_t *end_off, *end_at;	/* end ports by switch (CSR) */

	/* the inactive LIDs' turns and port counts: the same in every state */
	struct turn_bits *sbase;
	uint32_t *scnt;			/* [sw * PORT_SLOTS + port] */
	/* the same plus the active LIDs as a holds them */
	struct turn_bits *abase;
	uint32_t *cnt;
	struct turn_bits *dyn;		/* turns of this check */
	uint8_t *tmark;
	uint32_t *touched, num_touched;
	uint32_t *indeg, *queue;

	struct dqr_loop_search loops;

	/*
	 * Time order, for the drains (transition.c: drains_mark): when
	 * set, the entries where a and b differ changed in the stages
	 * t_stage[] says, LIDs' entries in t_idx[t_off[lid] ..
	 * t_off[lid + 1]) of t_ent.  A packet forwarded by a switch's new
	 * entry cannot meet an old entry of a switch that changed in an
	 * earlier stage: that turn is left out of the union.
	 */
	const uint32_t *t_off, *t_idx, *t_stage;
	const struct dqr_plan_entry *t_ent;
	uint32_t *sw_stage;		/* per switch, DQR_NONE outside */

	uint64_t checks;
};

static inline int lid_judged(const struct dqr_fabric *f, uint32_t lid)
{
	return dqr_lid_owner(f, lid) != DQR_NONE;
}

/*
 * The channel of a switch's port, DQR_NONE for port 0, none or unlinked:
 * fabric/relay.h's dqr_out_channel(), by the short name transition/ uses.
 */
static inline uint32_t out_ch(const struct dqr_fabric *f, uint32_t sw,
			      uint8_t p)
{
	return dqr_out_channel(f, sw, p);
}

/* The checker's tables are as wide as every LID it sees: no bound check. */
static inline uint8_t ent(const struct dqr_lfts *t, uint32_t sw, uint32_t lid)
{
	return t->port[(size_t)sw * t->lid_count + lid];
}

static inline void ent_set(struct dqr_lfts *t, uint32_t sw, uint32_t lid,
			   uint8_t p)
{
	t->port[(size_t)sw * t->lid_count + lid] = p;
}

/*
 * The ports by which switch sw forwards towards lid in u->a or in b (b's
 * only where it differs), those that lead on a channel: up to two, a's
 * first, into q.  Returns how many.
 */
static inline unsigned uchk_ports(const struct uchk *u,
				  const struct dqr_lfts *b, uint32_t sw,
				  uint32_t lid, uint8_t q[2])
{
	uint8_t pa = ent(u->a, sw, lid), pb = ent(b, sw, lid);
	unsigned n = 0;

	if (out_ch(u->f, sw, pa) != DQR_NONE)
		q[n++] = pa;
	if (pb != pa && out_ch(u->f, sw, pb) != DQR_NONE)
		q[n++] = pb;
	return n;
}

/* Sets entries [lo, hi) of t to their old or their new port. */
static inline void ent_set_side(struct dqr_lfts *t,
				const struct dqr_plan_entry *e, uint32_t lo,
				uint32_t hi, int to_new)
{
	uint32_t i;

	for (i = lo; i < hi; i++)
		ent_set(t, e[i].sw, e[i].lid,
			to_new ? e[i].new_port : e[i].old_port);
}

/* A copy of t with lc entries per row (NO_PATH beyond t's end). */
struct dqr_lfts *tr_lfts_widen(const struct dqr_lfts *t, uint32_t lc);

/*
 * A checker whose a and b both start as t widened to lc LIDs.  Mark the
 * active LIDs in u->active, then call uchk_seal().
 */
int uchk_init(struct uchk *u, const struct dqr_fabric *f,
	      const struct dqr_lfts *t, uint32_t lc);
void uchk_release(struct uchk *u);
/* Turns of the inactive LIDs, once: they are the same in every state. */
void uchk_seal(struct uchk *u);
/* What a holds now: the inactive LIDs' part plus the active ones. */
void uchk_rebase(struct uchk *u);

/* Entries e[0 .. n) on their old or new side in a and b alike. */
void uchk_set_both(struct uchk *u, const struct dqr_plan_entry *e,
		   uint32_t n, int to_new);

/*
 * Injection turns of the union into the check's own turns (dyn): an end
 * port injects towards every LID but its own.
 */
void uchk_add_injection(struct uchk *u);
/* The check's own turns forgotten. */
void uchk_clear_dyn(struct uchk *u);
/* a's turns plus the check's own as a CSR graph; NULL when no memory. */
struct dqr_cdg *uchk_turns_to_cdg(struct uchk *u);

/*
 * 1 when the union loops towards lid; the loop found is recorded in v
 * when v is not NULL.
 */
int uchk_loops(struct uchk *u, uint32_t lid, struct dqr_union_verdict *v);

#define JUDGE_ALL	1u	/* count every looping DLID, judge both */
#define JUDGE_CYCLE	2u	/* name a cycle when there is one */

/*
 * Judges the union of a and b.  dlids holds every DLID whose entries
 * differ between a and b; loops are searched towards those of lids only
 * (the others are single valued or known: the caller's business).
 * Without JUDGE_ALL the first failure ends the check.  Returns 1 when
 * the union holds, 0 when not, -1 when out of memory.
 */
int uchk_judge(struct uchk *u, const uint32_t *lids, uint32_t n,
	       const uint32_t *dlids, uint32_t nd, unsigned mode,
	       struct dqr_union_verdict *v);

/* ------------------------------------------------------------ planner */

struct grp {
	uint32_t lo, hi;	/* a run of candidates: one destination */
};

enum {
	ENT_PENDING = 0,
	ENT_STAGED,		/* in the open stage */
	ENT_DONE,		/* in force */
};

struct planner {
	const struct dqr_fabric *f;
	const struct dqr_lfts *from, *to;
	struct uchk u;
	struct dqr_plan_entry *e;	/* changed entries, LID-major */
	uint32_t n;
	uint32_t *lid_off;		/* e[lid_off[l] .. lid_off[l + 1]) */
	uint32_t *level;		/* depth in its destination's order */
	uint32_t num_levels;
	/* the order per destination: e[i] after its predecessors */
	uint32_t *succ_off, *succ;
	uint32_t *pleft;		/* predecessors not staged or done */
	uint8_t *state;
	uint8_t *failed;		/* fails with the open stage: skip */

	uint32_t *s_ent, s_n;		/* the open stage, as added */
	uint32_t *cand;			/* candidates of one wave */
	uint32_t *clids, nclids;	/* DLIDs of the chunk being tried */
	uint32_t *slids, nslids;	/* DLIDs of the open stage */
	uint32_t *lmark, *smark, epoch;
	struct grp *grp;
	uint32_t *key;			/* old channel order, per entry */
	int keys_done;

	/*
	 * The committed state's dependencies as a channel order that takes
	 * new dependencies one at a time (Pearce-Kelly, dyn_order.c): a
	 * candidate costs its own dependencies, not a whole graph.  Built
	 * when a stage opens; NULL when that state is cyclic or dependencies
	 * are not judged (then every check is a whole one).
	 */
	struct dqr_dyn_order *dord;
	int no_cdg;			/* old or new tables are cyclic */
	int loops_only;			/* the state in force: cyclic */

	uint64_t budget;

	struct dqr_plan *plan;
	struct dqr_plan_report *rep;
};

/*
 * plan_order.c: the changed entries, LID-major, their per-entry arrays,
 * and the order among them per destination.  0, or -1 when no memory.
 */
int planner_collect_changes(struct planner *pl);
/* What planner_collect_changes() allocated. */
void planner_free_changes(struct planner *pl);

/* plan_fit.c: filling the open stage. */
void planner_stage_put(struct planner *pl, uint32_t i);
void planner_stage_lids(struct planner *pl);
uint32_t planner_collect_cand(struct planner *pl, int any_order);
int planner_sort_cand(struct planner *pl, uint32_t n);
/*
 * First fit of the n candidates in pl->cand into the open stage; *added
 * counts what went in.  0, or -1 when out of memory.
 */
int planner_fit(struct planner *pl, uint32_t n, uint32_t *added);

#endif
