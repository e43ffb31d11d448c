/*
 * test_plan_withdraw.c - the OSR paper's withdraw-then-install plan
 * (dqr_plan_build_withdraw) takes any change between two deadlock-free
 * routings across in two stages whose unions both hold, ends at the new
 * tables, and marks the install stage for the drain; towards cyclic
 * tables dqr_plan_change() refuses.  (A change no order of single
 * entries bridges: test_transition's unbridgeable case.)
 */
#include <stdlib.h>
#include <string.h>

#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "transition/replay.h"
#include "transition/transition.h"
#include "unit.h"

static int same(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	return a->num_switches == b->num_switches &&
	       a->lid_count == b->lid_count &&
	       !memcmp(a->port, b->port,
		       (size_t)a->num_switches * a->lid_count);
}

/*
 * From one deadlock-free routing of a fabric to another (dimension order
 * or e-cube to up*\/down*): both ends hold, their union need not.
 */
static void one_change(const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric(spec, &s, NULL);
	struct dqr_lfts *from = NULL, *to = NULL, *end = NULL;
	struct dqr_plan_report rep, wrep;
	struct dqr_replay_report rr;
	struct dqr_plan p, w;
	char err[256];
	uint32_t k;

	REQUIRE(f);
	REQUIRE(!dqr_ref_route(f, &s, NULL, DQR_REF_AUTO, &from, err,
			       sizeof(err)));
	REQUIRE(!dqr_ref_route(f, &s, NULL, DQR_REF_UPDN, &to, err,
			       sizeof(err)));
	dqr_plan_init(&p);
	dqr_plan_init(&w);
	REQUIRE(!dqr_plan_build(f, from, to, &p, &rep));
	CHECK(rep.old_ok && rep.new_ok);

	REQUIRE(!dqr_plan_build_withdraw(f, from, to, &w, &wrep));
	CHECK_EQ(wrep.entries, rep.entries);
	CHECK(wrep.safe);
	CHECK_EQ(w.num_stages, 2);
	CHECK_EQ(w.stage_drain[0], 0);
	CHECK_EQ(w.stage_drain[1], DQR_DRAIN_WITHDRAW);
	/* stage 1 only withdraws */
	for (k = w.stage_off[0]; k < w.stage_off[1]; k++)
		CHECK_EQ(w.entries[k].new_port, DQR_NO_PATH);
	REQUIRE(!dqr_plan_replay(f, from, &w, &end, &rr));
	CHECK(dqr_replay_ok(&rr));
	CHECK_EQ(rr.bad_stages, 0);
	CHECK(end && same(end, to));
	fprintf(stderr, "%s: %u entries, planner %s in %u stages; "
		"withdraw %u then install %u\n", spec, rep.entries,
		rep.safe ? "safe" : "NOT safe", rep.stages, wrep.withdrawn,
		w.stage_off[2] - w.stage_off[1]);
	dqr_replay_report_release(&rr);
	dqr_lfts_free(end);
	dqr_plan_release(&p);
	dqr_plan_release(&w);
	dqr_lfts_free(from);
	dqr_lfts_free(to);
	dqr_fabric_free(f);
}

/*
 * Towards tables that are cyclic themselves (a ring sent clockwise) no
 * plan is safe: dqr_plan_change() says so and withdraws nothing.
 */
static void test_cyclic_target(void)
{
	struct ring rg;
	struct dqr_lfts *to;
	struct dqr_plan_report rep;
	struct dqr_plan w;

	REQUIRE(!ring_open(&rg, 4, ring_as_line));
	to = ring_clockwise(rg.f, 4);
	REQUIRE(to);
	dqr_plan_init(&w);
	REQUIRE(!dqr_plan_change(rg.f, rg.t, to, NULL, 1, &w, &rep));
	CHECK(!rep.safe);
	CHECK(!rep.new_ok);
	CHECK_EQ(rep.withdrawn, 0);
	dqr_plan_release(&w);
	dqr_lfts_free(to);
	ring_close(&rg);
}

/* Nothing changes: an empty plan. */
static void test_no_change(void)
{
	struct ring rg;
	struct dqr_plan_report rep;
	struct dqr_plan w;

	REQUIRE(!ring_open(&rg, 4, ring_as_line));
	dqr_plan_init(&w);
	REQUIRE(!dqr_plan_build_withdraw(rg.f, rg.t, rg.t, &w, &rep));
	CHECK_EQ(w.num_stages, 0);
	CHECK_EQ(rep.entries, 0);
	dqr_plan_release(&w);
	ring_close(&rg);
}

int main(void)
{
	static const char *const specs[] = {
		"mesh:3x3", "mesh:4x4", "hypercube:3", "kary:2,3",
	};
	uint32_t k;

	test_no_change();
	test_cyclic_target();
	for (k = 0; k < sizeof(specs) / sizeof(specs[0]); k++)
		one_change(specs[k]);
	return unit_finish();
}
