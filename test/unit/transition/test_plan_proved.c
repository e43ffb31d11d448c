/*
 * test_plan_proved.c - the plan made and proved against the channel
 * list (dqr_plan_proved): on DQR's reroutes of random single faults it
 * proves most changes, every plan it makes replays with every stage's
 * union loop free and acyclic and ends at the new tables, and its drain
 * flags are never laxer than the slow judgement's; it refuses a loop and
 * a dependency against the order built by hand.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "recon/recon.h"
#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "transition/replay.h"
#include "transition/transition.h"
#include "unit.h"

static uint32_t seed = 7;

static uint32_t rnd(uint32_t n)
{
	seed = seed * 1103515245u + 12345u;
	return (seed >> 8) % n;
}

/* A random switch port with a cable to another switch. */
static uint32_t random_trunk(const struct dqr_fabric *f)
{
	for (;;) {
		uint32_t sw = rnd(f->num_switches), node = f->switches[sw];
		unsigned pn = 1 + rnd(f->nodes[node].num_ports);
		uint32_t port = dqr_port_index(f, node, pn);

		if (dqr_peer_switch(f, port) != DQR_NONE)
			return port;
	}
}

struct tally {
	uint32_t faults, proved, stages, drains, laxer;
};

/* Every entry of a as b has it (a may be wider: NO_PATH beyond b). */
static int same_tables(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	uint32_t sw, lid;

	for (sw = 0; sw < b->num_switches; sw++)
		for (lid = 0; lid < a->lid_count; lid++)
			if (dqr_lft_get(a, sw, lid) != dqr_lft_get(b, sw, lid))
				return 0;
	return 1;
}

/*
 * One random trunk fault from the start state.  When the proof makes a
 * plan, it replays clean and ends at the new tables; the list of
 * changes and the whole comparison give the same answer.
 */
static void one_fault(const struct dqr_fabric *f, const struct dqr_lfts *t,
		      struct tally *tl)
{
	struct dqr_reroute_opts o = { 0 };
	struct dqr_recon_result res;
	struct dqr_plan_report rep, rep2;
	struct dqr_replay_report rr;
	struct dqr_plan p, p2;
	struct dqr_topo_diff d;
	struct dqr_fabric *cur, *proj;
	struct dqr_lfts *before, *end = NULL;
	struct dqr_recon r;
	const struct dqr_change *ch;
	struct dqr_plan_entry *ent;
	uint32_t i, n;
	int64_t lax;
	int one, one2;

	REQUIRE(dqr_recon_start(&r, f, t, &o, &res) == DQR_RECON_OK);
	before = dqr_lfts_clone(r.cur);
	cur = dqr_fabric_clone(f);
	REQUIRE(before && cur);
	dqr_fabric_unlink_port(cur, random_trunk(f));
	proj = dqr_fabric_project(r.ref, cur, &d);
	REQUIRE(proj);
	if (dqr_recon_update(&r, proj, &d, &o, &res) != DQR_RECON_OK)
		goto out;
	ch = dqr_reroute_changes(r.rr, &n);
	ent = calloc(n + 1, sizeof(*ent));
	REQUIRE(ent);
	for (i = 0; i < n; i++) {
		ent[i].sw = ch[i].sw;
		ent[i].lid = ch[i].lid;
	}
	dqr_plan_init(&p);
	dqr_plan_init(&p2);
	one = dqr_plan_proved(proj, before, r.cur, ent, n, r.cl, &p, &rep);
	one2 = dqr_plan_proved(proj, before, r.cur, NULL, 0, r.cl, &p2,
			       &rep2);
	CHECK(one >= 0 && one == one2);
	tl->faults++;
	if (one == 1) {
		tl->proved++;
		tl->stages += p.num_stages;
		tl->drains += dqr_plan_drains(&p);
		CHECK(rep.safe && rep.proved);
		CHECK_EQ(rep.entries, res.diff.entries);
		CHECK_EQ(rep2.entries, rep.entries);
		REQUIRE(!dqr_plan_replay(proj, before, &p, &end, &rr));
		CHECK_EQ(rr.bad_stages, 0);
		CHECK_EQ(rr.mismatches, 0);
		CHECK(end && same_tables(end, r.cur));
		dqr_replay_report_release(&rr);
		dqr_lfts_free(end);
		lax = dqr_plan_laxer_drains(proj, before, &p, NULL);
		REQUIRE(lax >= 0);
		tl->laxer += (uint32_t)lax;
	}
	dqr_plan_release(&p);
	dqr_plan_release(&p2);
	free(ent);
out:
	dqr_topo_diff_release(&d);
	dqr_fabric_free(proj);
	dqr_fabric_free(cur);
	dqr_lfts_free(before);
	dqr_recon_release(&r);
}

static void test_random_faults(void)
{
	static const char *const specs[] = {
		"kary:4,3", "fattree2:8", "mesh:4x4", "hypercube:4",
	};
	unsigned k, i;

	for (k = 0; k < sizeof(specs) / sizeof(specs[0]); k++) {
		struct dqr_gen_spec s;
		struct dqr_fabric *f = gen_fabric(specs[k], &s, NULL);
		struct dqr_lfts *t = NULL;
		struct tally tl = { 0 };
		char err[256];

		REQUIRE(f);
		REQUIRE(!dqr_ref_route(f, &s, NULL, DQR_REF_AUTO, &t, err,
				       sizeof(err)));
		for (i = 0; i < 25; i++)
			one_fault(f, t, &tl);
		fprintf(stderr, "%s: %u faults, %u plans proved (%u stages, "
			"%u drains)\n", specs[k], tl.faults, tl.proved,
			tl.stages, tl.drains);
		CHECK(tl.proved > tl.faults / 2);
		CHECK_EQ(tl.laxer, 0);
		dqr_lfts_free(t);
		dqr_fabric_free(f);
	}
}

/*
 * Ring of 4 as a line (0-1-2-3, the cable 3-0 unused): towards switch
 * 0's CA, 2 forwards to 1 (port 2 leads down the line, port 1 up).
 * Sending 1 up to 2 loops in the union (1 -> 2 -> 1).
 */
static void test_refusals(void)
{
	struct ring rg;
	struct dqr_dyn_order *d = NULL;
	struct dqr_plan_report rep;
	struct dqr_plan p;
	struct dqr_lfts *to;
	uint32_t lid;

	REQUIRE(!ring_open(&rg, 4, ring_as_line));
	REQUIRE(dyn_order_of_tables(rg.f, rg.t, &d, NULL) == 0 && d);
	lid = rg.f->ports[ring_ca_port(rg.f, 4, 0)].base_lid;
	dqr_plan_init(&p);

	/* nothing changed: an empty plan, proved */
	CHECK_EQ(dqr_plan_proved(rg.f, rg.t, rg.t, NULL, 0, d, &p,
				    &rep), 1);
	CHECK_EQ(p.num_stages, 0);

	/* no order: nothing proved */
	CHECK_EQ(dqr_plan_proved(rg.f, rg.t, rg.t, NULL, 0, NULL, &p,
				    &rep), 0);

	/* a loop of the union: switch 1 sends back to 2 */
	to = dqr_lfts_clone(rg.t);
	REQUIRE(to);
	dqr_lft_set(to, 1, lid, 1);
	CHECK_EQ(dqr_plan_proved(rg.f, rg.t, to, NULL, 0, d, &p,
				    &rep), 0);
	dqr_lfts_free(to);

	/*
	 * No loop, but against the order: switch 3 sends over the unused
	 * cable to 0, and the list was told that this channel comes
	 * before the channel of 3's own CA, which would feed it.
	 */
	to = dqr_lfts_clone(rg.t);
	REQUIRE(to);
	dqr_lft_set(to, 3, lid, 1);
	REQUIRE(dqr_dyn_add(d, dqr_port_index(rg.f, 3, 1),
			    ring_ca_port(rg.f, 4, 3)) >= 0);
	CHECK_EQ(dqr_plan_proved(rg.f, rg.t, to, NULL, 0, d, &p, &rep),
		 0);
	dqr_lfts_free(to);
	dqr_plan_release(&p);
	dqr_dyn_free(d);
	ring_close(&rg);
}

int main(void)
{
	test_refusals();
	test_random_faults();
	return unit_finish();
}
