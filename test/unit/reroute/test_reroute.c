/*
 * test_reroute.c - DQR on rings routed as a line: a cut link is bridged
 * through the wrap link, only disconnected entries change, old and new routes
 * fit one channel list, recovery restores the tables, and a route that
 * no legal order admits is counted as failed.  On a mesh routed up and
 * down from a corner, the turns packets in flight take through old and
 * new entries are in the list unless counted as refused.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "fabric/relay.h"
#include "fabric/topo_gen.h"
#include "reroute/reroute.h"
#include "routes/route_walk.h"
#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

/* line.t: the routes before the cut; t: the tables being repaired */
struct world {
	struct ring line;
	struct dqr_lfts *t;
	struct dqr_dyn_order *cl;
	struct dqr_reroute *rr;
	struct dqr_reroute_opts o;
	struct dqr_reroute_stats st;
};

static void world_init(struct world *w, unsigned n)
{
	memset(w, 0, sizeof(*w));
	REQUIRE(ring_open(&w->line, n, ring_as_line) == 0);
	w->t = dqr_lfts_clone(w->line.t);
	REQUIRE(dyn_order_of_tables(w->line.f, w->line.t, &w->cl, NULL) == 0);
	REQUIRE(w->cl);
	w->rr = dqr_reroute_new(w->line.f);
	REQUIRE(w->rr);
}

/* One run of the repair over lids (all LIDs when NULL): its result. */
static int world_run(struct world *w, const uint32_t *lids, uint32_t n)
{
	return dqr_reroute_run(w->rr, w->line.f, w->t, w->cl, &w->o, lids, n,
			       &w->st);
}

/* A fresh channel list from the dependencies of t alone. */
static void world_reset_list(struct world *w, const struct dqr_lfts *t)
{
	struct dqr_dyn_order *d;

	REQUIRE(dyn_order_of_tables(w->line.f, t, &d, NULL) == 0);
	dqr_dyn_free(w->cl);
	w->cl = d;
	REQUIRE(w->cl);
}

static void world_free(struct world *w)
{
	dqr_reroute_free(w->rr);
	dqr_dyn_free(w->cl);
	dqr_lfts_free(w->t);
	ring_close(&w->line);
}

/* Every dependency of t on the current cabling points up in the list. */
static int list_covers(struct world *w, const struct dqr_lfts *t)
{
	struct dqr_cdg *g = dqr_cdg_build(w->line.f, t);
	int ok = g && dqr_cl_covers(w->cl, g);

	dqr_cdg_free(g);
	return ok;
}

/* The (switch, LID) entries whose route fails on the current cabling. */
static uint8_t *broken_map(struct world *w, const struct dqr_lfts *t)
{
	uint8_t *b = calloc((size_t)w->line.f->num_switches * t->lid_count, 1);
	struct dqr_walk_state st[16];
	uint32_t stack[16], lid, sw;

	for (lid = 1; lid < t->lid_count; lid++) {
		dqr_walk_dlid(w->line.f, t, lid, st, stack);
		for (sw = 0; sw < w->line.f->num_switches; sw++)
			b[sw * t->lid_count + lid] =
				st[sw].result != DQR_WALK_OK;
	}
	return b;
}

static void test_cut_and_recover(int mode, int turns)
{
	struct world w;
	struct dqr_verify_report r;
	uint32_t cut[2], *lids, sw, lid, bad = 0;
	uint8_t *broken;
	int64_t n;

	world_init(&w, 6);
	w.o.mode = mode;
	w.o.turns = turns;
	/* cut switch 2 <-> switch 3 */
	cut[0] = dqr_port_index(w.line.f, 2, 1);
	cut[1] = dqr_port_index(w.line.f, 3, 2);
	n = dqr_lids_through_ports(w.line.f, w.t, cut, 2, &lids);
	/* right of 2: sw3..5 and their CAs; left of 3: sw0..2, CAs */
	CHECK_EQ(n, 12);
	dqr_fabric_unlink_port(w.line.f, cut[0]);
	broken = broken_map(&w, w.t);

	CHECK_EQ(world_run(&w, lids, (uint32_t)n), 0);
	CHECK_EQ(w.st.failed, 0);
	CHECK_EQ(w.st.unreachable, 0);
	CHECK(w.st.disconnected > 0);
	CHECK(w.st.changed > 0 && w.st.changed <= w.st.disconnected);
	CHECK(w.st.turns > 0);
	/* only entries whose route broke were written */
	for (sw = 0; sw < w.line.n; sw++)
		for (lid = 1; lid < w.t->lid_count; lid++)
			if (dqr_lft_get(w.t, sw, lid) !=
			    dqr_lft_get(w.line.t, sw, lid) &&
			    !broken[sw * w.t->lid_count + lid])
				bad++;
	CHECK_EQ(bad, 0);
	free(broken);
	REQUIRE(dqr_verify(w.line.f, w.t, &r, NULL) == 0);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK_EQ(dqr_report_unreachable(&r), 0);
	dqr_verify_report_free(&r);
	/* old and new routes together: one channel list */
	CHECK(list_covers(&w, w.t));
	CHECK(list_covers(&w, w.line.t));
	CHECK(dqr_dyn_valid(w.cl));
	free(lids);

	/*
	 * The link comes back.  On a ring the detour and the original
	 * routes together go all the way round: the revived channel cannot
	 * rejoin this list: the run says so ...
	 */
	CHECK_EQ(dqr_fabric_link(w.line.f, 2, 1, 3, 2), 0);
	{
		const struct dqr_lfts *both[2] = { w.t, w.line.t };
		struct dqr_cdg *g;
		int ret = dqr_channel_list_of_tables(w.line.f, both, 2, NULL,
						     NULL, &g);

		REQUIRE(g);
		CHECK_EQ(ret, 1);
		dqr_cdg_free(g);
	}
	memcpy(w.t->port, w.line.t->port,
	       (size_t)w.t->num_switches * w.t->lid_count);
	CHECK_EQ(world_run(&w, NULL, 0), 0);
	CHECK(dqr_dyn_is_retired(w.cl, cut[0]));
	CHECK_EQ(w.st.revive_refused, 2);
	/* ... and a list built afresh from the original routes takes it */
	world_reset_list(&w, w.line.t);
	memcpy(w.t->port, w.line.t->port,
	       (size_t)w.t->num_switches * w.t->lid_count);
	CHECK_EQ(world_run(&w, NULL, 0), 0);
	CHECK_EQ(w.st.disconnected, 0);
	CHECK_EQ(w.st.changed, 0);
	CHECK(!memcmp(w.t->port, w.line.t->port,
		      (size_t)w.t->num_switches * w.t->lid_count));
	CHECK(!dqr_dyn_is_retired(w.cl, cut[0]));
	CHECK(list_covers(&w, w.line.t));
	world_free(&w);
}

/*
 * A list that cannot grow is out of memory, not a refusal: the run fails
 * (-1) instead of leaving entries failed as if no legal route existed.
 * The pool of added edges is made full by hand (dyn_order.c stops it
 * below UINT32_MAX), so no allocation has to fail.
 */
static void test_list_full(void)
{
	struct world w;
	uint32_t cut[2], *lids, added, cap;
	int64_t n;

	world_init(&w, 6);
	cut[0] = dqr_port_index(w.line.f, 2, 1);
	cut[1] = dqr_port_index(w.line.f, 3, 2);
	n = dqr_lids_through_ports(w.line.f, w.t, cut, 2, &lids);
	REQUIRE(n > 0);
	dqr_fabric_unlink_port(w.line.f, cut[0]);
	added = w.cl->num_added;
	cap = w.cl->cap_added;
	w.cl->num_added = w.cl->cap_added = UINT32_MAX;
	CHECK_EQ(world_run(&w, lids, (uint32_t)n), -1);
	CHECK_EQ(w.st.refused, 0);
	w.cl->num_added = added;
	w.cl->cap_added = cap;
	free(lids);
	world_free(&w);
}

/* A turn the list already forbids leaves the crossing routes failed. */
static void test_no_legal_route(void)
{
	struct world w;
	uint32_t wrap_03, left_32, left_21, cut;

	world_init(&w, 4);
	/* 0 -> 3 over the wrap */
	wrap_03 = dqr_port_index(w.line.f, 0, 2);
	left_32 = dqr_port_index(w.line.f, 3, 2);	/* 3 -> 2 */
	left_21 = dqr_port_index(w.line.f, 2, 2);	/* 2 -> 1 */
	/* forbid going on from the wrap link: 3->2 before 0->3 */
	REQUIRE(dqr_dyn_add(w.cl, left_32, wrap_03) >= 0);
	/* and arriving at 3's CA over the wrap: 3->CA before 0->3 */
	REQUIRE(dqr_dyn_add(w.cl, dqr_port_index(w.line.f, 3, 3),
			    wrap_03) >= 0);
	(void)left_21;
	cut = dqr_port_index(w.line.f, 1, 1);	/* cut 1 -> 2 */
	dqr_fabric_unlink_port(w.line.f, cut);
	CHECK_EQ(world_run(&w, NULL, 0), 0);
	CHECK(w.st.failed > 0);
	CHECK_EQ(w.st.holes, 0);
	CHECK_EQ(w.st.unreachable, 0);
	CHECK(w.st.refused > 0);
	/* what was committed still fits the list, and so do the tables:
	 * entries left without a route are dropped, not kept pointing
	 * into a re-attached switch */
	CHECK(dqr_dyn_valid(w.cl));
	CHECK(list_covers(&w, w.t));
	CHECK(w.st.changed >= w.st.failed);
	world_free(&w);
}

/* Entries that never had a route and find none are holes, not failures. */
static void test_holes_left(void)
{
	struct world w;
	uint32_t wrap_03, lid;

	world_init(&w, 4);
	wrap_03 = dqr_port_index(w.line.f, 0, 2);
	REQUIRE(dqr_dyn_add(w.cl, dqr_port_index(w.line.f, 3, 2),
			    wrap_03) >= 0);
	REQUIRE(dqr_dyn_add(w.cl, dqr_port_index(w.line.f, 3, 3),
			    wrap_03) >= 0);
	dqr_fabric_unlink_port(w.line.f, dqr_port_index(w.line.f, 1, 1));
	/* switch 1 never had a route to the right side */
	for (lid = 1; lid < w.t->lid_count; lid++)
		if (dqr_lft_get(w.t, 1, lid) == 1)
			dqr_lft_set(w.t, 1, lid, DQR_NO_PATH);
	CHECK_EQ(world_run(&w, NULL, 0), 0);
	CHECK(w.st.holes > 0);
	CHECK(w.st.failed > 0);	/* switch 0 had a route through 1 */
	world_free(&w);
}

/* Cutting the ring twice splits it: the far side is disconnected. */
static void test_disconnected(void)
{
	struct world w;
	struct dqr_verify_report r;

	world_init(&w, 6);
	dqr_fabric_unlink_port(w.line.f, dqr_port_index(w.line.f, 1, 1));
	dqr_fabric_unlink_port(w.line.f, dqr_port_index(w.line.f, 4, 1));
	CHECK_EQ(world_run(&w, NULL, 0), 0);
	CHECK_EQ(w.st.failed, 0);
	CHECK(w.st.unreachable > 0);
	REQUIRE(dqr_verify(w.line.f, w.t, &r, NULL) == 0);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK(r.disconnected[DQR_PAIR_CA_CA] > 0);
	dqr_verify_report_free(&r);
	CHECK(list_covers(&w, w.t));
	world_free(&w);
}

/* The unrouted entries of a base engine are filled the same way. */
static void test_fill_holes(void)
{
	struct world w;
	struct dqr_verify_report r;
	uint32_t *lids, sw, lid, bad = 0;
	uint8_t *broken;
	int64_t n;

	world_init(&w, 5);
	/* switch-to-switch entries left unrouted, as OpenSM's ftree does */
	for (sw = 0; sw < w.line.n; sw++)
		dqr_lft_set(w.t, sw, (sw + 2) % w.line.n + 1, DQR_NO_PATH);
	n = dqr_lids_with_holes(w.line.f, w.t, &lids);
	CHECK_EQ(n, 5);
	broken = broken_map(&w, w.t);
	CHECK_EQ(world_run(&w, lids, (uint32_t)n), 0);
	CHECK_EQ(w.st.failed, 0);
	/* the holes, and upstream switches a shorter way round saves a hop */
	CHECK(w.st.changed >= 5 && w.st.changed <= w.st.disconnected);
	for (sw = 0; sw < w.line.n; sw++) {
		CHECK(dqr_lft_get(w.t, sw, (sw + 2) % w.line.n + 1) !=
		      DQR_NO_PATH);
		for (lid = 1; lid < w.t->lid_count; lid++)
			bad += dqr_lft_get(w.t, sw, lid) !=
			       dqr_lft_get(w.line.t, sw, lid) &&
			       dqr_lft_get(w.line.t, sw, lid) != 0 &&
			       !broken[sw * w.t->lid_count + lid];
	}
	CHECK_EQ(bad, 0);
	free(broken);
	REQUIRE(dqr_verify(w.line.f, w.t, &r, NULL) == 0);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	dqr_verify_report_free(&r);
	CHECK(list_covers(&w, w.t));
	free(lids);
	world_free(&w);
}

/* One side of test_ports_as_whole(): its tables, list and context. */
struct side {
	struct dqr_lfts *t;
	struct dqr_dyn_order *cl;
	struct dqr_reroute *rr;
	struct dqr_reroute_stats st;
};

static void side_init(struct side *s, const struct dqr_fabric *f,
		      const struct dqr_lfts *t)
{
	s->t = dqr_lfts_clone(t);
	REQUIRE(s->t && dyn_order_of_tables(f, t, &s->cl, NULL) == 0);
	s->rr = dqr_reroute_new(f);
	REQUIRE(s->cl && s->rr);
}

static void side_free(struct side *s)
{
	dqr_reroute_free(s->rr);
	dqr_dyn_free(s->cl);
	dqr_lfts_free(s->t);
}

/*
 * Bringing the list in line at the cut ports only (dqr_reroute_run_ports)
 * gives what the whole scan gives: the same tables, figures and list,
 * cut after cut, on a fat tree whose reroutes need U-turns and refuse
 * some.  The list is the one both scans leave retired channels in.
 */
static void test_ports_as_whole(int turns)
{
	struct dqr_reroute_opts o = { .turns = turns };
	struct dqr_gen_spec spec;
	struct dqr_fabric *f;
	struct dqr_lfts *t0;
	struct side a, b;
	uint32_t ends[32], ne = 0, cut, *lids, step, tried = 0;
	uint64_t rng = 0x9e3779b97f4a7c15ull, busy = 0;
	char err[128];
	int64_t n;

	REQUIRE(dqr_gen_parse("kary:4,3", &spec, err, sizeof(err)) == 0);
	f = dqr_gen_build(&spec, err, sizeof(err));
	REQUIRE(f && dqr_ref_route(f, &spec, NULL, DQR_REF_AUTO, &t0, err,
				   sizeof(err)) == 0);
	side_init(&a, f, t0);
	side_init(&b, f, t0);
	for (step = 0; step < 12 && tried < 10000; tried++) {
		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		cut = (uint32_t)(rng % f->num_ports);
		/* switch links, and every fourth a CA's */
		if (!f->ports[cut].num || dqr_peer_port(f, cut) == DQR_NONE ||
		    !dqr_is_switch(f, f->ports[cut].node) ||
		    (step % 4 != 3) !=
		    (dqr_peer_switch(f, cut) != DQR_NONE))
			continue;
		ends[ne++] = cut;
		ends[ne++] = dqr_peer_port(f, cut);
		n = dqr_lids_through_ports(f, a.t, &ends[ne - 2], 2, &lids);
		REQUIRE(n >= 0);
		dqr_fabric_unlink_port(f, cut);
		CHECK_EQ(dqr_reroute_run(a.rr, f, a.t, a.cl, &o, lids,
					 (uint32_t)n, &a.st), 0);
		CHECK_EQ(dqr_reroute_run_ports(b.rr, f, b.t, b.cl, &o, ends,
					       ne, lids, (uint32_t)n, &b.st),
			 0);
		free(lids);
		a.st.us = b.st.us = 0;
		CHECK(!memcmp(&a.st, &b.st, sizeof(a.st)));
		CHECK(!memcmp(a.t->port, b.t->port,
			      (size_t)a.t->num_switches * a.t->lid_count));
		CHECK(!memcmp(a.cl->pos, b.cl->pos,
			      sizeof(uint32_t) * a.cl->num_vertices));
		CHECK(!memcmp(a.cl->retired, b.cl->retired,
			      a.cl->num_vertices));
		CHECK_EQ(a.cl->num_added, b.cl->num_added);
		busy += a.st.turns + a.st.refused;
		step++;
	}
	CHECK_EQ(step, 12);
	/* cuts that needed no new turn, nor refused one, tested little */
	CHECK(busy > 0);
	side_free(&a);
	side_free(&b);
	dqr_lfts_free(t0);
	dqr_fabric_free(f);
}

/*
 * The turns of packets in flight that after (from before) leaves out of
 * cl: at a switch whose entry changed, from each neighbour whose old
 * entry led there into the new channel, and from the new channel into
 * the next switch's old one where that changed too.  *seen counts them
 * all.
 */
static uint32_t flight_missing(const struct dqr_fabric *f,
			       const struct dqr_lfts *before,
			       const struct dqr_lfts *after,
			       const struct dqr_dyn_order *cl, uint32_t *seen)
{
	uint32_t sw, lid, y, in, out, z, old, n, k, missing = 0;
	uint32_t a[DQR_MAX_PORTS + 1], b[DQR_MAX_PORTS + 1];
	unsigned p;

	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 1; lid < after->lid_count; lid++) {
			uint32_t node = f->switches[sw];

			if (dqr_lft_get(after, sw, lid) ==
			    dqr_lft_get(before, sw, lid))
				continue;
			out = dqr_out_channel(f, sw,
					      dqr_lft_get(after, sw, lid));
			if (out == DQR_NONE)
				continue;
			n = 0;
			dqr_for_each_linked_port(f, node, p) {
				k = dqr_port_index(f, node, p);
				in = dqr_peer_port(f, k);
				y = dqr_peer_switch(f, k);
				if (y == DQR_NONE || !dqr_relays(f, in, out) ||
				    dqr_out_channel(f, y, dqr_lft_get(
					    before, y, lid)) != in)
					continue;
				a[n] = in;
				b[n++] = out;
			}
			z = dqr_peer_switch(f, out);
			old = z == DQR_NONE ? DQR_NONE :
			      dqr_out_channel(f, z, dqr_lft_get(before, z,
								lid));
			if (old != DQR_NONE && dqr_relays(f, out, old) &&
			    dqr_lft_get(after, z, lid) !=
			    dqr_lft_get(before, z, lid)) {
				a[n] = out;
				b[n++] = old;
			}
			*seen += n;
			for (k = 0; k < n; k++)
				missing += !dqr_dyn_has_edge(cl, a[k], b[k]);
		}
	return missing;
}

/*
 * Every single cable fault of a 4x4 mesh routed up and down from a
 * corner: the list the reroute leaves holds every turn of packets in
 * flight but those it counts as pointing down (the plan's proof then
 * reorders for them or waits a drain).
 */
static void test_flight_turns(void)
{
	struct gen_world w;
	uint32_t i, seen = 0, down = 0, missing;

	gen_world_open(&w, "mesh:4x4", DQR_REF_UPDN_MESH);
	for (i = 0; i < w.num_links; i++) {
		struct dqr_fabric *p = cut_cables(w.f, &w.links[i], 1, NULL);
		struct dqr_lfts *t = dqr_lfts_clone(w.t);
		struct dqr_dyn_order *cl;
		struct dqr_reroute_opts o;
		struct dqr_reroute_stats st;
		struct dqr_reroute *rr = dqr_reroute_new(p);

		memset(&o, 0, sizeof(o));
		REQUIRE(t && rr);
		REQUIRE(dyn_order_of_tables(w.f, w.t, &cl, NULL) == 0 && cl);
		CHECK_EQ(dqr_reroute_run(rr, p, t, cl, &o, NULL, 0, &st), 0);
		CHECK(dqr_dyn_valid(cl));
		missing = flight_missing(p, w.t, t, cl, &seen);
		CHECK(missing <= st.flight_down);
		down += st.flight_down;
		dqr_dyn_free(cl);
		dqr_reroute_free(rr);
		dqr_lfts_free(t);
		dqr_fabric_free(p);
	}
	printf("mesh:4x4: %u cable faults, %u turns of packets in flight, "
	       "%u pointing down the list left out\n", w.num_links, seen,
	       down);
	/* faults that made no such turn would test nothing */
	CHECK(seen > down);
	gen_world_close(&w);
}

int main(void)
{
	test_cut_and_recover(DQR_MODE_END_TO_END, DQR_TURNS_EACH);
	test_cut_and_recover(DQR_MODE_END_TO_END, DQR_TURNS_PATH);
	test_cut_and_recover(DQR_MODE_LOCAL, DQR_TURNS_EACH);
	test_cut_and_recover(DQR_MODE_LOCAL, DQR_TURNS_PATH);
	test_list_full();
	test_no_legal_route();
	test_holes_left();
	test_disconnected();
	test_fill_holes();
	test_ports_as_whole(DQR_TURNS_EACH);
	test_ports_as_whole(DQR_TURNS_PATH);
	test_flight_turns();
	return unit_finish();
}
