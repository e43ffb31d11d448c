/*
 * test_channel_list.c - dependencies from LFTs, the channel list of an
 * acyclic routing, and the cycle of a cyclic one.
 */
#include <stdlib.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "small_fabrics.h"
#include "unit.h"

/* channel of switch i's port p */
static uint32_t ch(const struct dqr_fabric *f, unsigned i, unsigned p)
{
	return dqr_port_index(f, i, p);
}

static void test_line_dependencies(void)
{
	const unsigned n = 4;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *t;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_cycle cy = { 0 };
	uint32_t v, placed = 0;

	REQUIRE(f);
	t = ring_as_line(f, n);
	g = dqr_cdg_build(f, t);
	REQUIRE(g);
	/* 4 ring links and 4 CA links, both directions */
	CHECK_EQ(g->num_channels, 16);
	/* going right through switch 1: 0->1 then 1->2 */
	CHECK(dqr_cdg_has_edge(g, ch(f, 0, 1), ch(f, 1, 1)));
	/* arriving at switch 2 for its CA */
	CHECK(dqr_cdg_has_edge(g, ch(f, 1, 1), ch(f, 2, 3)));
	/* CA 0 injecting and turning right */
	CHECK(dqr_cdg_has_edge(g, ring_ca_port(f, n, 0), ch(f, 0, 1)));
	/* no U-turn back to the CA that sent */
	CHECK(!dqr_cdg_has_edge(g, ring_ca_port(f, n, 0), ch(f, 0, 3)));
	/* the line never uses the wrap link 3->0 */
	CHECK(!dqr_cdg_has_edge(g, ch(f, 3, 1), ch(f, 0, 1)));
	CHECK(!dqr_cdg_has_edge(g, ch(f, 0, 1), ch(f, 1, 2)));
	/* the reverse edges agree with the forward ones */
	CHECK_EQ(g->pred_off[g->num_vertices], g->num_edges);

	CHECK_EQ(dqr_channel_list_build(f, g, &cl, &cy), 0);
	CHECK_EQ(cl.len, g->num_channels);
	CHECK(dqr_channel_list_valid(&cl, g));
	for (v = 0; v < g->num_vertices; v++)
		placed += cl.pos[v] != DQR_NONE;
	CHECK_EQ(placed, g->num_channels);
	CHECK_EQ(cy.len, 0);

	/* a list with two channels swapped across a dependency is invalid */
	{
		uint32_t a = ch(f, 0, 1), b = ch(f, 1, 1), tmp;

		tmp = cl.pos[a];
		cl.pos[a] = cl.pos[b];
		cl.pos[b] = tmp;
		CHECK(!dqr_channel_list_valid(&cl, g));
	}
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void test_ring_cycle(void)
{
	const unsigned n = 5;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *t;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_cycle cy = { 0 };
	unsigned i, on_ring = 0;

	REQUIRE(f);
	t = ring_clockwise(f, n);
	g = dqr_cdg_build(f, t);
	REQUIRE(g);
	CHECK_EQ(dqr_channel_list_build(f, g, &cl, &cy), 1);
	CHECK(cl.order == NULL);
	/* the cycle is the n clockwise channels, each depending on the next */
	CHECK_EQ(cy.len, n);
	for (i = 0; i < cy.len; i++) {
		CHECK(dqr_cdg_has_edge(g, cy.channels[i],
				       cy.channels[(i + 1) % cy.len]));
		on_ring += f->ports[cy.channels[i]].num == 1;
	}
	CHECK_EQ(on_ring, n);
	dqr_cycle_free(&cy);

	/* without a place for the cycle the builder still says "cyclic" */
	CHECK_EQ(dqr_channel_list_build(f, g, &cl, NULL), 1);
	dqr_cdg_free(g);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* Two rings side by side: only the clockwise one is cyclic. */
static void test_cycle_among_acyclic(void)
{
	const unsigned n = 6;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *t;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_cycle cy = { 0 };
	unsigned i;

	REQUIRE(f);
	t = ring_as_line(f, n);
	/* one DLID routed clockwise all the way round closes the ring */
	for (i = 0; i < n; i++)
		if (i != 2)
			dqr_lft_set(t, i, n + 3, 1);
	g = dqr_cdg_build(f, t);
	REQUIRE(g);
	CHECK_EQ(dqr_channel_list_build(f, g, &cl, &cy), 1);
	CHECK(cy.len >= 2);
	for (i = 0; i < cy.len; i++)
		CHECK(dqr_cdg_has_edge(g, cy.channels[i],
				       cy.channels[(i + 1) % cy.len]));
	dqr_cycle_free(&cy);
	dqr_cdg_free(g);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

int main(void)
{
	test_line_dependencies();
	test_ring_cycle();
	test_cycle_among_acyclic();
	return unit_finish();
}
