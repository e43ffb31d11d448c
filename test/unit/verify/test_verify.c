/*
 * test_verify.c - the verifier's pair counts, hops, failures and cycles.
 */
#include <stdlib.h>

#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

#define N 4

static void test_clockwise(void)
{
	struct ring ring;
	struct dqr_verify_report r;

	REQUIRE(ring_open(&ring, N, ring_clockwise) == 0);
	REQUIRE(dqr_verify(ring.f, ring.t, &r, NULL) == 0);
	CHECK_EQ(r.switches, N);
	CHECK_EQ(r.end_ports, N);
	CHECK_EQ(r.lids, 2 * N);
	CHECK_EQ(r.pairs[DQR_PAIR_CA_CA], N * (N - 1));
	CHECK_EQ(r.pairs[DQR_PAIR_CA_SW], N * N);
	CHECK_EQ(r.pairs[DQR_PAIR_SW_CA], N * N);
	CHECK_EQ(r.pairs[DQR_PAIR_SW_SW], N * (N - 1));
	CHECK_EQ(dqr_report_unreachable(&r), 0);
	CHECK_EQ(r.hops_min, 1);
	CHECK_EQ(r.hops_max, 5);
	/* (24 + 48 + 40 + 40) hops over 56 pairs */
	CHECK(r.hops_mean > 152.0 / 56 - 1e-9 &&
	      r.hops_mean < 152.0 / 56 + 1e-9);
	CHECK_EQ(r.cycle_found, 1);
	CHECK_EQ(r.cycle.len, N);
	CHECK(!dqr_verify_ok(&r, DQR_PAIRS_ALL));
	dqr_verify_report_free(&r);
	ring_close(&ring);
}

static void test_line_and_faults(void)
{
	struct ring ring;
	struct dqr_verify_report r;
	struct dqr_channel_list cl = { 0 };

	REQUIRE(ring_open(&ring, N, ring_as_line) == 0);
	REQUIRE(dqr_verify(ring.f, ring.t, &r, &cl) == 0);
	CHECK_EQ(r.cycle_found, 0);
	CHECK(cl.order != NULL);
	CHECK_EQ(cl.len, r.channels);
	CHECK_EQ(r.channels, 4 * N);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	dqr_channel_list_free(&cl);
	dqr_verify_report_free(&r);

	/* cut 1-2: the line breaks, but the ring still connects everything */
	dqr_fabric_unlink_port(ring.f, dqr_port_index(ring.f, 1, 1));
	REQUIRE(dqr_verify(ring.f, ring.t, &r, NULL) == 0);
	/* CA 0, CA 1 to CA 2, CA 3 and back */
	CHECK_EQ(r.unreachable[DQR_PAIR_CA_CA], 8);
	CHECK_EQ(r.disconnected[DQR_PAIR_CA_CA], 0);
	CHECK_EQ(r.unreachable[DQR_PAIR_SW_SW], 8);
	CHECK_EQ(r.by_result[DQR_WALK_DEAD_PORT], dqr_report_unreachable(&r));
	/* switch 1 names the dead port for 4 LIDs, switch 2 for 4 */
	CHECK_EQ(r.dead_port_entries, 8);
	CHECK(r.num_examples > 0);
	CHECK(!dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK(!dqr_verify_ok(&r, DQR_PAIRS_CA));
	dqr_verify_report_free(&r);

	/* cut the wrap link too: now the halves are physically apart */
	dqr_fabric_unlink_port(ring.f, dqr_port_index(ring.f, 3, 1));
	REQUIRE(dqr_verify(ring.f, ring.t, &r, NULL) == 0);
	CHECK_EQ(r.unreachable[DQR_PAIR_CA_CA], 8);
	CHECK_EQ(r.disconnected[DQR_PAIR_CA_CA], 8);
	CHECK_EQ(r.dead_port_entries, 0);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	dqr_verify_report_free(&r);
	ring_close(&ring);
}

/*
 * One entry of a ring's tables changed towards CA 3's LID, and what the
 * verifier makes of it: entries and walks that loop, the pairs cut off,
 * whether the dependencies are cyclic.
 */
struct loop_case {
	const char *what;
	struct dqr_lfts *(*route)(const struct dqr_fabric *, unsigned);
	unsigned sw, port;
	uint64_t loop_entries, loop_walks, ca_ca, sw_ca;
	int cycle;
};

static const struct loop_case loop_cases[] = {
	/*
	 * A switch that sends a packet back out of the port it came in on
	 * drops it (PortRcvSwitchRelayErrors): the pairs are cut off, yet
	 * no packet waits on another, so there is no credit loop.  Switch 1
	 * bounces CA 3's LID back to switch 0; the sources at switches 0
	 * and 1 (CA0, CA1, sw0, sw1) loop.
	 */
	{ .what = "bounce", .route = ring_as_line, .sw = 1, .port = 2,
	  .loop_entries = 2, .loop_walks = 4, .ca_ca = 2, .sw_ca = 2,
	  .cycle = 0 },
	/*
	 * A loop through three switches or more is a loop and a credit
	 * loop: CA 3's own switch sends its LID on round the ring; every
	 * source but CA 3 itself loops.
	 */
	{ .what = "loop", .route = ring_clockwise, .sw = 3, .port = 1,
	  .loop_entries = N, .loop_walks = 2 * N - 1, .ca_ca = N - 1,
	  .sw_ca = N, .cycle = 1 },
};

static void test_loop_entries(void)
{
	const struct loop_case *c;
	struct ring ring;
	struct dqr_verify_report r;
	unsigned before;
	size_t i;

	for (i = 0; i < sizeof(loop_cases) / sizeof(loop_cases[0]); i++) {
		c = &loop_cases[i];
		before = unit_failed;
		REQUIRE(ring_open(&ring, N, c->route) == 0);
		dqr_lft_set(ring.t, c->sw, N + 4, c->port);
		REQUIRE(dqr_verify(ring.f, ring.t, &r, NULL) == 0);
		CHECK_EQ(r.loop_entries, c->loop_entries);
		CHECK_EQ(r.by_result[DQR_WALK_LOOP], c->loop_walks);
		CHECK_EQ(r.unreachable[DQR_PAIR_CA_CA], c->ca_ca);
		CHECK_EQ(r.unreachable[DQR_PAIR_SW_CA], c->sw_ca);
		CHECK_EQ(r.cycle_found, c->cycle);
		CHECK(!dqr_verify_ok(&r, DQR_PAIRS_CA));
		if (unit_failed != before)
			fprintf(stderr, "in the %s case\n", c->what);
		dqr_verify_report_free(&r);
		ring_close(&ring);
	}
}

int main(void)
{
	test_clockwise();
	test_line_and_faults();
	test_loop_entries();
	return unit_finish();
}
