/*
 * torus.c - dqr-sim --torus-layers: e-cube on the virtual layers of a
 * torus (vlayers.h), repaired by the mesh plug-in in every layer
 * and the topology-agnostic search past it after successive random link
 * faults, each state judged by the layered
 * check (every connected pair reached, every layer acyclic).  Every
 * repair's transition is planned as the plugin would upload it
 * (dqr_plan_change_vlayers: proved per layer, else withdrawn), and every
 * stage union of the plan is replayed by the layered union check.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "vlayers/vlayers.h"
#include "transition/plan_vlayers.h"
#include "util/timing.h"
#include "dqr_sim.h"

struct torus_step {
	uint32_t reached, ok, bypassed_all;
	uint32_t moved;		/* repairs that moved routes */
	uint64_t changed, pairs_moved;
	double us;
};

struct torus_run {
	struct sim *s;
	const struct dqr_grid *g;
	struct torus_step *steps;
	uint32_t bad;		/* states the check refutes: bugs */
	unsigned max_layers;	/* in use after moves, at the most */
	uint64_t checked;
	/* transitions: how each was planned, and their stage unions */
	uint64_t planned, proved, withdrawn, unsafe, stages, drains;
	uint64_t unions, unions_bad;
	uint64_t lids_intermediate;	/* DLIDs the IN paper's routes laid */
	uint32_t max_stages;
	double plan_ms, verify_ms;
	struct dqr_plan plan;
};

/*
 * The transition from prev to the tables in force, planned as the
 * plugin's reactor plans it (r: its answer) and replayed: each stage
 * union loop free and acyclic per layer.  0, or -1 when out of memory.
 */
static int plan_fault(struct torus_run *tr, struct dqr_reactor *x,
		      const struct dqr_reaction *r,
		      const struct dqr_fabric *proj,
		      const struct dqr_lfts *prev)
{
	static const struct dqr_in_flight settled;
	struct dqr_plan *p = &tr->plan;
	struct dqr_vlayers_plan tp;
	struct dqr_plan_report rep;
	struct dqr_lfts *cur, *next;
	enum dqr_planner used;
	uint32_t k, i;
	char why[256];
	int ret = 0, held;

	if (dqr_react_plan(x, proj, prev, x->recon.cur,
			   dqr_react_held_list(x, r, &settled), &settled, p,
			   &rep, &used))
		return -1;
	tr->planned++;
	tr->plan_ms += rep.ms;
	if (!rep.safe) {
		tr->unsafe++;
		return 0;
	}
	tr->proved += rep.proved != 0;
	tr->withdrawn += !rep.proved;
	tr->stages += p->num_stages;
	tr->drains += dqr_plan_drains(p);
	if (p->num_stages > tr->max_stages)
		tr->max_stages = p->num_stages;
	/* the judgement: the layers of the reference, every stage union,
	 * the packets with the SLs the SA answers while it goes up */
	dqr_vlayers_plan_sent(&tp, x->recon.tl, tr->s->in.f,
			      dqr_topology_vlayers_answered(x));
	cur = dqr_lfts_clone(prev);
	for (k = 0; cur && k < p->num_stages && !ret; k++) {
		next = dqr_lfts_clone(cur);
		for (i = p->stage_off[k]; next && i < p->stage_off[k + 1]; i++)
			dqr_lft_set(next, p->entries[i].sw,
				    p->entries[i].lid, p->entries[i].new_port);
		ret = next ? dqr_union_vlayers_ok(proj, cur, next, &tp.lay,
						  why, sizeof(why)) : -1;
		tr->unions++;
		if (!ret) {
			tr->unions_bad++;
			fprintf(stderr, PROG ": VERIFICATION FAILED (a DQR "
				"bug): %s, stage %u of a planned transition: "
				"%s\n", tr->s->in.name, k + 1, why);
		}
		ret = ret < 0 ? -1 : 0;
		dqr_lfts_free(cur);
		cur = next;
	}
	held = cur != NULL;
	dqr_lfts_free(cur);
	/* in force everywhere: the SA answers the new SLs */
	if (!ret && held && dqr_react_in_force(x))
		ret = -1;
	return held ? ret : -1;
}

/* One fault on cur, answered by x: 1 passed, 0 failed, -1 no memory. */
static int one_fault(struct torus_run *tr, struct dqr_reactor *x,
		     struct dqr_fabric *cur, uint32_t port, unsigned k,
		     uint32_t run)
{
	struct torus_step *st = &tr->steps[k];
	const struct dqr_vlayers_stats *ts = &x->recon.vstats;
	struct dqr_vlayers_verdict v;
	struct dqr_reaction r;
	struct dqr_lfts *prev = dqr_lfts_clone(x->recon.cur);
	struct dqr_fabric *proj = NULL;
	const struct dqr_vlayers *tl;
	double t0;
	int all, ok, ret = -1;

	if (!prev || fail_one(x, cur, port, &proj, &r))
		goto out;
	tl = x->recon.tl;
	st->us += r.res.rs.us;
	/* every failed link that carried routes bypassed */
	all = r.code == DQR_RECON_OK;
	t0 = dqr_now_ms();
	if (dqr_vlayers_verify(tl, proj, x->recon.cur, &v))
		goto out;
	tr->verify_ms += dqr_now_ms() - t0;
	if (plan_fault(tr, x, &r, proj, prev))
		goto out;
	tr->checked++;
	st->reached++;
	st->changed += ts->changed;
	st->moved += ts->lids_moved != 0;
	tr->lids_intermediate += ts->lids_intermediate;
	st->pairs_moved += ts->pairs_moved;
	tr->max_layers = dqr_vlayers_count(tl) > tr->max_layers ?
			 dqr_vlayers_count(tl) : tr->max_layers;
	ok = all && !v.unreachable && v.acyclic;
	st->ok += ok;
	if (ok && (load_add(tr->s, k + 1, proj, x->recon.cur) ||
		   perm_add(tr->s, k + 1, proj, x->recon.cur)))
		goto out;
	st->bypassed_all += all;
	/* the list keeps every layer acyclic; a repair claims every pair */
	if (!v.acyclic || (all && v.unreachable)) {
		tr->bad++;
		fprintf(stderr, PROG ": VERIFICATION FAILED (a DQR bug): %s, "
			"run %" PRIu32 ", fault %u: %s\n", tr->s->in.name,
			run, k + 1, !v.acyclic ? "a layer is cyclic" :
			"a repair that claims every pair leaves some "
			"unreached");
	}
	ret = ok;
out:
	dqr_fabric_free(proj);
	dqr_lfts_free(prev);
	return ret;
}

static int one_run(struct torus_run *tr, uint32_t run, uint32_t *cand)
{
	struct sim *s = tr->s;
	uint32_t ncand = s->sc.num_cand, pick;
	uint64_t rng = rng_stream(s->o->seed, 1, run);
	struct dqr_fabric *cur = dqr_fabric_clone(s->in.f);
	struct dqr_reactor x;
	unsigned k;
	int r = -1;

	memset(&x, 0, sizeof(x));
	if (!cur || sim_reactor_start(s, &x))
		goto out;
	memcpy(cand, s->sc.cand, sizeof(uint32_t) * ncand);
	for (k = 0, r = 1; r == 1 && k < s->o->faults; k++) {
		pick = rng_below(&rng, ncand);
		r = one_fault(tr, &x, cur, cand[pick], k, run);
		cand[pick] = cand[--ncand];
	}
out:
	dqr_reactor_release(&x);
	dqr_fabric_free(cur);
	return r < 0 ? -1 : 0;
}

static void print_table(const struct torus_run *tr, unsigned layers,
			double ms_build, double ms_wall)
{
	const struct sim *s = tr->s;
	unsigned k;

	printf("dqr-sim: %s (%s), %s on %u virtual layers (SL = VL = "
	       "layer), repaired by the mesh plug-in in every layer and the "
	       "search past it\n",
	       s->in.name, s->in.describe, s->o->lash ? "shortest routes "
	       "with LASH's layers" : "e-cube", layers);
	printf("  %" PRIu32 " runs of %u faults, seed %" PRIu64 "; layers "
	       "built in %.1f ms per run; %.2f s wall\n", s->o->runs,
	       s->o->faults, s->o->seed, ms_build, ms_wall / 1e3);
	if (s->o->layer_moves)
		printf("  where no path fits the routes' own layers, they "
		       "move to another layer below %u: %u in use at the "
		       "most\n", s->o->layer_moves, tr->max_layers);
	if (s->o->intermediates)
		printf("  the IN paper's routes through at most %u "
		       "intermediate switches first: %" PRIu64 " DLIDs laid "
		       "by them\n", s->o->intermediates,
		       tr->lids_intermediate);
	printf("fault  P(ok)   ok/reached  bypassed  entries/fault  "
	       "repair us%s\n", s->o->layer_moves ? "  moved  SLs/fault" :
	       "");
	for (k = 0; k < s->o->faults; k++) {
		const struct torus_step *st = &tr->steps[k];

		if (!st->reached)
			break;
		printf("%5u  %.4f  %5" PRIu32 "/%-5" PRIu32 " %8" PRIu32
		       "  %13.1f  %9.0f", k + 1,
		       (double)st->ok / s->o->runs, st->ok, st->reached,
		       st->bypassed_all, (double)st->changed / st->reached,
		       st->us / st->reached);
		if (s->o->layer_moves)
			printf("  %5" PRIu32 "  %9.1f", st->moved,
			       (double)st->pairs_moved / st->reached);
		printf("\n");
	}
	printf("transitions: %" PRIu64 " planned: %" PRIu64 " proved per "
	       "layer, %" PRIu64 " withdrawn and installed, %" PRIu64
	       " unsafe; %.2f stages (max %" PRIu32 "), %.2f drains per "
	       "transition; plan "
	       "%.2f ms\n", tr->planned, tr->proved, tr->withdrawn,
	       tr->unsafe, tr->planned ? (double)tr->stages / tr->planned : 0,
	       tr->max_stages, tr->planned ? (double)tr->drains /
	       tr->planned : 0, tr->planned ? tr->plan_ms / tr->planned : 0);
	printf("verification: %" PRIu64 " states checked, %" PRIu32
	       " failed; %" PRIu64 " stage unions replayed, %" PRIu64
	       " failed; verify %.2f ms per state (the plugin's check of "
	       "every table)\n", tr->checked, tr->bad, tr->unions,
	       tr->unions_bad, tr->checked ? tr->verify_ms / tr->checked :
	       0);
}

static int write_torus_data(const struct torus_run *tr, const char *path)
{
	const struct sim *s = tr->s;
	FILE *fp = fopen(path, "w");
	unsigned k;

	if (!fp) {
		fprintf(stderr, PROG ": cannot write %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	fprintf(fp, "# dqr-sim %s routing=%s runs=%u faults=%u "
		"seed=%" PRIu64 "\n# fault p_ok reached ok\n", s->in.name,
		s->o->lash ? (s->o->layer_moves ? "lash-layers-moves" :
			      "lash-layers") :
		(s->o->layer_moves ? "ecube-layers-moves" : "ecube-layers"),
		s->o->runs, s->o->faults, s->o->seed);
	for (k = 0; k < s->o->faults; k++)
		fprintf(fp, "%u %.6f %u %u\n", k + 1,
			(double)tr->steps[k].ok / s->o->runs,
			tr->steps[k].reached, tr->steps[k].ok);
	return fclose(fp) ? -1 : 0;
}

int vlayers_sim(struct sim *s)
{
	struct torus_run tr = { .s = s };
	struct dqr_vlayers *tl;
	struct dqr_grid *g;
	uint32_t run, *cand = NULL;
	double t0 = dqr_now_ms(), ms_build;
	char err[256];
	unsigned layers;
	int ret = 2;

	if (dqr_grid_detect(s->in.f, &g, err, sizeof(err))) {
		fprintf(stderr, PROG ": --torus-layers: %s: %s\n",
			s->in.name, err);
		return 2;
	}
	tr.g = g;
	dqr_plan_init(&tr.plan);
	if (sim_vlayers_new(s, g, &tl, err, sizeof(err))) {
		fprintf(stderr, PROG ": --torus-layers: %s: %s\n",
			s->in.name, err);
		goto out;
	}
	ms_build = dqr_now_ms() - t0;
	layers = dqr_vlayers_count(tl);
	dqr_vlayers_free(tl);
	if (s->o->faults > s->sc.num_cand) {
		fprintf(stderr, PROG ": %s has %u cables, fewer than the %u "
			"faults asked for\n", s->in.name, s->sc.num_cand,
			s->o->faults);
		goto out;
	}
	tr.steps = calloc(s->o->faults, sizeof(*tr.steps));
	cand = malloc(sizeof(uint32_t) * (s->sc.num_cand + 1));
	ret = -1;
	if (!tr.steps || !cand || load_alloc(s) ||
	    load_add(s, 0, s->in.f, s->in.t) ||
	    perm_add(s, 0, s->in.f, s->in.t))
		goto out;
	for (run = 0; run < s->o->runs; run++)
		if (one_run(&tr, run, cand))
			goto out;
	print_table(&tr, layers, ms_build, dqr_now_ms() - t0);
	load_print(s);
	perm_print(s);
	ret = tr.bad || tr.unions_bad || tr.unsafe ? 1 : 0;
	if (s->o->data_path && write_torus_data(&tr, s->o->data_path))
		ret = 2;
out:
	if (ret < 0) {
		fprintf(stderr, PROG ": out of memory\n");
		ret = 2;
	}
	free(cand);
	free(tr.steps);
	dqr_plan_release(&tr.plan);
	dqr_grid_free(g);
	return ret;
}
