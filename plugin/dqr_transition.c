/*
 * dqr_transition.c - handing new tables to the switches stage by stage.
 *
 * OpenSM uploads every changed LFT block of a pass at once, so while the
 * upload is under way some switches forward by old entries and some by
 * new ones.  The plan (lib/transition/transition.h) splits the change
 * into stages whose every intermediate state is loop free and deadlock
 * free; here each stage is one routing pass: its tables go into new_lft,
 * OpenSM uploads them and waits until every LFT Set is answered, reports
 * OSM_EVENT_ID_UCAST_ROUTING_DONE, and the next heavy sweep brings the
 * next stage: at once when the plan says no packet still in flight can
 * hurt it (plan.h, doc/transitions.md), else after the drain delay.
 *
 * Called by dqr_reconfig.c (begin, continue) and dqr_plugin.c (the
 * event); calls switch_tables.c below it, dqr_record.c for the record
 * of a transition complete and dqr_status.c for the status files.  The
 * drain timer calls nothing of ours: it asks OpenSM for a sweep, and
 * OpenSM's routing pass comes back down through the engine to
 * dqr_transition_continue().
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_report.h"
#include "dqr_sls.h"
#include "dqr_transition.h"
#include "switch_tables.h"
#include "transition/record.h"
#include "transition/transition.h"
#include "util/timing.h"

#define TRANSITION_DUMP "dqr-transition.dump"
/* an infinite or huge packet lifetime is capped here */
#define DRAIN_MAX_MS 60000u

static void next_stage_due(void *context)
{
	struct dqr_ctx *ctx = context;

	/* the SM thread picks this up as a new heavy sweep */
	ctx->osm->subn.force_heavy_sweep = TRUE;
	osm_sm_signal(&ctx->osm->sm, OSM_SIGNAL_SWEEP);
}

int dqr_transition_init(struct dqr_ctx *ctx)
{
	dqr_plan_init(&ctx->transition.plan);
	if (cl_timer_init(&ctx->transition.timer, next_stage_due, ctx) !=
	    CL_SUCCESS)
		return -1;
	ctx->transition.timer_ready = 1;
	return 0;
}

static void transition_drop(struct dqr_ctx *ctx)
{
	struct dqr_transition *x = &ctx->transition;

	dqr_plan_release(&x->plan);
	dqr_plan_init(&x->plan);
	free(x->times);
	x->times = NULL;
	dqr_fabric_free(x->fabric);
	dqr_lfts_free(x->state);
	dqr_lfts_free(x->target);
	x->fabric = NULL;
	x->state = NULL;
	x->target = NULL;
	x->active = 0;
}

void dqr_transition_destroy(struct dqr_ctx *ctx)
{
	if (ctx->transition.timer_ready) {
		cl_timer_stop(&ctx->transition.timer);
		cl_timer_destroy(&ctx->transition.timer);
		ctx->transition.timer_ready = 0;
	}
	transition_drop(ctx);
}

/*
 * The drain delay before a stage that needs one, counted from the moment
 * every LFT Set of the stage before was answered (doc/transitions.md):
 * a switch looks its LFT up when a packet enters it and discards a packet
 * that stayed longer than its LifeTime (SwitchInfo:LifeTimeValue: 4.096
 * us x 2^value).  One LifeTime after the answer every packet routed by an
 * older entry has left the switch that routed it; one more, and it has
 * left the next switch too, where it still held the channel the old entry
 * chose.  After two, every dependency in use is one of the state in force.
 *
 * The LifeTime is what the switches hold, as their last SwitchInfo said,
 * not packet_life_time: OpenSM's ib_switch_info_set_life_time() keeps
 * the old byte's low bits (& 0x1f), and those overlap the value's own, so
 * a switch may hold a longer lifetime than configured.  The largest one
 * counts.  What the figure comes from goes into why.
 */
static unsigned drain_delay_ms(const struct dqr_ctx *ctx, char *why,
			       size_t len)
{
	const cl_qmap_t *tbl = &ctx->osm->subn.sw_guid_tbl;
	const cl_map_item_t *item;
	const osm_switch_t *max_sw = NULL;
	unsigned plt = ctx->osm->subn.opt.packet_life_time, v, ltv = 0;
	double ms;

	if (ctx->react.opts.drain_ms != DQR_DRAIN_AUTO) {
		snprintf(why, len, "drain_ms=%u", ctx->react.opts.drain_ms);
		return ctx->react.opts.drain_ms;
	}
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		const osm_switch_t *sw = (const osm_switch_t *)item;

		v = sw->switch_info.life_state >> 3;
		if (!max_sw || v > ltv) {
			ltv = v;
			max_sw = sw;
		}
	}
	if (!max_sw) {
		/* no switch answered yet: what OpenSM will set */
		ltv = plt;
		snprintf(why, len, "twice packet_life_time %u (no switch "
			 "said its LifeTimeValue yet)", plt);
	} else {
		snprintf(why, len, "twice the largest LifeTimeValue the "
			 "switches hold, %u at 0x%016" PRIx64
			 " (packet_life_time %u)", ltv,
			 cl_ntoh64(osm_node_get_node_guid(max_sw->p_node)),
			 plt);
	}
	if (ltv > 19)	/* 20 and up: infinite lifetime */
		return DRAIN_MAX_MS;
	ms = 2 * 4.096e-3 * (double)(1u << ltv);
	if (ms > DRAIN_MAX_MS)
		return DRAIN_MAX_MS;
	return (unsigned)ms + 1;
}

/* How long stage s (0-based) waits after the stage before it answered. */
static unsigned stage_wait_ms(const struct dqr_transition *x, uint32_t s)
{
	if (!s)
		return x->first_wait_ms;
	return x->plan.stage_drain[s] ? x->drain_ms : 0;
}

/*
 * Logs why stage s (0-based) waits: for a loop or a cycle, the union of
 * which states (the state before the last stage that waited, or 0).
 */
/*
 * One cycle that makes stage s wait, into buf ("" when the exact
 * judgement finds none): the operator sees which channels the old and
 * new routes would tie together.  Costs a union check of the fabric,
 * next to a drain of seconds.
 */
static void wait_cycle(struct dqr_ctx *ctx, uint32_t s, char *buf,
		       size_t len)
{
	const struct dqr_transition *x = &ctx->transition;
	const struct dqr_plan *p = &x->plan;
	struct dqr_lfts *start = dqr_lfts_clone(x->state);
	uint32_t i;

	buf[0] = '\0';
	if (!start)
		return;
	/* x->state holds stages 0 .. s - 1: back to where p starts */
	for (i = p->stage_off[s]; i-- > 0;)
		dqr_lft_set(start, p->entries[i].sw, p->entries[i].lid,
			    p->entries[i].old_port);
	if (dqr_react_wait_cycle(&ctx->react, x->fabric, start, p, s, buf,
				 len))
		buf[0] = '\0';
	dqr_lfts_free(start);
}

static void log_wait(struct dqr_ctx *ctx, uint32_t s)
{
	const struct dqr_transition *x = &ctx->transition;
	uint8_t why = x->plan.stage_drain[s];
	uint32_t w = s - 1;
	char cycle[1024];

	while (w && !x->plan.stage_drain[w])
		w--;
	if (why & (DQR_DRAIN_LOOP | DQR_DRAIN_CYCLE)) {
		wait_cycle(ctx, s, cycle, sizeof(cycle));
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: transition %"
			PRIu64 " stage %u waits %u ms: %s in the union of "
			"states %u and %u%s%s\n", x->id, s + 1, x->drain_ms,
			dqr_drain_reason(why), w, s + 1, cycle[0] ? "; " : "",
			cycle);
		return;
	}
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: transition %" PRIu64
		" stage %u waits %u ms: %s\n", x->id, s + 1, x->drain_ms,
		dqr_drain_reason(why));
}

static FILE *open_dump(struct dqr_ctx *ctx)
{
	const char *dir = ctx->osm->subn.opt.dump_files_dir;
	char path[4096];
	FILE *fp;

	if (!dir || !*dir)
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, TRANSITION_DUMP);
	fp = fopen(path, "a");
	if (!fp)
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ20: dqr: "
			"cannot append to %s: %s\n", path, strerror(errno));
	return fp;
}

/* Applies stage s of the plan to x->state and hands it to OpenSM. */
static int upload_stage(struct dqr_ctx *ctx)
{
	struct dqr_transition *x = &ctx->transition;
	const struct dqr_plan *p = &x->plan;
	uint32_t s = x->next, i;
	FILE *fp;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++)
		dqr_lft_set(x->state, p->entries[i].sw, p->entries[i].lid,
			    p->entries[i].new_port);
	if (dqr_write_tables(ctx->osm, x->fabric, x->state))
		return -1;
	x->times[s].handed = dqr_now_ms();
	fp = open_dump(ctx);
	if (fp) {
		dqr_plan_write_stage(fp, x->fabric, p, s, x->id);
		fclose(fp);
	}
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: transition %" PRIu64
		": stage %u of %u, %u entries\n", x->id, s + 1, p->num_stages,
		p->stage_off[s + 1] - p->stage_off[s]);
	x->next++;
	x->confirmed = 0;
	return 0;
}

/* how long one in-pass stage may wait for its answers */
#define IN_PASS_TIMEOUT_MS 5000u
/* the same for a fast reaction's stage (dqr_fast.c), and for each of
 * its blocks, which wait in one queue */
#define FAST_STAGE_TIMEOUT_MS 1000u
#define FAST_BLOCK_MS 2u

/*
 * Sends the stage written into new_lft and waits for its answers: 0
 * when all came.  A routing pass has OpenSM upload it; a fast reaction,
 * with OpenSM's sweep still discovering, sends only its changed blocks
 * and counts their answers itself.
 */
static int push_stage(struct dqr_ctx *ctx)
{
	struct dqr_pass_times *t = &ctx->times;
	uint32_t sent;

	if (!dqr_fast_busy(&ctx->fast))
		return dqr_push_tables_now(ctx->osm, IN_PASS_TIMEOUT_MS);
	/* OpenSM's routes may cross the cables that are down now */
	if (dqr_send_blocks(ctx->osm, ctx->transition.fabric,
			    &ctx->lft_wait, FAST_STAGE_TIMEOUT_MS,
			    FAST_BLOCK_MS, &sent))
		return 1;
	t->answered = dqr_now_ms() - t->start;
	t->stages_up = ctx->transition.next;
	return 0;
}

/*
 * A stage whose Sets were not all answered: said.  OpenSM sends them
 * again at its next routing pass, which a fast reaction asks for (no
 * pass may be coming: sweep_on_trap FALSE).
 */
static void unanswered(struct dqr_ctx *ctx)
{
	int fast = dqr_fast_busy(&ctx->fast);

	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: transition %" PRIu64
		": stage %u not answered in full within %s; the next stage "
		"waits for OpenSM's own upload\n", ctx->transition.id,
		ctx->transition.next, fast ? "the fast reaction" : "the pass");
	if (fast)
		next_stage_due(ctx);
}

/*
 * Hands over stage x->next and every later stage that needs no drain,
 * all in this routing pass: each but the last is sent at once and
 * waited for (every Set answered) before the next is written, so they
 * reach the switches in order; OpenSM uploads the last as usual.  Every
 * entry that reconnects a pair thus goes up before the pass ends,
 * unless a stage must wait a drain.
 */
static int upload_in_pass(struct dqr_ctx *ctx)
{
	struct dqr_transition *x = &ctx->transition;
	const struct dqr_plan *p = &x->plan;

	while (x->next + 1 < p->num_stages &&
	       !p->stage_drain[x->next + 1]) {
		if (upload_stage(ctx))
			return -1;
		if (push_stage(ctx)) {
			/* not all answered: the rest comes pass by pass */
			unanswered(ctx);
			return 0;
		}
		x->times[x->next - 1].answered = dqr_now_ms();
		x->in_pass++;
		dqr_status_update(ctx, DQR_STATUS_STAGE);
	}
	if (upload_stage(ctx))
		return -1;
	if (!dqr_fast_busy(&ctx->fast))
		return 0;
	/* no upload of OpenSM's follows a fast reaction: its own, and the
	 * answer OpenSM's event would have given */
	if (push_stage(ctx)) {
		unanswered(ctx);
		return 0;
	}
	dqr_transition_routing_done(ctx);
	return 0;
}

/*
 * The plan into x->plan, by the topology's planner (lib's reaction:
 * one layer, around a re-routing layer, or per virtual layer).  Logs a
 * withdrawal, or a change that must not go up (then rep->safe is 0 and
 * the caller keeps what the switches hold).
 */
static int plan(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		const struct dqr_lfts *held, const struct dqr_lfts *target,
		struct dqr_dyn_order *cl, const struct dqr_in_flight *fl,
		const char *what, struct dqr_plan_report *rep,
		enum dqr_planner *used)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_plan *p = &ctx->transition.plan;
	uint64_t id = ctx->transitions + 1;
	double t0 = dqr_now_ms();
	int ret, two = 0;

	ret = dqr_react_plan(&ctx->react, f, held, target, cl, fl, p, rep,
			     used);
	ctx->times.plan = dqr_now_ms() - t0;
	if (ret)
		return ret;
	two = *used == DQR_PLANNER_REROUTING;
	if (!rep->safe && two)
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ22: dqr: transition %"
			PRIu64 " (%s) NOT uploaded: no order of the %u changed "
			"entries on two layers keeps every intermediate state "
			"loop free and deadlock free (%s); falling back to the "
			"base engine, whose change goes up in a safe order\n",
			id, what, rep->entries, rep->reason);
	else if (!rep->safe)
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ22: dqr: transition %"
			PRIu64 " (%s) NOT uploaded: %s; the switches keep "
			"the tables they hold\n", id, what, rep->reason);
	else if (!two && rep->folded)
		OSM_LOG(log, OSM_LOG_INFO, "dqr: transition %" PRIu64
			": one drain at most: the %u stages from the first "
			"that waits go up together after it, and %u entries "
			"that still forward are withdrawn before it (the "
			"pairs through them are cut off for the drain)\n",
			id, rep->folded, rep->withdrawn);
	else if (!two && rep->withdrawn)
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ28: dqr: transition %"
			PRIu64 " (%s): no order of the %u changed entries "
			"keeps every intermediate state loop free and deadlock "
			"free (%s); withdrawing %u entries first and "
			"installing the new ones after the drain: the pairs "
			"through them are cut off meanwhile, no state can "
			"deadlock\n", id,
			what, rep->entries, rep->reason, rep->withdrawn);
	return 0;
}

/*
 * Whether packets of earlier states may still be in flight, and if so
 * whether the channel list holds their dependencies.  A change planned
 * without the list must then wait until they are gone before stage 1:
 * how long, in ms (0: no wait).
 */
static unsigned unsettled_ms(const struct dqr_transition *x, double now)
{
	return now < x->t_settled ? (unsigned)(x->t_settled - now) + 1 : 0;
}

/*
 * f is the cabling as it is now; r: see dqr_hand_over().  Stage 1 goes
 * into new_lft at once (or after what is left of the last drain, see
 * unsettled_ms); the others follow one routing pass each.
 */
int dqr_transition_begin(struct dqr_ctx *ctx, const struct dqr_fabric *f,
		   const struct dqr_lfts *held, const struct dqr_lfts *target,
		   const struct dqr_reaction *r, const char *what)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_transition *x = &ctx->transition;
	struct dqr_in_flight fl = { 0 };
	struct dqr_dyn_order *cl;
	struct dqr_plan_report rep;
	enum dqr_planner used = DQR_PLANNER_ONE_LAYER;
	double now = dqr_now_ms();
	char why[192];
	int ret;

	if (x->active) {
		OSM_LOG(log, OSM_LOG_INFO, "dqr: transition %" PRIu64 " left "
			"after %u of %u stages: the fabric changed again\n",
			x->id, x->next, x->plan.num_stages);
		dqr_status_update(ctx, DQR_STATUS_LEFT);
		/* the switches hold a mix no channel list describes */
		fl.mixed = 1;
		x->t_settled = (x->confirmed ? x->t_confirmed : now) +
			       x->drain_ms;
		x->deps_in_list = 0;
	}
	fl.unsettled = unsettled_ms(x, now) != 0;
	fl.deps_in_list = x->deps_in_list;
	cl = dqr_react_held_list(&ctx->react, r, &fl);
	transition_drop(ctx);
	x->fabric = dqr_fabric_clone(f);
	x->state = dqr_lfts_clone(held);
	x->target = dqr_lfts_clone(target);
	ret = -1;
	if (x->fabric && x->state && x->target &&
	    !plan(ctx, f, held, target, cl, &fl, what, &rep, &used)) {
		ret = !rep.safe;
		if (!ret)
			x->times = calloc(x->plan.num_stages + 1,
					  sizeof(*x->times));
	}
	if (ret == 1) {
		transition_drop(ctx);
		/* the layered plan's SLs went with it: route again */
		if (used == DQR_PLANNER_REROUTING)
			return -1;
		dqr_keep_tables(ctx->osm);
		return 0;
	}
	if (!x->times) {
		transition_drop(ctx);
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ21: dqr: out of memory "
			"planning the transition of %s; not uploaded, the "
			"switches keep their tables until the next sweep\n",
			what);
		dqr_keep_tables(ctx->osm);
		return 0;
	}
	if (!x->plan.num_stages) {
		/* the switches already hold it */
		transition_drop(ctx);
		dqr_sls_in_force(ctx, 1);
		return dqr_write_tables(ctx->osm, f, target);
	}
	x->id = ++ctx->transitions;
	OSM_LOG(log, OSM_LOG_INFO, "dqr: transition %" PRIu64 " (%s): %u "
		"entries on %u switches for %u LIDs in %u stages (largest "
		"%u), %s%" PRIu64 " union checks, planned in %.2f ms, "
		"every stage safe; stages that wait a drain: %u\n",
		x->id, what, rep.entries, rep.switches, rep.dlids,
		rep.stages, rep.max_stage,
		rep.proved ? "proved against the channel list, " :
		"", rep.checks, rep.ms, dqr_plan_drains(&x->plan));
	x->next = 0;
	x->drain_ms = drain_delay_ms(ctx, why, sizeof(why));
	if (dqr_plan_drains(&x->plan))
		OSM_LOG(log, OSM_LOG_INFO, "dqr: transition %" PRIu64 ": a "
			"drain is %u ms, %s\n", x->id, x->drain_ms, why);
	snprintf(x->what, sizeof(x->what), "%s", what);
	x->t_start = ctx->times.start;
	x->since = ctx->times.since;
	x->t_begin = dqr_now_ms();
	x->ms_drained = 0;
	x->active = 1;
	x->proved = rep.proved;
	/* a first stage that only withdraws adds nothing to wait for; it
	 * also goes up before OpenSM activates ports that came back */
	x->first_wait_ms = 0;
	if (!rep.proved && !dqr_plan_stage_withdraws(&x->plan, 0))
		x->first_wait_ms = unsettled_ms(x, now);
	x->in_pass = 0;
	if (!x->first_wait_ms)
		return upload_in_pass(ctx);
	/* older packets may meet stage 1 in ways no check covered */
	OSM_LOG(log, OSM_LOG_INFO, "dqr: transition %" PRIu64 " stage 1 "
		"waits %u ms: packets of the transition before may still be "
		"in flight\n", x->id, x->first_wait_ms);
	x->next = 0;
	x->confirmed = 1;
	x->t_confirmed = now;
	x->ms_drained += x->first_wait_ms;
	cl_timer_start(&x->timer, x->first_wait_ms);
	return dqr_write_tables(ctx->osm, f, held);
}

int dqr_transition_same(const struct dqr_ctx *ctx, const struct dqr_fabric *f,
		  const struct dqr_lfts *target)
{
	const struct dqr_transition *x = &ctx->transition;
	uint32_t i;

	if (!x->active || x->fabric->num_ports != f->num_ports ||
	    x->target->num_switches != target->num_switches ||
	    x->target->lid_count != target->lid_count)
		return 0;
	for (i = 0; i < f->num_ports; i++)
		if (dqr_peer_port(x->fabric, i) != dqr_peer_port(f, i) ||
		    x->fabric->nodes[x->fabric->ports[i].node].guid !=
		    f->nodes[f->ports[i].node].guid)
			return 0;
	return !memcmp(x->target->port, target->port,
		       (size_t)target->num_switches * target->lid_count);
}

/*
 * A routing pass while a transition runs and the cabling is unchanged:
 * the next stage, once the last one is answered and has drained; until
 * then (a sweep OpenSM started for another reason) the same tables.
 */
int dqr_transition_continue(struct dqr_ctx *ctx)
{
	struct dqr_transition *x = &ctx->transition;
	double waited = dqr_now_ms() - x->t_confirmed;
	unsigned wait;

	if (x->next < x->plan.num_stages && x->confirmed) {
		wait = stage_wait_ms(x, x->next);
		if (waited >= wait)
			return upload_in_pass(ctx);
		/* too early: come back when the drain delay is over */
		cl_timer_start(&x->timer, (uint32_t)(wait - waited) + 1);
	}
	return dqr_write_tables(ctx->osm, x->fabric, x->state);
}

void dqr_transition_routing_done(struct dqr_ctx *ctx)
{
	struct dqr_transition *x = &ctx->transition;
	double now = dqr_now_ms();
	char uploads[160], drains[160];

	/* next 0: stage 1 could not be written, nothing was handed over */
	if (!x->active || x->confirmed || !x->next)
		return;
	x->confirmed = 1;
	x->t_confirmed = now;
	x->times[x->next - 1].answered = now;
	dqr_status_update(ctx, DQR_STATUS_STAGE);
	if (x->next < x->plan.num_stages) {
		if (!x->plan.stage_drain[x->next]) {
			/* nothing in flight can hurt it: no drain */
			next_stage_due(ctx);
			return;
		}
		log_wait(ctx, x->next);
		x->ms_drained += x->drain_ms;
		cl_timer_start(&x->timer, x->drain_ms);
		return;
	}
	dqr_fmt_stage_spans(uploads, sizeof(uploads), x, 0);
	dqr_fmt_stage_spans(drains, sizeof(drains), x, 1);
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: transition %" PRIu64
		" complete: %u stages in %.0f ms, of which %.0f ms drain "
		"delay (%u ms per stage that waits); from the %s: first "
		"stage answered after %.1f ms, last after %.1f ms; uploads "
		"(ms) %s; drains "
		"(ms) %s\n", x->id, x->plan.num_stages, now - x->t_begin,
		x->ms_drained, x->drain_ms, x->since,
		x->times[0].answered - x->t_start, now - x->t_start, uploads,
		drains);
	dqr_record_transition(ctx, x);
	x->active = 0;
	/* a fast reaction's stages went up under OpenSM's lock */
	dqr_sls_in_force(ctx, dqr_fast_busy(&ctx->fast));
	x->t_settled = now + x->drain_ms;
	x->deps_in_list = x->proved;
	dqr_status_update(ctx, DQR_STATUS_DONE);
}
