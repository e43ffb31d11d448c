/*
 * dqr_engine.h - the routing engine 'dqr' and the plugin context.
 *
 * The first routing pass, and every pass after new hardware appeared,
 * runs a base engine (base_engines.h); the plugin then models the subnet
 * with those tables, builds the channel list and fills the entries the
 * base left unrouted with DQR (lib/repair/recon.h).  Every later pass that only
 * lost or regained known cables and nodes is a DQR pass: the tables in
 * force are kept and only broken entries are rerouted (dqr_reconfig.c).
 * Every set of tables is verified before OpenSM uploads it.
 */
#ifndef DQR_ENGINE_H
#define DQR_ENGINE_H

#include <stddef.h>
#include <stdint.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "base_engines.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/node_index.h"
#include "fabric/topo_diff.h"
#include "options/options.h"
#include "repair/recon.h"
#include "repair/rerouting_layer.h"
#include "shape/ftree_shape.h"
#include "transition/transition.h"
#include "verify/verify.h"

/* A change of tables in progress, one stage per routing pass. */
struct dqr_xfer {
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
	cl_timer_t timer;
	int timer_ready;
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
	struct dqr_verify_report report;
	int have_report;

	/* DQR: valid while recon_ready */
	struct dqr_recon recon;
	int recon_ready;
	uint64_t reconfigs;

	struct dqr_xfer xfer;
	uint64_t transitions;

	/* base=uturn: the fat tree of the reference model, when it ran */
	struct dqr_ftree *ftree;
	int ran_uturn;

	/* the FT paper's re-routing layer on VL 1 */
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
	double ms_plan;		/* modelling and projecting, step 1 */
	struct dqr_fabric *proj;
	struct dqr_topo_diff diff;
};

struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o);

/* Frees everything, base engines included. */
void dqr_ctx_free(struct dqr_ctx *ctx);

/* external_routing_engine_module_t.setup; re->context is the dqr_ctx */
int dqr_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm);

/* dqr_reconfig.c */
void dqr_recon_drop(struct dqr_ctx *ctx);
int dqr_plan_pass(struct dqr_ctx *ctx);
int dqr_start_after_base(struct dqr_ctx *ctx, uint64_t *filled);
int dqr_run_pass(struct dqr_ctx *ctx);
int dqr_write_tables(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		     const struct dqr_lfts *t);
int dqr_hand_over(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target, const char *what);
struct dqr_lfts *dqr_read_held(struct dqr_ctx *ctx,
			       const struct dqr_fabric *f,
			       const struct dqr_lfts *target);

/* dqr_transition.c */
int dqr_xfer_init(struct dqr_ctx *ctx);
void dqr_xfer_destroy(struct dqr_ctx *ctx);
unsigned dqr_xfer_drain_ms(const struct dqr_ctx *ctx);
int dqr_xfer_begin(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   const struct dqr_lfts *one, const char *what);
int dqr_xfer_continue(struct dqr_ctx *ctx);
int dqr_xfer_same(const struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target);
void dqr_xfer_routing_done(struct dqr_ctx *ctx);

/*
 * dqr_layers.c.  update: after dqr_recon_update() returned recon_ret;
 * 1 when ctx->ml now holds the layer (target ctx->ml.tables), 0 when
 * recon's tables stand alone, -1 when a layer is needed and cannot be
 * had (logged; the caller falls back).  hook: our path_sl and
 * update_sl2vl exactly while the layer is in force.  drop: all of it.
 */
int dqr_layers_update(struct dqr_ctx *ctx, int recon_ret,
		      const struct dqr_reroute_opts *o);
void dqr_layers_hook(struct dqr_ctx *ctx);
/* stretch= into o when the layer could take what it leaves */
void dqr_layers_stretch(struct dqr_ctx *ctx, struct dqr_reroute_opts *o);
void dqr_layers_drop(struct dqr_ctx *ctx);
void dqr_layers_drop_list_done(struct dqr_ctx *ctx);

/* dqr_report.c */
int dqr_judge(struct dqr_ctx *ctx, const char *what, double ms_model,
	      uint64_t filled);
void dqr_log_reconfig(struct dqr_ctx *ctx, const struct dqr_recon_result *r,
		      const char *outcome);
void dqr_fmt_base(const struct dqr_ctx *ctx, char *buf, size_t len);
int dqr_base_is_layered(const struct dqr_ctx *ctx);

#endif
