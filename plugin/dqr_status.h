/*
 * dqr_status.h - the state of the plugin for operators, in two files of
 * <dump_files_dir>, each rewritten whole (a temporary file renamed over
 * it) after every routing pass that changed something and every stage
 * of a transition:
 *
 *   dqr-status  "key: value" lines to read and grep: base engine, shape,
 *               what is missing now, the transition under way, the last
 *               reconfiguration and the verifier's verdict;
 *   dqr.prom    the same as metrics for node_exporter's textfile
 *               collector (osmdqr_*, counters since OpenSM started).
 *
 * Called by dqr_engine.c, dqr_transition.c and dqr_report.c; calls only
 * base_engines.h below it.  The formatting (dqr_status_fmt.c) knows no
 * OpenSM: it takes a struct dqr_status_view, and the unit test
 * (test/unit/plugin/test_status.c) feeds it one.
 */
#ifndef DQR_STATUS_H
#define DQR_STATUS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"
#include "recon/recon.h"

#define DQR_STATUS_FILE "dqr-status"
#define DQR_STATUS_PROM "dqr.prom"
/* distinct reconfiguration outcomes counted; more share the last */
#define DQR_STATUS_OUTCOMES 8
#define DQR_STATUS_OUTCOME_LEN 48
/* failed switch ports and missing switches named in dqr-status */
#define DQR_STATUS_NAMES_MAX 32

/* The last reconfiguration, kept: a later routing pass resets its clock. */
struct dqr_status_reconfig {
	uint64_t id;			/* 0: none yet */
	char outcome[DQR_STATUS_OUTCOME_LEN];
	char since[8];			/* "trap", "sweep", "pass" */
	double project, reroute, verify, plan;	/* ms */
	double handed;			/* ms from since; <0: not handed */
	double when;			/* s since the epoch */
};

/*
 * The fault-tolerance report of the tables in force (dqr_tolerance.c):
 * every single fault tried on a copy of DQR's state, by fate
 * (reaction/tolerance.h).
 */
enum dqr_tol_state {
	DQR_TOL_OFF = 0,	/* tolerance_s=0, or no DQR state yet */
	DQR_TOL_JUDGING,	/* under way: judged of faults so far */
	DQR_TOL_DONE,		/* every fault judged */
	DQR_TOL_PARTIAL,	/* tolerance_s spent first */
	DQR_TOL_UNAVAILABLE,	/* why says why */
};

#define DQR_TOL_NAME_LEN 80

struct dqr_tol_report {
	enum dqr_tol_state state;
	uint64_t reconfig;		/* of the tables judged */
	uint32_t faults, cables, judged;
	uint32_t absorbed, drained, cut;
	/* the first DQR_STATUS_NAMES_MAX of those that cut */
	char cut_names[DQR_STATUS_NAMES_MAX][DQR_TOL_NAME_LEN];
	uint32_t num_cut_names;
	double cpu_s;			/* CPU the walk took so far */
	char why[128];
};

/* What dqr.prom counts since OpenSM started; one in struct dqr_ctx. */
struct dqr_status_counters {
	char outcome[DQR_STATUS_OUTCOMES][DQR_STATUS_OUTCOME_LEN];
	uint64_t reconfigs[DQR_STATUS_OUTCOMES];
	uint64_t entries_changed;	/* by reconfigurations handed over */
	uint64_t stages;		/* stages OpenSM answered */
	double drain_ms;		/* drain delays of ended transitions */
	uint64_t fallbacks;		/* DQR passes the base engine took */
	struct dqr_status_reconfig last;
	double last_reaction_ms;	/* trap -> first stage handed */
	int have_reaction;		/* some reconfiguration was handed */
	/* the last transition that ended: complete or left */
	uint64_t ended_id;
	uint32_t ended_stages, ended_done;
	int ended_left;
	int write_failed;	/* ERR DQ31 said; again after a success */
	/* traps the fast path answered, and left to OpenSM's sweep */
	uint64_t fast_reactions, fast_declined;
};

/* Everything both files say; built from the context by dqr_status.c. */
struct dqr_status_view {
	double now;			/* s since the epoch */
	const char *base;		/* "ftree (auto)" */
	const char *shape;		/* "fat tree: 3 levels, ..." */
	int re_routing_layer;		/* the FT paper's layer is in force */
	uint32_t failed_links, missing_nodes, missing_switches;
	/* names: ref's ports and switch nodes (NULL ref: counts only) */
	const struct dqr_fabric *ref;
	const uint32_t *failed_ports;	/* port indices of ref */
	uint32_t num_failed_ports;
	const uint32_t *gone_switches;	/* node indices of ref */
	uint32_t num_gone_switches;
	/* two-phase routing of a hypercube is in force: the switches it
	 * leaves out, their group of four broken (node indices of ref),
	 * and those active by the HC paper's criteria */
	int twophase;
	uint32_t twophase_active;
	const uint32_t *left_out;
	uint32_t num_left_out;
	/* the transition under way; id 0: none */
	uint64_t transition;
	uint32_t stage, stages;		/* stages handed so far, of */
	int answered;			/* OpenSM answered stage `stage` */
	/* the verdict on the tables handed over last */
	int verified;			/* 1 safe, 0 not, -1 not verified */
	const char *verdict;		/* one line: why */
	uint64_t unrouted_pairs;
	const struct dqr_status_counters *c;
	const struct dqr_tol_report *tol;	/* NULL: off */
};

/*
 * Counts one reconfiguration in c: outcome, the entries it changed
 * (0 when not handed over), its times.  r->handed < 0: not handed.
 */
void dqr_status_count(struct dqr_status_counters *c,
		      const struct dqr_status_reconfig *r,
		      uint64_t changed);

/* The text of dqr-status and of dqr.prom; -1 on a write error of fp. */
int dqr_status_format(FILE *fp, const struct dqr_status_view *v);
int dqr_status_format_prom(FILE *fp, const struct dqr_status_view *v);

/*
 * Writes dir/name through fmt(fp, v) into a temporary file of dir and
 * renames it over dir/name, so a reader sees the old or the new file
 * whole.  0, or -1 with why in err (no file left behind).
 */
int dqr_status_write(const char *dir, const char *name,
		     int (*fmt)(FILE *, const struct dqr_status_view *),
		     const struct dqr_status_view *v, char *err, size_t len);

/* ------------------------------------------------------------------ */
/* the plugin's side (dqr_status.c) */

struct dqr_ctx;

enum dqr_status_event {
	DQR_STATUS_ROUTED,	/* a full routing handed its tables over */
	DQR_STATUS_FALLBACK,	/* the same, after DQR could not serve */
	DQR_STATUS_STAGE,	/* OpenSM answered a stage */
	DQR_STATUS_DONE,	/* a transition completed */
	DQR_STATUS_LEFT,	/* a transition was left unfinished */
	/* nothing changed in the fabric: a counter or the report moved */
	DQR_STATUS_REWRITE,
};

/* Counts event and rewrites both files (nothing without a dump dir). */
void dqr_status_update(struct dqr_ctx *ctx, enum dqr_status_event event);

/* "ftree" or "updn (auto; failed: ftree)": the base that routes */
void dqr_fmt_base(const struct dqr_ctx *ctx, char *buf, size_t len);

/* Counts reconfiguration ctx->reconfigs and rewrites both files. */
void dqr_status_reconfig(struct dqr_ctx *ctx,
			 const struct dqr_recon_result *r,
			 const char *outcome);

#endif
