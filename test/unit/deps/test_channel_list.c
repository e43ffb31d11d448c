/*
 * test_channel_list.c - dependencies from LFTs, the channel list of an
 * acyclic routing, and the cycle of a cyclic one.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "small_fabrics.h"
#include "unit.h"

/* channel of switch i's port p */
static uint32_t ch(const struct dqr_fabric *f, unsigned i, unsigned p)
{
	return dqr_port_index(f, i, p);
}

/* A ring of n switches, its tables, and what the tables induce. */
struct ring_deps {
	struct ring r;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_cycle cy;
};

static void deps_open(struct ring_deps *d, unsigned n,
		      struct dqr_lfts *(*route)(const struct dqr_fabric *,
						unsigned))
{
	memset(d, 0, sizeof(*d));
	REQUIRE(ring_open(&d->r, n, route) == 0);
}

/* The channel list (or cycle) of d->t; the graph must come out. */
static int deps_list(struct ring_deps *d)
{
	const struct dqr_lfts *ts[1] = { d->r.t };
	int ret = dqr_channel_list_of_tables(d->r.f, ts, 1, &d->cl, &d->cy,
					     &d->g);

	REQUIRE(d->g);
	return ret;
}

static void deps_close(struct ring_deps *d)
{
	dqr_channel_list_free(&d->cl);
	dqr_cycle_free(&d->cy);
	dqr_cdg_free(d->g);
	ring_close(&d->r);
}

/* Each dependency of the cycle is an edge of the graph. */
static void check_cycle_edges(const struct ring_deps *d)
{
	uint32_t i, len = d->cy.len;

	for (i = 0; i < len; i++)
		CHECK(dqr_cdg_has_edge(d->g, d->cy.channels[i],
				       d->cy.channels[(i + 1) % len]));
}

static void test_line_dependencies(void)
{
	struct ring_deps d;
	struct dqr_fabric *f;
	struct dqr_cdg *g;
	uint32_t v, placed = 0;
	int ret;

	deps_open(&d, 4, ring_as_line);
	ret = deps_list(&d);
	f = d.r.f;
	g = d.g;
	/* 4 ring links and 4 CA links, both directions */
	CHECK_EQ(g->num_channels, 16);
	/* going right through switch 1: 0->1 then 1->2 */
	CHECK(dqr_cdg_has_edge(g, ch(f, 0, 1), ch(f, 1, 1)));
	/* arriving at switch 2 for its CA */
	CHECK(dqr_cdg_has_edge(g, ch(f, 1, 1), ch(f, 2, 3)));
	/* CA 0 injecting and turning right */
	CHECK(dqr_cdg_has_edge(g, ring_ca_port(f, d.r.n, 0), ch(f, 0, 1)));
	/* no U-turn back to the CA that sent */
	CHECK(!dqr_cdg_has_edge(g, ring_ca_port(f, d.r.n, 0), ch(f, 0, 3)));
	/* the line never uses the wrap link 3->0 */
	CHECK(!dqr_cdg_has_edge(g, ch(f, 3, 1), ch(f, 0, 1)));
	CHECK(!dqr_cdg_has_edge(g, ch(f, 0, 1), ch(f, 1, 2)));
	/* the reverse edges agree with the forward ones */
	CHECK_EQ(g->pred_off[g->num_vertices], g->num_edges);

	CHECK_EQ(ret, 0);
	CHECK_EQ(d.cl.len, g->num_channels);
	CHECK(dqr_channel_list_valid(&d.cl, g));
	for (v = 0; v < g->num_vertices; v++)
		placed += d.cl.pos[v] != DQR_NONE;
	CHECK_EQ(placed, g->num_channels);
	CHECK_EQ(d.cy.len, 0);

	/* a list with two channels swapped across a dependency is invalid */
	{
		uint32_t a = ch(f, 0, 1), b = ch(f, 1, 1), tmp;

		tmp = d.cl.pos[a];
		d.cl.pos[a] = d.cl.pos[b];
		d.cl.pos[b] = tmp;
		CHECK(!dqr_channel_list_valid(&d.cl, g));
	}
	deps_close(&d);
}

static void test_ring_cycle(void)
{
	struct ring_deps d;
	const struct dqr_lfts *ts[1];
	unsigned i, on_ring = 0;

	deps_open(&d, 5, ring_clockwise);
	CHECK_EQ(deps_list(&d), 1);
	CHECK(d.cl.order == NULL);
	/* the cycle is the n clockwise channels, each depending on the next */
	CHECK_EQ(d.cy.len, d.r.n);
	check_cycle_edges(&d);
	for (i = 0; i < d.cy.len; i++)
		on_ring += d.r.f->ports[d.cy.channels[i]].num == 1;
	CHECK_EQ(on_ring, d.r.n);
	dqr_cycle_free(&d.cy);

	/* without a place for the cycle the builder still says "cyclic" */
	ts[0] = d.r.t;
	CHECK_EQ(dqr_channel_list_of_tables(d.r.f, ts, 1, &d.cl, NULL, NULL),
		 1);
	deps_close(&d);
}

/* Two rings side by side: only the clockwise one is cyclic. */
static void test_cycle_among_acyclic(void)
{
	struct ring_deps d;
	unsigned i;

	deps_open(&d, 6, ring_as_line);
	/* one DLID routed clockwise all the way round closes the ring */
	for (i = 0; i < d.r.n; i++)
		if (i != 2)
			dqr_lft_set(d.r.t, i, d.r.n + 3, 1);
	CHECK_EQ(deps_list(&d), 1);
	CHECK(d.cy.len >= 2);
	check_cycle_edges(&d);
	deps_close(&d);
}

int main(void)
{
	test_line_dependencies();
	test_ring_cycle();
	test_cycle_among_acyclic();
	return unit_finish();
}
