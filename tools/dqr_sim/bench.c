/*
 * bench.c - dqr-sim --bench, behind `make bench`: single random faults,
 * each from a fresh copy of the start state, timed.
 *
 * The whole reaction is what a DQR pass does between the fault and the
 * upload, with what it keeps from the last pass at hand (the projection,
 * the tables in force, the channel list): the cut projected
 * (dqr_fabric_project_cut), the update (dqr_recon_update), the
 * transition planned from the tables in force to the new ones
 * (made and proved by dqr_plan_proved where it can be, else
 * dqr_plan_build) and the change verified (dqr_verify_change).  The
 * whole-fabric projection (dqr_fabric_project) is timed apart, as before.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "transition/transition.h"
#include "util/mem.h"
#include "util/timing.h"
#include "verify/verify.h"
#include "verify/verify_print.h"
#include "dqr_sim.h"

/* What every trial adds one value to, in the order of the JSON keys. */
enum {
	BF_REROUTE_US,		/* dqr_reroute_run */
	BF_UPDATE_US,		/* dqr_recon_update, all of it */
	BF_PROJECT_US,		/* dqr_fabric_project */
	BF_CHANGED,		/* entries changed */
	BF_LIDS,		/* DLIDs examined */
	BF_CUT_US,		/* dqr_fabric_project_cut */
	BF_PLAN_US,		/* dqr_plan_build */
	BF_VERIFY_US,		/* dqr_verify_change */
	BF_WHOLE_US,		/* cut + update + plan + verify */
	BF_UNION_LOOPS,		/* DLIDs whose old+new union loops */
	BF_STAGES,		/* stages of the plan */
	BF_DRAINS,		/* stages that wait a drain */
	BF_NUM,
};

static const char *const bench_keys[BF_NUM] = {
	"reroute_us", "update_us", "project_us", "changed", "lids",
	"cut_us", "plan_us", "verify_change_us", "whole_us", "union_loops",
	"stages", "drains",
};

struct bench_figs {
	double *v[BF_NUM];	/* one value a trial each */
	uint32_t n, ok, split;
	uint32_t change_ok;	/* dqr_verify_change found it good */
	uint32_t plan_safe;	/* the planner found every stage safe */
	uint32_t compared, agreed;	/* against dqr_verify, when sampled */
	struct dqr_change_check *check;
	struct dqr_plan_entry *plan_entries;
	uint32_t cap_plan_entries;
	uint32_t proved;	/* plans made by dqr_plan_proved */
};

static void bench_free(struct bench_figs *b)
{
	int i;

	for (i = 0; i < BF_NUM; i++)
		free(b->v[i]);
	dqr_change_check_free(b->check);
	free(b->plan_entries);
}

static int bench_alloc(struct bench_figs *b, uint32_t n)
{
	int i, ret = 0;

	for (i = 0; i < BF_NUM; i++)
		if (!(b->v[i] = malloc(sizeof(double) * n)))
			ret = -1;
	return ret;
}

/* The whole-fabric projection of the same fault, for its own line. */
static double full_projection_ms(const struct dqr_fabric *ref,
				 struct dqr_fabric *cur, uint32_t port)
{
	struct dqr_topo_diff d;
	struct dqr_fabric *p;
	double t0 = dqr_now_ms(), ms;

	dqr_fabric_unlink_port(cur, port);
	p = dqr_fabric_project(ref, cur, &d);
	ms = dqr_now_ms() - t0;
	if (!p)
		return -1;
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	return ms;
}

/*
 * The transition plan as the plugin makes it: made and proved against
 * the channel list where it can be (the reroute's own
 * list of changes), the planner otherwise.  -1 when out of memory.
 */
static int plan_change(struct bench_figs *b, struct dqr_recon *r,
		       const struct dqr_fabric *proj,
		       const struct dqr_lfts *before, struct dqr_plan *plan,
		       struct dqr_plan_report *rep)
{
	const struct dqr_change *ch;
	uint32_t n, i;
	int one;

	ch = dqr_reroute_changes(r->rr, &n);
	if (dqr_grow((void **)&b->plan_entries, &b->cap_plan_entries, n + 1,
		     sizeof(*b->plan_entries), 256))
		return -1;
	for (i = 0; i < n; i++) {
		b->plan_entries[i].sw = ch[i].sw;
		b->plan_entries[i].lid = ch[i].lid;
	}
	one = dqr_plan_proved(proj, before, r->cur, b->plan_entries, n,
				 r->cl, plan, rep);
	if (one < 0)
		return -1;
	b->proved += one;
	return one ? 0 : dqr_plan_build(proj, before, r->cur, plan, rep);
}

/* The whole verifier's verdict against the change's; -1 out of memory. */
static int compare_whole(struct bench_figs *b, const struct dqr_recon *r,
			 const struct dqr_fabric *proj,
			 const struct dqr_change_report *vr)
{
	struct dqr_verify_report v;

	if (dqr_verify(proj, r->cur, &v, NULL))
		return -1;
	b->compared++;
	b->agreed += dqr_verify_ok(&v, DQR_PAIRS_ALL) == vr->ok;
	dqr_verify_report_free(&v);
	return 0;
}

struct trial_times {
	double cut, update, plan, verify;
};

/* One random fault from a fresh copy of the start state. */
static int bench_trial(struct sim *s, uint32_t trial, struct bench_figs *b,
		       uint32_t *parent)
{
	struct dqr_reaction rr;
	struct dqr_change_report vr;
	struct dqr_plan_report prep;
	struct dqr_plan plan;
	struct dqr_topo_diff d;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_lfts *before = NULL;
	struct dqr_reactor x;
	struct dqr_recon *r = &x.recon;
	const struct dqr_recon_result *res = &rr.res;
	struct trial_times tt;
	uint64_t rng = rng_stream(s->o->seed, 2, trial);
	uint32_t port = s->sc.cand[rng_below(&rng, s->sc.num_cand)];
	uint64_t ca_lost;
	double ms_proj, t0;
	int code = DQR_RECON_NOMEM, v = 0, ret = -1;

	memset(&d, 0, sizeof(d));
	dqr_plan_init(&plan);
	if (fresh_state(s, &x, &cur))
		return -1;
	/* what the pass before left: the projection, the tables in force */
	proj = dqr_fabric_clone(r->ref);
	before = dqr_lfts_clone(r->cur);
	ms_proj = full_projection_ms(r->ref, cur, port);
	if (!proj || !before || ms_proj < 0)
		goto out;

	t0 = dqr_now_ms();
	if (dqr_fabric_project_cut(proj, r->ref, &port, 1, &d))
		goto out;
	tt.cut = dqr_now_ms() - t0;
	t0 = dqr_now_ms();
	if (dqr_react_update(&x, proj, &d, NULL, &rr))
		goto out;
	code = rr.code;
	tt.update = dqr_now_ms() - t0;
	t0 = dqr_now_ms();
	if (plan_change(b, r, proj, before, &plan, &prep))
		goto out;
	tt.plan = dqr_now_ms() - t0;
	t0 = dqr_now_ms();
	if (dqr_recon_check_change(r, b->check, proj, before,
				   d.missing_ports, d.num_missing_ports, &vr))
		goto out;
	tt.verify = dqr_now_ms() - t0;

	b->v[BF_REROUTE_US][b->n] = res->rs.us;
	b->v[BF_UPDATE_US][b->n] = res->us_total;
	b->v[BF_PROJECT_US][b->n] = ms_proj * 1e3;
	b->v[BF_CHANGED][b->n] = (double)res->rs.changed;
	b->v[BF_LIDS][b->n] = (double)res->rs.lids;
	b->v[BF_CUT_US][b->n] = tt.cut * 1e3;
	b->v[BF_PLAN_US][b->n] = tt.plan * 1e3;
	b->v[BF_VERIFY_US][b->n] = tt.verify * 1e3;
	b->v[BF_WHOLE_US][b->n] = (tt.cut + tt.update + tt.plan +
				   tt.verify) * 1e3;
	b->v[BF_UNION_LOOPS][b->n] = vr.union_loop_dlids;
	b->v[BF_STAGES][b->n] = prep.stages;
	b->v[BF_DRAINS][b->n] = dqr_plan_drains(&plan);
	b->n++;
	b->ok += code == DQR_RECON_OK;
	b->change_ok += vr.ok;
	b->plan_safe += prep.safe;
	b->split += fabric_split(proj, s->sc.linked_node, parent);
	ret = 0;
	if (want_verify(s, trial, 1)) {
		v = verify_state(s, r, proj, before, NULL, code, trial, 1,
				 &ca_lost);
		if (v < 0 || compare_whole(b, r, proj, &vr))
			ret = -1;
	}
out:
	dqr_plan_release(&plan);
	dqr_topo_diff_release(&d);
	dqr_lfts_free(before);
	dqr_fabric_free(proj);
	dqr_fabric_free(cur);
	dqr_reactor_release(&x);
	return ret;
}

static void print_dist_us(const char *label, struct dist d)
{
	printf("  %-39s median %8.0f us  p90 %8.0f us  worst %8.0f us\n",
	       label, d.median, d.p90, d.max);
}

static void print_dist_n(const char *label, struct dist d)
{
	printf("  %-39s median %8.0f     worst %8.0f\n", label, d.median,
	       d.max);
}

static void bench_print_json(const struct sim *s, struct bench_figs *b,
			     const struct dist *d)
{
	int i;

	print_json_head(s);
	printf("\"bench\":{\"trials\":%u,\"ok\":%u,\"split\":%u,"
	       "\"change_ok\":%u,\"plan_safe\":%u,\"proved\":%u,"
	       "\"compared\":%u,\"agreed\":%u,\"peak_rss_kib\":%ld,", b->n,
	       b->ok, b->split, b->change_ok, b->plan_safe, b->proved,
	       b->compared, b->agreed, peak_rss_kib());
	for (i = 0; i < BF_NUM; i++) {
		if (i)
			putchar(',');
		print_json_dist(bench_keys[i], d[i]);
	}
	printf("},\"states_verified\":%" PRIu64 ",\"verify_failures\":"
	       "%u,\"verify_failures_partial\":%u}\n",
	       s->states_verified, s->verify_failures,
	       s->verify_failures_partial);
}

static void bench_print(const struct sim *s, struct bench_figs *b)
{
	struct dist d[BF_NUM];
	int i;

	for (i = 0; i < BF_NUM; i++)
		d[i] = distribution(b->v[i], b->n);
	if (s->o->json) {
		bench_print_json(s, b, d);
		return;
	}
	print_header(s, stdout);
	printf("\nbenchmark: %u single random faults of %s, each from the "
	       "start state\n", b->n, fault_kind(s->o));
	printf("  channel list build (once, before any fault)  %10.1f ms\n",
	       s->p.start.us_list / 1e3);
	print_dist_us("reroute compute (dqr_reroute_run)", d[BF_REROUTE_US]);
	print_dist_us("whole update (dqr_recon_update)", d[BF_UPDATE_US]);
	print_dist_us("projection (dqr_fabric_project)", d[BF_PROJECT_US]);
	print_dist_n("entries changed", d[BF_CHANGED]);
	print_dist_n("DLIDs examined", d[BF_LIDS]);
	print_dist_us("cut projected (dqr_fabric_project_cut)",
		      d[BF_CUT_US]);
	print_dist_us("transition plan (dqr_plan_proved)", d[BF_PLAN_US]);
	print_dist_us("change verified (dqr_verify_change)",
		      d[BF_VERIFY_US]);
	print_dist_n("stages of the plan", d[BF_STAGES]);
	print_dist_n("stages that wait a drain", d[BF_DRAINS]);
	print_dist_n("DLIDs whose old+new union loops", d[BF_UNION_LOOPS]);
	printf("whole reaction (cut, update, plan, verify)  median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", d[BF_WHOLE_US].median,
	       d[BF_WHOLE_US].p90, d[BF_WHOLE_US].max);
	printf("  peak memory (RSS) %.1f MiB; entries changed median %.0f, "
	       "worst %.0f\n", peak_rss_kib() / 1024.0, d[BF_CHANGED].median,
	       d[BF_CHANGED].max);
	printf("  connected and deadlock free: %u/%u; fabric split: %u\n",
	       b->ok, b->n, b->split);
	printf("  change verified good: %u/%u (agrees with dqr_verify on "
	       "%u/%u sampled); plans safe: %u/%u, proved against the list: "
	       "%u/%u\n", b->change_ok, b->n, b->agreed, b->compared,
	       b->plan_safe, b->n, b->proved, b->n);
	printf("  ");
	print_verify_summary(s, stdout);
}

int bench(struct sim *s)
{
	struct bench_figs b;
	uint32_t *parent = malloc(sizeof(uint32_t) *
				  (s->p.ref->num_nodes + 1));
	uint32_t t;
	int ret = 0;

	memset(&b, 0, sizeof(b));
	b.check = dqr_change_check_new(s->p.ref);
	if (!parent || !b.check || bench_alloc(&b, s->o->trials)) {
		free(parent);
		bench_free(&b);
		return -1;
	}
	for (t = 0; t < s->o->trials && !ret; t++)
		ret = bench_trial(s, t, &b, parent);
	if (!ret)
		bench_print(s, &b);
	bench_free(&b);
	free(parent);
	return ret;
}
