/*
 * intermediate.c - dqr-sim --intermediates N: fault sets judged by the
 * IN paper's routes through at most N intermediate switches
 * (routing/intermediate.h) instead of by DQR, on a generated mesh or
 * torus: every set of up to --exhaustive K cables, one per class of
 * symmetric sets (shape/grid_symmetry.h), or the prefixes of --runs
 * random sequences of --faults cables.  One table row per number of
 * faults, as the paper's Tables 1 and 2.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_load.h"
#include "routing/intermediate.h"
#include "routing/lash_vlayers.h"
#include "shape/grid_symmetry.h"
#include "dqr_sim.h"

#define IMED_LASH_LAYERS 8

struct imed_row {
	uint64_t sets;			/* fault sets, counted */
	uint64_t classes;		/* judged */
	uint64_t not_tolerated[DQR_IMED_MAX + 1];
	uint64_t via[DQR_IMED_MAX + 1];	/* routes, summed */
	uint64_t hops;
	uint64_t pairs;		/* routed pairs, summed */
	uint64_t squares;	/* switches squared, summed: the paper's */
};

/* --load: the tables of the routes, per number of faults */
struct imed_tables_row {
	struct load_sum load;
	unsigned layers_max;		/* LASH's, the most of a state */
	double layers;			/* summed */
	uint32_t no_fit;		/* states LASH could not fit in 8 */
};

struct imed_run {
	const struct sim_opts *o;
	struct dqr_imed *im;
	/* --load */
	struct dqr_fabric *f0;
	struct dqr_gen_place *places;
	struct imed_tables_row *tab;
	struct imed_row row;
	int lost;		/* a set not tolerated: exit 1 */
	uint32_t nodes;
};

static void add_verdict(struct imed_run *r, const struct dqr_imed_verdict *v,
			uint64_t members)
{
	unsigned m;

	r->row.sets += members;
	r->row.classes++;
	for (m = 0; m <= r->o->intermediates; m++) {
		if (v->unrouted[m])
			r->row.not_tolerated[m] += members;
		r->row.via[m] += v->via[m] * members;
	}
	r->row.hops += v->hops * members;
	r->row.pairs += v->pairs * members;
	r->row.squares += (uint64_t)r->nodes * r->nodes * members;
}

static int judge_class(const uint32_t *set, unsigned k, uint64_t members,
		       void *arg)
{
	struct imed_run *r = arg;
	struct dqr_imed_verdict v;

	if (dqr_imed_judge(r->im, set, k, r->o->intermediates, &v))
		return -1;
	add_verdict(r, &v, members);
	return 0;
}

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_row(struct imed_run *r, const char *how, unsigned k)
{
	const struct imed_row *w = &r->row;
	unsigned max = r->o->intermediates, m;

	r->lost |= w->not_tolerated[max] != 0;
	printf("%s %u faults: %" PRIu64 " combinations, %" PRIu64
	       " classes, %" PRIu64 " tolerated\n", how, k, w->sets,
	       w->classes, w->sets - w->not_tolerated[max]);
	printf("  not tolerated through at most");
	for (m = 1; m <= max; m++)
		printf(" %u: %.4g%%", m, pct(w->not_tolerated[m], w->sets));
	printf("\n  routes through");
	for (m = 0; m <= max; m++)
		printf(" %u: %.4g%%", m, pct(w->via[m], w->squares));
	printf(" intermediates (of switches squared, as the paper counts);"
	       " mean %.3f hops\n",
	       w->pairs ? (double)w->hops / (double)w->pairs : 0.0);
}

static int exhaustive(struct imed_run *r, const struct dqr_grid_links *gl,
		      unsigned flags)
{
	struct dqr_grid_symmetry *sym;
	char err[256];
	unsigned k;

	if (dqr_grid_symmetry_new(gl, flags, &sym, err, sizeof(err))) {
		fprintf(stderr, PROG ": --exhaustive: %s\n", err);
		return 2;
	}
	printf("symmetries: %u\n", sym->num_maps);
	for (k = 1; k <= r->o->exhaustive; k++) {
		memset(&r->row, 0, sizeof(r->row));
		if (dqr_fault_classes(sym, k, judge_class, r)) {
			dqr_grid_symmetry_free(sym);
			return 2;
		}
		if (r->row.sets != dqr_choose(gl->num_links, k)) {
			fprintf(stderr, PROG ": %" PRIu64 " sets of %u counted,"
				" not %" PRIu64 "\n", r->row.sets, k,
				dqr_choose(gl->num_links, k));
			dqr_grid_symmetry_free(sym);
			return 2;
		}
		print_row(r, "exhaustive", k);
		fflush(stdout);
	}
	dqr_grid_symmetry_free(sym);
	return 0;
}

/* The tables of the routes of the state just judged, on f. */
static int tables_add(struct imed_run *r, const struct dqr_fabric *f,
		      unsigned k)
{
	struct imed_tables_row *row = &r->tab[k];
	struct dqr_route_load ld;
	struct dqr_lfts *t = NULL;
	uint8_t *sl = NULL;
	unsigned layers = 0;
	char err[256];

	if (dqr_imed_tables(r->im, f, r->places, r->o->intermediates, &t,
			    err, sizeof(err))) {
		fprintf(stderr, PROG ": the routes' tables: %s\n", err);
		return -1;
	}
	sl = malloc((size_t)f->num_switches * f->num_switches);
	if (!sl || dqr_route_load(f, t, &ld, NULL)) {
		free(sl);
		dqr_lfts_free(t);
		return -1;
	}
	load_sum_add(&row->load, &ld);
	if (dqr_lash_vlayers(f, t, IMED_LASH_LAYERS, sl, &layers, err,
			     sizeof(err))) {
		row->no_fit++;
	} else {
		row->layers += layers;
		if (layers > row->layers_max)
			row->layers_max = layers;
	}
	free(sl);
	dqr_lfts_free(t);
	return 0;
}

/* Unlinks grid cable l of f, built by topo_gen as the model numbers it. */
static void unlink_cable(struct imed_run *r, struct dqr_fabric *f,
			 const struct dqr_grid_links *gl, uint32_t l)
{
	uint32_t sw;

	for (sw = 0; sw < f->num_switches; sw++)
		if (r->places[sw].pos == gl->low[l])
			break;
	dqr_fabric_unlink_port(f, dqr_port_index(f, f->switches[sw],
						 2 * gl->dim[l] + 1));
}

/* The tables of the state of failed[0 .. k), judged just now. */
static int tables_state(struct imed_run *r, const struct dqr_grid_links *gl,
			const uint32_t *failed, unsigned k)
{
	struct dqr_fabric *f = dqr_fabric_clone(r->f0);
	unsigned i;
	int ret;

	if (!f)
		return -1;
	for (i = 0; i < k; i++)
		unlink_cable(r, f, gl, failed[i]);
	ret = tables_add(r, f, k);
	dqr_fabric_free(f);
	return ret;
}

static void tables_print(const struct imed_run *r)
{
	unsigned k;

	printf("load all-to-all: routes per switch-to-switch channel of the "
	       "routes' tables, averaged over the states; the VLs LASH "
	       "needs for them\n");
	for (k = 0; k <= r->o->faults; k++) {
		const struct imed_tables_row *w = &r->tab[k];
		const struct load_sum *ls = &w->load;
		uint32_t fit = ls->states - w->no_fit;

		if (!ls->states)
			continue;
		printf("load: after %u faults: max %.1f mean %.2f (worst max %"
		       PRIu64 ", %u states, %" PRIu64 " pairs unrouted); "
		       "layers: mean %.2f max %u, %u states over %u\n", k,
		       ls->max / ls->states, ls->mean / ls->states, ls->worst,
		       ls->states, ls->unrouted, fit ? w->layers / fit : 0.0,
		       w->layers_max, w->no_fit, IMED_LASH_LAYERS);
	}
}

/* Grid cable of the fabric's switch port, as the model numbers it. */
static uint32_t cable_of(const struct imed_run *r,
			 const struct dqr_grid_links *gl, uint32_t port)
{
	const struct dqr_fabric *f = r->f0;
	uint32_t a = r->places[f->nodes[f->ports[port].node].sw_index].pos;
	uint32_t b = r->places[dqr_peer_switch(f, port)].pos;
	int down;
	int32_t c = dqr_grid_cable(gl, a, b, &down);

	return c < 0 ? UINT32_MAX : (uint32_t)c;
}

/*
 * Run run's faults, drawn as the runs of DQR draw theirs (montecarlo.c,
 * the same --seed), so that both judge the same sequences.
 */
static void draw_run(const struct imed_run *r, const struct sim_scale *sc,
		     const struct dqr_grid_links *gl, unsigned run,
		     uint32_t *cand, uint32_t *failed)
{
	uint64_t rng = rng_stream(r->o->seed, 1, run);
	uint32_t ncand = sc->num_cand, pick;
	unsigned k;

	memcpy(cand, sc->cand, sizeof(uint32_t) * ncand);
	for (k = 0; k < r->o->faults; k++) {
		pick = rng_below(&rng, ncand);
		failed[k] = cable_of(r, gl, cand[pick]);
		cand[pick] = cand[--ncand];
	}
}

/* Row k of the random runs: each run's first k faults. */
static int sampled(struct imed_run *r, const struct dqr_grid_links *gl)
{
	const struct sim_opts *o = r->o;
	struct sim_scale sc;
	uint32_t *cand = NULL, *failed = NULL;
	struct dqr_imed_verdict v;
	unsigned k, run;
	int ret = 2;

	if (scale_build(&sc, r->f0, 0))
		goto out;
	if (sc.num_cand != gl->num_links || o->faults > gl->num_links) {
		fprintf(stderr, PROG ": %s has %u cables, fewer than the %u "
			"faults asked for\n", o->spec, gl->num_links,
			o->faults);
		goto out;
	}
	cand = calloc(sc.num_cand, sizeof(*cand));
	failed = calloc((size_t)o->runs * o->faults, sizeof(*failed));
	if (!cand || !failed)
		goto out;
	for (run = 0; run < o->runs; run++)
		draw_run(r, &sc, gl, run, cand, failed + (size_t)run *
			 o->faults);
	if (r->tab && (dqr_imed_judge(r->im, NULL, 0, o->intermediates, &v) ||
		       tables_state(r, gl, NULL, 0)))
		goto out;
	for (k = 1; k <= o->faults; k++) {
		memset(&r->row, 0, sizeof(r->row));
		for (run = 0; run < o->runs; run++) {
			const uint32_t *set = failed + (size_t)run * o->faults;

			if (dqr_imed_judge(r->im, set, k, o->intermediates,
					   &v) ||
			    (r->tab && tables_state(r, gl, set, k)))
				goto out;
			add_verdict(r, &v, 1);
		}
		r->row.classes = r->row.sets;
		print_row(r, "sampled", k);
		fflush(stdout);
	}
	if (r->tab)
		tables_print(r);
	ret = 0;
out:
	free(cand);
	free(failed);
	scale_release(&sc);
	return ret;
}

int imed_sim(const struct sim_opts *o)
{
	struct dqr_gen_spec spec;
	struct dqr_grid_links *gl;
	struct imed_run r = { .o = o };
	char err[256], name[128];
	unsigned flags = DQR_SYM_ALL;
	int ret;

	if (dqr_gen_parse(o->spec, &spec, err, sizeof(err)) ||
	    dqr_grid_links_new(&spec, &gl, err, sizeof(err))) {
		fprintf(stderr, PROG ": --intermediates on %s: %s\n", o->spec,
			err);
		return 2;
	}
	if (o->exhaustive && o->exhaustive > gl->num_links) {
		fprintf(stderr, PROG ": --exhaustive %u: %s has %u cables\n",
			o->exhaustive, o->spec, gl->num_links);
		dqr_grid_links_free(gl);
		return 2;
	}
	if (dqr_imed_new(gl, o->segments, &r.im, err, sizeof(err))) {
		fprintf(stderr, PROG ": --intermediates on %s: %s\n", o->spec,
			err);
		dqr_grid_links_free(gl);
		return 2;
	}
	/* dimension order treats dimensions unalike, even rings' ties too */
	if (o->segments == DQR_IMED_DOR) {
		unsigned d, even = 0;

		for (d = 0; d < gl->ndims; d++)
			even |= gl->torus && gl->dims[d] % 2 == 0;
		flags = DQR_SYM_TRANSLATE | (even ? 0 : DQR_SYM_REFLECT);
	}
	r.nodes = gl->num_nodes;
	if (!o->exhaustive) {
		r.f0 = dqr_gen_build_places(&spec, &r.places, err,
					    sizeof(err));
		r.tab = o->load ? calloc(o->faults + 1, sizeof(*r.tab)) : NULL;
		if (!r.f0 || (o->load && !r.tab)) {
			fprintf(stderr, PROG ": %s: %s\n", o->spec,
				r.f0 ? "out of memory" : err);
			ret = 2;
			goto out;
		}
	}
	dqr_gen_format(&spec, name, sizeof(name));
	printf("IN paper's routes on %s: %u switches, %u cables; segments "
	       "%s; at most %u intermediates\n", name, gl->num_nodes,
	       gl->num_links, o->segments == DQR_IMED_DOR ?
	       "dimension order" : "minimal adaptive", o->intermediates);
	ret = o->exhaustive ? exhaustive(&r, gl, flags) : sampled(&r, gl);
	if (!ret && r.lost)
		ret = 1;
out:
	dqr_fabric_free(r.f0);
	free(r.places);
	free(r.tab);
	dqr_imed_free(r.im);
	dqr_grid_links_free(gl);
	return ret;
}
