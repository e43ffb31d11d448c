/*
 * dqr_ctx.h - the plugin's state, shared by every module of plugin/.
 *
 * Data only, with no calls of its own.  The modules that use it call
 * each other one way, top to bottom:
 *
 *   dqr_plugin.c     OpenSM's event plugin: create, delete, events
 *   dqr_engine.c     the routing engine's callbacks, base passes
 *   dqr_reconfig.c   the DQR pass: plan, reroute, judge, hand over
 *   dqr_budget.c     what one DQR pass may spend
 *   dqr_rerouting.c     the FT paper's re-routing layer on VL 1
 *   dqr_vlayers.c      tori on e-cube's virtual layers: path_sl, SL2VL
 *   dqr_transition.c the staged upload of new tables
 *   dqr_report.c     log lines
 *   dqr_record.c     the JSON records of reconfigurations and
 *                    transitions, the ids earlier runs left
 *   dqr_status.c     dqr-status and dqr.prom for operators (the text
 *                    in dqr_status_fmt.c, which knows no OpenSM)
 *   switch_tables.c, subnet_model.c, base_engines.c: OpenSM's switches,
 *                    its subnet and its own engines, at the bottom
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
#include "dqr_status.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/node_index.h"
#include "fabric/topo_diff.h"
#include "options/options.h"
#include "recon/recon.h"
#include "ftree/rerouting_layer.h"
#include "mesh/mesh_plugin.h"
#include "mesh/wrap_bias.h"
#include "shape/ftree_shape.h"
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
	 * Set by a DQR pass for the hand-over it makes: DQR's channel list,
	 * which holds every dependency of the tables held, so that a
	 * change it proves safe whole needs no planner
	 * (dqr_plan_proved).  NULL otherwise.
	 */
	struct dqr_dyn_order *held_cl;
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
	struct dqr_options opts;

	/* our entry in OpenSM's engine list, from setup to destroy */
	struct osm_routing_engine *re;
	osm_routing_engine_type_t own_type;

	struct dqr_bases bases;
	uint64_t passes;

	/* the last pass: the fabric as it was and the tables uploaded */
	struct dqr_fabric *fabric;
	struct dqr_lfts *lfts;
	struct dqr_verify_report report;	/* dqr_report.c */
	int have_report;

	/* DQR (dqr_reconfig.c): valid while recon_ready */
	struct dqr_recon recon;
	int recon_ready;
	uint64_t reconfigs;

	struct dqr_transition transition;	/* dqr_transition.c */
	uint64_t transitions;

	/* base=uturn: the fat tree of the reference topology, when it ran */
	struct dqr_ftree *ftree;
	int ran_uturn;
	/* base=auto on a mesh, torus or hypercube: lib's routing that ran
	 * ("updn", "dor", "ecube") and the shape recognised; NULL and ""
	 * otherwise */
	const char *ran_grid;
	char grid_shape[160];
	/* ERR DQ29: lib's up*\/down* replaced the base's tables */
	int ran_updn;
	/* base=auto on a mesh or torus: the DQR paper's plug-in for it */
	struct dqr_mesh_plugin *mesh;
	/* a torus routed as its mesh by up*\/down*: wrap cables last */
	struct dqr_wrap_bias *wraps;
	/* base=auto on a torus with qos TRUE: e-cube's layers and grid
	 * (dqr_vlayers.c), until dqr_start_after_base() hands them to recon */
	struct dqr_vlayers *torus_tl;
	struct dqr_grid *torus_grid;
	struct dqr_vlayers_verdict torus_verdict; /* dqr_judge()'s, last */
	/* the layers SL2VL maps, the layers a move may open included */
	unsigned torus_vls;

	/* the FT paper's re-routing layer on VL 1 (dqr_rerouting.c) */
	struct dqr_ml ml;
	int ml_active;
	struct dqr_fabric *ml_fabric;	/* the cabling it was made for */
	struct dqr_node_index *ml_ix;	/* GUID -> node of ml_fabric */
	/* the fill the switches may still hold: dropped by the next plan */
	struct dqr_change *ml_drop;
	uint32_t ml_num_drop;

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

	/* dqr_status.c: the counters of dqr.prom, the last reconfiguration */
	struct dqr_status_counters status;
	int said_no_tree;	/* dqr_engine.c: uturn_refused() said it */
};

#endif
