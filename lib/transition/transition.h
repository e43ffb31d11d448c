/*
 * transition.h - staged LFT transitions: the planner.
 *
 * Every change of tables becomes a plan: stages of (switch, DLID) entry
 * changes, uploaded one stage after the other.  While stage k is being
 * uploaded a switch may forward by its old or its new entry for each
 * entry of stage k; entries of earlier stages are new, later ones old.
 * The union of state k-1 and state k must then be
 *
 *   loop free:  per DLID, no packet can circle: the graph of channels in
 *               which W->X leads on to X->Y when X's old or new entry
 *               sends it to Y is acyclic;
 *   acyclic:    the channel dependency graph of every combination is
 *               acyclic: (W->X)->(X->Y) exists when W's old or new entry
 *               leads to X and X's old or new entry leads to Y; end
 *               ports inject towards every LID but their own, switches
 *               are sources too (port 0).
 *
 * In both, X->Y never follows W->X over the same cable: a switch drops a
 * packet its entry would send back out of the port it came in on
 * (fabric/relay.h), so that hop is neither a loop nor a dependency.
 *
 * This assumes what the stage boundary means in OpenSM: the next stage is
 * sent only once the previous one is in force everywhere (and packets
 * routed by states before k-1 have drained, unless the plan says stage
 * k needs no drain: plan.h), as OSR (the OSR paper) assumes one
 * reconfiguration at a time.
 */
#ifndef DQR_TRANSITION_H
#define DQR_TRANSITION_H

#include <stddef.h>
#include <stdint.h>

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "transition/plan.h"
#include "transition/union_check.h"

struct dqr_plan_report {
	uint32_t entries;	/* changed entries */
	uint32_t dlids;		/* DLIDs with a changed entry */
	uint32_t switches;	/* switches with a changed entry */
	uint32_t levels;	/* stages of the dependency order */
	uint32_t stages;	/* stages of the plan */
	uint32_t max_stage;	/* entries in the largest stage */
	uint32_t splits;	/* levels whose union failed as a whole */
	uint64_t checks;	/* union checks (or candidates) tried */
	double ms;
	int old_ok, new_ok;	/* each table alone loop free and acyclic */
	int safe;		/* every stage union checked and holds */
	uint32_t forced;	/* entries staged although their union fails */
	uint32_t stages_cyclic;	/* stages opened on a cyclic state */
	int proved;		/* made and proved by dqr_plan_proved() */
	uint32_t withdrawn;	/* entries withdrawn (dqr_plan_build_withdraw(),
				 * dqr_plan_fold_drains()) */
	uint32_t folded;	/* stages folded into the last one */
	char reason[2048];	/* why not safe; "" when safe */
};

/*
 * Plans the change of from into to on f (tables of f's switches; LIDs
 * beyond one table's end count as DQR_NO_PATH there).  Every entry that
 * differs is in exactly one stage.
 *
 *   1. Per DLID, an order of its changed switches: a switch changes only
 *      after every changed switch downstream on its new route (so it
 *      takes its new route when that route already forwards: no loop
 *      can form), and, where that does not contradict it, before its old
 *      next hop when that changes too and is not on its new route
 *      (upstream leaves first, so no packet is routed old, then new).
 *   2. List scheduling: a stage takes, wave after wave, every entry whose
 *      predecessors are staged or in force and whose addition keeps the
 *      stage union loop free and acyclic, first fit: everything at once
 *      when it fits (a change compatible with the channel list is one
 *      stage per wave of order, usually merged into one), else in the
 *      channel-dependency order of the old tables (upstream channels
 *      first, as OSR's tokens travel), destination by destination, then
 *      entry by entry.  What does not fit waits for the next stage.
 *   3. When nothing fits even alone, any pending entry that fits is
 *      taken out of order; when none does, no order can bridge the old
 *      and new functions from here: the first entry is staged alone,
 *      rep->safe is 0 and rep->reason says which entry, and the loop or
 *      the channels of the cycle its union closes.  While the state in
 *      force is then cyclic, stages are judged for loops only (the
 *      unsafe stretch is kept to as few stages as possible).
 *
 * When the old or new tables themselves loop or are cyclic, no order can
 * help either: rep->safe is 0 with the reason; DLIDs that loop there are
 * not judged for loops, and a cycle there stops dependencies from being
 * judged (the plan is then loop free only).  Returns 0, or -1 when out
 * of memory.  plan is released and refilled.
 */
int dqr_plan_build(const struct dqr_fabric *f, const struct dqr_lfts *from,
		   const struct dqr_lfts *to, struct dqr_plan *plan,
		   struct dqr_plan_report *rep);

/*
 * A plan made and proved in time proportional to the change, for DQR's
 * changes: per destination a switch changes one stage after the last
 * changed switch downstream on its new route (stage k: every entry of
 * that level); every stage's union with the state before is loop free
 * towards the DLIDs it changes and every dependency with a changed entry
 * at one hop goes into cl (a channel list of f's ports, reordered where
 * that closes no cycle).  A stage needs no drain when the dependencies
 * of packets routed since the last drain, in time order, go in too; one
 * that cannot be proved so waits (DQR_DRAIN_CYCLE).  The caller promises
 * that from is loop free and that cl holds every dependency that may be
 * in use (DQR's channel list, dyn_order.h, holds those of the tables it
 * maintains).  changes lists the (switch, LID) entries where from and to
 * may differ (the ports are read from the tables; repeats and equal
 * entries are dropped); NULL compares the tables whole.
 *
 * Returns 1 with plan filled, rep as dqr_plan_build() fills it (proved
 * set), and the plan's dependencies left in cl; 0 when this proves
 * nothing (a loop, a dependency that closes a cycle with cl, a new route
 * that loops, cl NULL): plan and cl are as they were and
 * dqr_plan_build() decides; -1 when out of memory.
 */
int dqr_plan_proved(const struct dqr_fabric *f, const struct dqr_lfts *from,
		    const struct dqr_lfts *to,
		    const struct dqr_plan_entry *changes, uint32_t n,
		    struct dqr_dyn_order *cl, struct dqr_plan *plan,
		    struct dqr_plan_report *rep);

#define DQR_PLAN_MAX_LAYERS 8

/*
 * A routing on virtual layers (SL = VL = layer, fixed per route): its
 * channel list is one list over layer * f->num_ports + channel vertices,
 * the layers side by side.  layer() gives the layer of the route from
 * src_port (a switch's port 0 or an end port, global port index) towards
 * lid; below num_layers, at most DQR_PLAN_MAX_LAYERS, or
 * DQR_PLAN_UNJUDGED for packets the judgement leaves out (those of a
 * pair whose SL the change moves, sent with the SL the SA answered
 * before: reaction/topo_vlayers.c).
 */
#define DQR_PLAN_UNJUDGED 0xffu
struct dqr_plan_vlayers {
	unsigned num_layers;
	uint8_t (*layer)(const void *ctx, uint32_t src_port, uint32_t lid);
	const void *ctx;
};

/*
 * dqr_plan_proved() for a routing on layers (lay NULL: one layer, a
 * vertex is a channel, exactly dqr_plan_proved()).  Each dependency goes
 * into cl in every layer of the packets that may take it: per DLID and
 * stage, the layers of the sources that reach a switch by the entries
 * the states may use.  On layers the caller also promises that cl holds
 * every dependency of to in its layers (recon's layered list does: it
 * is built from the tables and a repair puts in what they gain), so
 * only what involves an old entry is judged: the switches upstream and
 * downstream of the changed ones, in time proportional to them, not to
 * the fabric.  When it proves nothing, rep->reason says which loop or
 * dependency stopped it.
 */
int dqr_plan_proved_vlayers(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to,
			    const struct dqr_plan_entry *changes, uint32_t n,
			    struct dqr_dyn_order *cl,
			    const struct dqr_plan_vlayers *lay,
			    struct dqr_plan *plan, struct dqr_plan_report *rep);

/*
 * The union of states a and b (each switch may forward by a's entry or
 * b's; a == b judges one state) on layers: loop free towards every DLID,
 * and every layer's dependencies acyclic (a CA injects on its own layer,
 * a packet keeps its source's layer).  1 when both hold, 0 when not (why
 * says the DLID that loops or the cyclic layer), -1 when out of memory.
 * O(LIDs x switches x layers) and the dependencies' sort.
 */
int dqr_union_vlayers_ok(const struct dqr_fabric *f, const struct dqr_lfts *a,
			 const struct dqr_lfts *b,
			 const struct dqr_plan_vlayers *lay, char *why,
			 size_t whylen);

/*
 * dqr_plan_change() for a routing on layers, whose every state is cyclic
 * on one layer (so never dqr_plan_build()): dqr_plan_proved_vlayers()
 * when it proves; else, when to is loop free and acyclic in every layer
 * of lay (the layers to was made for), dqr_plan_build_withdraw()
 * (rep->withdrawn set, rep->reason says why the proof failed, or that
 * from is not, rep->old_ok 0: a cable came back under a transition left
 * mid-way, and stage 1 leaves only entries of to); else rep->safe 0 with
 * the reason.  from and every stage are judged by sent, the layers of
 * the packets sent until to is in force everywhere (NULL: lay): where a
 * change moves pairs to other SLs, the SA answers their old SL until
 * then, and those packets are left out (DQR_PLAN_UNJUDGED).  0, or -1
 * when out of memory.
 */
int dqr_plan_change_vlayers(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to, struct dqr_dyn_order *cl,
			    const struct dqr_plan_vlayers *lay,
			    const struct dqr_plan_vlayers *sent,
			    struct dqr_plan *plan, struct dqr_plan_report *rep);

/*
 * The OSR paper's transition for a change no order of single entries
 * makes safe (dqr_plan_build() says rep->safe 0 while rep->old_ok and
 * rep->new_ok hold): stage 1 withdraws every changed entry that
 * forwards in from (sets it DQR_NO_PATH: those packets are dropped),
 * stage 2, after the drain (DQR_DRAIN_WITHDRAW), installs the new
 * entries.  Each stage's union is part of from or of to alone, so the
 * plan is safe exactly when both tables are loop free and acyclic: the
 * caller must know that.  An entry may change in both stages.  0, or -1
 * when out of memory.
 */
int dqr_plan_build_withdraw(const struct dqr_fabric *f,
			    const struct dqr_lfts *from,
			    const struct dqr_lfts *to, struct dqr_plan *plan,
			    struct dqr_plan_report *rep);

/*
 * At most one drain: when p waits more than one, the stages from its
 * first drain on are folded into one that follows that drain, and the
 * stage before it also withdraws every later entry that forwards in the
 * state held (plan_fold.c says why every state stays safe).  rep->folded
 * counts the stages folded, rep->withdrawn grows, rep->stages and
 * rep->max_stage follow.  f is the cabling the plan goes up on.  0, or
 * -1 when out of memory (p as it was).
 */
int dqr_plan_fold_drains(const struct dqr_fabric *f, struct dqr_plan *p,
			 struct dqr_plan_report *rep);

/*
 * The plan for one change, as the plugin uploads it: made and proved by
 * dqr_plan_proved() when cl is given and that proves it, else by
 * dqr_plan_build().  A proved plan that waits drains gives way to
 * dqr_plan_build()'s when that waits fewer and the state is settled (no
 * packet of a state before from may still be in flight, which only the
 * list describes): a drain is two LifeTimes, seconds with OpenSM's
 * defaults, while the exact planner takes milliseconds on fabrics of up
 * to 2^20 (switch, LID) entries, where it is tried (seconds beyond);
 * cl then gets back what the proof put in.
 * Either plan then waits one drain at most (dqr_plan_fold_drains()).
 * Where dqr_plan_build() finds no safe order of single entries but
 * the new tables hold, dqr_plan_build_withdraw() (rep->withdrawn set,
 * rep->reason keeps why).  rep->safe is 0 only when the new tables
 * themselves loop or are cyclic (rep->new_ok 0): no order can make such
 * a change safe, and it must not go up.  0, or -1 when out of memory.
 */
int dqr_plan_change(const struct dqr_fabric *f, const struct dqr_lfts *from,
		    const struct dqr_lfts *to, struct dqr_dyn_order *cl,
		    int settled, struct dqr_plan *plan,
		    struct dqr_plan_report *rep);

/*
 * Which stages of p, a plan from the tables from, need the drain
 * (plan.h: stage_drain), judged as dqr_plan_build() judges its own: for
 * plans made otherwise (by hand, read from records).  It assumes what a
 * plan guarantees, that the union of every two consecutive states holds
 * (dqr_plan_replay() judges that).  A plan in which an entry changes in
 * more than one stage (a re-routing layer's, several records together)
 * is not judged: every stage after the first waits (DQR_DRAIN_UNSAFE).
 * stage_drain is allocated when NULL.  0, or -1 when out of memory
 * (every stage after the first then waits).
 */
int dqr_plan_mark_drains(const struct dqr_fabric *f,
			 const struct dqr_lfts *from, struct dqr_plan *p);

/*
 * Why stage s (0-based, s >= 1) of p waits, by the exact judgement of its
 * time order: one dependency cycle of the packets routed since the last
 * stage before s that p says waits, into buf as dqr_format_verdict()
 * writes it; "" when that judgement finds none (a stage the proof could
 * not show free, or one that waits for another reason).  from are the
 * tables p starts from.  0, or -1 when out of memory.
 */
int dqr_plan_wait_cycle(const struct dqr_fabric *f,
			const struct dqr_lfts *from, const struct dqr_plan *p,
			uint32_t s, char *buf, size_t len);

/*
 * p's own drain flags (a plan made otherwise, e.g. dqr_plan_proved())
 * against the exact judgement of the same time order: for every stage k
 * that does not wait, with w the last stage before it that waits (0 when
 * none), stages w .. k replayed from the state before w must need no
 * drain by dqr_plan_mark_drains().  Returns the stages where that fails
 * (0: p waits wherever it must), -1 when out of memory; *checked, when
 * not NULL, counts the stages judged.
 */
int64_t dqr_plan_laxer_drains(const struct dqr_fabric *f,
			      const struct dqr_lfts *from,
			      const struct dqr_plan *p, uint64_t *checked);

#endif
