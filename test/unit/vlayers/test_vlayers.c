/*
 * test_vlayers.c - e-cube on virtual layers of a torus, repaired by
 * the mesh plug-in in every layer and the topology-agnostic search past
 * it (vlayers.h), and the local path it shares with the plug-in on
 * one layer (local_path.h).
 *
 * A route's SL has a ring's bit exactly when the route takes that ring's
 * wrap cable, and no route crosses both cuts of a ring; the verifier
 * passes the start tables and finds the cycle they close on one VL; it
 * fails corrupted tables and counts a hole; every single switch cable
 * fault is bypassed with at most 3 entries per DLID whose route crossed
 * it; two faults in a row leave verified states whenever the repair says
 * so; every lost switch is repaired by the search in the routes' own
 * layers; meshes and hypercubes are refused; mesh routing of a torus is
 * accepted; local paths at a border and their patches; tori with rings
 * of 4, routed on the grid the recogniser reads; with moves allowed,
 * every fault LASH's or e-cube's own layers cannot hold is repaired
 * with routes moved to another layer, and the SLs answered say so; with
 * the IN paper's routes first (vlayers_imed.c), every state of a run of
 * faults verifies and the busiest channel stays below the plug-in's
 * alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "deps/channel_list.h"
#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "mesh/local_path.h"
#include "vlayers/vlayers.h"
#include "routes/route_load.h"
#include "routes/route_walk.h"
#include "routing/grid_route.h"
#include "routing/lash_vlayers.h"
#include "routing/ref_routing.h"
#include "shape/grid_nbr.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "unit.h"

static struct dqr_vlayers *layers_of(const struct gen_world *w,
				     const struct dqr_lfts *t)
{
	struct dqr_vlayers *tl;
	char err[256];

	err[0] = 0;
	if (dqr_vlayers_new(w->f, &w->g, t, &tl, err, sizeof(err)))
		fprintf(stderr, "dqr_vlayers_new: %s\n", err);
	REQUIRE(tl);
	return tl;
}

/* The switch index at (x, y, z) of a generated grid. */
static uint32_t sw_at(const struct gen_world *w, unsigned x, unsigned y,
		      unsigned z)
{
	return x + w->s.dims[0] * (y + w->s.dims[1] * z);
}

static unsigned coord(const struct gen_world *w, uint32_t sw, unsigned k)
{
	return w->places[sw].coord[k];
}

/* 1 when the hop a-b joins coordinates lo and hi of ring k (either way). */
static int hop_joins(const struct gen_world *w, uint32_t a, uint32_t b,
		     unsigned k, unsigned lo, unsigned hi)
{
	unsigned ca = coord(w, a, k), cb = coord(w, b, k);

	return (ca == lo && cb == hi) || (ca == hi && cb == lo);
}

/*
 * Walks src's route to dst's LID in t: for each ring k, bit k of *cut_a
 * when it crosses cut A (between n-1 and 0), of *cut_b cut B (between
 * n/2-1 and n/2).  0, or -1 when it does not arrive.
 */
static int walk_cuts(const struct gen_world *w, const struct dqr_lfts *t,
		     uint32_t src, uint32_t dst, unsigned *cut_a,
		     unsigned *cut_b)
{
	uint32_t lid = dqr_switch_lid(w->f, dst), s = src, nx, hops;
	unsigned k, n;

	*cut_a = *cut_b = 0;
	for (hops = 0; s != dst; hops++, s = nx) {
		nx = dqr_next_switch(w->f, t, s, lid);
		if (nx == DQR_NONE || hops > w->f->num_switches)
			return -1;
		for (k = 0; k < w->s.ndims; k++) {
			n = w->s.dims[k];
			if (hop_joins(w, s, nx, k, n - 1, 0))
				*cut_a |= 1u << k;
			if (hop_joins(w, s, nx, k, n / 2 - 1, n / 2))
				*cut_b |= 1u << k;
		}
	}
	return 0;
}

static uint64_t count_pairs(const struct gen_world *w)
{
	uint64_t lids = 0, ends = 0;
	uint32_t lid;

	for (lid = 1; lid <= w->f->max_lid; lid++)
		lids += dqr_lid_owner(w->f, lid) != DQR_NONE;
	ends = (uint64_t)w->f->num_switches * (1 + w->s.cas);
	/* every switch and CA port to every LID but its own */
	return lids * (ends - 1);
}

/*
 * 1 and 2.  The layers of e-cube on a torus: one per combination of
 * wraps, the SL's bits the wrap cables the route takes, never both cuts
 * of a ring; the verifier passes them, and finds the start tables cyclic
 * on one VL unless every ring is a 3-ring (whose e-cube segments are one
 * hop long, so only turns between dimensions depend on each other).
 */
static void test_layers(const char *spec)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers *tl;
	const struct dqr_lfts *one[1];
	struct gen_world w;
	uint32_t src, dst, lost = 0, wrong = 0, both = 0, wraps[3] = { 0 };
	unsigned k, cut_a, cut_b, long_ring = 0;
	uint8_t sl;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	tl = layers_of(&w, w.t);
	CHECK_EQ(dqr_vlayers_count(tl), 1u << w.s.ndims);
	for (src = 0; src < w.f->num_switches; src++)
		for (dst = 0; dst < w.f->num_switches; dst++) {
			sl = dqr_vlayers_sl(tl, src, dst);
			CHECK(sl < dqr_vlayers_count(tl));
			if (walk_cuts(&w, w.t, src, dst, &cut_a, &cut_b)) {
				lost++;
				continue;
			}
			wrong += sl != cut_a;
			both += (cut_a & cut_b) != 0;
			for (k = 0; k < w.s.ndims; k++)
				wraps[k] += (cut_a >> k) & 1;
		}
	CHECK_EQ(lost, 0);
	CHECK_EQ(wrong, 0);
	CHECK_EQ(both, 0);
	for (k = 0; k < w.s.ndims; k++) {
		CHECK(wraps[k] > 0);
		long_ring |= w.s.dims[k] > 3;
	}

	REQUIRE(dqr_vlayers_verify(tl, w.f, w.t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, 0);
	CHECK_EQ(v.pairs, count_pairs(&w));
	CHECK(v.dependencies > 0);
	one[0] = w.t;
	CHECK_EQ(dqr_channel_list_of_tables(w.f, one, 1, NULL, NULL, NULL),
		 long_ring ? 1 : 0);
	printf("%s: %u layers, %u switch pairs, wraps per dimension %u %u %u, "
	       "%llu dependencies; one VL %s\n", spec,
	       dqr_vlayers_count(tl),
	       w.f->num_switches * w.f->num_switches, wraps[0], wraps[1],
	       wraps[2], (unsigned long long)v.dependencies,
	       long_ring ? "cyclic" : "acyclic");
	dqr_vlayers_free(tl);
	gen_world_close(&w);
}

/*
 * 1 when some switch's route to lid in t on f sends into channel a or b.
 * Every switch is on its own route and, in the start tables, reaches
 * every LID: the routes' channels are the entries'.
 */
static int crossed(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t lid, uint32_t a, uint32_t b)
{
	uint32_t sw, ch;

	for (sw = 0; sw < f->num_switches; sw++) {
		ch = dqr_next_channel(f, t, sw, lid);
		if (ch == a || ch == b)
			return 1;
	}
	return 0;
}

/*
 * 3.  Every single cable fault between switches: bypassed, verified, and
 * only DLIDs whose route crossed the cable changed, at most 3 entries
 * (a, a', b') each.
 */
static void every_link(struct gen_world *wp, const char *spec)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	struct gen_world w = *wp;
	uint32_t i, sw, lid, n, port, peer, ok = 0, moved = 0;
	uint32_t bad_lid = 0, too_many = 0, max_n = 0;

	for (i = 0; i < w.num_links; i++) {
		port = w.links[i];
		peer = dqr_peer_port(w.f, port);
		tl = layers_of(&w, w.t);
		t = dqr_lfts_clone(w.t);
		REQUIRE(t);
		p = cut_cables(w.f, &port, 1, NULL);
		CHECK_EQ(dqr_vlayers_repair(tl, p, t, &st), 0);
		CHECK_EQ(st.links_failed, 1);
		CHECK_EQ(st.links_bypassed, 1);
		REQUIRE(dqr_vlayers_verify(tl, p, t, &v) == 0);
		CHECK(v.acyclic);
		CHECK_EQ(v.unreachable, 0);
		ok += v.acyclic && !v.unreachable;
		for (lid = 1; lid < t->lid_count; lid++) {
			for (n = 0, sw = 0; sw < t->num_switches; sw++)
				n += dqr_lft_get(t, sw, lid) !=
				     dqr_lft_get(w.t, sw, lid);
			if (!n)
				continue;
			moved++;
			max_n = n > max_n ? n : max_n;
			too_many += n > 3;
			bad_lid += !crossed(w.f, w.t, lid, port, peer);
		}
		CHECK(st.changed > 0);
		dqr_fabric_free(p);
		dqr_lfts_free(t);
		dqr_vlayers_free(tl);
	}
	CHECK_EQ(ok, w.num_links);
	CHECK_EQ(bad_lid, 0);
	CHECK_EQ(too_many, 0);
	printf("%s: %u single cable faults bypassed and verified; %u DLIDs "
	       "moved, at most %u entries each\n", spec, w.num_links, moved,
	       max_n);
}

static void test_every_link(const char *spec)
{
	struct gen_world w;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	every_link(&w, spec);
	gen_world_close(&w);
}

/* The switches of t that do not reach lid, each with its CAs. */
static uint64_t unreached_ends(const struct gen_world *w,
			       const struct dqr_lfts *t, uint32_t lid)
{
	struct dqr_walk_state *st = calloc(w->f->num_switches,
					   sizeof(*st));
	uint32_t *scratch = calloc(w->f->num_switches, sizeof(*scratch));
	uint64_t n = 0;
	uint32_t sw;

	REQUIRE(st && scratch);
	dqr_walk_dlid(w->f, t, lid, st, scratch);
	for (sw = 0; sw < w->f->num_switches; sw++)
		n += st[sw].result != DQR_WALK_OK ? 1 + w->s.cas : 0;
	free(st);
	free(scratch);
	return n;
}

/*
 * 4.  The verifier can fail.  Row y = 0 of a 5x5 torus sent always +x
 * round its ring: routes of layer 0 then go round the whole ring (from
 * (1,0) to (0,0) through both cuts) and close a cycle there; the builder
 * refuses such tables.  A hole counts every switch and CA behind it.
 */
static void test_verifier_fails(void)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers *tl, *bad;
	struct dqr_lfts *t;
	struct gen_world w;
	uint32_t x, d, lid, hole;
	unsigned cut_a, cut_b;
	uint64_t want;
	char err[256];

	gen_world_open(&w, "torus:5x5", DQR_REF_DOR_WRAP);
	tl = layers_of(&w, w.t);
	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	for (lid = 1; lid <= w.f->max_lid; lid++) {
		d = dqr_lid_switch(w.f, lid);
		if (d == DQR_NONE || coord(&w, d, 1) != 0)
			continue;
		for (x = 0; x < 5; x++)
			if (sw_at(&w, x, 0, 0) != d)
				dqr_lft_set(t, sw_at(&w, x, 0, 0), lid, 1);
	}
	REQUIRE(walk_cuts(&w, t, sw_at(&w, 1, 0, 0), sw_at(&w, 0, 0, 0),
			  &cut_a, &cut_b) == 0);
	CHECK_EQ(cut_a & cut_b, 1);
	REQUIRE(dqr_vlayers_verify(tl, w.f, t, &v) == 0);
	CHECK_EQ(v.acyclic, 0);
	CHECK(v.cyclic_layer < dqr_vlayers_count(tl));
	CHECK_EQ(v.unreachable, 0);
	printf("torus:5x5 row 0 sent round its ring: layer %u cyclic\n",
	       v.cyclic_layer);
	CHECK_EQ(dqr_vlayers_new(w.f, &w.g, t, &bad, err, sizeof(err)),
		 -1);
	CHECK(bad == NULL);
	CHECK(strstr(err, "cyclic") != NULL);
	dqr_lfts_free(t);

	/* a hole at (2,2) towards the CA of (0,0) */
	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	lid = DQR_NONE;
	for (hole = 1; hole <= w.f->max_lid; hole++)
		if (dqr_lid_switch(w.f, hole) == sw_at(&w, 0, 0, 0) &&
		    hole != dqr_switch_lid(w.f, sw_at(&w, 0, 0, 0)))
			lid = hole;
	REQUIRE(lid != DQR_NONE);
	dqr_lft_set(t, sw_at(&w, 2, 2, 0), lid, DQR_NO_PATH);
	want = unreached_ends(&w, t, lid);
	CHECK(want >= 1 + w.s.cas);
	REQUIRE(dqr_vlayers_verify(tl, w.f, t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, want);
	CHECK_EQ(v.pairs, count_pairs(&w));
	dqr_lfts_free(t);
	dqr_vlayers_free(tl);
	gen_world_close(&w);
}

static uint64_t rng_next(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

/*
 * 5.  Two faults in a row, a seeded sample of ordered pairs: a layer is
 * never cyclic, and when the repair says every route was bypassed, every
 * pair is reached.  How often that happens is only printed.
 */
static void test_two_faults(const char *spec, unsigned samples)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	struct gen_world w;
	uint64_t rng = 20240521;
	uint32_t cut[2], pairs = 0, bypassed = 0, searched = 0;
	unsigned i;
	clock_t c0 = clock();
	int r;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	for (i = 0; i < samples; i++) {
		cut[0] = w.links[rng_next(&rng) % w.num_links];
		do
			cut[1] = w.links[rng_next(&rng) % w.num_links];
		while (cut[1] == cut[0]);
		tl = layers_of(&w, w.t);
		t = dqr_lfts_clone(w.t);
		REQUIRE(t);
		p = cut_cables(w.f, cut, 1, NULL);
		CHECK_EQ(dqr_vlayers_repair(tl, p, t, &st), 0);
		dqr_fabric_free(p);
		p = cut_cables(w.f, cut, 2, NULL);
		r = dqr_vlayers_repair(tl, p, t, &st);
		REQUIRE(r >= 0);
		REQUIRE(dqr_vlayers_verify(tl, p, t, &v) == 0);
		CHECK(v.acyclic);
		if (!r) {
			bypassed++;
			searched += st.links_searched > 0;
			CHECK_EQ(v.unreachable, 0);
		}
		pairs++;
		dqr_fabric_free(p);
		dqr_lfts_free(t);
		dqr_vlayers_free(tl);
	}
	printf("%s two faults in a row: the second repaired in %u of %u "
	       "sampled pairs, %u of them with the search (%.2f s)\n", spec,
	       bypassed, pairs, searched,
	       (double)(clock() - c0) / CLOCKS_PER_SEC);
	gen_world_close(&w);
}

/*
 * 5b.  A lost switch: no local path of the plug-in bypasses its cables
 * (the far end is gone), so the topology-agnostic search routes what
 * crossed it, in each route's own layer; every switch of the torus lost
 * in turn leaves verified tables that reach every pair a cable joins.
 */
static void test_lost_switch(const char *spec)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	struct gen_world w;
	uint32_t cut[DQR_MAX_PORTS], sw, node, ok = 0, lids = 0;
	unsigned pn, n;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	for (sw = 0; sw < w.f->num_switches; sw++) {
		node = w.f->switches[sw];
		n = 0;
		dqr_for_each_linked_port(w.f, node, pn)
			cut[n++] = dqr_port_index(w.f, node, pn);
		tl = layers_of(&w, w.t);
		t = dqr_lfts_clone(w.t);
		REQUIRE(t);
		p = cut_cables(w.f, cut, n, NULL);
		CHECK_EQ(dqr_vlayers_repair(tl, p, t, &st), 0);
		CHECK(st.lids_searched > 0);
		CHECK_EQ(st.links_bypassed + st.links_searched,
			 st.links_failed);
		lids += st.lids_searched;
		REQUIRE(dqr_vlayers_verify(tl, p, t, &v) == 0);
		CHECK(v.acyclic);
		CHECK_EQ(v.unreachable, 0);
		ok += v.acyclic && !v.unreachable;
		dqr_fabric_free(p);
		dqr_lfts_free(t);
		dqr_vlayers_free(tl);
	}
	CHECK_EQ(ok, w.f->num_switches);
	printf("%s: every one of %u switches lost and repaired on the "
	       "layers, %u DLIDs by the search\n", spec, w.f->num_switches,
	       lids);
	gen_world_close(&w);
}

/* The grid f is recognised as. */
static struct dqr_grid *detected(const struct dqr_fabric *f)
{
	struct dqr_grid *g;
	char err[256];

	REQUIRE(dqr_grid_detect(f, &g, err, sizeof(err)) == 0);
	return g;
}

/* -1 with "no ring" for f's grid, of kind kind, routed by ref. */
static void check_no_ring(const char *spec, enum dqr_ref_kind ref,
			  enum dqr_grid_kind kind)
{
	static char not_null;
	/* something the call must overwrite */
	struct dqr_vlayers *tl = (struct dqr_vlayers *)&not_null;
	struct dqr_grid *g;
	struct gen_world w;
	char err[256] = "";

	gen_world_open(&w, spec, ref);
	g = detected(w.f);
	CHECK_EQ(g->kind, kind);
	CHECK_EQ(dqr_vlayers_new(w.f, g, w.t, &tl, err, sizeof(err)),
		 -1);
	CHECK(tl == NULL);
	if (!strstr(err, "no ring"))
		fprintf(stderr, "%s: \"%s\"\n", spec, err);
	CHECK(strstr(err, "no ring") != NULL);
	dqr_grid_free(g);
	gen_world_close(&w);
}

/*
 * 6.  Meshes and hypercubes have no ring.  A torus routed as a mesh
 * (DOR, no wrap cable) is accepted: its routes never cross cut A, but
 * the SLs still follow e-cube's coordinates (a route's SL has the bit of
 * a ring that e-cube would wrap), and every layer, holding straight
 * mesh segments only, stays acyclic.  A dimension of 2 is no ring.
 */
static void test_bad_input(void)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers *tl;
	struct gen_world w;
	struct dqr_grid *g;
	uint32_t src, dst, wrapped = 0, not_a = 0;
	unsigned cut_a, cut_b;

	check_no_ring("mesh:5x5", DQR_REF_DOR, DQR_GRID_MESH);
	check_no_ring("mesh:3x3x3", DQR_REF_DOR, DQR_GRID_MESH);
	check_no_ring("hypercube:3", DQR_REF_ECUBE, DQR_GRID_HYPERCUBE);
	/* more dimensions than a grid table holds: still "no ring" */
	check_no_ring("hypercube:4", DQR_REF_ECUBE, DQR_GRID_HYPERCUBE);

	gen_world_open(&w, "torus:5x5", DQR_REF_DOR);
	tl = layers_of(&w, w.t);
	CHECK_EQ(dqr_vlayers_count(tl), 4);
	for (src = 0; src < w.f->num_switches; src++)
		for (dst = 0; dst < w.f->num_switches; dst++) {
			REQUIRE(walk_cuts(&w, w.t, src, dst, &cut_a,
					  &cut_b) == 0);
			not_a += cut_a != 0;
			wrapped += dqr_vlayers_sl(tl, src, dst) != 0;
		}
	CHECK_EQ(not_a, 0);
	CHECK(wrapped > 0);
	CHECK_EQ(dqr_vlayers_sl(tl, sw_at(&w, 0, 0, 0),
				sw_at(&w, 4, 0, 0)), 1);
	CHECK_EQ(dqr_vlayers_sl(tl, sw_at(&w, 0, 0, 0),
				sw_at(&w, 0, 4, 0)), 2);
	REQUIRE(dqr_vlayers_verify(tl, w.f, w.t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, 0);
	printf("torus:5x5 routed by DOR: accepted, %u of %u switch pairs on "
	       "a layer other than 0, none through a wrap cable\n", wrapped,
	       w.f->num_switches * w.f->num_switches);
	dqr_vlayers_free(tl);
	gen_world_close(&w);

	/* torus 5x2: one ring, two layers (the detector agrees) */
	gen_world_open(&w, "torus:5x2", DQR_REF_DOR_WRAP);
	g = detected(w.f);
	CHECK_EQ(g->kind, DQR_GRID_TORUS);
	dqr_grid_free(g);
	tl = layers_of(&w, w.t);
	CHECK_EQ(dqr_vlayers_count(tl), 2);
	REQUIRE(dqr_vlayers_verify(tl, w.f, w.t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, 0);
	dqr_vlayers_free(tl);
	gen_world_close(&w);
}

/*
 * 7 (the torus half; test_grid_nbr.c has the rest).  The grid as the
 * detector recognises it, with coordinates of its own, gives the same
 * layers: the verifier passes DOR_WRAP's tables.
 */
static void test_detected(const char *spec)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers *tl;
	struct dqr_grid *g;
	struct gen_world w;
	char err[256];

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	g = detected(w.f);
	REQUIRE(dqr_vlayers_new(w.f, g, w.t, &tl, err, sizeof(err)) ==
		0);
	CHECK_EQ(dqr_vlayers_count(tl), 1u << w.s.ndims);
	REQUIRE(dqr_vlayers_verify(tl, w.f, w.t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, 0);
	dqr_vlayers_free(tl);
	dqr_grid_free(g);
	gen_world_close(&w);
}

/*
 * 9.  Rings of 4: the recogniser reads one as 2x2 unless that makes more
 * than 3 dimensions, so torus:4x5 (2x2x5) gets 2 layers and torus:4x4x5
 * (rings of 4 folded back) 8.  Routed by e-cube on the recognised grid,
 * as the plugin routes it: the layers verify, one VL is cyclic, and
 * every single cable fault is bypassed and verified.
 */
static void test_rings_of_4(const char *spec, unsigned layers)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers *tl;
	const struct dqr_lfts *one[1];
	struct dqr_grid *g;
	struct gen_world w;
	char err[256] = "";

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	g = detected(w.f);
	dqr_lfts_free(w.t);
	if (dqr_grid_route(w.f, g, DQR_REF_DOR_WRAP, &w.t, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(w.t);
	/* the world's grid is the recognised one from here on */
	free(w.places);
	w.places = g->place;
	w.g = *g;
	free(g);
	tl = layers_of(&w, w.t);
	CHECK_EQ(dqr_vlayers_count(tl), layers);
	REQUIRE(dqr_vlayers_verify(tl, w.f, w.t, &v) == 0);
	CHECK(v.acyclic);
	CHECK_EQ(v.unreachable, 0);
	CHECK_EQ(v.pairs, count_pairs(&w));
	one[0] = w.t;
	CHECK_EQ(dqr_channel_list_of_tables(w.f, one, 1, NULL, NULL, NULL),
		 1);
	dqr_vlayers_free(tl);
	every_link(&w, spec);
	gen_world_close(&w);
}

/* 8. Local paths on a 5x5 mesh routed by DOR. */
static void test_local_path(void)
{
	struct dqr_local_path lp;
	struct dqr_grid_nbrs n;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	struct gen_world w;
	uint32_t a, sw[DQR_LOCAL_PATH_LEN], lid, cut;
	uint8_t port[DQR_LOCAL_PATH_LEN];
	unsigned i;

	gen_world_open(&w, "mesh:5x5", DQR_REF_DOR);
	REQUIRE(dqr_grid_nbrs_build(w.f, &w.g, &n) == 0);

	/* the centre (column or row 2) from the borders and from it */
	CHECK_EQ(dqr_local_path_centre_minus(&n, sw_at(&w, 0, 4, 0), 0), 0);
	CHECK_EQ(dqr_local_path_centre_minus(&n, sw_at(&w, 0, 4, 0), 1), 1);
	CHECK_EQ(dqr_local_path_centre_minus(&n, sw_at(&w, 3, 2, 0), 0), 1);
	CHECK_EQ(dqr_local_path_centre_minus(&n, sw_at(&w, 3, 2, 0), 1), 0);

	/* at the corner (0,0): no side below, none left, not along k */
	a = sw_at(&w, 0, 0, 0);
	CHECK_EQ(dqr_local_path_aside(&n, w.f, a, 0, 0, 1, 1, &lp), 0);
	CHECK_EQ(dqr_local_path_aside(&n, w.f, a, 0, 1, 1, 0, &lp), 0);
	CHECK_EQ(dqr_local_path_aside(&n, w.f, a, 0, 0, 0, 0, &lp), 0);
	REQUIRE(dqr_local_path_aside(&n, w.f, a, 0, 0, 1, 0, &lp) == 1);
	CHECK_EQ(lp.sw[0], a);
	CHECK_EQ(lp.sw[1], sw_at(&w, 0, 1, 0));
	CHECK_EQ(lp.sw[2], sw_at(&w, 1, 1, 0));
	CHECK_EQ(lp.sw[3], sw_at(&w, 1, 0, 0));
	CHECK_EQ(lp.sw[3], n.sw[dqr_grid_slot(a, 0, 0)]);
	/* topo_gen's ports: +y 3, +x 1, -y 4 */
	CHECK_EQ(lp.port[0], 3);
	CHECK_EQ(lp.port[1], 1);
	CHECK_EQ(lp.port[2], 4);
	for (i = 0; i + 1 < DQR_LOCAL_PATH_LEN; i++)
		CHECK_EQ(dqr_peer_switch(w.f, dqr_port_index(w.f,
				w.f->switches[lp.sw[i]], lp.port[i])),
			 lp.sw[i + 1]);
	/* a cable of the path cut: that side no longer exists */
	cut = dqr_port_index(w.f, w.f->switches[sw_at(&w, 0, 1, 0)], 1);
	p = cut_cables(w.f, &cut, 1, NULL);
	CHECK_EQ(dqr_local_path_aside(&n, p, a, 0, 0, 1, 0, &lp), 0);
	dqr_fabric_free(p);

	/*
	 * Link a = (1,1) -> b = (1,2) along y, aside +x: a' = (2,1),
	 * b' = (2,2).  Towards (1,3) DOR at a' goes -x back to a, so a'
	 * is patched; b' goes -x to b, on along the path: not patched.
	 */
	a = sw_at(&w, 1, 1, 0);
	REQUIRE(dqr_local_path_aside(&n, w.f, a, 1, 0, 0, 0, &lp) == 1);
	CHECK_EQ(lp.sw[1], sw_at(&w, 2, 1, 0));
	CHECK_EQ(lp.sw[2], sw_at(&w, 2, 2, 0));
	CHECK_EQ(lp.sw[3], sw_at(&w, 1, 2, 0));
	lid = dqr_switch_lid(w.f, sw_at(&w, 1, 3, 0));
	CHECK_EQ(dqr_local_path_patch(&lp, w.f, w.t, lid, sw, port), 2);
	CHECK_EQ(sw[0], a);
	CHECK_EQ(port[0], 1);
	CHECK_EQ(sw[1], lp.sw[1]);
	CHECK_EQ(port[1], 3);
	/* towards (3,3) a' goes on +x, off the path: only a */
	lid = dqr_switch_lid(w.f, sw_at(&w, 3, 3, 0));
	CHECK_EQ(dqr_local_path_patch(&lp, w.f, w.t, lid, sw, port), 1);
	CHECK_EQ(sw[0], a);
	/* towards a' itself: delivered there, only a */
	lid = dqr_switch_lid(w.f, lp.sw[1]);
	CHECK_EQ(dqr_local_path_patch(&lp, w.f, w.t, lid, sw, port), 1);
	/* b' sent back to a' too: all three, the path's own ports */
	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	lid = dqr_switch_lid(w.f, sw_at(&w, 1, 3, 0));
	dqr_lft_set(t, lp.sw[2], lid, 4);
	CHECK_EQ(dqr_local_path_patch(&lp, w.f, t, lid, sw, port), 3);
	for (i = 0; i < 3; i++) {
		CHECK_EQ(sw[i], lp.sw[i]);
		CHECK_EQ(port[i], lp.port[i]);
	}
	/* and b back to b': the path would loop */
	dqr_lft_set(t, lp.sw[3], lid, 1);
	CHECK_EQ(dqr_local_path_patch(&lp, w.f, t, lid, sw, port), -1);
	dqr_lfts_free(t);

	dqr_grid_nbrs_release(&n);
	gen_world_close(&w);
}

/* A generated grid by e-cube's shortest routes and LASH's SLs of them. */
static uint8_t *lash_world(struct gen_world *w, const char *spec,
			   unsigned *layers)
{
	uint32_t S;
	uint8_t *sl;
	char err[256] = "";

	gen_world_open(w, spec, DQR_REF_DOR_WRAP);
	S = w->f->num_switches;
	sl = malloc((size_t)S * S);
	REQUIRE(sl);
	REQUIRE(dqr_lash_vlayers(w->f, w->t, 8, sl, layers, err,
				 sizeof(err)) == 0);
	return sl;
}

/*
 * LASH's layers of w's routes (SLs sl, the given layers; moves below
 * max_layers, none with 0) after the cable at port fails: repaired and
 * verified, every layer acyclic.  The repair's answer; the caller frees
 * *tl.
 */
static int lash_fault(const struct gen_world *w, const uint8_t *sl,
		      unsigned layers, unsigned max_layers, uint32_t port,
		      struct dqr_vlayers **tl, struct dqr_vlayers_stats *st,
		      struct dqr_vlayers_verdict *v)
{
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	char err[256] = "";
	int r;

	REQUIRE(dqr_vlayers_new_sl(w->f, &w->g, w->t, sl, layers, tl, err,
				   sizeof(err)) == 0);
	CHECK_EQ(dqr_vlayers_count(*tl), layers);
	if (max_layers)
		dqr_vlayers_allow_moves(*tl, max_layers);
	t = dqr_lfts_clone(w->t);
	REQUIRE(t);
	p = cut_cables(w->f, &port, 1, NULL);
	r = dqr_vlayers_repair(*tl, p, t, st);
	REQUIRE(r >= 0 && dqr_vlayers_verify(*tl, p, t, v) == 0);
	CHECK(v->acyclic);
	dqr_fabric_free(p);
	dqr_lfts_free(t);
	return r;
}

/*
 * LASH's layers of the same shortest routes (dqr_vlayers_new_sl):
 * an SL beyond the layers refused; every single cable fault leaves every
 * layer acyclic, and every pair reached whenever the repair says so; a
 * restart's layers (dqr_vlayers_new_like) keep every SL.
 */
static void test_lash(const char *spec, unsigned min_ok)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl, *again;
	struct gen_world w;
	uint8_t *sl;
	unsigned layers;
	uint32_t i, off, ok = 0, S;
	char err[256] = "";
	int r;

	sl = lash_world(&w, spec, &layers);
	S = w.f->num_switches;
	sl[1] = (uint8_t)layers;
	CHECK_EQ(dqr_vlayers_new_sl(w.f, &w.g, w.t, sl, layers, &tl, err,
				    sizeof(err)), -1);
	CHECK(strstr(err, "SL ") != NULL);
	CHECK_EQ(dqr_vlayers_new_sl(w.f, &w.g, w.t, sl, 9, &tl, err,
				    sizeof(err)), -1);
	sl[1] = 0;
	REQUIRE(dqr_lash_vlayers(w.f, w.t, 8, sl, &layers, err,
				 sizeof(err)) == 0);
	for (i = 0; i < w.num_links; i++) {
		r = lash_fault(&w, sl, layers, 0, w.links[i], &tl, &st, &v);
		CHECK(r || !v.unreachable);
		ok += !r && !v.unreachable;
		dqr_vlayers_free(tl);
	}
	CHECK(ok >= min_ok);
	/* a restart's fresh layers keep every pair's SL (not e-cube's) */
	REQUIRE(dqr_vlayers_new_sl(w.f, &w.g, w.t, sl, layers, &tl, err,
				   sizeof(err)) == 0);
	REQUIRE(dqr_vlayers_new_like(tl, w.f, &w.g, w.t, &again, err,
				     sizeof(err)) == 0);
	CHECK_EQ(dqr_vlayers_count(again), layers);
	for (i = 0, off = 0; i < S * S; i++)
		off += dqr_vlayers_sl(again, i / S, i % S) != sl[i];
	CHECK_EQ(off, 0);
	dqr_vlayers_free(again);
	dqr_vlayers_free(tl);
	printf("%s: LASH on %u layers: %u of %u single cable faults "
	       "repaired, every state deadlock free\n", spec, layers, ok,
	       w.num_links);
	free(sl);
	gen_world_close(&w);
}

/*
 * 7.  Moves (the DQR paper: "a path may move to another layer").  LASH's
 * packed layers leave some single faults no path in the routes' own
 * layers; with moves allowed every fault is repaired, and what it moved
 * is exactly what the layers answer: pairs off their base SL, each below
 * the layers allowed, the base SLs untouched, and a restart's layers on
 * the base SLs again.  The verifier judges each state with the moved
 * SLs, independently of the list.
 */
static void check_moved(const struct gen_world *w, struct dqr_vlayers *tl,
			const uint8_t *sl, unsigned max_layers)
{
	uint32_t i, S = w->f->num_switches;
	uint64_t off = 0;
	uint8_t now;

	for (i = 0; i < S * S; i++) {
		now = dqr_vlayers_sl(tl, i / S, i % S);
		CHECK(now < max_layers);
		CHECK_EQ(dqr_vlayers_base_sl(tl, i / S, i % S), sl[i]);
		off += now != sl[i];
	}
	CHECK(off > 0);
	CHECK_EQ(dqr_vlayers_moved(tl), off);
}

static void test_lash_moves(const char *spec, unsigned max_layers)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl, *again;
	struct gen_world w;
	uint8_t *sl;
	unsigned layers;
	uint32_t i, ok = 0, moved = 0;
	char err[256] = "";
	int r;

	sl = lash_world(&w, spec, &layers);
	for (i = 0; i < w.num_links; i++) {
		r = lash_fault(&w, sl, layers, max_layers, w.links[i], &tl,
			       &st, &v);
		CHECK_EQ(v.unreachable, 0);
		CHECK_EQ(r, 0);
		ok += !r && !v.unreachable && v.acyclic;
		if (st.lids_moved) {
			moved++;
			CHECK(st.pairs_moved > 0);
			check_moved(&w, tl, sl, max_layers);
			/* a restart: the base SLs again, moves still allowed */
			REQUIRE(dqr_vlayers_new_like(tl, w.f, &w.g, w.t,
						     &again, err,
						     sizeof(err)) == 0);
			CHECK_EQ(dqr_vlayers_moved(again), 0);
			CHECK_EQ(dqr_vlayers_count(again), layers);
			dqr_vlayers_free(again);
		} else {
			CHECK_EQ(dqr_vlayers_moved(tl), 0);
		}
		dqr_vlayers_free(tl);
	}
	/* the faults that need a move are there: the test can fail */
	CHECK(moved > 0);
	printf("%s: LASH on %u layers, moves below %u: %u of %u single "
	       "cable faults repaired, %u of them with routes moved\n", spec,
	       layers, max_layers, ok, w.num_links, moved);
	free(sl);
	gen_world_close(&w);
}

/*
 * E-cube's layers, two faults in a row with moves below 8: every second
 * fault repaired where the own layers alone leave some (test_two_faults).
 */
static void test_ecube_moves(const char *spec, unsigned samples)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
	struct gen_world w;
	uint64_t rng = 20240521;
	uint32_t cut[2], moved = 0;
	unsigned i, k;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	for (i = 0; i < samples; i++) {
		cut[0] = w.links[rng_next(&rng) % w.num_links];
		do
			cut[1] = w.links[rng_next(&rng) % w.num_links];
		while (cut[1] == cut[0]);
		tl = layers_of(&w, w.t);
		dqr_vlayers_allow_moves(tl, 8);
		t = dqr_lfts_clone(w.t);
		REQUIRE(t);
		for (k = 1; k <= 2; k++) {
			p = cut_cables(w.f, cut, k, NULL);
			CHECK_EQ(dqr_vlayers_repair(tl, p, t, &st), 0);
			REQUIRE(dqr_vlayers_verify(tl, p, t, &v) == 0);
			CHECK(v.acyclic);
			CHECK_EQ(v.unreachable, 0);
			moved += st.lids_moved > 0;
			dqr_fabric_free(p);
		}
		dqr_lfts_free(t);
		dqr_vlayers_free(tl);
	}
	CHECK(moved > 0);
	printf("%s two faults in a row, moves below 8: all %u sampled pairs "
	       "repaired, %u repairs with routes moved\n", spec, samples,
	       moved);
	gen_world_close(&w);
}

/*
 * 7.  The IN paper's routes first: runs of faults repaired twice, with and
 * without them, moves allowed in both.  Every state verifies; the chains
 * take DLIDs; the busiest channels, summed over the states, stay below
 * those the plug-in's local paths leave.
 */
static void test_intermediates(const char *spec, unsigned runs,
			       unsigned faults)
{
	struct dqr_vlayers_verdict v;
	struct dqr_vlayers_stats st;
	struct dqr_vlayers *tl[2];
	struct dqr_route_load ld;
	struct dqr_fabric *p;
	struct dqr_lfts *t[2];
	struct gen_world w;
	uint64_t rng = 20261129, busiest[2] = { 0, 0 }, laid = 0;
	uint32_t cut[16];
	unsigned run, k, m, i;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	REQUIRE(faults <= 16 && faults < w.num_links);
	for (run = 0; run < runs; run++) {
		for (k = 0; k < faults; k++) {
			do {
				cut[k] = w.links[rng_next(&rng) % w.num_links];
				for (i = 0; i < k && cut[i] != cut[k]; i++)
					;
			} while (i < k);
		}
		for (m = 0; m < 2; m++) {
			tl[m] = layers_of(&w, w.t);
			dqr_vlayers_allow_moves(tl[m], 8);
			dqr_vlayers_allow_intermediates(tl[m], m ? 0 : 2);
			t[m] = dqr_lfts_clone(w.t);
			REQUIRE(t[m]);
		}
		for (k = 0; k < faults; k++) {
			p = cut_cables(w.f, cut, k + 1, NULL);
			for (m = 0; m < 2; m++) {
				REQUIRE(dqr_vlayers_repair(tl[m], p, t[m],
							   &st) >= 0);
				laid += m ? 0 : st.lids_intermediate;
				REQUIRE(dqr_vlayers_verify(tl[m], p, t[m],
							   &v) == 0);
				CHECK(v.acyclic);
				CHECK_EQ(v.unreachable, 0);
				REQUIRE(dqr_route_load(p, t[m], &ld, NULL) ==
					0);
				busiest[m] += ld.max;
			}
			dqr_fabric_free(p);
		}
		for (m = 0; m < 2; m++) {
			dqr_lfts_free(t[m]);
			dqr_vlayers_free(tl[m]);
		}
	}
	CHECK(laid > 0);
	CHECK(busiest[0] < busiest[1]);
	printf("%s, %u runs of %u faults: the IN paper's routes laid %llu "
	       "DLIDs; busiest channel %.1f on average, %.1f with the "
	       "plug-in alone\n", spec, runs, faults,
	       (unsigned long long)laid,
	       (double)busiest[0] / (runs * faults),
	       (double)busiest[1] / (runs * faults));
	gen_world_close(&w);
}

int main(void)
{
	static const char *const tori[] = {
		"torus:5x5", "torus:6x6", "torus:7x5", "torus:3x3x3",
		"torus:5x5x3",
	};
	size_t i;

	for (i = 0; i < sizeof(tori) / sizeof(tori[0]); i++) {
		test_layers(tori[i]);
		test_every_link(tori[i]);
	}
	test_every_link("torus:10x10");
	test_detected("torus:6x6");
	test_detected("torus:5x5x3");
	test_verifier_fails();
	test_two_faults("torus:5x5", 300);
	test_two_faults("torus:3x3x3", 300);
	test_lost_switch("torus:5x5");
	test_lost_switch("torus:6x4");
	test_lost_switch("torus:5x3x3");
	test_bad_input();
	test_local_path();
	test_rings_of_4("torus:4x5", 2);
	test_rings_of_4("torus:4x4x5,cas=1", 8);
	test_lash("torus:5x5", 45);
	test_lash("torus:7x5", 65);
	test_lash("mesh:5x5", 40);
	test_lash_moves("torus:5x5", 8);
	test_lash_moves("torus:7x5", 4);
	test_ecube_moves("torus:5x5", 300);
	test_intermediates("torus:6x6", 8, 6);
	test_intermediates("torus:4x4x3", 4, 5);
	return unit_finish();
}
