/*
 * test_grid_shape.c - meshes, tori and hypercubes recognised from the
 * switch graph (grid_shape.h).
 *
 * (1) generated grids copied with the nodes in a shuffled order, new
 *     GUIDs and every switch's ports permuted, so that neither the
 *     generator's order nor its port numbers can help: the shape and its
 *     sizes found, every switch cable joining coordinates one step apart
 *     in one dimension (or across a ring's wrap), no coordinate twice;
 * (2) the conformed copy routed by ref_routing.h's DOR or e-cube and
 *     mapped back, and a mesh or torus by UPDN_MESH through
 *     dqr_grid_route(): every pair reachable, no loop, no cycle on one VL;
 * (3) degraded copies: a cable or a switch missing at start, still
 *     recognised and counted, still loop free and acyclic, and under
 *     UPDN_MESH still every pair reachable;
 * (4) rings of 4 are two dimensions of size 2 (the 4x4 torus is the
 *     4-cube, 4x5 is 2x2x5) unless that makes more than 3, when pairs
 *     fold back into rings of 4 (4x4x5); a mixed mesh/torus, a ring of 3;
 * (5) fat trees and other fabrics rejected with a reason, and
 *     dqr_updn_route() routes them by plain up*\/down* (a mesh by
 *     UPDN_MESH);
 * (6) 10^4 switches.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routing/grid_route.h"
#include "routing/ref_routing.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/*
 * A copy of f with nodes in a random order, new GUIDs, each switch's
 * ports permuted over one more port than it had; switch drop (node index
 * of f, or DQR_NONE) and the CAs on it left out.
 */
static struct dqr_fabric *scrambled(const struct dqr_fabric *f, uint32_t drop)
{
	struct dqr_fabric *g = dqr_fabric_new();
	uint32_t n = f->num_nodes, i, *perm, *map, node, q, gi;
	uint8_t *pmap;
	unsigned pn, np;
	char err[256] = "";

	perm = malloc(sizeof(uint32_t) * n);
	map = malloc(sizeof(uint32_t) * n);
	pmap = calloc(f->num_ports, 1);
	REQUIRE(g && perm && map && pmap);
	for (i = 0; i < n; i++) {
		perm[i] = i;
		map[i] = DQR_NONE;
	}
	shuffle(perm, n, rnd);
	for (i = 0; i < n; i++) {
		const struct dqr_node *o = &f->nodes[perm[i]];
		uint32_t ports[DQR_MAX_PORTS + 1];

		node = perm[i];
		if (node == drop)
			continue;
		if (!dqr_is_switch(f, node) && drop != DQR_NONE) {
			q = dqr_peer_node(f, dqr_port_index(f, node, 1));
			if (q == drop)
				continue;
		}
		np = o->num_ports + (dqr_is_switch(f, node) ? 1 : 0);
		for (pn = 0; pn < np; pn++)
			ports[pn] = pn + 1;
		if (dqr_is_switch(f, node))
			shuffle(ports, np, rnd);
		for (pn = 1; pn <= o->num_ports; pn++)
			pmap[o->port_base + pn] = (uint8_t)ports[pn - 1];
		map[node] = dqr_fabric_add_node(g, o->type, np,
						0x0002c90300b00000ull +
						16ull * rnd(1u << 20) * n + i,
						dqr_node_name(f, node));
		REQUIRE(map[node] != DQR_NONE);
	}
	for (node = 0; node < n; node++) {
		const struct dqr_node *o = &f->nodes[node];

		if (map[node] == DQR_NONE)
			continue;
		for (pn = 0; pn <= o->num_ports; pn++) {
			gi = o->port_base + pn;
			if (f->ports[gi].base_lid)
				REQUIRE(!dqr_fabric_set_lid(g, map[node],
					pn ? pmap[gi] : 0,
					f->ports[gi].base_lid,
					f->ports[gi].lmc));
			q = f->ports[gi].remote;
			if (!pn || q == DQR_NONE || q < gi ||
			    map[f->ports[q].node] == DQR_NONE)
				continue;
			REQUIRE(!dqr_fabric_link(g, map[node], pmap[gi],
						 map[f->ports[q].node],
						 pmap[q]));
		}
	}
	if (dqr_fabric_finish(g, err, sizeof(err)))
		fprintf(stderr, "scrambled: %s\n", err);
	REQUIRE(err[0] == 0);
	free(perm);
	free(map);
	free(pmap);
	return g;
}

/*
 * Every switch cable joins coordinates one step apart in one dimension;
 * no coordinate twice.  The number of bad cables and clashes.
 */
static unsigned inconsistent(const struct dqr_fabric *f,
			     const struct dqr_grid *g)
{
	uint32_t sw, peer, node, a, b, slots = 1, *seen;
	unsigned pn, d, bad = 0, diff;

	if (g->kind == DQR_GRID_HYPERCUBE)
		slots = 1u << g->ndims;
	else
		for (d = 0; d < g->ndims; d++)
			slots *= g->dims[d];
	seen = calloc(slots, sizeof(*seen));
	REQUIRE(seen);
	for (sw = 0; sw < f->num_switches; sw++) {
		const struct dqr_gen_place *p = &g->place[sw];

		if (p->pos >= slots || seen[p->pos]++)
			bad++;
		/* grid_conform.c finds the coordinates' slot by pos */
		if (g->kind != DQR_GRID_HYPERCUBE) {
			a = 0;
			for (d = g->ndims; d-- > 0;)
				a = a * g->dims[d] + p->coord[d];
			bad += a != p->pos;
		}
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, pn) {
			peer = dqr_peer_switch(f, dqr_port_index(f, node, pn));
			if (peer == DQR_NONE)
				continue;
			if (g->kind == DQR_GRID_HYPERCUBE) {
				a = p->pos ^ g->place[peer].pos;
				bad += !a || (a & (a - 1));
				continue;
			}
			diff = 0;
			for (d = 0; d < g->ndims; d++) {
				a = p->coord[d];
				b = g->place[peer].coord[d];
				if (a == b)
					continue;
				diff++;
				if (a + 1 != b && b + 1 != a &&
				    !(g->wrap[d] && (a + b == g->dims[d] - 1) &&
				      (a == 0 || b == 0)))
					bad++;
			}
			bad += diff != 1;
		}
	}
	free(seen);
	return bad;
}

/* The sizes in g, sorted, as "AxBxC" (or "cube:D"). */
static void sizes_of(const struct dqr_grid *g, char *buf, size_t len)
{
	unsigned s[DQR_GEN_MAX_DIMS], d, e, x;
	size_t used = 0;

	if (g->kind == DQR_GRID_HYPERCUBE) {
		snprintf(buf, len, "cube:%u", g->ndims);
		return;
	}
	for (d = 0; d < g->ndims; d++)
		s[d] = g->dims[d];
	for (d = 0; d < g->ndims; d++)
		for (e = d + 1; e < g->ndims; e++)
			if (s[e] < s[d]) {
				x = s[d];
				s[d] = s[e];
				s[e] = x;
			}
	buf[0] = 0;
	for (d = 0; d < g->ndims; d++)
		used += (size_t)snprintf(buf + used, len - used, "%s%u",
					 d ? "x" : "", s[d]);
}

/* The verdict on tables t of f.  full: every pair must be reachable. */
static void judge_tables(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 int full, const char *what, const char *how)
{
	struct dqr_verify_report r;
	uint64_t unreach = 0;
	unsigned k;

	CHECK_EQ(t->num_switches, f->num_switches);
	CHECK_EQ(t->lid_count, f->max_lid + 1);
	REQUIRE(dqr_verify(f, t, &r, NULL) == 0);
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		unreach += r.unreachable[k];
	if (full && unreach)
		fprintf(stderr, "%s %s: %llu pairs unreachable\n", what, how,
			(unsigned long long)unreach);
	if (full)
		CHECK_EQ(unreach, 0);
	CHECK(r.pairs[DQR_PAIR_CA_CA] + r.pairs[DQR_PAIR_SW_SW] > 0);
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.dead_port_entries, 0);
	CHECK_EQ(r.cycle_found, 0);
	dqr_verify_report_free(&r);
}

/* dqr_updn_route()'s tables of f are dqr_ref_route()'s or g's by kind. */
static void updn_route_is(const struct dqr_fabric *f, const struct dqr_grid *g,
			  enum dqr_ref_kind kind, const char *what)
{
	struct dqr_lfts *a = NULL, *b = NULL;
	char err[256] = "";

	REQUIRE(dqr_updn_route(f, &a, err, sizeof(err)) == 0);
	if (g)
		REQUIRE(dqr_grid_route(f, g, kind, &b, err, sizeof(err)) == 0);
	else
		REQUIRE(dqr_ref_route(f, NULL, NULL, kind, &b, err,
				      sizeof(err)) == 0);
	if (memcmp(a->port, b->port, (size_t)a->num_switches * a->lid_count))
		fprintf(stderr, "%s: dqr_updn_route is not %s\n", what,
			dqr_ref_name(kind));
	CHECK(!memcmp(a->port, b->port,
		      (size_t)a->num_switches * a->lid_count));
	dqr_lfts_free(a);
	dqr_lfts_free(b);
}

/*
 * Routes f by its grid through the conformed copy; the verdict.  full:
 * every pair must be reachable.  A mesh or torus is also routed by
 * up*\/down* on its mesh (the plugin's default), which must reach every
 * pair: no grid here loses the mesh's connectivity.
 */
static void route_check(const struct dqr_fabric *f, const struct dqr_grid *g,
			int full, const char *what)
{
	struct dqr_grid_conform c;
	struct dqr_lfts *t = NULL;
	enum dqr_ref_kind kind = g->kind == DQR_GRID_HYPERCUBE ?
				 DQR_REF_ECUBE : DQR_REF_DOR;
	char err[256] = "";

	if (dqr_grid_conform(f, g, &c, err, sizeof(err)))
		fprintf(stderr, "%s: conform: %s\n", what, err);
	REQUIRE(err[0] == 0);
	if (dqr_ref_route(c.f, &g->spec, c.places, kind, &t, err,
			  sizeof(err)))
		fprintf(stderr, "%s: route: %s\n", what, err);
	REQUIRE(t != NULL);
	dqr_grid_unconform(&c, f->num_switches, t);
	judge_tables(f, t, full, what, dqr_ref_name(kind));
	dqr_lfts_free(t);
	dqr_grid_conform_free(&c);
	if (g->kind == DQR_GRID_HYPERCUBE)
		return;
	if (dqr_grid_route(f, g, DQR_REF_UPDN_MESH, &t, err, sizeof(err)))
		fprintf(stderr, "%s: updn-mesh: %s\n", what, err);
	REQUIRE(t != NULL);
	judge_tables(f, t, 1, what, "updn-mesh");
	dqr_lfts_free(t);
	/* the plugin's up*\/down* instead of a base: a mesh's own */
	if (g->kind == DQR_GRID_MESH)
		updn_route_is(f, g, DQR_REF_UPDN_MESH, what);
}

/* f as a grid of kind and sizes ("4x4", sorted; "cube:4"). */
static struct dqr_grid *expect(const struct dqr_fabric *f,
			       enum dqr_grid_kind kind, const char *sizes,
			       const char *what)
{
	struct dqr_grid *g = NULL;
	char err[256] = "", buf[64], desc[128];

	if (dqr_grid_detect(f, &g, err, sizeof(err)))
		fprintf(stderr, "%s: not recognised: %s\n", what, err);
	REQUIRE(g != NULL);
	dqr_grid_describe(g, desc, sizeof(desc));
	sizes_of(g, buf, sizeof(buf));
	if (g->kind != kind || strcmp(buf, sizes))
		fprintf(stderr, "%s: found %s (%s)\n", what, desc, buf);
	CHECK_EQ(g->kind, kind);
	CHECK(!strcmp(buf, sizes));
	CHECK_EQ(g->num_switches, f->num_switches);
	CHECK_EQ(inconsistent(f, g), 0);
	return g;
}

struct grid_case {
	const char *spec;
	enum dqr_grid_kind kind;
	const char *sizes;
};

static const struct grid_case cases[] = {
	{ "mesh:4x4", DQR_GRID_MESH, "4x4" },
	{ "mesh:5x3", DQR_GRID_MESH, "3x5" },
	{ "mesh:7", DQR_GRID_MESH, "7" },
	{ "mesh:4x3x5", DQR_GRID_MESH, "3x4x5" },
	{ "mesh:2x6", DQR_GRID_MESH, "2x6" },
	{ "mesh:3x3x3,cas=2", DQR_GRID_MESH, "3x3x3" },
	{ "torus:5x5", DQR_GRID_TORUS, "5x5" },
	{ "torus:3x3", DQR_GRID_TORUS, "3x3" },
	{ "torus:3x6", DQR_GRID_TORUS, "3x6" },
	{ "torus:3x3x3", DQR_GRID_TORUS, "3x3x3" },
	{ "torus:5x3x6,cas=0", DQR_GRID_TORUS, "3x5x6" },
	{ "torus:4x5", DQR_GRID_TORUS, "2x2x5" },
	/* 2x2x2x2x5 and 2x2x5x6: pairs of 2 fold back into rings of 4 */
	{ "torus:4x4x5,cas=0", DQR_GRID_TORUS, "4x4x5" },
	{ "torus:6x4x5,cas=0", DQR_GRID_TORUS, "4x5x6" },
	{ "torus:4x4x3,cas=0", DQR_GRID_TORUS, "3x4x4" },
	{ "torus:4x4x4,cas=0", DQR_GRID_HYPERCUBE, "cube:6" },
	{ "torus:4x4", DQR_GRID_HYPERCUBE, "cube:4" },
	{ "mesh:2x2x2", DQR_GRID_HYPERCUBE, "cube:3" },
	{ "hypercube:4", DQR_GRID_HYPERCUBE, "cube:4" },
	{ "hypercube:6,lmc=1", DQR_GRID_HYPERCUBE, "cube:6" },
	{ "hypercube:1", DQR_GRID_HYPERCUBE, "cube:1" },
};

static void test_intact(void)
{
	unsigned i, rep;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dqr_gen_spec s;
		struct dqr_gen_place *pl = NULL;
		struct dqr_fabric *f = gen_fabric(cases[i].spec, &s, &pl);

		REQUIRE(f);
		for (rep = 0; rep < 3; rep++) {
			struct dqr_fabric *h = rep ? scrambled(f, DQR_NONE) :
					       f;
			struct dqr_grid *g = expect(h, cases[i].kind,
						    cases[i].sizes,
						    cases[i].spec);

			CHECK_EQ(g->missing_cables, 0);
			CHECK_EQ(g->missing_switches, 0);
			route_check(h, g, 1, cases[i].spec);
			dqr_grid_free(g);
			if (h != f)
				dqr_fabric_free(h);
		}
		free(pl);
		dqr_fabric_free(f);
	}
}

/* The switch-to-switch port of switch sw numbered k-th, or 0. */
static uint32_t nth_switch_port(const struct dqr_fabric *f, uint32_t sw,
				unsigned k)
{
	uint32_t node = f->switches[sw];
	unsigned pn;

	dqr_for_each_linked_port(f, node, pn)
		if (dqr_peer_switch(f, dqr_port_index(f, node, pn)) !=
		    DQR_NONE && !k--)
			return dqr_port_index(f, node, pn);
	return 0;
}

static void test_degraded(void)
{
	static const struct grid_case dcases[] = {
		{ "mesh:6x6", DQR_GRID_MESH, "6x6" },
		{ "mesh:4x4", DQR_GRID_MESH, "4x4" },
		{ "mesh:4x3x3", DQR_GRID_MESH, "3x3x4" },
		{ "torus:5x5", DQR_GRID_TORUS, "5x5" },
		{ "torus:3x5", DQR_GRID_TORUS, "3x5" },
		{ "hypercube:5", DQR_GRID_HYPERCUBE, "cube:5" },
	};
	unsigned i, k, trial, found = 0, tried = 0;
	char desc[128];

	for (i = 0; i < sizeof(dcases) / sizeof(dcases[0]); i++) {
		struct dqr_gen_spec s;
		struct dqr_fabric *f = gen_fabric(dcases[i].spec, &s, NULL);

		REQUIRE(f);
		for (trial = 0; trial < 40; trial++) {
			struct dqr_fabric *h = dqr_fabric_clone(f), *x;
			struct dqr_grid *g = NULL;
			uint32_t sw = rnd(f->num_switches), port;
			char err[256] = "";

			REQUIRE(h);
			for (k = 0; nth_switch_port(h, sw, k); k++)
				;
			port = nth_switch_port(h, sw, rnd(k));
			REQUIRE(port);
			dqr_fabric_unlink_port(h, port);
			x = scrambled(h, DQR_NONE);
			tried++;
			if (dqr_grid_detect(x, &g, err, sizeof(err))) {
				fprintf(stderr, "%s less a cable: %s\n",
					dcases[i].spec, err);
			} else {
				found++;
				dqr_grid_describe(g, desc, sizeof(desc));
				CHECK(strstr(desc, "1 cable missing") != NULL);
				CHECK_EQ(g->missing_cables, 1);
				CHECK_EQ(inconsistent(x, g), 0);
				route_check(x, g, 0, dcases[i].spec);
				dqr_grid_free(g);
			}
			dqr_fabric_free(x);
			dqr_fabric_free(h);
		}
		dqr_fabric_free(f);
	}
	/* one cable missing: the coordinates stay unambiguous */
	CHECK_EQ(found, tried);

	/* a switch missing: its neighbours still place the rest */
	for (i = 0; i < sizeof(dcases) / sizeof(dcases[0]); i++) {
		struct dqr_gen_spec s;
		struct dqr_fabric *f = gen_fabric(dcases[i].spec, &s, NULL);
		struct dqr_fabric *x;
		struct dqr_grid *g;

		REQUIRE(f);
		x = scrambled(f, f->switches[f->num_switches / 2 + 1]);
		g = expect(x, dcases[i].kind, dcases[i].sizes,
			   dcases[i].spec);
		CHECK_EQ(g->missing_switches, 1);
		CHECK_EQ(g->missing_cables, 0);
		route_check(x, g, 0, dcases[i].spec);
		dqr_grid_free(g);
		dqr_fabric_free(x);
		dqr_fabric_free(f);
	}
}

/* A ring in y, the x wraps of a 5x5 torus cut: a mixed grid. */
static void test_mixed(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric("torus:5x5", &s, NULL), *x;
	struct dqr_grid *g;
	uint32_t y;
	unsigned d, rings = 0;
	char desc[128];

	REQUIRE(f);
	/* switch (4, y) port 1 is the x wrap to (0, y) */
	for (y = 0; y < 5; y++)
		dqr_fabric_unlink_port(f, dqr_port_index(f, 4 + 5 * y, 1));
	x = scrambled(f, DQR_NONE);
	g = expect(x, DQR_GRID_TORUS, "5x5", "mixed 5x5");
	for (d = 0; d < g->ndims; d++)
		rings += g->wrap[d];
	CHECK_EQ(rings, 1);
	CHECK_EQ(g->missing_cables, 0);
	dqr_grid_describe(g, desc, sizeof(desc));
	CHECK(strstr(desc, "mesh/torus") != NULL);
	/* DOR never takes a wrap: on the ring dimension it is a line */
	route_check(x, g, 1, "mixed 5x5");
	dqr_grid_free(g);
	dqr_fabric_free(x);
	dqr_fabric_free(f);
}

static void test_rejected(void)
{
	static const char *const specs[] = {
		"kary:2,3", "kary:4,3", "fattree2:8", "fattree3:4",
		"kary:3,2",
	};
	unsigned i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		struct dqr_gen_spec s;
		struct dqr_fabric *f = gen_fabric(specs[i], &s, NULL);
		struct dqr_grid *g = NULL;
		char err[256] = "";

		REQUIRE(f);
		CHECK(dqr_grid_detect(f, &g, err, sizeof(err)) != 0);
		CHECK(g == NULL);
		CHECK(err[0] != 0);
		if (g)
			dqr_grid_free(g);
		/* no grid: plain up*\/down* from the first switch */
		updn_route_is(f, NULL, DQR_REF_UPDN, specs[i]);
		dqr_fabric_free(f);
	}

	/* two meshes side by side, not cabled */
	{
		struct dqr_fabric *f = text_fabric(
			"Switch 2 \"a\"\n[1] \"b\"[1]\n"
			"Switch 2 \"b\"\n[1] \"a\"[1]\n"
			"Switch 2 \"c\"\n[1] \"d\"[1]\n"
			"Switch 2 \"d\"\n[1] \"c\"[1]\n");
		struct dqr_grid *g = NULL;
		char err[256] = "";

		REQUIRE(f);
		CHECK(dqr_grid_detect(f, &g, err, sizeof(err)) != 0);
		CHECK(strstr(err, "connected") != NULL);
		dqr_fabric_free(f);
	}
	/* a triangle with a tail: no grid */
	{
		struct dqr_fabric *f = text_fabric(
			"Switch 3 \"a\"\n[1] \"b\"[1]\n[2] \"c\"[1]\n"
			"[3] \"d\"[1]\n"
			"Switch 2 \"b\"\n[1] \"a\"[1]\n[2] \"c\"[2]\n"
			"Switch 2 \"c\"\n[1] \"a\"[2]\n[2] \"b\"[2]\n"
			"Switch 1 \"d\"\n[1] \"a\"[3]\n");
		struct dqr_grid *g = NULL;
		char err[256] = "";

		REQUIRE(f);
		CHECK(dqr_grid_detect(f, &g, err, sizeof(err)) != 0);
		CHECK(err[0] != 0);
		dqr_fabric_free(f);
	}
}

static void test_large(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric("mesh:100x100,cas=0", &s, NULL);
	struct dqr_grid *g;

	REQUIRE(f);
	g = expect(f, DQR_GRID_MESH, "100x100", "mesh:100x100");
	dqr_grid_free(g);
	dqr_fabric_free(f);
	f = gen_fabric("torus:22x22x22,cas=0", &s, NULL);
	REQUIRE(f);
	g = expect(f, DQR_GRID_TORUS, "22x22x22", "torus:22x22x22");
	dqr_grid_free(g);
	dqr_fabric_free(f);
}

int main(void)
{
	test_intact();
	test_degraded();
	test_mixed();
	test_rejected();
	test_large();
	return unit_finish();
}
