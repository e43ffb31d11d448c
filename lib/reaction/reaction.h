/*
 * reaction.h - what to do after a change of cabling, decided once for
 * everybody who runs it: the plugin inside OpenSM and dqr-sim's soak,
 * what-if and Monte Carlo call these functions, so what the tools prove
 * is what opensm runs.
 *
 * The reactor holds what lasts from one change to the next: the options,
 * the VLs the fabric offers, the topology in force (topology.h, an ops
 * table chosen when the base routing is known) and DQR's reconfiguration
 * state (recon.h).  A change of cabling goes through it in three steps:
 *
 *   dqr_react_project()  the cabling now onto the reference topology:
 *                        DQR can serve it (only known cables and nodes
 *                        went or came back), or a full routing must;
 *   dqr_react_project_cut() the same from the ports a trap found down;
 *   dqr_react_update()   DQR's answer: an update, a restart from the
 *                        original tables after a return, or a fallback
 *                        (out of memory, past the budget, entries left
 *                        without a legal route), with the tables to go
 *                        up and, on a fat tree, the re-routing layer;
 *   dqr_react_plan()     the transition from the tables the switches
 *                        hold, by the topology's planner, proved against
 *                        the channel list when the switches hold a state
 *                        whose dependencies it holds (dqr_react_held_list).
 *
 * After a full routing (the caller runs the base: OpenSM's engine, or
 * lib's for a recognised shape, base_choice.c), dqr_react_start() starts
 * DQR on its tables, replacing them by lib's up*\/down* where a one-layer
 * base is cyclic or cuts pairs off.  dqr_react_judge() judges tables in
 * the topology's terms.
 *
 * What the reactor decides it says in x->notes (notes.h), cleared by
 * each call that decides; the caller logs them.  Not thread safe: one
 * caller at a time (the plugin holds OpenSM's lock).
 */
#ifndef DQR_REACTION_H
#define DQR_REACTION_H

#include <stdint.h>

#include "fabric/topo_diff.h"
#include "options/options.h"
#include "reaction/notes.h"
#include "reaction/topology.h"
#include "recon/recon.h"
#include "transition/plan.h"
#include "transition/transition.h"
#include "util/budget.h"
#include "verify/verify.h"

struct dqr_reactor {
	struct dqr_options opts;
	struct dqr_vl_caps caps;	/* as the caller read them last */
	struct dqr_topology topo;
	struct dqr_recon recon;
	int ready;			/* recon holds a state: DQR serves */
	int updn_instead;		/* lib's up*\/down* replaced the base */
	int said_no_fat_tree;		/* base_choice.c said it, once */
	struct dqr_notes notes;		/* of the last call that decides */
	/* dqr_react_check_change()'s workspace, made when first needed */
	struct dqr_change_check *check;
};

/* x starts with options o and no topology ("any", not layered). */
void dqr_reactor_init(struct dqr_reactor *x, const struct dqr_options *o);
/* Everything released; x may be initialised again. */
void dqr_reactor_release(struct dqr_reactor *x);
/* DQR off until the next start: recon released, the topology kept. */
void dqr_reactor_stop(struct dqr_reactor *x);
/* Before a full routing: DQR off and no topology. */
void dqr_reactor_reset(struct dqr_reactor *x);

/*
 * y becomes a copy of x that reacts apart from it: the same options,
 * VLs, topology and DQR state, so that a fault tried on y is answered
 * as x would answer it.  0; 1 when x has no copy (DQR not ready, a
 * torus on virtual layers, a re-routing layer in force); -1 when out
 * of memory.  y is the caller's to release either way.
 */
int dqr_reactor_clone(const struct dqr_reactor *x, struct dqr_reactor *y);

/* The reroute options of the topology in force (mode, turns, plug-in). */
void dqr_react_reroute_opts(const struct dqr_reactor *x,
			    struct dqr_reroute_opts *o);

/* ------------------------------------------------------- after a base */

struct dqr_start {
	int code;			/* dqr_recon_start()'s, last try */
	struct dqr_recon_result res;
	uint64_t filled;		/* entries the base left, DQR filled */
};

/*
 * DQR starts on the base routing *t of f (base: how the log names it).
 * Where a one-layer base is cyclic, or leaves pairs a cable joins
 * without a route DQR cannot fill, *t is replaced by lib's up*\/down*
 * (ERR DQ29, x->updn_instead) and DQR starts on that; the topology
 * becomes "any" when its own start failed.  On success *t holds the
 * original tables (DQR's fill included).  0 when DQR is ready, 1 when
 * it is off until the next full routing (said), -1 when out of memory
 * (said).
 */
int dqr_react_start(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_lfts **t, const char *base,
		    struct dqr_start *st);

/* ---------------------------------------------------- after a change */

enum dqr_answer {
	DQR_ANSWER_UNCHANGED = 0,	/* no change of cabling */
	DQR_ANSWER_UPDATE,		/* DQR rerouted what failed */
	DQR_ANSWER_RESTART,		/* from the original tables */
	DQR_ANSWER_FALLBACK,		/* DQR has no answer: full routing */
	DQR_ANSWER_FULL,		/* new hardware: full routing */
	DQR_ANSWER_NUM
};

extern const char *const dqr_answer_names[DQR_ANSWER_NUM];

enum dqr_fallback_why {
	DQR_FALL_NONE = 0,
	DQR_FALL_NOMEM,			/* out of memory rerouting */
	DQR_FALL_BUDGET,		/* past the budget */
	DQR_FALL_NO_ROUTE,		/* no legal route, fallback=base */
};

struct dqr_reaction {
	enum dqr_answer answer;
	enum dqr_fallback_why why;	/* DQR_ANSWER_FALLBACK */
	int code;			/* dqr_recon_update()'s */
	struct dqr_recon_result res;
	/* 1: on the topology's second layer; 0: one; -1: entries left
	 * without a legal route (fallback=none uploads them so) */
	int layer;
	uint64_t unrouted;		/* those entries */
	const struct dqr_lfts *target;	/* the tables to go up */
};

/*
 * Projects the cabling now onto the reference topology.  0: DQR can
 * serve it (*proj and *d set, the caller frees them); 1: a full routing
 * must (DQR is not ready, or something new is there: said); -1: out of
 * memory (said).
 */
int dqr_react_project(struct dqr_reactor *x, const struct dqr_fabric *now,
		      struct dqr_fabric **proj, struct dqr_topo_diff *d);

/*
 * The same from what a trap's PortInfo found, before the subnet
 * manager has swept: the reference without the cables down so far
 * (recon's) and those at ports (indices of the reference, either end;
 * cables already down are skipped), and without what the subnet
 * manager's port root (in the reference) then no longer reaches, as
 * its sweep would not find it (DQR_NONE: no such pruning).  0 with
 * *proj and *d set; 1 when DQR is not ready; -1 out of memory (said).
 */
int dqr_react_project_cut(struct dqr_reactor *x, const uint32_t *ports,
			  uint32_t nports, uint32_t root,
			  struct dqr_fabric **proj, struct dqr_topo_diff *d);

/*
 * DQR's answer to proj (from dqr_react_project(), d its diff), within
 * budget b (NULL: none).  Past the budget, recon is half done: the
 * answer is a fallback and the caller stops DQR.  0, or -1 when out of
 * memory before an answer (out->answer is then DQR_ANSWER_FALLBACK).
 */
int dqr_react_update(struct dqr_reactor *x, const struct dqr_fabric *proj,
		     const struct dqr_topo_diff *d, struct dqr_budget *b,
		     struct dqr_reaction *out);

/* ------------------------------------------------------ the judgement */

/*
 * Judges tables t of f as the topology in force sees them.  j is the
 * caller's to release (dqr_judgement_release()).  0, or -1 when out of
 * memory (nothing to release).
 */
int dqr_react_judge(struct dqr_reactor *x, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_judgement *j);
void dqr_judgement_release(struct dqr_judgement *j);

/*
 * The change DQR's update r made to the tables held (x's before the
 * update, on proj after the cut d), judged where it changed
 * (verify.h's dqr_verify_change()): every route that meets a changed
 * entry or a cut port still reaches its DLID where a cable path joins
 * them, no loop, no dead port, and every dependency of a changed entry
 * upward in the channel list, so the new tables are acyclic.  The
 * tables held are taken as judged before.  1 proven, rep says what it
 * walked; 0 not proven here (a restart, a second layer, virtual layers,
 * a base's SLs, or a problem rep names): judge the tables whole; -1
 * out of memory.
 */
int dqr_react_check_change(struct dqr_reactor *x,
			   const struct dqr_fabric *proj,
			   const struct dqr_topo_diff *d,
			   const struct dqr_lfts *held,
			   const struct dqr_reaction *r,
			   struct dqr_change_report *rep);
/* 1 when the judged tables may go up: loop free, deadlock free. */
int dqr_judgement_safe(const struct dqr_judgement *j);

/* ----------------------------------------------------- the transition */

/*
 * What may be in the fabric besides the tables the switches hold: a mix
 * of two states (a transition left mid-way, a switch back with an empty
 * table), and packets of an earlier state still in flight, whose
 * dependencies the channel list may or may not hold.
 */
struct dqr_in_flight {
	int mixed;
	int unsettled;
	int deps_in_list;
};

/*
 * The channel list a plan of r's change may be proved against: one that
 * holds every dependency the switches and the packets in flight may use
 * (DQR's list only grows, so it holds those of every state DQR made
 * since its start).  NULL when none does: the planner judges alone.
 */
struct dqr_dyn_order *dqr_react_held_list(struct dqr_reactor *x,
					  const struct dqr_reaction *r,
					  const struct dqr_in_flight *fl);

/*
 * Plans the change from held to target on f (the cabling now) by the
 * topology's planner, with list cl (dqr_react_held_list(), or NULL) and
 * what fl says may be in flight; *used says which planner.  0, or -1
 * when out of memory.
 */
int dqr_react_plan(struct dqr_reactor *x, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		   struct dqr_plan *p, struct dqr_plan_report *rep,
		   enum dqr_planner *used);

/*
 * Why stage s (0-based, s >= 1) of p waits, for the log: on one layer
 * one dependency cycle by the exact judgement (dqr_plan_wait_cycle());
 * on virtual layers, where every state is cyclic on one layer, the
 * layer whose dependencies the stage's union closes into a cycle.  ""
 * when that judgement finds none.  from are the tables p starts from.
 * 0, or -1 when out of memory.
 */
int dqr_react_wait_cycle(struct dqr_reactor *x, const struct dqr_fabric *f,
			 const struct dqr_lfts *from, const struct dqr_plan *p,
			 uint32_t s, char *buf, size_t len);

/* 1 when nothing older than the tables held may be in flight. */
static inline int dqr_in_flight_settled(const struct dqr_in_flight *fl)
{
	return !fl->mixed && !fl->unsettled;
}

/* 1 while the tables in force are on a second layer (a fat tree's
 * re-routing layer). */
int dqr_react_second_layer(const struct dqr_reactor *x);

/* The change planned last went up (or went up at once). */
void dqr_react_handed_over(struct dqr_reactor *x);

/*
 * The tables of the change planned last are in force at every switch
 * (its transition complete, or written at once): from now on the SA
 * answers the SLs they were made with, which the change may have moved
 * (topology.h in_force).  0, or -1 when out of memory: the SA keeps
 * answering the SLs before.
 */
int dqr_react_in_force(struct dqr_reactor *x);

#endif
