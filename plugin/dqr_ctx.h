/*
 * dqr_ctx.h - the plugin's state, shared by every module of plugin/.
 *
 * Data only, with no calls of its own.  The modules that use it call
 * each other one way, top to bottom:
 *
 *   dqr_plugin.c     OpenSM's event plugin: create, delete, events
 *   dqr_engine.c     the routing engine's callbacks, base passes
 *   dqr_fast.c       the fast path: trap 128 answered before the sweep
 *   dqr_tolerance.c  the fault-tolerance report, on a thread of its own
 *   dqr_reconfig.c   the DQR pass: project, update, judge, hand over
 *   dqr_budget.c     what one DQR pass may spend
 *   dqr_transition.c the staged upload of new tables
 *   dqr_sls.c        path SLs and SL2VL of the topology in force, the
 *                    VLs the ports carry, lash's SLs
 *   dqr_report.c     log lines
 *   dqr_record.c     the JSON records of reconfigurations and
 *                    transitions, the ids earlier runs left
 *   dqr_status.c     dqr-status and dqr.prom for operators (the text
 *                    in dqr_status_fmt.c, which knows no OpenSM)
 *   switch_tables.c, trap_ports.c, subnet_model.c, base_engines.c:
 *                    OpenSM's switches (their tables, the PortInfo
 *                    a trap asks for), its subnet and its own
 *                    engines, at the bottom
 *
 * What DQR decides, and everything a topology does differently, is
 * lib's (reaction/reaction.h): the reactor below holds it.
 */
#ifndef DQR_CTX_H
#define DQR_CTX_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "base_engines.h"
#include "dqr_fast.h"
#include "dqr_status.h"
#include "dqr_tolerance.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/node_index.h"
#include "fabric/topo_diff.h"
#include "options/options.h"
#include "reaction/reaction.h"
#include "switch_tables.h"
#include "transition/plan.h"
#include "util/budget.h"
#include "verify/verify.h"

/*
 * Where the time of one routing pass goes, for the reconfiguration's log
 * line and record (dqr_report.c).  Stamps are dqr_now_ms(); spans in ms.
 */
struct dqr_pass_times {
	double start;		/* the earliest sign of the sweep */
	const char *since;	/* what start is: "trap", "sweep", "pass" */
	double project;		/* subnet model and projection */
	double reroute;		/* dqr_recon_update, re-routing layer */
	double verify;		/* the verifier on the tables to upload */
	double plan;		/* the transition's plan */
	double handed;		/* start -> first stage handed; <0: not */
	int fast;		/* a fast reaction (dqr_fast.c), not a pass */
	double ports_known;	/* fast: start -> every PortInfo answered */
	double answered;	/* fast: start -> its last stage answered */
	uint32_t stages_up;	/* fast: the stages it sent, answered */
};

/* When one stage was handed to OpenSM and when OpenSM answered it. */
struct dqr_stage_times {
	double handed, answered;
};

/*
 * A change of tables in progress, one stage per routing pass
 * (dqr_transition.c).
 */
struct dqr_transition {
	int active;
	uint64_t id;
	struct dqr_plan plan;
	uint32_t next;			/* stages handed to OpenSM so far */
	struct dqr_fabric *fabric;	/* the cabling it was planned for */
	struct dqr_lfts *state;		/* the tables after those stages */
	struct dqr_lfts *target;	/* the tables after the last one */
	unsigned drain_ms;
	int confirmed;			/* OpenSM answered the last stage */
	double t_begin, t_confirmed, ms_drained;
	char what[160];			/* what it hands over */
	double t_start;			/* pass_times.start of its pass */
	const char *since;
	struct dqr_stage_times *times;	/* one per stage */
	cl_timer_t timer;
	int timer_ready;
	/*
	 * When the packets of every earlier state are gone (the last stage
	 * answered plus the drain delay), and whether, until then, every
	 * dependency they may use is in the channel list (the last
	 * transition was proved one stage, its union added to the list).
	 */
	double t_settled;
	int deps_in_list;
	int proved;			/* this one: dqr_plan_proved() */
	uint32_t in_pass;		/* stages answered inside a pass */
	unsigned first_wait_ms;		/* stage 1's own wait, see begin */
};

struct dqr_ctx {
	osm_opensm_t *osm;

	/* our entry in OpenSM's engine list, from setup to destroy */
	struct osm_routing_engine *re;
	osm_routing_engine_type_t own_type;

	struct dqr_bases bases;
	uint64_t passes;

	/* the last pass: the fabric as it was, the tables uploaded and
	 * their judgement (dqr_report.c) */
	struct dqr_fabric *fabric;
	struct dqr_lfts *lfts;
	struct dqr_judgement judged;
	int have_report;

	/* the options, DQR's decisions and the topology in force (lib's) */
	struct dqr_reactor react;
	uint64_t reconfigs;

	struct dqr_transition transition;	/* dqr_transition.c */
	uint64_t transitions;

	/* decided by the first step of a pass, used by the second */
	int pass_dqr;
	int try_uturn;
	struct dqr_pass_times times;	/* times.project: step 1 */
	/* what this pass's DQR may spend (dqr_budget.c) */
	struct dqr_budget budget;
	unsigned budget_ms, budget_mb;	/* in force: options or auto */
	size_t rss_at_start;		/* resident bytes when it began */
	/*
	 * OpenSM's events, stamped by dqr_plugin.c; a routing pass takes
	 * and clears them.  Traps come on another thread than the sweep.
	 */
	_Atomic double t_trap;
	double t_sweep;
	struct dqr_fabric *proj;
	struct dqr_topo_diff diff;

	/* the fast path's thread and state (dqr_fast.c), and the LFT Sets
	 * it waits for (switch_tables.c) */
	struct dqr_fast fast;
	struct dqr_lft_wait lft_wait;

	/* dqr_status.c: the counters of dqr.prom, the last reconfiguration */
	struct dqr_status_counters status;
	/* the fault-tolerance report's thread (dqr_tolerance.c) */
	struct dqr_tol_walk tol;
};

#endif
