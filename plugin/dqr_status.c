/*
 * dqr_status.c - the plugin's side of dqr-status and dqr.prom: counts
 * what happened and gathers the state of the context into a view that
 * dqr_status_fmt.c formats.  Called by dqr_engine.c, dqr_reconfig.c,
 * dqr_transition.c, dqr_report.c and dqr_tolerance.c; calls nothing of
 * the plugin but the inline helpers of base_engines.h and
 * dqr_tolerance.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_ctx.h"
#include "dqr_status.h"

void dqr_fmt_base(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	const struct dqr_bases *b = &ctx->bases;
	size_t used;
	int id, first = 1;

	/* the routing in force, and what it replaced */
	used = snprintf(buf, len, "%s%s", ctx->react.updn_instead ?
			"updn instead of " : "",
			*ctx->react.topo.routing ? ctx->react.topo.routing :
			b->ran ? dqr_base_name(b->ran) : "none");
	if (ctx->react.opts.base != DQR_BASE_AUTO || used >= len)
		return;
	used += snprintf(buf + used, len - used, " (auto");
	for (id = 0; id < DQR_BASE_NUM && used < len; id++) {
		if (!(b->failed & (1u << id)))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 first ? "; failed: " : ", ",
				 dqr_base_engine_name(id));
		first = 0;
	}
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

static void fmt_shape(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	uint32_t sw = ctx->fabric ? ctx->fabric->num_switches : 0;

	if (*ctx->react.topo.routing && *ctx->react.topo.shape)
		snprintf(buf, len, "%s", ctx->react.topo.shape);
	else if (ctx->react.opts.base == DQR_BASE_AUTO ||
		 ctx->react.opts.base == DQR_BASE_UTURN)
		snprintf(buf, len, "no fat tree the plugin recognises, %u "
			 "switches", sw);
	else
		snprintf(buf, len, "not examined (base=%s), %u switches",
			 dqr_base_engine_name(ctx->react.opts.base), sw);
}

/*
 * The switches of the reference topology absent now: the projection
 * drops the LIDs of absent nodes (topo_diff.h), so a switch whose port 0
 * owns no LID in it is gone.  Fills up to max node indices; the count.
 */
static uint32_t gone_switches(const struct dqr_ctx *ctx, uint32_t *out,
			      uint32_t max)
{
	const struct dqr_fabric *p = ctx->proj;
	uint32_t sw, n = 0;

	if (!p || !ctx->react.ready)
		return 0;
	for (sw = 0; sw < p->num_switches; sw++) {
		uint32_t node = p->switches[sw];
		uint32_t p0 = p->nodes[node].port_base;
		uint32_t lid = p->ports[p0].base_lid;

		if (lid && lid <= p->max_lid && p->lid_port[lid] == p0)
			continue;
		if (n < max)
			out[n] = node;
		n++;
	}
	return n;
}

/*
 * Two-phase routing's switches left out (node indices of ref, up to
 * max) into v, when it is in force.
 */
static void left_out(const struct dqr_ctx *ctx, struct dqr_status_view *v,
		     uint32_t *out, uint32_t max)
{
	const struct dqr_fabric *ref = ctx->react.recon.ref;
	struct dqr_twophase_view tv;
	uint32_t sw, n = 0;

	if (!ctx->react.ready || !ref ||
	    dqr_topology_twophase_view(&ctx->react, &tv) || tv.active < 0)
		return;
	for (sw = 0; sw < tv.switches && sw < ref->num_switches; sw++)
		if (tv.level[sw] == DQR_TWOPHASE_LEFT_OUT && n++ < max)
			out[n - 1] = ref->switches[sw];
	v->twophase = 1;
	v->twophase_active = (uint32_t)tv.active;
	v->num_left_out = n;
	v->left_out = out;
}

/* 1 safe, 0 not, -1 not judged; why in buf. */
static int verdict(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	const struct dqr_judgement *j = &ctx->judged;
	const struct dqr_verify_report *r = &j->v;

	if (!ctx->react.opts.verify) {
		snprintf(buf, len, "verify=off: the tables go out unverified");
		return -1;
	}
	if (!ctx->have_report) {
		snprintf(buf, len, "none: the tables handed over last were "
			 "not verified (see the ERROR lines of the log)");
		return -1;
	}
	if (r->loop_entries) {
		snprintf(buf, len, "%" PRIu64 " entries on forwarding loops",
			 r->loop_entries);
		return 0;
	}
	if (!r->cycle_found) {
		snprintf(buf, len, "loop free and deadlock free: %" PRIu64
			 " dependencies, no cycle", r->dependencies);
		return 1;
	}
	if (j->kind == DQR_JUDGED_TWO_VLS && j->deadlock_free == 1) {
		snprintf(buf, len, "loop free; deadlock free on the two VLs "
			 "of the re-routing layer");
		return 1;
	}
	if (j->kind == DQR_JUDGED_VLAYERS && j->deadlock_free == 1) {
		snprintf(buf, len, "loop free; deadlock free on the %u VLs "
			 "of %s layers",
			 dqr_vlayers_count(dqr_topology_vlayers_in_force(
				 &ctx->react)),
			 dqr_topology_whose(&ctx->react));
		return 1;
	}
	if (j->kind == DQR_JUDGED_BASE_SLS) {
		snprintf(buf, len, "loop free; a cycle of %u channels on one "
			 "layer, left to the base engine's SLs, which the "
			 "plugin does not check", r->cycle.len);
		return -1;
	}
	snprintf(buf, len, "deadlock possible: a cycle of %u channels",
		 r->cycle.len);
	return 0;
}

static void write_both(struct dqr_ctx *ctx, int left)
{
	const char *dir = ctx->osm->subn.opt.dump_files_dir;
	const struct dqr_transition *x = &ctx->transition;
	struct dqr_status_counters *c = &ctx->status;
	struct dqr_status_view v;
	struct dqr_tol_report tol;
	uint32_t gone[DQR_STATUS_NAMES_MAX], outs[DQR_STATUS_NAMES_MAX];
	char base[128], shape[192], why[256], err[4200];
	int bad;

	if (!dir || !*dir)
		return;
	memset(&v, 0, sizeof(v));
	dqr_fmt_base(ctx, base, sizeof(base));
	fmt_shape(ctx, shape, sizeof(shape));
	v.now = (double)time(NULL);
	v.base = base;
	v.shape = shape;
	v.re_routing_layer = dqr_react_second_layer(&ctx->react);
	v.failed_links = ctx->diff.links_missing;
	v.missing_nodes = ctx->diff.nodes_missing;
	v.num_gone_switches = gone_switches(ctx, gone, DQR_STATUS_NAMES_MAX);
	v.missing_switches = v.num_gone_switches;
	v.gone_switches = gone;
	left_out(ctx, &v, outs, DQR_STATUS_NAMES_MAX);
	if (ctx->react.ready && ctx->proj) {
		v.ref = ctx->react.recon.ref;
		v.failed_ports = ctx->diff.missing_ports;
		v.num_failed_ports = ctx->diff.num_missing_ports;
	}
	if (x->active && !left) {
		v.transition = x->id;
		v.stage = x->next;
		v.stages = x->plan.num_stages;
		v.answered = x->confirmed;
	}
	v.verified = verdict(ctx, why, sizeof(why));
	v.verdict = why;
	if (ctx->have_report)
		v.unrouted_pairs = dqr_report_unreachable(&ctx->judged.v);
	v.c = c;
	dqr_tolerance_report(&ctx->tol, &tol);
	v.tol = &tol;
	bad = dqr_status_write(dir, DQR_STATUS_FILE, dqr_status_format, &v,
			       err, sizeof(err)) ||
	      dqr_status_write(dir, DQR_STATUS_PROM, dqr_status_format_prom,
			       &v, err, sizeof(err));
	if (!bad) {
		c->write_failed = 0;
		return;
	}
	if (c->write_failed)
		return;
	c->write_failed = 1;
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ31: dqr: %s; %s and "
		"%s are not kept up to date (said once until a write "
		"succeeds); routing goes on\n", err, DQR_STATUS_FILE,
		DQR_STATUS_PROM);
}

void dqr_status_update(struct dqr_ctx *ctx, enum dqr_status_event event)
{
	const struct dqr_transition *x = &ctx->transition;
	struct dqr_status_counters *c = &ctx->status;

	/* every change but the report's own makes the report stale; a
	 * state that may be settled asks for a new one */
	if (event != DQR_STATUS_REWRITE)
		dqr_tolerance_stale(&ctx->tol, event != DQR_STATUS_STAGE);
	switch (event) {
	case DQR_STATUS_FALLBACK:
		c->fallbacks++;
		break;
	case DQR_STATUS_STAGE:
		c->stages++;
		break;
	case DQR_STATUS_DONE:
	case DQR_STATUS_LEFT:
		c->ended_id = x->id;
		c->ended_stages = x->plan.num_stages;
		c->ended_done = x->next;
		c->ended_left = event == DQR_STATUS_LEFT;
		c->drain_ms += x->ms_drained;
		break;
	case DQR_STATUS_ROUTED:
	case DQR_STATUS_REWRITE:
		break;
	}
	write_both(ctx, event == DQR_STATUS_LEFT);
}

void dqr_status_reconfig(struct dqr_ctx *ctx,
			 const struct dqr_recon_result *r,
			 const char *outcome)
{
	const struct dqr_pass_times *t = &ctx->times;
	struct dqr_status_reconfig rc;

	memset(&rc, 0, sizeof(rc));
	rc.id = ctx->reconfigs;
	snprintf(rc.outcome, sizeof(rc.outcome), "%s", outcome);
	snprintf(rc.since, sizeof(rc.since), "%s", t->since ? t->since : "?");
	rc.project = t->project;
	rc.reroute = t->reroute;
	rc.verify = t->verify;
	rc.plan = t->plan;
	rc.handed = t->handed;
	rc.when = (double)time(NULL);
	dqr_status_count(&ctx->status, &rc, r->diff.entries);
	dqr_tolerance_stale(&ctx->tol, 0);
	write_both(ctx, 0);
}
