/*
 * test_route_walk.c - outcomes of the per-DLID walk on a 4-switch ring.
 */
#include <stdlib.h>

#include "routes/route_walk.h"
#include "small_fabrics.h"
#include "unit.h"

#define N 4

static struct dqr_walk_state st[N];
static uint32_t stack[N];

static void test_clockwise_hops(void)
{
	struct dqr_fabric *f = ring_fabric(N);
	struct dqr_lfts *t;
	unsigned i, j;

	REQUIRE(f);
	t = ring_clockwise(f, N);
	for (j = 0; j < N; j++) {
		/* switch j's own LID and its CA's LID */
		dqr_walk_dlid(f, t, j + 1, st, stack);
		for (i = 0; i < N; i++) {
			CHECK_EQ(st[i].result, DQR_WALK_OK);
			CHECK_EQ(st[i].hops, (j + N - i) % N);
			CHECK_EQ(st[i].on_loop, 0);
		}
		dqr_walk_dlid(f, t, N + j + 1, st, stack);
		for (i = 0; i < N; i++)
			CHECK_EQ(st[i].hops, (j + N - i) % N + 1);
	}
	CHECK_EQ(dqr_ingress_switch(f, ring_ca_port(f, N, 2)), 2);
	CHECK_EQ(dqr_ingress_switch(f, dqr_port_index(f, 1, 0)), 1);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* Switch 1's entry toward lid set to port, then the walk toward lid. */
static void walk_with(const struct dqr_fabric *f, struct dqr_lfts *t,
		      unsigned lid, uint8_t port)
{
	dqr_lft_set(t, 1, lid, port);
	dqr_walk_dlid(f, t, lid, st, stack);
}

static void test_failures(void)
{
	struct dqr_fabric *f = ring_fabric(N);
	struct dqr_lfts *t;
	unsigned ca2 = N + 3;	/* LID of the CA at switch 2 */

	REQUIRE(f);
	t = ring_clockwise(f, N);

	/* switch 1 sends back to switch 0, which sends on to 1: a loop */
	walk_with(f, t, ca2, 2);
	CHECK_EQ(st[0].result, DQR_WALK_LOOP);
	CHECK_EQ(st[1].result, DQR_WALK_LOOP);
	CHECK_EQ(st[3].result, DQR_WALK_LOOP);	/* feeds into the loop */
	CHECK_EQ(st[0].on_loop, 1);
	CHECK_EQ(st[1].on_loop, 1);
	CHECK_EQ(st[3].on_loop, 0);
	CHECK_EQ(st[2].result, DQR_WALK_OK);
	CHECK_EQ(st[2].hops, 1);

	/* an unlinked port */
	walk_with(f, t, ca2, 4);
	CHECK_EQ(st[1].result, DQR_WALK_DEAD_PORT);
	CHECK_EQ(st[0].result, DQR_WALK_DEAD_PORT);
	CHECK_EQ(st[0].fail_sw, 1);

	/* beyond the port count */
	walk_with(f, t, ca2, 9);
	CHECK_EQ(st[1].result, DQR_WALK_DEAD_PORT);

	/* no path */
	walk_with(f, t, ca2, DQR_NO_PATH);
	CHECK_EQ(st[1].result, DQR_WALK_NO_PATH);
	CHECK_EQ(st[3].result, DQR_WALK_NO_PATH);
	CHECK_EQ(st[3].fail_sw, 1);

	/* delivered to switch 1's own CA, which does not own the LID */
	walk_with(f, t, ca2, 3);
	CHECK_EQ(st[1].result, DQR_WALK_WRONG_END);
	/* delivered to switch 1 itself */
	walk_with(f, t, ca2, 0);
	CHECK_EQ(st[1].result, DQR_WALK_WRONG_END);

	/* a LID nobody owns never arrives */
	dqr_walk_dlid(f, t, 2 * N + 5, st, stack);
	CHECK_EQ(st[0].result, DQR_WALK_NO_PATH);

	/* a loop through every switch */
	dqr_lft_set(t, 2, ca2, 1);
	walk_with(f, t, ca2, 1);
	CHECK_EQ(st[0].on_loop + st[1].on_loop + st[2].on_loop +
		 st[3].on_loop, N);
	CHECK_EQ(st[2].result, DQR_WALK_LOOP);

	CHECK(dqr_walk_result_name(DQR_WALK_LOOP)[0] == 'l');
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

int main(void)
{
	test_clockwise_hops();
	test_failures();
	return unit_finish();
}
