/*
 * test_wrap_bias.c - wrap cables as the reroute's last resort on a torus
 * routed as its mesh by up*\/down*: the ports over a wrap cable are the
 * ones marked; with the preference every single cable fault of the mesh
 * is repaired, none over a wrap cable (the mesh's own cables hold a legal
 * route), while without it some repairs do take one; a mesh and a torus
 * with no ring of three get none.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "recon/recon.h"
#include "mesh/wrap_bias.h"
#include "routing/grid_route.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

/* 1 when the cable at port joins a ring's two ends. */
static int is_wrap(const struct dqr_fabric *f, const struct dqr_grid *g,
		   uint32_t port)
{
	uint32_t a = f->nodes[f->ports[port].node].sw_index;
	uint32_t b = dqr_peer_switch(f, port);

	return g->kind == DQR_GRID_TORUS &&
	       dqr_gen_wrap_between(&g->place[a], &g->place[b], g->ndims);
}

/* Entries of t on f whose switch sends over a wrap cable. */
static uint64_t wrap_entries(const struct dqr_fabric *f,
			     const struct dqr_grid *g,
			     const struct dqr_lfts *t)
{
	uint32_t sw, lid, ch;
	uint64_t n = 0;

	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 1; lid < t->lid_count; lid++) {
			ch = dqr_next_channel(f, t, sw, lid);
			n += ch != DQR_NONE && dqr_peer_switch(f, ch) !=
			     DQR_NONE && is_wrap(f, g, ch);
		}
	return n;
}

static void test_ports(const char *spec, uint32_t want)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric(spec, &s, &pl);
	struct dqr_wrap_bias *wb;
	struct dqr_grid *g;
	uint32_t sw, i, marked = 0, wraps = 0;
	unsigned p;
	char err[256];

	REQUIRE(f);
	REQUIRE(dqr_grid_detect(f, &g, err, sizeof(err)) == 0);
	REQUIRE(dqr_wrap_bias_new(f, g, &wb) == 0);
	for (sw = 0; sw < f->num_switches; sw++)
		dqr_for_each_linked_port(f, f->switches[sw], p) {
			i = dqr_port_index(f, f->switches[sw], p);
			if (dqr_peer_switch(f, i) == DQR_NONE)
				continue;
			wraps += is_wrap(f, g, i);
			marked += wb && dqr_wrap_bias(wb, f, NULL, sw, i, 1);
			CHECK_EQ(wb ? !!dqr_wrap_bias(wb, f, NULL, sw, i, 1) :
				 0, wb ? is_wrap(f, g, i) : 0);
		}
	printf("%s: %u ports over wrap cables, %u marked\n", spec, wraps,
	       marked);
	CHECK_EQ(dqr_wrap_bias_ports(wb), want);
	CHECK_EQ(marked, want);
	if (wb)
		CHECK_EQ(marked, wraps);
	dqr_wrap_bias_free(wb);
	dqr_grid_free(g);
	dqr_fabric_free(f);
	free(pl);
}

/*
 * Every single fault of a mesh cable of the torus, repaired from the
 * up*\/down* tables with the preference or without it: returns the
 * entries sent over wrap cables after the repairs, all faults together.
 */
static uint64_t repairs_over_wraps(const char *spec, int bias)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric(spec, &s, &pl), *proj;
	struct dqr_reroute_opts o;
	struct dqr_recon_result res;
	struct dqr_topo_diff d;
	struct dqr_verify_report v;
	struct dqr_wrap_bias *wb = NULL;
	struct dqr_recon r;
	struct dqr_lfts *t;
	struct dqr_grid *g;
	uint32_t *links, n, i, faults = 0, failed = 0;
	uint64_t over = 0;
	char err[256];
	int code;

	REQUIRE(f);
	REQUIRE(dqr_grid_detect(f, &g, err, sizeof(err)) == 0);
	REQUIRE(dqr_grid_route(f, g, DQR_REF_UPDN_MESH, &t, err,
			       sizeof(err)) == 0);
	CHECK_EQ(wrap_entries(f, g, t), 0);
	memset(&o, 0, sizeof(o));
	if (bias) {
		REQUIRE(dqr_wrap_bias_new(f, g, &wb) == 0 && wb);
		dqr_wrap_bias_opts(wb, &o);
	}
	n = switch_links(f, &links);
	REQUIRE(links);
	for (i = 0; i < n; i++) {
		if (is_wrap(f, g, links[i]))
			continue;
		faults++;
		REQUIRE(dqr_recon_start(&r, f, t, &o, &res) == DQR_RECON_OK);
		proj = cut_cables(f, &links[i], 1, &d);
		code = dqr_recon_update(&r, proj, &d, &o, &res);
		REQUIRE(code == DQR_RECON_OK || code == DQR_RECON_FAILED);
		failed += code != DQR_RECON_OK;
		REQUIRE(dqr_verify(proj, r.cur, &v, NULL) == 0);
		CHECK(!v.cycle_found);
		if (code == DQR_RECON_OK)
			CHECK(dqr_verify_ok(&v, DQR_PAIRS_ALL));
		dqr_verify_report_free(&v);
		over += wrap_entries(proj, g, r.cur);
		dqr_topo_diff_release(&d);
		dqr_fabric_free(proj);
		dqr_recon_release(&r);
	}
	printf("%s, %s: %u mesh cable faults, %u not repaired, %llu "
	       "entries over wrap cables after the repairs\n", spec,
	       bias ? "wrap cables last" : "no preference", faults, failed,
	       (unsigned long long)over);
	/* the mesh holds a legal route for each: DQR must find it */
	if (bias)
		CHECK_EQ(failed, 0);
	free(links);
	dqr_wrap_bias_free(wb);
	dqr_lfts_free(t);
	dqr_grid_free(g);
	dqr_fabric_free(f);
	free(pl);
	return over;
}

int main(void)
{
	/* rings of 5 in 3 rows, rings of 3 in 5 columns: 8 cables */
	test_ports("torus:5x3", 16);
	test_ports("torus:6x5x3", 2 * (5 * 3 + 6 * 3 + 6 * 5));
	test_ports("mesh:5x3", 0);
	/* a ring of 4 is two dimensions of 2 (grid_shape.h): no wrap */
	test_ports("torus:4x4", 0);

	CHECK_EQ(repairs_over_wraps("torus:6x5", 1), 0);
	CHECK(repairs_over_wraps("torus:6x5", 0) > 0);
	CHECK_EQ(repairs_over_wraps("torus:5x3x3", 1), 0);
	return unit_finish();
}
