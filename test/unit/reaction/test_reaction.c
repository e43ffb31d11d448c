/*
 * test_reaction.c - the reaction tier (reaction.h, topology.h): what the
 * plugin and dqr-sim decide after a change of cabling.  An update, a
 * change that moves nothing, a restart after a return, a fallback and
 * fallback=none's partial answer; the channel list a plan may be proved
 * against in every case the plugin meets; the start's up*\/down* instead
 * of a cyclic one-layer base, and a layered base left alone; new hardware
 * sent to a full routing; the mesh plug-in, the FT paper's re-routing
 * layer on a fat tree (and why not without the VLs), and virtual layers,
 * whose list still proves after a restart; the notes' limits.
 */
#include <stdlib.h>
#include <string.h>

#include "reaction/base_choice.h"
#include "reaction/reaction.h"
#include "routing/ref_routing.h"
#include "transition/plan_vlayers.h"
#include "transition/replay.h"
#include "small_fabrics.h"
#include "unit.h"

#define N 8

static void init(struct dqr_reactor *x)
{
	struct dqr_options o;

	dqr_options_init(&o);
	dqr_reactor_init(x, &o);
}

/* The VLs OpenSM offers with qos TRUE on 8 data VLs. */
static void all_vls(struct dqr_reactor *x)
{
	memset(&x->caps, 0, sizeof(x->caps));
	x->caps.qos = 1;
	x->caps.max_op_vls = 4;
	x->caps.vls = 8;
}

/* The reactor's answer to cur; the update's return value. */
static int answer(struct dqr_reactor *x, const struct dqr_fabric *cur,
		  struct dqr_reaction *r)
{
	struct dqr_fabric *p;
	struct dqr_topo_diff d;
	int ret;

	REQUIRE(dqr_react_project(x, cur, &p, &d) == 0);
	ret = dqr_react_update(x, p, &d, NULL, r);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	return ret;
}

/* 1 when one of the notes has that level, code and text. */
static int said(const struct dqr_reactor *x, enum dqr_note_level level,
		const char *code, const char *text)
{
	unsigned i;

	for (i = 0; i < x->notes.len; i++)
		if (x->notes.note[i].level == level &&
		    !strcmp(x->notes.note[i].code, code ? code : "") &&
		    strstr(x->notes.note[i].text, text))
			return 1;
	return 0;
}

static void test_ring(void)
{
	static const struct dqr_in_flight settled, mixed = { .mixed = 1 };
	static const struct dqr_in_flight unsettled = { .unsettled = 1 };
	static const struct dqr_in_flight in_list = { .unsettled = 1,
						      .deps_in_list = 1 };
	struct dqr_fabric *f = ring_fabric(N), *cur;
	struct dqr_lfts *t;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_start st;
	struct dqr_plan p;
	struct dqr_plan_report rep;
	enum dqr_planner used;

	REQUIRE(f);
	t = ring_as_line(f, N);
	init(&x);
	/* nothing started: a full routing must */
	cur = dqr_fabric_clone(f);
	REQUIRE(cur);
	CHECK_EQ(dqr_react_project(&x, cur, &(struct dqr_fabric *){ NULL },
				   &(struct dqr_topo_diff){ 0 }), 1);
	CHECK_EQ(dqr_react_start(&x, f, &t, "line", &st), 0);
	CHECK(x.ready);
	CHECK(said(&x, DQR_NOTE_INFO, NULL, "channel list of"));
	CHECK(!strcmp(dqr_topology_name(&x), "any"));

	/* a fault: an update, proved against the list when settled */
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 3, 1));
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK_EQ(r.layer, 0);
	CHECK(r.target == x.recon.cur);
	CHECK(dqr_react_held_list(&x, &r, &settled) == x.recon.cl);
	CHECK(dqr_react_held_list(&x, &r, &in_list) == x.recon.cl);
	/* a mix of states, or older packets the list never saw: none */
	CHECK(dqr_react_held_list(&x, &r, &mixed) == NULL);
	CHECK(dqr_react_held_list(&x, &r, &unsettled) == NULL);
	/* a base's tables were never the list's */
	CHECK(dqr_react_held_list(&x, NULL, &settled) == NULL);
	dqr_plan_init(&p);
	CHECK_EQ(dqr_react_plan(&x, f, t, r.target, x.recon.cl, &settled, &p,
				&rep, &used), 0);
	CHECK(rep.safe);
	CHECK_EQ(used, DQR_PLANNER_ONE_LAYER);
	dqr_plan_release(&p);
	CHECK(!dqr_react_second_layer(&x));

	/* the same cabling again: nothing to do */
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UNCHANGED);

	/* the cable back: from the original tables, whose list is new */
	REQUIRE(dqr_fabric_link(cur, 3, 1, 4, 2) == 0);
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_RESTART);
	CHECK(!memcmp(x.recon.cur->port, t->port,
		      (size_t)t->num_switches * t->lid_count));
	CHECK(dqr_react_held_list(&x, &r, &settled) == NULL);

	dqr_reactor_release(&x);
	dqr_fabric_free(cur);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void test_start(void)
{
	struct dqr_fabric *f = ring_fabric(5);
	struct dqr_lfts *t;
	struct dqr_reactor x;
	struct dqr_start st;

	REQUIRE(f);
	/* clockwise round a ring: a credit loop, replaced by up*\/down* */
	t = ring_clockwise(f, 5);
	init(&x);
	CHECK_EQ(dqr_react_start(&x, f, &t, "clockwise", &st), 0);
	CHECK(x.ready && x.updn_instead);
	CHECK(said(&x, DQR_NOTE_ERROR, "29", "have a credit loop on one VL"));
	dqr_reactor_release(&x);
	dqr_lfts_free(t);

	/* a base that keeps routes apart by SL meant it: DQR stays off */
	t = ring_clockwise(f, 5);
	init(&x);
	dqr_topology_any(&x, 1);
	CHECK_EQ(dqr_react_start(&x, f, &t, "lash", &st), 1);
	CHECK(!x.ready && !x.updn_instead);
	CHECK(said(&x, DQR_NOTE_INFO, NULL, "is cyclic: DQR needs"));
	CHECK(!said(&x, DQR_NOTE_ERROR, "13", ""));
	dqr_reactor_release(&x);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* A fabric with a cable its start lacked is new hardware. */
static void test_new_hardware(void)
{
	struct dqr_fabric *f = ring_fabric(N), *start;
	struct dqr_lfts *t;
	struct dqr_reactor x;
	struct dqr_start st;
	struct dqr_fabric *p;
	struct dqr_topo_diff d;

	REQUIRE(f);
	start = dqr_fabric_clone(f);
	REQUIRE(start);
	dqr_fabric_unlink_port(start, dqr_port_index(start, 2, 1));
	t = ring_as_line(f, N);
	init(&x);
	REQUIRE(dqr_react_start(&x, start, &t, "line", &st) == 0);
	CHECK_EQ(dqr_react_project(&x, f, &p, &d), 1);
	CHECK(p == NULL);
	CHECK(said(&x, DQR_NOTE_INFO, NULL, "1 new cables"));
	dqr_reactor_release(&x);
	dqr_lfts_free(t);
	dqr_fabric_free(start);
	dqr_fabric_free(f);
}

/* The 4-ary 3-tree, its tables by routing kind, and its topology. */
static struct dqr_fabric *kary(enum dqr_ref_kind kind, struct dqr_lfts **t)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("kary:4,3", &s, &pl);
	char err[256];

	REQUIRE(f);
	REQUIRE(dqr_ref_route(f, &s, pl, kind, t, err, sizeof(err)) == 0);
	free(pl);
	return f;
}

/* The node named name in f; the test stops when there is none. */
static uint32_t node_of(const struct dqr_fabric *f, const char *name)
{
	uint32_t n = dqr_fabric_find_name(f, name);

	REQUIRE(n != DQR_NONE);
	return n;
}

static uint32_t port_of(const struct dqr_fabric *f, const char *name,
			unsigned num)
{
	return dqr_port_index(f, node_of(f, name), num);
}

/*
 * OpenSM's ftree (lib's model of it) cannot keep this cable's pairs in
 * one layer: fallback=base routes afresh, fallback=none uploads what DQR
 * has, never proved against the list.
 */
static void test_fallback(void)
{
	static const struct dqr_in_flight settled;
	struct dqr_lfts *t;
	struct dqr_fabric *f = kary(DQR_REF_FTREE_MOD, &t), *cur;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_start st;

	cur = dqr_fabric_clone(f);
	REQUIRE(cur);
	dqr_fabric_unlink_port(cur, port_of(cur, "sw-L1-0000", 7));
	init(&x);
	REQUIRE(dqr_react_start(&x, f, &t, "ftree", &st) == 0);
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_FALLBACK);
	CHECK_EQ(r.why, DQR_FALL_NO_ROUTE);
	CHECK(r.unrouted > 0);
	CHECK(r.target == NULL);
	/* no fat tree of lib's: no second layer to try, and it says so */
	CHECK(said(&x, DQR_NOTE_INFO, NULL, "needs the fat tree of"));
	dqr_reactor_release(&x);

	init(&x);
	x.opts.fallback = DQR_FALLBACK_NONE;
	REQUIRE(dqr_react_start(&x, f, &t, "ftree", &st) == 0);
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK_EQ(r.layer, -1);
	CHECK(r.unrouted > 0);
	CHECK(dqr_react_held_list(&x, &r, &settled) == NULL);
	dqr_reactor_release(&x);

	dqr_fabric_free(cur);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/*
 * x started again on f with a copy of its base tables t0 (*t, the
 * caller's to free); a copy of f returned, for the caller to cut and
 * answer().
 */
static struct dqr_fabric *fresh_start(struct dqr_reactor *x,
				      const struct dqr_fabric *f,
				      const struct dqr_lfts *t0,
				      struct dqr_lfts **t)
{
	struct dqr_fabric *cur;
	struct dqr_start st;

	*t = dqr_lfts_clone(t0);
	REQUIRE(*t && dqr_react_start(x, f, t, "uturn", &st) == 0);
	cur = dqr_fabric_clone(f);
	REQUIRE(cur);
	return cur;
}

/* Every cable of switch sw of f cut in cur, a copy of f. */
static void lose_switch(const struct dqr_fabric *f, struct dqr_fabric *cur,
			uint32_t sw)
{
	unsigned pn;

	dqr_for_each_linked_port(f, f->switches[sw], pn)
		dqr_fabric_unlink_port(cur, dqr_port_index(cur, f->switches[sw],
							   pn));
}

/*
 * uturn's fat tree with stretch=1: what one layer leaves goes on the
 * re-routing layer (SLs and SL2VL the topology's), or, without the VLs,
 * nowhere (ERR DQ25: a lost switch one layer cannot hold).
 */
static void test_rerouting_layer(void)
{
	static const struct dqr_in_flight settled;
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("kary:4,3", &s, &pl), *cur;
	struct dqr_lfts *t, *t0;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_plan p;
	struct dqr_plan_report rep;
	enum dqr_planner used;
	uint32_t *links, n, i, anchor_mid;
	uint8_t vl[16];
	int found = 0;

	REQUIRE(f);
	free(pl);
	init(&x);
	all_vls(&x);
	x.opts.stretch = 1;
	REQUIRE(dqr_choose_fat_tree(&x, f, &t0) == 0);
	CHECK(!strcmp(dqr_topology_name(&x), "fat tree"));
	CHECK(!strcmp(x.topo.routing, "uturn"));
	n = switch_links(f, &links);
	REQUIRE(n);
	for (i = 0; i < n && !found; i++) {
		cur = fresh_start(&x, f, t0, &t);
		dqr_fabric_unlink_port(cur, links[i]);
		CHECK_EQ(answer(&x, cur, &r), 0);
		if (r.layer > 0) {
			found = 1;
			CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
			CHECK(dqr_react_second_layer(&x));
			CHECK(r.target != x.recon.cur);
			CHECK(dqr_topology_sets_sls(&x));
			CHECK(dqr_topology_rerouting(&x) != NULL);
			CHECK(dqr_react_held_list(&x, &r, &settled) == NULL);
			/* a switch's SL2VL table is the layer's, all 16 */
			CHECK_EQ(dqr_topology_sl2vl(&x, f->nodes[
					f->switches[0]].guid, 1, 2, vl), 16);
			dqr_plan_init(&p);
			CHECK_EQ(dqr_react_plan(&x, cur, t, r.target, NULL,
						&settled, &p, &rep, &used), 0);
			CHECK_EQ(used, DQR_PLANNER_REROUTING);
			dqr_plan_release(&p);
		}
		dqr_fabric_free(cur);
		dqr_lfts_free(t);
	}
	CHECK(found);

	/*
	 * Where OpenSM programs no SL2VL tables there is no layer (and no
	 * stretch): a fault one layer cannot hold falls back, saying why.
	 * Every single switch is held (test_plane_entry); two switches of
	 * the anchor's pod above its leaves are not, always.
	 */
	x.caps.qos = 0;
	x.opts.stretch = DQR_STRETCH_OFF;
	anchor_mid = f->nodes[node_of(f, "sw-L2-0000")].sw_index;
	for (i = 0, found = 0; i < f->num_switches && !found; i++) {
		cur = fresh_start(&x, f, t0, &t);
		lose_switch(f, cur, anchor_mid);
		lose_switch(f, cur, i);
		CHECK_EQ(answer(&x, cur, &r), 0);
		if (r.answer == DQR_ANSWER_FALLBACK) {
			found = 1;
			CHECK(said(&x, DQR_NOTE_ERROR, "25", "'qos TRUE'"));
			CHECK(!dqr_topology_sets_sls(&x));
		}
		dqr_fabric_free(cur);
		dqr_lfts_free(t);
	}
	CHECK(found);

	free(links);
	dqr_reactor_release(&x);
	dqr_lfts_free(t0);
	dqr_fabric_free(f);
}

/*
 * Every switch of uturn's 4-ary 3-tree lost alone, on one VL: DQR holds
 * the repair, the anchor's pod too, whose switches above the leaves
 * need the plane plug-in (ftree/plane_entry.h: without it those four
 * fall back), and its tables reach every pair a cable still joins, loop
 * free and acyclic.
 */
static void test_plane_entry(void)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("kary:4,3", &s, &pl), *cur;
	struct dqr_lfts *t, *t0;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_judgement j;
	uint32_t i;
	int k;

	REQUIRE(f);
	free(pl);
	init(&x);
	REQUIRE(dqr_choose_fat_tree(&x, f, &t0) == 0);
	for (i = 0; i < f->num_switches; i++) {
		cur = fresh_start(&x, f, t0, &t);
		lose_switch(f, cur, i);
		CHECK_EQ(answer(&x, cur, &r), 0);
		CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
		CHECK_EQ(r.layer, 0);
		REQUIRE(dqr_react_judge(&x, cur, x.recon.cur, &j) == 0);
		CHECK(dqr_judgement_safe(&j));
		for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
			CHECK_EQ(j.v.unreachable[k], j.v.disconnected[k]);
		dqr_judgement_release(&j);
		dqr_fabric_free(cur);
		dqr_lfts_free(t);
	}
	dqr_reactor_release(&x);
	dqr_lfts_free(t0);
	dqr_fabric_free(f);
}

/* x's answer to the cables at ports cut, a trap's view (no sweep). */
static void answer_cut(struct dqr_reactor *x, const uint32_t *ports,
		       uint32_t n, struct dqr_reaction *r)
{
	struct dqr_fabric *p;
	struct dqr_topo_diff d;

	REQUIRE(dqr_react_project_cut(x, ports, n, DQR_NONE, &p, &d) == 0);
	CHECK_EQ(dqr_react_update(x, p, &d, NULL, r), 0);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
}

/*
 * The fast path's view of a fault (the cables a trap's PortInfo found
 * down, cut from the reference) gets the same answer as the sweep's
 * (the subnet as it is, projected): a leaf uplink, then a whole middle
 * switch on top of it.  A trap that finds nothing new cuts nothing.
 */
static void test_project_cut(void)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("kary:4,3", &s, &pl), *cur, *p;
	struct dqr_lfts *t, *t0, *tc;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_topo_diff d;
	uint32_t up, sw, ports[16], n = 0;
	unsigned pn;

	REQUIRE(f);
	free(pl);
	init(&x);
	REQUIRE(dqr_choose_fat_tree(&x, f, &t0) == 0);
	up = port_of(f, "sw-L1-0000", 5);
	sw = node_of(f, "sw-L2-0005");
	dqr_for_each_linked_port(f, sw, pn)
		ports[n++] = dqr_port_index(f, sw, pn);

	cur = fresh_start(&x, f, t0, &t);
	dqr_fabric_free(cur);
	answer_cut(&x, &up, 1, &r);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK_EQ(r.res.ports_failed, 2);
	answer_cut(&x, ports, n, &r);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK_EQ(r.res.ports_failed, 2 * n);
	tc = dqr_lfts_clone(x.recon.cur);
	REQUIRE(tc);
	/* the same ports again: nothing new */
	REQUIRE(dqr_react_project_cut(&x, &up, 1, DQR_NONE, &p, &d) == 0);
	CHECK_EQ(d.num_missing_ports, x.recon.num_down);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	dqr_lfts_free(t);

	cur = fresh_start(&x, f, t0, &t);
	dqr_fabric_unlink_port(cur, up);
	CHECK_EQ(answer(&x, cur, &r), 0);
	lose_switch(f, cur, f->nodes[sw].sw_index);
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK(!memcmp(tc->port, x.recon.cur->port,
		      (size_t)tc->num_switches * tc->lid_count));
	dqr_fabric_free(cur);
	dqr_lfts_free(t);
	dqr_lfts_free(tc);
	dqr_reactor_release(&x);
	dqr_lfts_free(t0);
	dqr_fabric_free(f);
}

/* A mesh: lib's up*\/down* from the corner and the mesh plug-in. */
/* p from held on f replays safely and ends at target. */
static void replays(const struct dqr_fabric *f, const struct dqr_lfts *held,
		    const struct dqr_plan *p, const struct dqr_lfts *target)
{
	struct dqr_replay_report rr;
	struct dqr_lfts *end = NULL;

	REQUIRE(dqr_plan_replay(f, held, p, &end, &rr) == 0);
	CHECK(dqr_replay_ok(&rr));
	CHECK(end && end->lid_count == target->lid_count &&
	      !memcmp(end->port, target->port,
		      (size_t)end->num_switches * end->lid_count));
	dqr_replay_report_release(&rr);
	dqr_lfts_free(end);
}

/* One cable fault answered by the reactor, from the start's tables. */
struct fault_case {
	struct dqr_fabric *f, *cur;
	struct dqr_lfts *held;
	struct dqr_reactor x;
	struct dqr_reaction r;
};

/* spec routed as the plugin routes it; switch name's port cut. */
static void fault_open(struct fault_case *c, const char *spec,
		       const char *name, uint8_t port)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_lfts *t;
	struct dqr_start st;
	uint32_t node;

	c->f = gen_fabric(spec, &s, &pl);
	REQUIRE(c->f);
	free(pl);
	init(&c->x);
	if (s.kind == DQR_GEN_MESH)
		REQUIRE(dqr_choose_grid(&c->x, c->f, &t) == 0);
	else
		REQUIRE(dqr_choose_fat_tree(&c->x, c->f, &t) == 0);
	REQUIRE(dqr_react_start(&c->x, c->f, &t, c->x.topo.routing, &st) ==
		0);
	dqr_lfts_free(t);
	c->held = dqr_lfts_clone(c->x.recon.cur);
	node = dqr_fabric_find_name(c->f, name);
	c->cur = dqr_fabric_clone(c->f);
	REQUIRE(c->held && node != DQR_NONE && c->cur);
	dqr_fabric_unlink_port(c->cur, dqr_port_index(c->cur, node, port));
	CHECK_EQ(answer(&c->x, c->cur, &c->r), 0);
	CHECK_EQ(c->r.answer, DQR_ANSWER_UPDATE);
}

static void fault_close(struct fault_case *c)
{
	dqr_fabric_free(c->cur);
	dqr_lfts_free(c->held);
	dqr_reactor_release(&c->x);
	dqr_fabric_free(c->f);
}

/*
 * c's change planned with fl in flight: safe, one drain, replayed to the
 * new tables; a stage that waits for a cycle names one, the first stage
 * none.  Its report in *rep.
 */
static void plan_one_drain(struct fault_case *c, struct dqr_dyn_order *cl,
			   const struct dqr_in_flight *fl,
			   struct dqr_plan_report *rep)
{
	struct dqr_plan p;
	enum dqr_planner used;
	char buf[1024];
	uint32_t s;

	dqr_plan_init(&p);
	CHECK_EQ(dqr_react_plan(&c->x, c->cur, c->held, c->r.target, cl, fl,
				&p, rep, &used), 0);
	CHECK(rep->safe);
	CHECK_EQ(dqr_plan_drains(&p), 1);
	CHECK(!rep->folded ||
	      p.stage_drain[p.num_stages - 1] == DQR_DRAIN_WITHDRAW);
	replays(c->cur, c->held, &p, c->r.target);
	CHECK_EQ(dqr_plan_laxer_drains(c->cur, c->held, &p, NULL), 0);
	for (s = 0; s < p.num_stages; s++) {
		REQUIRE(dqr_plan_wait_cycle(c->cur, c->held, &p, s, buf,
					    sizeof(buf)) == 0);
		if (p.stage_drain[s] == DQR_DRAIN_CYCLE)
			CHECK(strstr(buf, "dependency cycle of") == buf);
		else if (!s)
			CHECK(!buf[0]);
	}
	dqr_plan_release(&p);
}

/*
 * A plan waits one drain at most.  On uturn's 4-ary 3-tree a leaf
 * outside the anchor's pod losing an uplink is a fault whose proved plan
 * waits two: the middle switch's detour runs through the anchor's pod,
 * whose middle switch routed the leaf's LID through it.  With packets of
 * an earlier state in flight only the list knows them: the proved plan
 * stays, folded after its first drain.  Settled, the exact planner's
 * plan waits one drain without withdrawing anything.
 */
static void test_fewer_drains(void)
{
	static const struct dqr_in_flight settled;
	static const struct dqr_in_flight in_list = { .unsettled = 1,
						      .deps_in_list = 1 };
	struct fault_case c;
	struct dqr_plan_report rep;
	struct dqr_dyn_order *cl;
	size_t mark;

	fault_open(&c, "kary:4,3", "sw-L1-0004", 6);
	CHECK(!strcmp(c.x.topo.routing, "uturn"));
	cl = dqr_react_held_list(&c.x, &c.r, &in_list);
	REQUIRE(cl && cl == dqr_react_held_list(&c.x, &c.r, &settled));
	mark = dqr_dyn_mark(cl);
	plan_one_drain(&c, cl, &in_list, &rep);
	CHECK(rep.proved && rep.folded == 2 && rep.withdrawn > 0);
	dqr_dyn_rollback(cl, mark);
	plan_one_drain(&c, cl, &settled, &rep);
	CHECK(!rep.proved && !rep.folded && !rep.withdrawn);
	CHECK_EQ(dqr_dyn_mark(cl), mark);
	fault_close(&c);
}

/*
 * Up*\/down* from a corner of a 4x4 mesh: losing sw-x2-y1's cable at
 * port 1, the exact plan waits twice, as the detours of one column take
 * turns.  Folded, it waits once: the later stages' entries that still
 * forward are withdrawn before that drain and everything else follows
 * it, and every stage replays safely to the new tables, waiting
 * wherever the exact judgement says so.
 */
static void test_fold_mesh(void)
{
	static const struct dqr_in_flight settled;
	struct fault_case c;
	struct dqr_plan_report rep;

	fault_open(&c, "mesh:4x4", "sw-x2-y1", 1);
	CHECK(!strcmp(c.x.topo.routing, "updn"));
	plan_one_drain(&c, dqr_react_held_list(&c.x, &c.r, &settled),
		       &settled, &rep);
	CHECK(!rep.proved && rep.folded == 2 && rep.withdrawn > 0);
	fault_close(&c);
}

static void test_mesh(void)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("mesh:4x4", &s, &pl), *cur;
	struct dqr_lfts *t;
	struct dqr_reroute_opts o;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_start st;
	struct dqr_plugin_stats ps;

	REQUIRE(f);
	free(pl);
	init(&x);
	REQUIRE(dqr_choose_grid(&x, f, &t) == 0);
	CHECK(!strcmp(dqr_topology_name(&x), "mesh"));
	CHECK(!strcmp(x.topo.routing, "updn"));
	CHECK(strstr(x.topo.shape, "16 switches") != NULL);
	dqr_react_reroute_opts(&x, &o);
	CHECK(o.plugin != NULL);
	REQUIRE(dqr_react_start(&x, f, &t, "updn", &st) == 0);
	cur = dqr_fabric_clone(f);
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, f->switches[5], 1));
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	dqr_topology_plugin_stats(&x, &ps);
	CHECK(ps.present && !ps.layered);
	CHECK(ps.links_failed >= 1);
	CHECK(said(&x, DQR_NOTE_INFO, NULL, "mesh plug-in:"));
	dqr_fabric_free(cur);
	dqr_reactor_release(&x);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/*
 * A torus with qos TRUE: e-cube on virtual layers.  The layered list
 * proves plans also after a restart, path SLs are the layers', SL2VL maps
 * SL l to VL l over every layer a move may open.
 */
static void test_vlayers(void)
{
	static const struct dqr_in_flight settled;
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("torus:5x5", &s, &pl), *cur;
	struct dqr_lfts *t;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_start st;
	struct dqr_judgement j;
	uint32_t a, b, ab;
	uint8_t vl[16];

	REQUIRE(f);
	free(pl);
	init(&x);
	all_vls(&x);
	REQUIRE(dqr_choose_grid(&x, f, &t) == 0);
	CHECK(!strcmp(dqr_topology_name(&x), "vlayers"));
	CHECK(!strcmp(dqr_topology_whose(&x), "e-cube's"));
	CHECK(said(&x, DQR_NOTE_SYS, NULL, "e-cube on 4 virtual layers"));
	REQUIRE(dqr_react_start(&x, f, &t, "e-cube", &st) == 0);
	CHECK(x.recon.tl != NULL);
	CHECK(dqr_topology_sets_sls(&x));
	CHECK_EQ(dqr_topology_sl2vl(&x, 0, 1, 2, vl), 8);
	CHECK_EQ(vl[3], 3);
	/* a route's SL is its layer: the same both ways on a pair */
	a = dqr_switch_lid(f, 0);
	b = dqr_switch_lid(f, 12);
	ab = dqr_topology_path_sl(&x, a, b, 15);
	CHECK(ab < dqr_vlayers_count(x.recon.tl));
	REQUIRE(dqr_react_judge(&x, f, t, &j) == 0);
	CHECK_EQ(j.kind, DQR_JUDGED_VLAYERS);
	CHECK(dqr_judgement_safe(&j));
	dqr_judgement_release(&j);

	cur = dqr_fabric_clone(f);
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, f->switches[6], 1));
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	CHECK(dqr_react_held_list(&x, &r, &settled) != NULL);
	/* the cable back: the intact torus */
	dqr_fabric_free(cur);
	cur = dqr_fabric_clone(f);
	CHECK_EQ(answer(&x, cur, &r), 0);
	CHECK_EQ(r.answer, DQR_ANSWER_RESTART);
	CHECK(dqr_react_held_list(&x, &r, &settled) != NULL);
	dqr_fabric_free(cur);
	dqr_reactor_release(&x);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* Every stage union of p from held, judged by the layers tp gives. */
static int stages_hold(const struct dqr_fabric *f, const struct dqr_lfts *held,
		       const struct dqr_plan *p,
		       const struct dqr_vlayers_plan *tp)
{
	struct dqr_lfts *cur = dqr_lfts_clone(held), *next;
	uint32_t k, i;
	char why[256];
	int ok = 1;

	REQUIRE(cur);
	for (k = 0; ok && k < p->num_stages; k++) {
		next = dqr_lfts_clone(cur);
		REQUIRE(next);
		for (i = p->stage_off[k]; i < p->stage_off[k + 1]; i++)
			dqr_lft_set(next, p->entries[i].sw, p->entries[i].lid,
				    p->entries[i].new_port);
		ok = dqr_union_vlayers_ok(f, cur, next, &tp->lay, why,
					  sizeof(why)) == 1;
		dqr_lfts_free(cur);
		cur = next;
	}
	dqr_lfts_free(cur);
	return ok;
}

/*
 * A repair that moves pairs of switches to other layers (the IN paper's
 * chains do on most first faults of a 6x6 torus): the SA answers their
 * old SL while the change goes up, every stage holds for the packets of
 * the pairs that keep theirs, and the new SL is answered once the change
 * is in force.
 */
static void test_vlayers_moved_sls(void)
{
	static const struct dqr_in_flight settled;
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f = gen_fabric("torus:6x6", &s, &pl), *cur;
	struct dqr_lfts *t, *held;
	struct dqr_reactor x;
	struct dqr_reaction r;
	struct dqr_start st;
	struct dqr_plan p;
	struct dqr_plan_report rep;
	struct dqr_vlayers_plan tp;
	enum dqr_planner used;
	uint32_t port, sw, a, b, moved = 0, sa = 0, sb = 0;
	unsigned pn;

	REQUIRE(f);
	free(pl);
	for (sw = 0; !moved && sw < f->num_switches; sw++)
		for (pn = 1; !moved && pn <= 4; pn++) {
			init(&x);
			all_vls(&x);
			x.opts.intermediates = 2;
			REQUIRE(dqr_choose_grid(&x, f, &t) == 0);
			REQUIRE(dqr_react_start(&x, f, &t, "e-cube", &st) ==
				0);
			held = dqr_lfts_clone(t);
			REQUIRE(held);
			cur = dqr_fabric_clone(f);
			port = dqr_port_index(cur, f->switches[sw], pn);
			dqr_fabric_unlink_port(cur, port);
			CHECK_EQ(answer(&x, cur, &r), 0);
			CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
			for (a = 0; !moved && a < f->num_switches; a++)
				for (b = 0; b < f->num_switches; b++) {
					if (dqr_vlayers_sl(x.recon.tl, a, b) ==
					    dqr_vlayers_base_sl(x.recon.tl, a,
								b))
						continue;
					moved = 1;
					sa = a;
					sb = b;
					break;
				}
			if (moved)
				break;
			dqr_fabric_free(cur);
			dqr_lfts_free(held);
			dqr_lfts_free(t);
			dqr_reactor_release(&x);
		}
	REQUIRE(moved);
	a = dqr_switch_lid(f, sa);
	b = dqr_switch_lid(f, sb);
	/* the change is planned, not in force: the SA answers the old SL */
	CHECK_EQ(dqr_topology_path_sl(&x, a, b, 15),
		 dqr_vlayers_base_sl(x.recon.tl, sa, sb));
	dqr_plan_init(&p);
	REQUIRE(dqr_react_plan(&x, cur, held, x.recon.cur,
			       dqr_react_held_list(&x, &r, &settled), &settled,
			       &p, &rep, &used) == 0);
	CHECK(rep.safe);
	CHECK_EQ(used, DQR_PLANNER_VLAYERS);
	/* the stages hold for the packets sent with the SLs answered */
	dqr_vlayers_plan_sent(&tp, x.recon.tl, x.recon.ref,
			      dqr_topology_vlayers_answered(&x));
	CHECK(tp.answered != NULL);
	CHECK(stages_hold(cur, held, &p, &tp));
	/* in force: the new SL */
	CHECK_EQ(dqr_react_in_force(&x), 0);
	CHECK_EQ(dqr_topology_path_sl(&x, a, b, 15),
		 dqr_vlayers_sl(x.recon.tl, sa, sb));
	dqr_vlayers_plan_sent(&tp, x.recon.tl, x.recon.ref,
			      dqr_topology_vlayers_answered(&x));
	CHECK(tp.answered == NULL);
	dqr_plan_release(&p);
	dqr_fabric_free(cur);
	dqr_lfts_free(held);
	dqr_reactor_release(&x);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void test_notes(void)
{
	struct dqr_notes ns;
	unsigned i;

	dqr_notes_clear(&ns);
	for (i = 0; i < DQR_NOTES_MAX + 3; i++)
		dqr_note(&ns, DQR_NOTE_ERROR, "99", "note %u", i);
	CHECK_EQ(ns.len, DQR_NOTES_MAX);
	CHECK_EQ(ns.dropped, 3);
	CHECK(!strcmp(ns.note[0].code, "99"));
	CHECK(!strcmp(ns.note[1].text, "note 1"));
}

int main(void)
{
	test_ring();
	test_start();
	test_new_hardware();
	test_fallback();
	test_rerouting_layer();
	test_plane_entry();
	test_project_cut();
	test_mesh();
	test_fewer_drains();
	test_fold_mesh();
	test_vlayers();
	test_vlayers_moved_sls();
	test_notes();
	return unit_finish();
}
