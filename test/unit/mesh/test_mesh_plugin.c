/*
 * test_mesh_plugin.c - the DQR paper's mesh plug-in on meshes and on tori
 * routed as meshes (DQR_REF_DOR): every single cable fault between
 * switches is bypassed and repaired, changing only entries whose route
 * crossed the cable; without the plug-in some fault of a 4x4 mesh is not
 * repaired; the bypass turns towards the centre; a lost switch is not
 * called bypassed; any two faults in a row leave safe tables; a
 * hypercube gets no plug-in.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "mesh/mesh_plugin.h"
#include "recon/recon.h"
#include "routes/route_walk.h"
#include "routing/ref_routing.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

/* A generated grid routed by dimension order, and its plug-in. */
struct world {
	struct dqr_gen_spec s;
	struct dqr_gen_place *places;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	struct dqr_mesh_plugin *mp;
	/* the cables between switches: one switch port of each */
	uint32_t *links;
	uint32_t num_links;
};

/* The plug-in as the reroute calls it, its answers kept. */
struct probe {
	struct dqr_mesh_plugin *mp;
	unsigned calls;
	int last;
};

static int probe_run(void *arg, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, struct dqr_dyn_order *cl)
{
	struct probe *p = arg;

	p->calls++;
	p->last = dqr_mesh_plugin_run(p->mp, f, t, cl);
	return p->last;
}

/*
 * The plug-in of w's grid as recognised from its cabling.  A torus whose
 * rings all hold 4 switches is a hypercube by its cabling (grid_shape.h:
 * C4 = Q2), so 4x4x4 gets the grid it was generated as.
 */
static struct dqr_mesh_plugin *plugin_of(struct world *w)
{
	struct dqr_grid *g, own;
	struct dqr_mesh_plugin *mp;
	char err[256];

	REQUIRE(dqr_grid_detect(w->f, &g, err, sizeof(err)) == 0);
	if (g->kind != DQR_GRID_HYPERCUBE) {
		mp = dqr_mesh_plugin_new(w->f, g);
		dqr_grid_free(g);
		return mp;
	}
	dqr_grid_free(g);
	gen_grid(&own, w->f, &w->s, w->places);
	return dqr_mesh_plugin_new(w->f, &own);
}

static void world_open(struct world *w, const char *spec)
{
	char err[256];

	memset(w, 0, sizeof(*w));
	w->f = gen_fabric(spec, &w->s, &w->places);
	REQUIRE(w->f);
	REQUIRE(dqr_ref_route(w->f, &w->s, w->places, DQR_REF_DOR, &w->t,
			      err, sizeof(err)) == 0);
	w->mp = plugin_of(w);
	REQUIRE(w->mp);
	w->num_links = switch_links(w->f, &w->links);
	REQUIRE(w->links);
}

static void world_close(struct world *w)
{
	free(w->links);
	dqr_mesh_plugin_free(w->mp);
	dqr_lfts_free(w->t);
	free(w->places);
	dqr_fabric_free(w->f);
}

/* The switch index at coordinates (x, y, z) of a generated grid. */
static uint32_t sw_at(const struct world *w, unsigned x, unsigned y,
		      unsigned z)
{
	return x + w->s.dims[0] * (y + w->s.dims[1] * z);
}

/* The port of switch a cabled to switch b (switch node = switch index). */
static uint32_t port_to(const struct world *w, uint32_t a, uint32_t b)
{
	unsigned pn;

	dqr_for_each_linked_port(w->f, a, pn)
		if (dqr_peer_switch(w->f, dqr_port_index(w->f, a, pn)) == b)
			return dqr_port_index(w->f, a, pn);
	REQUIRE(0);
	return DQR_NONE;
}

/* 1 when the cable at port joins a torus ring's ends (DOR never uses it). */
static int is_wrap(const struct world *w, uint32_t port)
{
	uint32_t a = w->f->ports[port].node, b = dqr_peer_node(w->f, port);
	unsigned k;

	for (k = 0; k < w->s.ndims; k++)
		if (abs(w->places[a].coord[k] - w->places[b].coord[k]) > 1)
			return 1;
	return 0;
}

static int same(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	return !memcmp(a->port, b->port,
		       (size_t)a->num_switches * a->lid_count);
}

/* 1 when sw's route towards lid in t on f sends into channel a or b. */
static int crosses(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t sw, uint32_t lid, uint32_t a, uint32_t b)
{
	uint32_t hops, ch;

	for (hops = 0; hops < f->num_switches && sw != DQR_NONE; hops++) {
		ch = dqr_next_channel(f, t, sw, lid);
		if (ch == DQR_NONE)
			return 0;
		if (ch == a || ch == b)
			return 1;
		sw = dqr_next_switch(f, t, sw, lid);
	}
	return 0;
}

/*
 * The entries of after that differ from before and whose route did not
 * cross the cable at port (walked in before on the intact fabric).
 */
static uint64_t changed_elsewhere(const struct world *w,
				  const struct dqr_lfts *before,
				  const struct dqr_lfts *after, uint32_t port)
{
	uint32_t peer = dqr_peer_port(w->f, port), sw, lid;
	uint64_t bad = 0;

	for (sw = 0; sw < w->f->num_switches; sw++)
		for (lid = 1; lid < before->lid_count; lid++)
			if (dqr_lft_get(before, sw, lid) !=
			    dqr_lft_get(after, sw, lid) &&
			    !crosses(w->f, before, sw, lid, port, peer))
				bad++;
	return bad;
}

/*
 * Updates r to its reference less the cables at cut[0..n) and judges the
 * tables in force on it: never a loop nor a dependency cycle, every
 * dependency in order in the channel list, and on DQR_RECON_OK every
 * connected pair routed.  Returns the update's code.
 */
static int step(struct dqr_recon *r, const uint32_t *cut, unsigned n,
		const struct dqr_reroute_opts *o, struct dqr_recon_result *res)
{
	struct dqr_topo_diff d;
	struct dqr_fabric *p = cut_cables(r->ref, cut, n, &d);
	struct dqr_verify_report v;
	struct dqr_cdg *g;
	int ret;

	CHECK(dqr_topo_diff_degraded_only(&d));
	ret = dqr_recon_update(r, p, &d, o, res);
	REQUIRE(ret == DQR_RECON_OK || ret == DQR_RECON_FAILED);
	REQUIRE(dqr_verify(p, r->cur, &v, NULL) == 0);
	CHECK_EQ(v.loop_entries, 0);
	CHECK(!v.cycle_found);
	if (ret == DQR_RECON_OK)
		CHECK(dqr_verify_ok(&v, DQR_PAIRS_ALL));
	g = dqr_cdg_build(p, r->cur);
	REQUIRE(g);
	CHECK(dqr_cl_covers(r->cl, g));
	dqr_cdg_free(g);
	dqr_verify_report_free(&v);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	return ret;
}

/* A recon of w's tables under opts o; nothing to fill in them. */
static void start(struct dqr_recon *r, const struct world *w,
		  const struct dqr_reroute_opts *o)
{
	struct dqr_recon_result res;

	REQUIRE(dqr_recon_start(r, w->f, w->t, o, &res) == DQR_RECON_OK);
	CHECK(same(r->cur, w->t));
}

static void plugin_opts(struct world *w, struct probe *pr,
			struct dqr_reroute_opts *o)
{
	memset(o, 0, sizeof(*o));
	memset(pr, 0, sizeof(*pr));
	dqr_mesh_plugin_opts(w->mp, o);
	CHECK(o->plugin == dqr_mesh_plugin_run && o->plugin_arg == w->mp);
	pr->mp = w->mp;
	o->plugin = probe_run;
	o->plugin_arg = pr;
}

/* 1. Every single cable fault: bypassed, repaired, only its routes moved. */
static void test_every_link(const char *spec)
{
	const struct dqr_mesh_stats *ms;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	struct dqr_recon r;
	struct probe pr;
	struct world w;
	uint32_t i, wraps = 0;

	world_open(&w, spec);
	plugin_opts(&w, &pr, &o);
	ms = dqr_mesh_plugin_stats(w.mp);
	for (i = 0; i < w.num_links; i++) {
		start(&r, &w, &o);
		pr.calls = 0;
		CHECK_EQ(step(&r, &w.links[i], 1, &o, &res), DQR_RECON_OK);
		CHECK_EQ(pr.calls, 1);
		if (is_wrap(&w, w.links[i])) {
			/* no route crossed it: nothing failed, nothing moves */
			wraps++;
			CHECK_EQ(ms->links_failed, 0);
			CHECK_EQ(res.diff.entries, 0);
		} else {
			CHECK_EQ(ms->links_failed, 1);
			CHECK_EQ(ms->links_bypassed, 1);
			CHECK_EQ(pr.last, 1);
			CHECK(res.diff.entries > 0);
		}
		CHECK_EQ(res.rs.failed, 0);
		CHECK_EQ(changed_elsewhere(&w, w.t, r.cur, w.links[i]), 0);
		dqr_recon_release(&r);
	}
	printf("%s: %u single cable faults repaired with the plug-in "
	       "(%u wrap cables, which DOR does not use)\n", spec,
	       w.num_links, wraps);
	world_close(&w);
}

/* 2. Without the plug-in, some single fault of a 4x4 mesh is not. */
static void test_agnostic_fails(void)
{
	struct dqr_reroute_opts o = { 0 };
	struct dqr_recon_result res;
	struct dqr_recon r;
	struct world w;
	uint32_t i, failed = 0;

	world_open(&w, "mesh:4x4");
	for (i = 0; i < w.num_links; i++) {
		start(&r, &w, &o);
		failed += step(&r, &w.links[i], 1, &o, &res) ==
			  DQR_RECON_FAILED;
		dqr_recon_release(&r);
	}
	printf("mesh:4x4 without the plug-in: %u of %u single cable faults "
	       "not repaired\n", failed, w.num_links);
	CHECK(failed > 0);
	world_close(&w);
}

/*
 * A cable a-b of a 5x5 mesh and the side its bypass must take: switch a's
 * new entry for every DLID beyond b (in the cable's dimension) that lies
 * in a's row or beyond it on that side leads to a's neighbour there.
 */
struct side_case {
	unsigned a[2], b[2];
	unsigned dim;		/* of the side */
	int step;		/* +1 or -1 in it */
};

static int beyond(unsigned v, unsigned from, int dir)
{
	return dir > 0 ? v >= from : v <= from;
}

static void check_side(struct world *w, const struct side_case *c,
		       struct dqr_reroute_opts *o)
{
	uint32_t a = sw_at(w, c->a[0], c->a[1], 0);
	uint32_t b = sw_at(w, c->b[0], c->b[1], 0);
	unsigned k = c->a[0] != c->b[0] ? 0 : 1, aside[2];
	int dir = c->b[k] > c->a[k] ? 1 : -1;
	uint32_t cut = port_to(w, a, b), lid, dst, want, n = 0, wrong = 0;
	struct dqr_recon_result res;
	struct dqr_recon r;
	const uint16_t *at;

	aside[0] = c->a[0];
	aside[1] = c->a[1];
	aside[c->dim] += c->step;
	want = sw_at(w, aside[0], aside[1], 0);
	start(&r, w, o);
	CHECK_EQ(step(&r, &cut, 1, o, &res), DQR_RECON_OK);
	for (lid = 1; lid <= w->f->max_lid; lid++) {
		dst = dqr_lid_switch(w->f, lid);
		at = w->places[dst].coord;
		if (!beyond(at[k], c->b[k], dir) ||
		    !beyond(at[c->dim], c->a[c->dim], c->step))
			continue;
		n++;
		wrong += dqr_next_switch(w->f, r.cur, a, lid) != want;
	}
	if (wrong)
		fprintf(stderr, "(%u,%u)-(%u,%u): %u of %u DLIDs not via "
			"(%u,%u)\n", c->a[0], c->a[1], c->b[0], c->b[1],
			wrong, n, aside[0], aside[1]);
	CHECK(n > 0);
	CHECK_EQ(wrong, 0);
	dqr_recon_release(&r);
}

/* 3. The bypass turns towards the centre (row or column 2 of 0..4). */
static void test_towards_centre(void)
{
	static const struct side_case cases[] = {
		/* the bottom row: through row 1, both directions */
		{ { 0, 0 }, { 1, 0 }, 1, +1 },
		{ { 1, 0 }, { 0, 0 }, 1, +1 },
		/* the middle column's top row: through row 3 */
		{ { 2, 4 }, { 3, 4 }, 1, -1 },
		{ { 3, 4 }, { 2, 4 }, 1, -1 },
		/* inside, where either side exists: the centre's */
		{ { 0, 1 }, { 1, 1 }, 1, +1 },
		{ { 0, 3 }, { 1, 3 }, 1, -1 },
		{ { 1, 0 }, { 1, 1 }, 0, +1 },
		{ { 3, 1 }, { 3, 0 }, 0, -1 },
	};
	struct dqr_reroute_opts o;
	struct probe pr;
	struct world w;
	size_t i;

	world_open(&w, "mesh:5x5");
	plugin_opts(&w, &pr, &o);
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_side(&w, &cases[i], &o);
	world_close(&w);
}

/* 4. A switch that lost every cable is not bypassed; recon stays safe. */
static void test_lost_switch(void)
{
	static const unsigned at[][2] = { { 2, 2 }, { 2, 0 }, { 0, 0 } };
	const struct dqr_mesh_stats *ms;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	struct dqr_recon r;
	struct probe pr;
	struct world w;
	uint32_t cut[8], sw;
	unsigned i, n, pn;
	int ret;

	world_open(&w, "mesh:5x5");
	plugin_opts(&w, &pr, &o);
	ms = dqr_mesh_plugin_stats(w.mp);
	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++) {
		sw = sw_at(&w, at[i][0], at[i][1], 0);
		n = 0;
		dqr_for_each_linked_port(w.f, sw, pn)
			cut[n++] = dqr_port_index(w.f, sw, pn);
		start(&r, &w, &o);
		ret = step(&r, cut, n, &o, &res);
		CHECK_EQ(pr.last, 0);
		CHECK_EQ(ms->links_failed, n - 1);	/* less the CA's */
		CHECK(ms->links_bypassed < ms->links_failed);
		printf("mesh:5x5 switch (%u,%u) lost: %s, plug-in bypassed "
		       "%u of %u cables\n", at[i][0], at[i][1],
		       ret == DQR_RECON_OK ? "OK" : "FAILED",
		       ms->links_bypassed, ms->links_failed);
		dqr_recon_release(&r);
	}
	world_close(&w);
}

/*
 * 5. Every two cable faults in a row of a 5x5 mesh: safe states, and
 * when the plug-in says it bypassed the second, the search repairs it
 * (reroute.h's contract).  How many are repaired is only printed.
 */
static void test_two_faults(void)
{
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	struct dqr_recon r;
	struct probe pr;
	struct world w;
	uint32_t i, j, cut[2], pairs = 0, ok = 0, bypassed = 0;
	int ret;

	world_open(&w, "mesh:5x5");
	plugin_opts(&w, &pr, &o);
	for (i = 0; i < w.num_links; i++)
		for (j = 0; j < w.num_links; j++) {
			if (i == j)
				continue;
			cut[0] = w.links[i];
			cut[1] = w.links[j];
			start(&r, &w, &o);
			CHECK_EQ(step(&r, cut, 1, &o, &res), DQR_RECON_OK);
			ret = step(&r, cut, 2, &o, &res);
			if (pr.last == 1) {
				bypassed++;
				CHECK_EQ(ret, DQR_RECON_OK);
			}
			ok += ret == DQR_RECON_OK;
			pairs++;
			dqr_recon_release(&r);
		}
	printf("mesh:5x5 two cable faults in a row: %u of %u repaired, the "
	       "second bypassed by the plug-in in %u\n", ok, pairs, bypassed);
	world_close(&w);
}

/* 6. A hypercube has no plug-in. */
static void test_hypercube(void)
{
	struct dqr_gen_place *places;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric("hypercube:3", &s, &places);
	struct dqr_grid *g;
	char err[256];

	REQUIRE(f);
	REQUIRE(dqr_grid_detect(f, &g, err, sizeof(err)) == 0);
	CHECK_EQ(g->kind, DQR_GRID_HYPERCUBE);
	CHECK(dqr_mesh_plugin_new(f, g) == NULL);
	dqr_grid_free(g);
	free(places);
	dqr_fabric_free(f);
}

int main(void)
{
	static const char *const grids[] = {
		"mesh:3x3", "mesh:4x4", "mesh:5x4", "mesh:6x6", "mesh:3x3x3",
		"torus:5x3", "torus:4x4x4",
	};
	size_t i;

	for (i = 0; i < sizeof(grids) / sizeof(grids[0]); i++)
		test_every_link(grids[i]);
	test_agnostic_fails();
	test_towards_centre();
	test_lost_switch();
	test_two_faults();
	test_hypercube();
	return unit_finish();
}
