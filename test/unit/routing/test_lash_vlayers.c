/*
 * test_lash_vlayers.c - LASH's first-fit layers (lash_vlayers.h) for the
 * shortest routes of generated tori and meshes.
 *
 * Judged here, not by the code under test: every layer's dependencies,
 * gathered by walking each pair's routes in its SL, are acyclic; every
 * pair above layer 0 closes a cycle in each lower layer of the result
 * (first fit: a lower layer only grows after the pair was refused); one
 * layer on a mesh in dimension order, and on a torus of rings of 3
 * (no route takes two hops of a ring); a torus in one layer refused with
 * the pair named; a looping route and a bad layer count refused.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/vlayer_deps.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_walk.h"
#include "routing/lash_vlayers.h"
#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "unit.h"

/* A routed generated fabric and an SL for each pair of its switches. */
struct world {
	struct gen_world gw;
	uint8_t *sl;
	uint32_t S;
};

static void world_open(struct world *w, const char *spec,
		       enum dqr_ref_kind kind)
{
	gen_world_open(&w->gw, spec, kind);
	w->S = w->gw.f->num_switches;
	w->sl = malloc((size_t)w->S * w->S);
	REQUIRE(w->sl);
}

static void world_close(struct world *w)
{
	free(w->sl);
	gen_world_close(&w->gw);
}

/* The switch-to-switch dependencies of s's routes to d's LIDs, in l. */
static void add_pair(struct dqr_vlayer_deps *x, const struct world *w,
		     uint32_t s, uint32_t d, unsigned l)
{
	uint32_t P = w->gw.f->num_ports, lid, c, nc, sw;

	for (lid = 1; lid < w->gw.t->lid_count; lid++) {
		if (dqr_lid_switch(w->gw.f, lid) != d)
			continue;
		for (c = dqr_next_channel(w->gw.f, w->gw.t, s, lid);
		     c != DQR_NONE; c = nc) {
			sw = dqr_peer_switch(w->gw.f, c);
			nc = sw == DQR_NONE ? DQR_NONE :
			     dqr_next_channel(w->gw.f, w->gw.t, sw, lid);
			if (nc != DQR_NONE &&
			    dqr_vlayer_deps_add(x, l * P + c, l * P + nc))
				REQUIRE(0);
		}
	}
}

/*
 * 1 when every layer of w's assignment is acyclic; with (s, d, l) not
 * DQR_NONE, that pair's routes are added to layer l as well.
 */
static int acyclic(const struct world *w, unsigned layers, uint32_t ps,
		   uint32_t pd, unsigned pl)
{
	struct dqr_vlayer_deps x;
	struct dqr_channel_list cl = { 0 };
	unsigned bad = 0;
	uint32_t s, d;
	int r;

	REQUIRE(!dqr_vlayer_deps_init(&x, w->gw.f, layers));
	for (s = 0; s < w->S; s++)
		for (d = 0; d < w->S; d++)
			if (s != d)
				add_pair(&x, w, s, d,
					 w->sl[(size_t)s * w->S + d]);
	if (ps != DQR_NONE)
		add_pair(&x, w, ps, pd, pl);
	r = dqr_vlayer_deps_order(&x, NULL, &cl, &bad);
	REQUIRE(r >= 0);
	dqr_channel_list_free(&cl);
	dqr_vlayer_deps_release(&x);
	return r == 0;
}

/*
 * The layers of w's tables: acyclic, at most max_expected, and first fit
 * for up to samples pairs above layer 0.  The number of layers.
 */
static unsigned check_layers(struct world *w, const char *spec,
			     unsigned max_expected, unsigned samples)
{
	char err[256] = "";
	unsigned layers = 0, l, tried = 0;
	uint32_t s, d, step;

	if (dqr_lash_vlayers(w->gw.f, w->gw.t, 8, w->sl, &layers, err,
			     sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(layers >= 1);
	CHECK(layers <= max_expected);
	CHECK(acyclic(w, layers, DQR_NONE, 0, 0));
	for (s = 0, d = 0; s < w->S; s++)
		d += w->sl[(size_t)s * w->S + s] != 0;
	CHECK_EQ(d, 0);
	step = w->S * w->S / (samples ? samples : 1) + 1;
	for (s = 0; tried < samples && s < w->S; s++)
		for (d = (s * 7) % w->S; tried < samples && d < w->S;
		     d += step % w->S + 1) {
			if (s == d || !w->sl[(size_t)s * w->S + d])
				continue;
			tried++;
			for (l = 0; l < w->sl[(size_t)s * w->S + d]; l++)
				CHECK(!acyclic(w, layers, s, d, l));
		}
	CHECK(samples == 0 || tried > 0);
	printf("%s: %u layers, %u pairs above layer 0 closed a cycle in "
	       "every lower one\n", spec, layers, tried);
	return layers;
}

static void test_torus(const char *spec, unsigned max_expected)
{
	struct world w;

	world_open(&w, spec, DQR_REF_DOR_WRAP);
	CHECK(check_layers(&w, spec, max_expected, 12) >= 2);
	world_close(&w);
}

/* Routes in dimension order that never continue round a ring. */
static void test_mesh(const char *spec)
{
	struct world w;
	size_t i, nonzero = 0;

	world_open(&w, spec, strncmp(spec, "mesh", 4) ? DQR_REF_DOR_WRAP :
			      DQR_REF_DOR);
	CHECK_EQ(check_layers(&w, spec, 1, 0), 1);
	for (i = 0; i < (size_t)w.S * w.S; i++)
		nonzero += w.sl[i] != 0;
	CHECK_EQ(nonzero, 0);
	world_close(&w);
}

static void test_refused(void)
{
	struct world w;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char err[256] = "";
	unsigned layers = 7;
	uint32_t lid;

	world_open(&w, "torus:5x5", DQR_REF_DOR_WRAP);
	f = w.gw.f;
	t = w.gw.t;
	CHECK_EQ(dqr_lash_vlayers(f, t, 1, w.sl, &layers, err, sizeof(err)),
		 -1);
	CHECK(strstr(err, "cycle in each of 1 layers") != NULL);
	CHECK_EQ(dqr_lash_vlayers(f, t, 0, w.sl, &layers, err, sizeof(err)),
		 -1);
	CHECK(strstr(err, "0 layers") != NULL);
	CHECK_EQ(dqr_lash_vlayers(f, t, 9, w.sl, &layers, err, sizeof(err)),
		 -1);
	/* switches 0 and 1 send switch 2's LID to each other */
	lid = dqr_switch_lid(f, 2);
	dqr_lft_set(t, 0, lid, dqr_lft_get(t, 0, dqr_switch_lid(f, 1)));
	dqr_lft_set(t, 1, lid, dqr_lft_get(t, 1, dqr_switch_lid(f, 0)));
	CHECK_EQ(dqr_lash_vlayers(f, t, 8, w.sl, &layers, err, sizeof(err)),
		 -1);
	CHECK(strstr(err, "loops") != NULL);
	world_close(&w);
}

int main(void)
{
	test_torus("torus:5x5", 4);
	test_torus("torus:6x4", 4);
	test_torus("torus:5x5x3", 8);
	test_mesh("torus:3x3x3");	/* rings of 3: no route goes on */
	test_torus("torus:10x10", 4);
	test_mesh("mesh:5x5");
	test_mesh("mesh:4x3x3");
	test_refused();
	return unit_finish();
}
