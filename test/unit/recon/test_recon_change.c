/*
 * test_recon_change.c - what an update of the reconfiguration state
 * names for the operator (struct dqr_recon_change): on a ring, a cable
 * that fails by its switch ends, once; a switch whose every cable goes
 * counts as lost, and its cables as failed; what comes back as back.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "recon/recon.h"
#include "small_fabrics.h"
#include "unit.h"

#define N 8

static int update(struct dqr_recon *r, const struct dqr_fabric *cur)
{
	struct dqr_reroute_opts o = { 0 };
	struct dqr_recon_result res;
	struct dqr_topo_diff d;
	struct dqr_fabric *p = dqr_fabric_project(r->ref, cur, &d);
	int ret;

	REQUIRE(p);
	ret = dqr_recon_update(r, p, &d, &o, &res);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	return ret;
}

/* 1 when ports names the cable between switch ports (a, pa), (b, pb) */
static int names(const struct dqr_fabric *f, const uint32_t *ports,
		 uint32_t n, uint32_t a, unsigned pa, uint32_t b, unsigned pb)
{
	uint32_t x = dqr_port_index(f, a, pa), y = dqr_port_index(f, b, pb);
	uint32_t i;

	for (i = 0; i < n; i++)
		if ((ports[i] == x && dqr_peer_port(f, x) == y) ||
		    (ports[i] == y && dqr_peer_port(f, y) == x))
			return 1;
	return 0;
}

static void test_cable_and_switch(void)
{
	struct dqr_fabric *f = ring_fabric(N), *cur;
	struct dqr_lfts *t;
	struct dqr_recon r;
	struct dqr_recon_result res;
	struct dqr_reroute_opts o = { 0 };
	const struct dqr_recon_change *c = &r.change;

	REQUIRE(f);
	t = ring_as_line(f, N);
	REQUIRE(t);
	CHECK_EQ(dqr_recon_start(&r, f, t, &o, &res), DQR_RECON_OK);
	CHECK_EQ(c->num_links_failed + c->num_lost, 0);

	/* 3-4: two switch ports down, one cable named */
	cur = dqr_fabric_clone(f);
	REQUIRE(cur);
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 3, 1));
	CHECK_EQ(update(&r, cur), DQR_RECON_OK);
	CHECK_EQ(c->num_links_failed, 1);
	CHECK(names(f, c->links_failed, c->num_links_failed, 3, 1, 4, 2));
	CHECK_EQ(c->num_links_returned + c->num_lost + c->num_returned, 0);

	/* every cable of switch 6 (5-6, 6-7, its CA): lost */
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 6, 1));
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 6, 2));
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 6, 3));
	CHECK(update(&r, cur) >= 0);
	CHECK_EQ(c->num_links_failed, 3);
	CHECK(names(f, c->links_failed, c->num_links_failed, 6, 1, 7, 2));
	CHECK(names(f, c->links_failed, c->num_links_failed, 5, 1, 6, 2));
	/* not again: 3-4 was down before */
	CHECK(!names(f, c->links_failed, c->num_links_failed, 3, 1, 4, 2));
	CHECK_EQ(c->num_lost, 1);
	CHECK(c->num_lost == 1 && c->lost[0] == 6);
	CHECK_EQ(c->num_returned, 0);

	/* nothing new: nothing named */
	CHECK(update(&r, cur) >= 0);
	CHECK_EQ(c->num_links_failed + c->num_lost, 0);

	/* switch 6 back on one cable: returned, that cable back */
	CHECK_EQ(dqr_fabric_link(cur, 6, 1, 7, 2), 0);
	CHECK(update(&r, cur) >= 0);
	CHECK_EQ(c->num_links_returned, 1);
	CHECK(names(f, c->links_returned, c->num_links_returned, 6, 1, 7, 2));
	CHECK(c->num_returned == 1 && c->returned[0] == 6);
	CHECK_EQ(c->num_links_failed + c->num_lost, 0);

	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	CHECK(r.change.links_failed == NULL && r.change.num_lost == 0);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

int main(void)
{
	test_cable_and_switch();
	return unit_finish();
}
