/*
 * test_transition.c - staged transitions: constructed changes where a
 * one-shot or a naive switch-by-switch upload loops or deadlocks and the
 * planner's order does not, OSR's Fig. 1, a change no order can bridge,
 * plan records and their replay.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fabric/topo_gen.h"
#include "routing/grid_route.h"
#include "small_fabrics.h"
#include "transition/record.h"
#include "transition/replay.h"
#include "transition/transition.h"
#include "unit.h"

/*
 * Ring tables that never use the link cut-1 <-> cut: the ring read as a
 * line starting at position cut.  ring_cut(f, n, 0) is ring_as_line().
 */
static struct dqr_lfts *ring_cut(const struct dqr_fabric *f, unsigned n,
				 unsigned cut)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid, ps, pd;

	for (sw = 0; sw < n; sw++) {
		for (lid = 1; lid <= 2 * n; lid++) {
			ps = (sw + n - cut) % n;
			pd = ((lid - 1) % n + n - cut) % n;
			dqr_lft_set(t, sw, lid, pd > ps ? 1 : 2);
		}
		dqr_lft_set(t, sw, sw + 1, 0);
		dqr_lft_set(t, sw, n + sw + 1, 3);
	}
	return t;
}

/*
 * 2x2 mesh of topo_gen (switch position x + 2y, port 1 +x, 2 -x, 3 +y,
 * 4 -y, CA on port 5; switch LIDs 1..4, CA LIDs 5..8) routed in
 * dimension order, y first or x first.  With twist, the routes of
 * position 3 to position 0 and of position 1 to position 2 take y first
 * for the switch LID and x first for the CA LID, whatever yfirst says.
 */
static struct dqr_lfts *mesh2x2_dor(const struct dqr_fabric *f, int yfirst,
				    int twist)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid, d, p;
	int yf;

	for (sw = 0; sw < 4; sw++)
		for (lid = 1; lid <= 8; lid++) {
			unsigned sx = sw % 2, sy = sw / 2;

			d = (lid - 1) % 4;
			yf = yfirst;
			if (twist && ((sw == 3 && d == 0) ||
				      (sw == 1 && d == 2)))
				yf = lid <= 4;
			if (yf && sy != d / 2)
				p = d / 2 > sy ? 3 : 4;
			else if (sx != d % 2)
				p = d % 2 > sx ? 1 : 2;
			else if (sy != d / 2)
				p = d / 2 > sy ? 3 : 4;
			else
				p = lid <= 4 ? 0 : 5;
			dqr_lft_set(t, sw, lid, p);
		}
	return t;
}

static struct dqr_fabric *gen(const char *spec)
{
	struct dqr_gen_spec s;
	char err[256];

	if (dqr_gen_parse(spec, &s, err, sizeof(err)))
		return NULL;
	return dqr_gen_build(&s, err, sizeof(err));
}

/* A plan of given stages: stage s holds entries [off[s], off[s + 1]). */
static void plan_of(struct dqr_plan *p, const struct dqr_plan_entry *e,
		    uint32_t n, const uint32_t *off, uint32_t ns)
{
	uint32_t s;

	dqr_plan_init(p);
	p->entries = malloc(sizeof(*e) * n);
	p->stage_off = malloc(sizeof(uint32_t) * (ns + 1));
	p->stage_reconf = calloc(ns, sizeof(uint64_t));
	p->stage_num = malloc(sizeof(uint32_t) * ns);
	memcpy(p->entries, e, sizeof(*e) * n);
	memcpy(p->stage_off, off, sizeof(uint32_t) * (ns + 1));
	for (s = 0; s < ns; s++)
		p->stage_num[s] = s + 1;
	p->num_entries = n;
	p->num_stages = ns;
}

static struct dqr_plan_entry pe(uint32_t sw, uint32_t lid, uint8_t o,
				uint8_t n)
{
	struct dqr_plan_entry e = { sw, lid, 0, o, n };

	return e;
}

/* Replays p from a, checks every stage holds and the end equals b. */
static int replay_clean(const struct dqr_fabric *f, const struct dqr_lfts *a,
			const struct dqr_lfts *b, const struct dqr_plan *p)
{
	struct dqr_replay_report rr;
	struct dqr_lfts *end = NULL;
	struct dqr_lft_diff d;
	int ok;

	if (dqr_plan_replay(f, a, p, &end, &rr))
		return 0;
	dqr_lfts_diff(end, b, &d);
	ok = dqr_replay_ok(&rr) && rr.num_stages == p->num_stages &&
	     d.entries == 0;
	dqr_replay_report_release(&rr);
	dqr_lfts_free(end);
	return ok;
}

/* Every plan entry once, and exactly the entries where a and b differ. */
static int plan_covers(const struct dqr_fabric *f, const struct dqr_lfts *a,
		       const struct dqr_lfts *b, const struct dqr_plan *p)
{
	struct dqr_lft_diff d;
	uint32_t s, i, n = 0;

	dqr_lfts_diff(a, b, &d);
	for (s = 0; s < p->num_stages; s++) {
		if (p->stage_off[s + 1] <= p->stage_off[s])
			return 0;
		for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
			const struct dqr_plan_entry *e = &p->entries[i];

			if (e->old_port != dqr_lft_get(a, e->sw, e->lid) ||
			    e->new_port != dqr_lft_get(b, e->sw, e->lid))
				return 0;
			n++;
		}
	}
	(void)f;
	return n == p->num_entries && n == d.entries;
}

/* A change under test: a fabric, its tables before and after, the plan. */
struct tcase {
	struct dqr_fabric *f;
	struct dqr_lfts *a, *b;
	struct dqr_plan p;
	struct dqr_plan_report r;
};

/* Plans a into b. */
static void case_plan(struct tcase *c)
{
	dqr_plan_init(&c->p);
	REQUIRE(!dqr_plan_build(c->f, c->a, c->b, &c->p, &c->r));
}

/* The plan covers the change; its replay holds and ends in b. */
static void check_clean(const struct tcase *c)
{
	CHECK(plan_covers(c->f, c->a, c->b, &c->p));
	CHECK(replay_clean(c->f, c->a, c->b, &c->p));
}

/*
 * Opens c on a ring of n switches, from the tables of route to the ring
 * read as a line from position cut (ring_cut()).
 */
static void ring_case(struct tcase *c, unsigned n,
		      struct dqr_lfts *(*route)(const struct dqr_fabric *,
						unsigned),
		      unsigned cut)
{
	memset(c, 0, sizeof(*c));
	c->f = ring_fabric(n);
	REQUIRE(c->f);
	c->a = route(c->f, n);
	c->b = ring_cut(c->f, n, cut);
	REQUIRE(c->a && c->b);
}

/* Opens c on the 2x2 mesh, from y-first to x-first (mesh2x2_dor()). */
static void mesh2x2_case(struct tcase *c, int twist)
{
	memset(c, 0, sizeof(*c));
	c->f = gen("mesh:2x2");
	REQUIRE(c->f);
	c->a = mesh2x2_dor(c->f, 1, twist);
	c->b = mesh2x2_dor(c->f, 0, twist);
	REQUIRE(c->a && c->b);
}

static void case_free(struct tcase *c)
{
	dqr_plan_release(&c->p);
	dqr_lfts_free(c->a);
	dqr_lfts_free(c->b);
	dqr_fabric_free(c->f);
}

/* Replays from a the plan of ns stages, e[off[s] .. off[s + 1]) each. */
static void replay_naive(const struct tcase *c, const struct dqr_plan_entry *e,
			 uint32_t n, const uint32_t *off, uint32_t ns,
			 struct dqr_replay_report *rr)
{
	struct dqr_plan naive;

	plan_of(&naive, e, n, off, ns);
	REQUIRE(!dqr_plan_replay(c->f, c->a, &naive, NULL, rr));
	dqr_plan_release(&naive);
}

/*
 * A ring routed as a line, rerouted around a cut elsewhere.  Where old
 * and new disagree they send a DLID both ways round, so a packet may turn
 * back along the cable it came by: the switch drops it (fabric/relay.h).
 * That is no loop, and no dependency: a ring's only cycle passes every
 * switch, the destination's too, so old and new together never loop.
 * They can still be cyclic, where old and new routes go on past each
 * other's ends; those the planner bridges in stages.  Moving the cut of
 * a 6-ring by 1 changes only the routes across sw0-sw1 and sw5-sw0 that
 * meet head on: one stage.
 */
static void ring_cut_case(unsigned n, unsigned cut, int cyclic,
			  uint32_t stages)
{
	struct tcase c;
	struct dqr_one_shot_report os;

	ring_case(&c, n, ring_as_line, cut);

	REQUIRE(!dqr_one_shot_judge(c.f, c.a, c.b, &os));
	CHECK_EQ(dqr_one_shot_ok(&os), !cyclic);
	CHECK_EQ(os.whole.loop_dlids, 0);
	CHECK_EQ(os.whole.cyclic, cyclic);
	CHECK_EQ(os.old_loop_dlids, 0);
	CHECK_EQ(os.new_loop_dlids, 0);
	CHECK(!os.old_cyclic && !os.new_cyclic);
	CHECK_EQ(os.states, 2 * os.switches);
	CHECK_EQ(os.first_loop + os.last_loop, 0);
	dqr_one_shot_report_release(&os);

	case_plan(&c);
	CHECK(c.r.old_ok && c.r.new_ok);
	CHECK_EQ(c.r.stages, c.p.num_stages);
	CHECK(c.r.checks > 0);
	CHECK(c.r.safe);
	CHECK_EQ(c.r.reason[0], '\0');
	CHECK_EQ(c.p.num_stages, stages);
	CHECK(c.p.num_stages <= c.r.levels);
	check_clean(&c);
	case_free(&c);
}

static void test_ring_cut(void)
{
	ring_cut_case(4, 2, 1, 2);
	ring_cut_case(6, 1, 0, 1);
	ring_cut_case(6, 2, 1, 3);
	ring_cut_case(6, 3, 1, 3);
}

/*
 * A route turned round on a line only bounces: sw3 -> sw2 -> sw1 -> sw0
 * becomes sw1 -> sw2 -> sw3 -> sw0 (over the wrap).  Where an upstream
 * switch has changed and its neighbour not, the packet comes back along
 * its cable and is dropped.  Old and new together neither loop nor are
 * cyclic: one stage.
 */
static void test_turned_line(void)
{
	const unsigned n = 4;
	struct tcase c;
	struct dqr_one_shot_report os;
	unsigned sw;

	ring_case(&c, n, ring_as_line, 0);
	/* position 0: switch LID 1, CA LID n + 1 */
	for (sw = 1; sw < n; sw++) {
		dqr_lft_set(c.b, sw, 1, 1);
		dqr_lft_set(c.b, sw, n + 1, 1);
	}
	REQUIRE(!dqr_one_shot_judge(c.f, c.a, c.b, &os));
	CHECK_EQ(os.entries, 6);
	CHECK(dqr_one_shot_ok(&os));
	CHECK_EQ(os.first_bad + os.last_bad, 0);
	dqr_one_shot_report_release(&os);
	case_plan(&c);
	CHECK(c.r.safe);
	CHECK_EQ(c.p.num_stages, 1);
	check_clean(&c);
	case_free(&c);
}

/*
 * The mesh 3x2 (sw = x + 3y) routed in dimension order, but towards
 * sw-x2-y0's two LIDs sw-x1-y1 goes the long way round the square
 * x0..1: sw4 -> sw3 -> sw0 -> sw1 -> sw2.  The new tree takes sw1 round
 * the other way: sw1 -> sw4 -> sw5 -> sw2.  Old and new together loop
 * round the square with no hop back along a cable: a true loop.
 */
static void square_case(struct tcase *c)
{
	static const uint32_t old_hop[][2] = {
		{ 4, 3 }, { 3, 0 }, { 0, 1 }, { 1, 2 }, { 5, 2 },
	};
	static const uint32_t new_hop[][2] = { { 4, 5 }, { 1, 4 } };
	struct dqr_grid *g;
	char err[256];
	uint32_t lid;
	unsigned i, p;

	c->f = gen("mesh:3x2");
	REQUIRE(c->f && !dqr_grid_detect(c->f, &g, err, sizeof(err)));
	REQUIRE(!dqr_grid_route(c->f, g, DQR_REF_DOR, &c->a, err,
				sizeof(err)));
	dqr_grid_free(g);
	REQUIRE(dqr_switch_lid(c->f, 2) == 3);
	for (lid = 3; lid <= 9; lid += 6)
		for (i = 0; i < 5; i++) {
			p = switch_port_to(c->f, old_hop[i][0], old_hop[i][1]);
			REQUIRE(p);
			dqr_lft_set(c->a, old_hop[i][0], lid, p);
		}
	c->b = dqr_lfts_clone(c->a);
	REQUIRE(c->b);
	for (lid = 3; lid <= 9; lid += 6)
		for (i = 0; i < 2; i++) {
			p = switch_port_to(c->f, new_hop[i][0], new_hop[i][1]);
			dqr_lft_set(c->b, new_hop[i][0], lid, p);
		}
}

/*
 * The square: uploading sw1 first loops; the planner goes downstream
 * first, sw4, then sw1, both LIDs together.
 */
static void test_reversed_tree(void)
{
	struct tcase c;
	struct dqr_one_shot_report os;
	struct dqr_replay_report rr;
	struct dqr_plan_entry e[4];
	const uint32_t off[3] = { 0, 2, 4 };
	unsigned s;
	char buf[512];

	square_case(&c);
	REQUIRE(!dqr_one_shot_judge(c.f, c.a, c.b, &os));
	CHECK_EQ(os.entries, 4);
	CHECK_EQ(os.switches, 2);
	CHECK_EQ(os.dlids, 2);
	CHECK_EQ(os.whole.loop_dlids, 2);
	CHECK(!os.old_cyclic && !os.new_cyclic);
	/* first: sw1 alone loops, sw4 alone does not */
	CHECK_EQ(os.first_loop, 1);
	CHECK_EQ(os.first_bad_sw, 1);
	/* last: sw4 left behind loops, sw1 does not */
	CHECK_EQ(os.last_loop, 1);
	CHECK_EQ(os.last_bad_sw, 4);
	CHECK_EQ(os.states, 4);
	dqr_one_shot_report_release(&os);

	/* upstream first: sw1, then sw4 */
	for (s = 0; s < 2; s++) {
		e[2 * s] = pe(s ? 4 : 1, 3, dqr_lft_get(c.a, s ? 4 : 1, 3),
			      dqr_lft_get(c.b, s ? 4 : 1, 3));
		e[2 * s + 1] = pe(s ? 4 : 1, 9, e[2 * s].old_port,
				  e[2 * s].new_port);
	}
	replay_naive(&c, e, 4, off, 2, &rr);
	CHECK(!dqr_replay_ok(&rr));
	CHECK_EQ(rr.mismatches, 0);
	CHECK_EQ(rr.stages[0].v.loop_dlids, 2);
	CHECK_EQ(rr.stages[0].v.loop_len, 4);
	dqr_format_verdict(c.f, &rr.stages[0].v, buf, sizeof(buf));
	CHECK(strstr(buf, "forwarding loop towards 2 DLIDs") != NULL);
	dqr_replay_report_release(&rr);

	case_plan(&c);
	CHECK(c.r.safe);
	CHECK_EQ(c.r.levels, 2);
	CHECK_EQ(c.p.num_stages, 2);
	for (s = 0; s < c.p.num_stages && c.p.num_stages == 2; s++) {
		CHECK_EQ(c.p.stage_off[s + 1] - c.p.stage_off[s], 2);
		CHECK_EQ(c.p.entries[c.p.stage_off[s]].sw, s ? 1 : 4);
	}
	check_clean(&c);
	case_free(&c);
}

/*
 * OSR Fig. 1: a 2x2 mesh routed vertical first, then horizontal first.
 * Old and new dependencies together close both 4-cycles; no single
 * switch's change does.  Each cycle needs two old and two new turns of
 * the four diagonal routes, so switching one of each pair first bridges
 * it: two stages, the first one in the old channel order.
 */
static void test_osr_fig1(void)
{
	struct tcase c;
	struct dqr_one_shot_report os;
	struct dqr_replay_report rr;
	struct dqr_plan_entry e[8];
	const uint32_t off[5] = { 0, 2, 4, 6, 8 };
	uint32_t s, i, sw_mask = 0;

	mesh2x2_case(&c, 0);

	REQUIRE(!dqr_one_shot_judge(c.f, c.a, c.b, &os));
	CHECK(!dqr_one_shot_ok(&os));
	CHECK_EQ(os.whole.loop_dlids, 0);
	CHECK(os.whole.cyclic);
	CHECK_EQ(os.whole.cycle.len, 4);
	CHECK(!os.old_cyclic && !os.new_cyclic);
	CHECK_EQ(os.first_bad + os.last_bad, 0);
	dqr_one_shot_report_release(&os);

	/* switch by switch, positions 0, 3, 1, 2: the second and third
	 * stages close the cycle x0y0 -> x1y0 -> x1y1 -> x0y1 */
	e[0] = pe(0, 4, 3, 1);
	e[1] = pe(0, 8, 3, 1);
	e[2] = pe(3, 1, 4, 2);
	e[3] = pe(3, 5, 4, 2);
	e[4] = pe(1, 3, 3, 2);
	e[5] = pe(1, 7, 3, 2);
	e[6] = pe(2, 2, 4, 1);
	e[7] = pe(2, 6, 4, 1);
	replay_naive(&c, e, 8, off, 4, &rr);
	CHECK(dqr_union_ok(&rr.stages[0].v));
	CHECK(rr.stages[1].v.cyclic);
	CHECK_EQ(rr.stages[1].v.cycle.len, 4);
	CHECK(rr.stages[2].v.cyclic);
	CHECK(dqr_union_ok(&rr.stages[3].v));
	CHECK_EQ(rr.bad_stages, 2);
	dqr_replay_report_release(&rr);

	case_plan(&c);
	CHECK(c.r.safe);
	CHECK_EQ(c.r.levels, 1);
	CHECK_EQ(c.p.num_stages, 2);
	CHECK(c.r.splits > 0);
	/* the first stage takes one of each conflicting pair of switches:
	 * {0, 3} and {1, 2} */
	for (s = 0; s < 1 && c.p.num_stages; s++)
		for (i = c.p.stage_off[s]; i < c.p.stage_off[s + 1]; i++)
			sw_mask |= 1u << c.p.entries[i].sw;
	CHECK(sw_mask != 0);
	CHECK((sw_mask & 0x9) != 0x9 && (sw_mask & 0x6) != 0x6);
	check_clean(&c);
	case_free(&c);
}

/*
 * Fig. 1 twisted: the two diagonal routes that do not change hold one
 * LID vertical first and one horizontal first, so both cycles lack only
 * the turns of the changing routes.  Any first entry then closes one of
 * them (its new turn with the other switch's old ones): no order
 * bridges it, and the planner must say so.  A full order can only
 * make that stretch short.
 */
static void test_unbridgeable(void)
{
	struct tcase c;
	struct dqr_replay_report rr;
	uint32_t s;

	mesh2x2_case(&c, 1);
	case_plan(&c);
	CHECK_EQ(c.r.entries, 4);
	CHECK(c.r.old_ok && c.r.new_ok);
	CHECK(!c.r.safe);
	CHECK_EQ(c.r.forced, 4);
	CHECK(strstr(c.r.reason, "no safe order") != NULL);
	CHECK(strstr(c.r.reason, "dependency cycle of 4 channels") != NULL);
	CHECK(strstr(c.r.reason, "sw-x") != NULL);
	/*
	 * The least risky order: one entry alone, in the old channel
	 * order; the state it leaves is cyclic until the change is in, so
	 * the rest follows at once, judged for loops only.
	 */
	CHECK_EQ(c.p.num_stages, 2);
	CHECK_EQ(c.p.stage_off[1], 1);
	CHECK_EQ(c.r.stages_cyclic, 1);
	CHECK(strstr(c.r.reason, "judged for loops only") != NULL);
	CHECK(plan_covers(c.f, c.a, c.b, &c.p));
	REQUIRE(!dqr_plan_replay(c.f, c.a, &c.p, NULL, &rr));
	CHECK_EQ(rr.bad_stages, 2);
	for (s = 0; s < rr.num_stages; s++) {
		CHECK(rr.stages[s].v.cyclic);
		CHECK_EQ(rr.stages[s].v.loop_dlids, 0);
	}
	dqr_replay_report_release(&rr);

	/*
	 * The OSR paper's way across: withdraw the four entries, drain,
	 * install them.  Both unions hold and the end is the new tables.
	 */
	{
		struct dqr_plan_report wrep;
		struct dqr_lfts *end = NULL;
		struct dqr_plan w;

		dqr_plan_init(&w);
		REQUIRE(!dqr_plan_build_withdraw(c.f, c.a, c.b, &w, &wrep));
		CHECK(wrep.safe);
		CHECK_EQ(wrep.withdrawn, 4);
		CHECK_EQ(w.num_stages, 2);
		CHECK_EQ(w.stage_drain[1], DQR_DRAIN_WITHDRAW);
		REQUIRE(!dqr_plan_replay(c.f, c.a, &w, &end, &rr));
		CHECK_EQ(rr.bad_stages, 0);
		CHECK(dqr_replay_ok(&rr));
		CHECK(end && !memcmp(end->port, c.b->port,
				     (size_t)end->num_switches *
				     end->lid_count));
		dqr_replay_report_release(&rr);
		dqr_lfts_free(end);

		/* and the plugin's choice takes that way by itself */
		REQUIRE(!dqr_plan_change(c.f, c.a, c.b, NULL, 1, &w, &wrep));
		CHECK(wrep.safe);
		CHECK_EQ(wrep.withdrawn, 4);
		CHECK(strstr(wrep.reason, "no safe order") != NULL);
		dqr_plan_release(&w);
	}
	case_free(&c);
}

/*
 * A change both orders agree with (up*-down* either way in a fat tree:
 * one destination's climb moves to the other spine), into c.
 */
static void climb_case(struct tcase *cp)
{
	struct tcase c = { .f = gen("fattree2:4") };
	uint32_t leaf, sp, lid, dst_leaf;

	REQUIRE(c.f);
	/* 4 leaves (ports 1-2 CAs, 3-4 spines), 2 spines; LIDs 1..6
	 * switches, 7..14 CAs; CA c on leaf c / 2 */
	c.a = dqr_lfts_new(c.f->num_switches, c.f->max_lid + 1);
	REQUIRE(c.a);
	for (lid = 1; lid <= c.f->max_lid; lid++) {
		uint32_t owner = dqr_lid_owner(c.f, lid);
		uint32_t node = c.f->ports[owner].node;

		if (dqr_is_switch(c.f, node))
			continue;
		dst_leaf = c.f->nodes[c.f->ports[c.f->ports[owner].remote].node]
				   .sw_index;
		for (leaf = 0; leaf < 4; leaf++)
			dqr_lft_set(c.a, leaf, lid, leaf == dst_leaf ?
				    c.f->ports[c.f->ports[owner].remote].num :
				    3 + lid % 2);
		for (sp = 4; sp < 6; sp++)
			dqr_lft_set(c.a, sp, lid, dst_leaf + 1);
	}
	c.b = dqr_lfts_clone(c.a);
	REQUIRE(c.b);
	/* CA LID 7 (on leaf 0): climb through the other spine */
	for (leaf = 1; leaf < 4; leaf++)
		dqr_lft_set(c.b, leaf, 7, 3 + (dqr_lft_get(c.a, leaf, 7) == 3));
	*cp = c;
}

/* The climb of climb_case() needs one stage. */
static void test_compatible(void)
{
	struct tcase c;

	climb_case(&c);
	case_plan(&c);
	CHECK(c.r.safe);
	CHECK_EQ(c.r.entries, 3);
	CHECK_EQ(c.p.num_stages, 1);
	CHECK_EQ(c.r.splits, 0);
	CHECK(replay_clean(c.f, c.a, c.b, &c.p));
	dqr_plan_release(&c.p);

	/* nothing to change: no stage, safe */
	REQUIRE(!dqr_plan_build(c.f, c.a, c.a, &c.p, &c.r));
	CHECK(c.r.safe);
	CHECK_EQ(c.p.num_stages, 0);
	CHECK_EQ(c.r.entries, 0);
	case_free(&c);
}

/*
 * Old tables that are already cyclic (a ring routed clockwise): no order
 * removes that; the plan is not safe, says why, and stays loop free.
 */
static void test_cyclic_start(void)
{
	const unsigned n = 5;
	struct tcase c;
	struct dqr_replay_report rr;
	uint32_t s;

	ring_case(&c, n, ring_clockwise, 0);
	case_plan(&c);
	CHECK(!c.r.safe);
	CHECK(!c.r.old_ok);
	CHECK(c.r.new_ok);
	CHECK(strstr(c.r.reason, "the old tables have a dependency cycle") !=
	      NULL);
	CHECK(plan_covers(c.f, c.a, c.b, &c.p));
	REQUIRE(!dqr_plan_replay(c.f, c.a, &c.p, NULL, &rr));
	for (s = 0; s < rr.num_stages; s++)
		CHECK_EQ(rr.stages[s].v.loop_dlids, 0);
	dqr_replay_report_release(&rr);
	case_free(&c);
}

/* Written plans read back the same; several reconfigurations per file. */
static void test_round_trip(void)
{
	const unsigned n = 6;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *a, *b;
	struct dqr_plan_report r;
	struct dqr_plan p, q, back;
	struct dqr_plan_file pf;
	uint64_t id = 42;
	uint32_t i;
	char err[256];
	FILE *fp;

	REQUIRE(f);
	a = ring_as_line(f, n);
	b = ring_cut(f, n, 2);
	REQUIRE(a && b);
	dqr_plan_init(&p);
	dqr_plan_init(&q);
	dqr_plan_init(&back);
	REQUIRE(!dqr_plan_build(f, a, b, &p, &r));
	REQUIRE(!dqr_plan_build(f, b, a, &q, &r));
	fp = tmpfile();
	REQUIRE(fp);
	CHECK_EQ(dqr_plan_write(fp, f, &p, 41), 0);
	CHECK_EQ(dqr_plan_write(fp, f, &q, 42), 0);
	rewind(fp);
	CHECK_EQ(dqr_plan_parse(f, fp, "plan.dump", &pf, err, sizeof(err)),
		 0);
	fclose(fp);
	CHECK_EQ(pf.num, p.num_entries + q.num_entries);
	CHECK_EQ(pf.num_ids, 2);

	/* all in file order: there and back again */
	REQUIRE(!dqr_plan_select(&pf, NULL, &back, err, sizeof(err)));
	CHECK_EQ(back.num_stages, p.num_stages + q.num_stages);
	CHECK_EQ(back.stage_reconf[0], 41);
	CHECK_EQ(back.stage_reconf[back.num_stages - 1], 42);
	CHECK(replay_clean(f, a, a, &back));
	dqr_plan_release(&back);

	/* one of them: the same entries, stages and order */
	REQUIRE(!dqr_plan_select(&pf, &id, &back, err, sizeof(err)));
	CHECK_EQ(back.num_stages, q.num_stages);
	CHECK_EQ(back.num_entries, q.num_entries);
	for (i = 0; i <= q.num_stages && back.num_stages == q.num_stages; i++)
		CHECK_EQ(back.stage_off[i], q.stage_off[i]);
	for (i = 0; i < q.num_entries && back.num_entries == q.num_entries;
	     i++) {
		CHECK_EQ(back.entries[i].sw, q.entries[i].sw);
		CHECK_EQ(back.entries[i].lid, q.entries[i].lid);
		CHECK_EQ(back.entries[i].old_port, q.entries[i].old_port);
		CHECK_EQ(back.entries[i].new_port, q.entries[i].new_port);
		CHECK(back.entries[i].line > 1);
	}
	CHECK_EQ(back.stage_num[0], 1);
	CHECK(replay_clean(f, b, a, &back));
	dqr_plan_release(&back);

	id = 7;
	CHECK_EQ(dqr_plan_select(&pf, &id, &back, err, sizeof(err)), -1);
	CHECK(strstr(err, "plan.dump: no records of reconfiguration 7") !=
	      NULL);
	dqr_plan_file_release(&pf);
	dqr_plan_release(&p);
	dqr_plan_release(&q);
	dqr_lfts_free(a);
	dqr_lfts_free(b);
	dqr_fabric_free(f);
}

/* A record whose old port is not what the switch holds is counted. */
static void test_wrong_old_port(void)
{
	const unsigned n = 4;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *a, *end = NULL;
	struct dqr_replay_report rr;
	struct dqr_plan_file pf;
	struct dqr_plan p;
	char err[256];
	/* sw3 delivers LID 1 by port 2; the second record claims port 1 */
	static const char text[] =
		"# two records, the second one wrong\n"
		"5 1 0x0000000000000103 1 2 1   # sw3: go round\n"
		"\n"
		"5 2 0x0000000000000102 1 1 1\n";
	FILE *fp = fmemopen((void *)text, sizeof(text) - 1, "r");

	REQUIRE(f && fp);
	a = ring_as_line(f, n);
	dqr_plan_init(&p);
	REQUIRE(!dqr_plan_parse(f, fp, "w.dump", &pf, err, sizeof(err)));
	fclose(fp);
	REQUIRE(!dqr_plan_select(&pf, NULL, &p, err, sizeof(err)));
	CHECK_EQ(p.num_stages, 2);
	REQUIRE(!dqr_plan_replay(f, a, &p, &end, &rr));
	CHECK_EQ(rr.mismatches, 1);
	CHECK(!dqr_replay_ok(&rr));
	CHECK_EQ(rr.stages[0].mismatches, 0);
	CHECK_EQ(rr.stages[1].mismatches, 1);
	CHECK_EQ(rr.stages[1].first_mismatch, 1);
	CHECK_EQ(rr.stages[1].found_port, 2);
	CHECK_EQ(p.entries[rr.stages[1].first_mismatch].line, 4);
	CHECK_EQ(rr.stages[1].stage, 2);
	CHECK_EQ(rr.stages[1].reconf_id, 5);
	/* what the switch really held takes part in the union: 2 and 1 */
	CHECK(rr.stages[1].v.loop_dlids == 0);
	CHECK_EQ(dqr_lft_get(end, 3, 1), 1);
	CHECK_EQ(dqr_lft_get(end, 2, 1), 1);
	dqr_replay_report_release(&rr);
	dqr_plan_release(&p);
	dqr_plan_file_release(&pf);
	dqr_lfts_free(end);
	dqr_lfts_free(a);
	dqr_fabric_free(f);
}

/* One malformed input: the reader or the selection names file:line. */
static void expect_bad_len(const struct dqr_fabric *f, const char *text,
			   size_t len, const char *where, const char *what)
{
	struct dqr_plan_file pf;
	struct dqr_plan p;
	char err[512] = "";
	FILE *fp = fmemopen((void *)text, len, "r");
	int r;

	REQUIRE(fp);
	r = dqr_plan_parse(f, fp, "bad.dump", &pf, err, sizeof(err));
	fclose(fp);
	if (!r) {
		dqr_plan_init(&p);
		r = dqr_plan_select(&pf, NULL, &p, err, sizeof(err));
		dqr_plan_release(&p);
		dqr_plan_file_release(&pf);
	}
	CHECK_EQ(r, -1);
	if (!strstr(err, where) || !strstr(err, what))
		fprintf(stderr, "unexpected message for '%s': %s\n", text,
			err);
	CHECK(strstr(err, where) != NULL);
	CHECK(strstr(err, what) != NULL);
	CHECK_EQ(pf.num, 0);
	CHECK(pf.rec == NULL);
}

static void expect_bad(const struct dqr_fabric *f, const char *text,
		       const char *where, const char *what)
{
	expect_bad_len(f, text, strlen(text), where, what);
}

/*
 * Reading one id: another id's record may name a switch gone since (its
 * form is still checked), and the ids are still listed.
 */
static void test_read_one_id(const struct dqr_fabric *f)
{
	static const char text[] = "1 1 0x999 1 2 1\n2 1 0x100 2 1 2\n";
	char path[] = "/tmp/test_transition.XXXXXX", err[256];
	struct dqr_plan_file pf;
	uint64_t two = 2, one = 1;
	int fd = mkstemp(path);

	REQUIRE(fd >= 0);
	REQUIRE(write(fd, text, sizeof(text) - 1) == sizeof(text) - 1);
	close(fd);
	CHECK_EQ(dqr_plan_read(f, path, NULL, &pf, err, sizeof(err)), -1);
	CHECK(strstr(err, "no node with GUID") != NULL);
	CHECK_EQ(dqr_plan_read(f, path, &two, &pf, err, sizeof(err)), 0);
	CHECK_EQ(pf.num, 1);
	CHECK_EQ(pf.rec[0].reconf_id, 2);
	CHECK_EQ(pf.num_ids, 2);
	dqr_plan_file_release(&pf);
	/* the id asked for must still name switches of the topology */
	CHECK_EQ(dqr_plan_read(f, path, &one, &pf, err, sizeof(err)), -1);
	CHECK(strstr(err, ":1:") != NULL);
	unlink(path);
}

static void test_malformed(void)
{
	static const char ok_text[] = "3 1 0x100 2 1 2\n\n  # a comment\n";
	struct dqr_fabric *f = ring_fabric(4);
	struct dqr_plan_file pf;
	char err[256];
	FILE *fp;

	REQUIRE(f);
	expect_bad(f, "1 1 0x100 1 2\n", "bad.dump:1:", "too few fields");
	expect_bad(f, "# c\n1 1 0x100 1 2 1 9\n", "bad.dump:2:",
		   "too many fields");
	expect_bad(f, "x 1 0x100 1 2 1\n", "bad.dump:1:",
		   "bad reconfiguration id 'x'");
	expect_bad(f, "1 -1 0x100 1 2 1\n", "bad.dump:1:", "bad stage '-1'");
	expect_bad(f, "1 1 256 1 2 1\n", "bad.dump:1:",
		   "switch GUID '256' is not 0x<hex>");
	expect_bad(f, "1 1 0xzz 1 2 1\n", "bad.dump:1:", "bad switch GUID");
	expect_bad(f, "1 1 0x999 1 2 1\n", "bad.dump:1:",
		   "no node with GUID 0x0000000000000999");
	expect_bad(f, "1 1 0x200 1 2 1\n", "bad.dump:1:", "is not a switch");
	expect_bad(f, "1 1 0x100 49152 2 1\n", "bad.dump:1:",
		   "bad DLID '49152'");
	expect_bad(f, "1 1 0x100 1 256 1\n", "bad.dump:1:",
		   "bad old port '256'");
	expect_bad(f, "1 1 0x100 1 2 5\n", "bad.dump:1:",
		   "new port 5 is beyond the 4 ports");
	expect_bad(f, "1 2 0x100 1 2 1\n1 1 0x101 1 2 1\n", "bad.dump:2:",
		   "stage 1 of reconfiguration 1 after its stage 2");
	expect_bad(f, "1 1 0x100 1 2 1\n2 1 0x100 1 1 2\n1 1 0x101 1 2 1\n",
		   "bad.dump:3:", "after its stage 1");
	expect_bad(f, "1 1 0x100 1 2 1\n1 1 0x101 1 2 1\n1 1 0x100 1 2 1\n",
		   "bad.dump:3:", "changed twice in stage 1 (line 1 too)");
	expect_bad_len(f, "1 1 0x100 1 2 1\0\n", 17, "bad.dump:1:", "NUL");

	fp = fmemopen((void *)ok_text, strlen(ok_text), "r");
	REQUIRE(fp);
	CHECK_EQ(dqr_plan_parse(f, fp, "ok.dump", &pf, err, sizeof(err)), 0);
	fclose(fp);
	CHECK_EQ(pf.num, 1);
	CHECK_EQ(pf.rec[0].reconf_id, 3);
	CHECK_EQ(pf.rec[0].sw, 0);
	CHECK_EQ(pf.rec[0].lid, 2);
	dqr_plan_file_release(&pf);
	CHECK_EQ(dqr_plan_read(f, "/nonexistent/plan", NULL, &pf, err,
			       sizeof(err)),
		 -1);
	CHECK(strstr(err, "/nonexistent/plan") != NULL);
	test_read_one_id(f);
	dqr_fabric_free(f);
}

/* ------------------------------------------------ reference union check */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state % n);
}

/* The channel of port p of switch sw, or DQR_NONE. */
static uint32_t ref_ch(const struct dqr_fabric *f, uint32_t sw, unsigned p)
{
	const struct dqr_node *n = &f->nodes[f->switches[sw]];

	if (p == 0 || p > n->num_ports ||
	    f->ports[n->port_base + p].remote == DQR_NONE)
		return DQR_NONE;
	return n->port_base + p;
}

/* 1 when the directed graph m (n x n, row-major) has a cycle. */
static int ref_cyclic(uint8_t *m, uint32_t n)
{
	uint32_t i, j, k;

	for (k = 0; k < n; k++)
		for (i = 0; i < n; i++)
			if (m[i * n + k])
				for (j = 0; j < n; j++)
					if (m[k * n + j])
						m[i * n + j] = 1;
	for (i = 0; i < n; i++)
		if (m[i * n + i])
			return 1;
	return 0;
}

/*
 * Channel from depends on every channel that switch sw forwards lid on,
 * by a or by b, but the cable from came by: a switch drops a packet that
 * would leave by the port it came in on.  dep is the nv x nv matrix of
 * ref_union().
 */
static void ref_dep_on(const struct dqr_fabric *f, const struct dqr_lfts *a,
		       const struct dqr_lfts *b, uint32_t sw, uint32_t lid,
		       uint32_t from, uint8_t *dep)
{
	uint8_t q[2] = { dqr_lft_get(a, sw, lid), dqr_lft_get(b, sw, lid) };
	uint32_t d;
	unsigned l;

	for (l = 0; l < 2; l++) {
		d = ref_ch(f, sw, q[l]);
		if (d != DQR_NONE && d != f->ports[from].remote)
			dep[(size_t)from * f->num_ports + d] = 1;
	}
}

/*
 * The union of a and b the slow way: every combination of entries
 * enumerated into adjacency matrices over channels, one per DLID for
 * its loops (a packet goes from channel c on to every channel c's far
 * switch forwards the DLID on) and one for the dependencies of all.
 * Returns the looping DLIDs and sets *cyclic.
 */
static uint32_t ref_union(const struct dqr_fabric *f, const struct dqr_lfts *a,
			  const struct dqr_lfts *b, int *cyclic)
{
	uint32_t nv = f->num_ports, ns = f->num_switches, lid, sw, i, c;
	uint32_t loops = 0, y;
	uint8_t *dep = calloc((size_t)nv * nv, 1);
	uint8_t *nxt = malloc((size_t)nv * nv);
	uint8_t pp[2];
	unsigned k;

	REQUIRE(dep && nxt);
	for (lid = 1; lid <= f->max_lid; lid++) {
		if (dqr_lid_owner(f, lid) == DQR_NONE)
			continue;
		memset(nxt, 0, (size_t)nv * nv);
		for (sw = 0; sw < ns; sw++) {
			pp[0] = dqr_lft_get(a, sw, lid);
			pp[1] = dqr_lft_get(b, sw, lid);
			for (k = 0; k < 2; k++) {
				c = ref_ch(f, sw, pp[k]);
				y = c == DQR_NONE ? DQR_NONE :
				    dqr_peer_switch(f, c);
				if (y == DQR_NONE)
					continue;
				ref_dep_on(f, a, b, y, lid, c, nxt);
				ref_dep_on(f, a, b, y, lid, c, dep);
			}
		}
		loops += ref_cyclic(nxt, nv);
	}
	for (i = 0; i < nv; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (!p->num || p->remote == DQR_NONE ||
		    dqr_is_switch(f, p->node) ||
		    !dqr_is_switch(f, f->ports[p->remote].node))
			continue;
		sw = f->nodes[f->ports[p->remote].node].sw_index;
		for (lid = 1; lid <= f->max_lid; lid++) {
			if (dqr_lid_owner(f, lid) == DQR_NONE ||
			    (lid >= p->base_lid &&
			     lid < p->base_lid + (1u << p->lmc)))
				continue;
			ref_dep_on(f, a, b, sw, lid, i, dep);
		}
	}
	*cyclic = ref_cyclic(dep, nv);
	free(dep);
	free(nxt);
	return loops;
}

/* A random in-tree towards every LID: loop free, not always acyclic. */
static struct dqr_lfts *random_trees(const struct dqr_fabric *f)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	uint32_t ns = f->num_switches, lid, sw, owner, node, in_n, pick;
	uint32_t cand_sw[256], cand_p[256], nc;
	uint8_t in[64];
	unsigned p;

	for (lid = 1; lid <= f->max_lid; lid++) {
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			continue;
		node = f->ports[owner].node;
		memset(in, 0, sizeof(in));
		if (dqr_is_switch(f, node)) {
			sw = f->nodes[node].sw_index;
			dqr_lft_set(t, sw, lid, 0);
		} else {
			sw = f->nodes[f->ports[f->ports[owner].remote].node]
				     .sw_index;
			dqr_lft_set(t, sw, lid,
				    f->ports[f->ports[owner].remote].num);
		}
		in[sw] = 1;
		for (in_n = 1; in_n < ns; in_n++) {
			nc = 0;
			for (sw = 0; sw < ns; sw++) {
				const struct dqr_node *n =
					&f->nodes[f->switches[sw]];

				if (in[sw])
					continue;
				for (p = 1; p <= n->num_ports && nc < 256;
				     p++) {
					uint32_t c = ref_ch(f, sw, p), y;

					if (c == DQR_NONE)
						continue;
					y = f->ports[f->ports[c].remote].node;
					if (!dqr_is_switch(f, y) ||
					    !in[f->nodes[y].sw_index])
						continue;
					cand_sw[nc] = sw;
					cand_p[nc++] = p;
				}
			}
			if (!nc)
				break;
			pick = rnd(nc);
			dqr_lft_set(t, cand_sw[pick], lid, cand_p[pick]);
			in[cand_sw[pick]] = 1;
		}
	}
	return t;
}

/*
 * The checker against the reference on random unions: random trees for
 * a, and b with a few entries moved anywhere (another port, port 0, a
 * CA port, no path), so that loops, cycles and dead ports all occur.
 */
#define UNION_ITERS 100

static void test_union_reference(void)
{
	static const char *const specs[] = {
		"mesh:3x2", "torus:3", "hypercube:3,cas=2,lmc=1",
	};
	uint32_t agree_loop = 0, agree_cyc = 0, cyclic_seen = 0, loop_seen = 0;
	uint32_t iter, k;

	for (k = 0; k < 3; k++) {
		struct dqr_fabric *f = gen(specs[k]);

		REQUIRE(f);
		for (iter = 0; iter < UNION_ITERS; iter++) {
			struct dqr_lfts *a = random_trees(f), *b;
			struct dqr_one_shot_report os;
			uint32_t m, sw, lid, loops;
			int cyc;

			REQUIRE(a);
			b = dqr_lfts_clone(a);
			for (m = 0; m < 1 + rnd(6); m++) {
				sw = rnd(f->num_switches);
				lid = 1 + rnd(f->max_lid);
				dqr_lft_set(b, sw, lid, rnd(4) ? 1 + rnd(
					f->nodes[f->switches[sw]].num_ports) :
					rnd(2) ? 0 : DQR_NO_PATH);
			}
			if (rnd(2)) {
				/* a second tree for one LID: a reroute */
				struct dqr_lfts *c = random_trees(f);

				lid = 1 + rnd(f->max_lid);
				for (sw = 0; sw < f->num_switches; sw++)
					dqr_lft_set(b, sw, lid,
						    dqr_lft_get(c, sw, lid));
				dqr_lfts_free(c);
			}
			loops = ref_union(f, a, b, &cyc);
			REQUIRE(!dqr_one_shot_judge(f, a, b, &os));
			agree_loop += os.whole.loop_dlids == loops;
			agree_cyc += os.whole.cyclic == cyc;
			if (os.whole.loop_dlids != loops ||
			    os.whole.cyclic != cyc)
				fprintf(stderr, "%s #%u: loops %u/%u, cyclic "
					"%d/%d\n", specs[k], iter,
					os.whole.loop_dlids, loops,
					os.whole.cyclic, cyc);
			cyclic_seen += cyc;
			loop_seen += loops != 0;
			dqr_one_shot_report_release(&os);
			dqr_lfts_free(a);
			dqr_lfts_free(b);
		}
		dqr_fabric_free(f);
	}
	CHECK_EQ(agree_loop, 3 * UNION_ITERS);
	CHECK_EQ(agree_cyc, 3 * UNION_ITERS);
	/* the sample exercises both outcomes */
	CHECK(cyclic_seen > 10 && cyclic_seen < 3 * UNION_ITERS - 10);
	CHECK(loop_seen > 10 && loop_seen < 3 * UNION_ITERS - 10);
	fprintf(stderr, "union reference: %u loop, %u cyclic of %u\n",
		loop_seen, cyclic_seen, 3 * UNION_ITERS);
}

/* ------------------------------------------------------------ drains */

/* a with the first n stages of p applied. */
static struct dqr_lfts *state_of(const struct dqr_lfts *a,
				 const struct dqr_plan *p, uint32_t n)
{
	struct dqr_lfts *t = dqr_lfts_clone(a);
	uint32_t i;

	REQUIRE(t);
	for (i = 0; i < p->stage_off[n]; i++)
		dqr_lft_set(t, p->entries[i].sw, p->entries[i].lid,
			    p->entries[i].new_port);
	return t;
}

/*
 * Whether the dependencies of packets routed by states w .. k of p are
 * cyclic, the slow way: every turn of the union of tw and tk, less a
 * switch's new entry into the old entry of a switch that changed in an
 * earlier stage (such a packet meets the new one), into a matrix.
 */
static int ref_timed_cyclic(const struct dqr_fabric *f,
			    const struct dqr_lfts *tw,
			    const struct dqr_lfts *tk,
			    const struct dqr_plan *p, uint32_t w, uint32_t k)
{
	uint32_t nv = f->num_ports, ns = f->num_switches, lc = f->max_lid + 1;
	uint32_t *st = malloc(sizeof(uint32_t) * ns * lc);
	uint8_t *dep = calloc((size_t)nv * nv, 1);
	uint32_t lid, sw, y, c, d, i, s;
	unsigned a, b;
	int cyc;

	REQUIRE(st && dep);
	for (i = 0; i < ns * lc; i++)
		st[i] = DQR_NONE;
	for (s = w; s < k; s++)
		for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++)
			st[p->entries[i].sw * lc + p->entries[i].lid] = s;
	for (lid = 1; lid < lc; lid++) {
		if (dqr_lid_owner(f, lid) == DQR_NONE)
			continue;
		for (sw = 0; sw < ns; sw++) {
			uint8_t pp[2] = { dqr_lft_get(tw, sw, lid),
					  dqr_lft_get(tk, sw, lid) };

			for (a = 0; a < 2; a++) {
				c = ref_ch(f, sw, pp[a]);
				y = c == DQR_NONE ? DQR_NONE :
				    dqr_peer_switch(f, c);
				if (y == DQR_NONE)
					continue;
				for (b = 0; b < 2; b++) {
					uint8_t q = b ? dqr_lft_get(tk, y, lid)
						      : dqr_lft_get(tw, y, lid);

					/* new into an older switch's old */
					if (a == 1 && pp[1] != pp[0] &&
					    b == 0 &&
					    q != dqr_lft_get(tk, y, lid) &&
					    st[y * lc + lid] <
					    st[sw * lc + lid])
						continue;
					d = ref_ch(f, y, q);
					/* not back the way it came */
					if (d != DQR_NONE &&
					    d != f->ports[c].remote)
						dep[(size_t)c * nv + d] = 1;
				}
			}
		}
	}
	for (i = 0; i < nv; i++) {
		const struct dqr_port *pt = &f->ports[i];

		if (!pt->num || pt->remote == DQR_NONE ||
		    dqr_is_switch(f, pt->node) ||
		    !dqr_is_switch(f, f->ports[pt->remote].node))
			continue;
		sw = f->nodes[f->ports[pt->remote].node].sw_index;
		for (lid = 1; lid < lc; lid++) {
			if (dqr_lid_owner(f, lid) == DQR_NONE ||
			    (lid >= pt->base_lid &&
			     lid < pt->base_lid + (1u << pt->lmc)))
				continue;
			ref_dep_on(f, tw, tk, sw, lid, i, dep);
		}
	}
	cyc = ref_cyclic(dep, nv);
	free(dep);
	free(st);
	return cyc;
}

/*
 * Every stage's drain flag against the slow reference: stage k (1-based)
 * needs none exactly when the dependencies of packets routed by states
 * w (after the last stage that drained, else 0) to k, in time order,
 * are acyclic.  Counts the stages after the first that need none into
 * *free_n and the others into *wait_n.
 */
static void check_drains(const struct dqr_fabric *f, const struct dqr_lfts *a,
			 const struct dqr_plan *p, uint32_t *free_n,
			 uint32_t *wait_n)
{
	struct dqr_lfts *tw, *tk;
	uint32_t k, w = 0;
	uint8_t want;

	CHECK(p->num_stages == 0 || p->stage_drain[0] == 0);
	for (k = 2; k <= p->num_stages; k++) {
		tw = state_of(a, p, w);
		tk = state_of(a, p, k);
		want = ref_timed_cyclic(f, tw, tk, p, w, k) ?
		       DQR_DRAIN_CYCLE : 0;
		CHECK_EQ(p->stage_drain[k - 1], want);
		if (want)
			w = k - 1;
		*free_n += !want;
		*wait_n += want != 0;
		dqr_lfts_free(tw);
		dqr_lfts_free(tk);
	}
}

/*
 * The planner's flags on constructed cases.  The square (sw4 first,
 * then sw1) loops in the union of states 0 and 2 (sw1's new entry into
 * sw4's old one), but no packet takes that loop: one that sw1's new
 * entry sends reaches sw4 after sw4 changed, in stage 1.  So no stage
 * waits.  OSR's Fig. 1 closes a real cycle in the union of states 0 and
 * 2: its second stage waits.  The climb split by hand into one stage
 * per switch needs none: its union is clean whole.
 */
static void test_drain_flags(void)
{
	struct tcase c;
	struct dqr_plan split;
	const uint32_t off[4] = { 0, 1, 2, 3 };
	uint32_t s, fr = 0, wt = 0;

	square_case(&c);
	case_plan(&c);
	REQUIRE(c.p.num_stages == 2);
	CHECK_EQ(c.p.stage_drain[0], 0);
	CHECK_EQ(c.p.stage_drain[1], 0);
	CHECK_EQ(dqr_plan_drains(&c.p), 0);
	check_drains(c.f, c.a, &c.p, &fr, &wt);
	case_free(&c);

	mesh2x2_case(&c, 0);
	case_plan(&c);
	REQUIRE(c.p.num_stages == 2);
	CHECK_EQ(c.p.stage_drain[1], DQR_DRAIN_CYCLE);
	CHECK(!strcmp(dqr_drain_reason(c.p.stage_drain[1]),
		      "dependency cycle"));
	check_drains(c.f, c.a, &c.p, &fr, &wt);
	case_free(&c);
	CHECK_EQ(fr, 1);
	CHECK_EQ(wt, 1);

	climb_case(&c);
	case_plan(&c);
	REQUIRE(c.p.num_stages == 1);
	plan_of(&split, c.p.entries, 3, off, 3);
	REQUIRE(!dqr_plan_mark_drains(c.f, c.a, &split));
	for (s = 0; s < 3; s++)
		CHECK_EQ(split.stage_drain[s], 0);
	CHECK_EQ(dqr_plan_drains(&split), 0);
	check_drains(c.f, c.a, &split, &fr, &wt);
	CHECK_EQ(fr, 3);
	dqr_plan_release(&split);

	/*
	 * An entry that changes in two stages (there and back): the union
	 * of two states no longer covers the state between them, so the
	 * plan is not judged and every stage after the first waits.
	 */
	{
		struct dqr_plan_entry rep[4];
		const uint32_t roff[4] = { 0, 1, 3, 4 };

		memcpy(rep, c.p.entries, sizeof(rep[0]) * 3);
		rep[3] = pe(rep[0].sw, rep[0].lid, rep[0].new_port,
			    rep[0].old_port);
		plan_of(&split, rep, 4, roff, 3);
		REQUIRE(!dqr_plan_mark_drains(c.f, c.a, &split));
		CHECK_EQ(split.stage_drain[0], 0);
		CHECK_EQ(split.stage_drain[1], DQR_DRAIN_UNSAFE);
		CHECK_EQ(split.stage_drain[2], DQR_DRAIN_UNSAFE);
		dqr_plan_release(&split);
	}
	case_free(&c);
}

/*
 * Random changes (a few DLIDs of up*\/down* tables moved to random
 * trees): the planner's flags and those of the same change split into
 * random stages, each against the slow reference.  Random cuts often
 * fail the union with the stage before on a loop or a turn no packet
 * can take in time order: some need no wait.
 */
static void test_drain_random(void)
{
	static const char *const specs[] = {
		"mesh:3x2", "mesh:3x3", "hypercube:3,cas=2,lmc=1",
	};
	uint32_t iter, k, pl_free = 0, pl_wait = 0, rs_free = 0, rs_wait = 0;
	char err[256];

	for (k = 0; k < 3; k++) {
		struct dqr_fabric *f = gen(specs[k]);

		REQUIRE(f);
		for (iter = 0; iter < 40; iter++) {
			struct tcase c = { .f = f };
			struct dqr_plan rp;
			uint32_t m, sw, lid, i, ns = 0, *off;

			REQUIRE(!dqr_updn_route(f, &c.a, err, sizeof(err)));
			c.b = dqr_lfts_clone(c.a);
			REQUIRE(c.b);
			for (m = 0; m < 1 + rnd(3); m++) {
				struct dqr_lfts *t = random_trees(f);

				lid = 1 + rnd(f->max_lid);
				for (sw = 0; sw < f->num_switches; sw++)
					dqr_lft_set(c.b, sw, lid,
						    dqr_lft_get(t, sw, lid));
				dqr_lfts_free(t);
			}
			case_plan(&c);
			if (c.r.safe)
				check_drains(f, c.a, &c.p, &pl_free, &pl_wait);
			/* the same entries, cut into stages at random */
			off = malloc(sizeof(uint32_t) *
				     (c.p.num_entries + 2));
			REQUIRE(off);
			off[ns++] = 0;
			for (i = 1; i < c.p.num_entries; i++)
				if (!rnd(3))
					off[ns++] = i;
			off[ns] = c.p.num_entries;
			plan_of(&rp, c.p.entries, c.p.num_entries, off, ns);
			REQUIRE(!dqr_plan_mark_drains(f, c.a, &rp));
			check_drains(f, c.a, &rp, &rs_free, &rs_wait);
			dqr_plan_release(&rp);
			free(off);
			c.f = NULL;
			case_free(&c);
		}
		dqr_fabric_free(f);
	}
	CHECK(pl_free + pl_wait > 0);
	/* random trees are mostly cyclic with the rest: few cuts need none */
	CHECK(rs_free > 0 && rs_wait > 20);
	fprintf(stderr, "drains: planner %u wait, %u free; random cuts %u "
		"wait, %u free\n", pl_wait, pl_free, rs_wait, rs_free);
}

int main(void)
{
	test_ring_cut();
	test_turned_line();
	test_reversed_tree();
	test_osr_fig1();
	test_unbridgeable();
	test_compatible();
	test_cyclic_start();
	test_round_trip();
	test_wrong_old_port();
	test_malformed();
	test_union_reference();
	test_drain_flags();
	test_drain_random();
	return unit_finish();
}
