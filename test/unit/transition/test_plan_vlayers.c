/*
 * test_plan_vlayers.c - transitions of e-cube on the virtual layers of a
 * torus (dqr_plan_proved_vlayers, dqr_plan_change_vlayers): every single
 * cable fault of a 5x5 torus repaired by torus_layers is proved, every
 * stage replays with each consecutive union loop free and acyclic per
 * layer and ends at the repaired tables; the one-layer proof and the
 * one-layer check refuse the same change (a ring is a cycle on one
 * layer); a loop and a cyclic layer made by hand are refused, and
 * from such a cyclic layer to good tables the change is withdrawn first;
 * without the list the change is withdrawn and installed, and replays as
 * well; from tables the list never held, every proved plan replays clean.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "vlayers/vlayers.h"
#include "routing/ref_routing.h"
#include "shape/grid_shape.h"
#include "small_fabrics.h"
#include "transition/plan_vlayers.h"
#include "transition/transition.h"
#include "unit.h"

static struct dqr_vlayers *layers_of(const struct gen_world *w)
{
	struct dqr_vlayers *tl = NULL;
	char err[256];

	REQUIRE(dqr_vlayers_new(w->f, &w->g, w->t, &tl, err,
				sizeof(err)) == 0);
	return tl;
}

/*
 * w's layers after the cable at port failed: the fabric p as the sweep
 * sees it, and in t w's tables repaired on tl's layers.
 */
struct fault {
	struct dqr_vlayers *tl;
	struct dqr_vlayers_plan tp;
	struct dqr_fabric *p;
	struct dqr_lfts *t;
};

static void fault_open(struct fault *x, const struct gen_world *w,
		       uint32_t port)
{
	struct dqr_vlayers_stats st;

	x->tl = layers_of(w);
	dqr_vlayers_plan_init(&x->tp, x->tl, w->f);
	x->t = dqr_lfts_clone(w->t);
	REQUIRE(x->t);
	x->p = cut_cables(w->f, &port, 1, NULL);
	REQUIRE(dqr_vlayers_repair(x->tl, x->p, x->t, &st) == 0);
}

static void fault_close(struct fault *x)
{
	dqr_fabric_free(x->p);
	dqr_lfts_free(x->t);
	dqr_vlayers_free(x->tl);
}

static int same_tables(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	uint32_t sw, lid;

	for (sw = 0; sw < a->num_switches; sw++)
		for (lid = 0; lid < a->lid_count; lid++)
			if (dqr_lft_get(a, sw, lid) != dqr_lft_get(b, sw, lid))
				return 0;
	return 1;
}

/*
 * Replays p from from: each entry's old port is what the state holds,
 * each consecutive union holds per layer, and the end is to.  The stages
 * whose union fails.
 */
static uint32_t replay(const struct dqr_fabric *f, const struct dqr_lfts *from,
		       const struct dqr_lfts *to, const struct dqr_plan *p,
		       const struct dqr_plan_vlayers *lay)
{
	struct dqr_lfts *cur = dqr_lfts_clone(from), *next;
	const struct dqr_plan_entry *e;
	uint32_t s, i, bad = 0;
	char why[256];

	REQUIRE(cur);
	for (s = 0; s < p->num_stages; s++) {
		next = dqr_lfts_clone(cur);
		REQUIRE(next);
		for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
			e = &p->entries[i];
			CHECK_EQ(dqr_lft_get(cur, e->sw, e->lid), e->old_port);
			dqr_lft_set(next, e->sw, e->lid, e->new_port);
		}
		if (dqr_union_vlayers_ok(f, cur, next, lay, why,
					 sizeof(why)) != 1) {
			fprintf(stderr, "stage %u: %s\n", s + 1, why);
			bad++;
		}
		dqr_lfts_free(cur);
		cur = next;
	}
	CHECK(same_tables(cur, to));
	dqr_lfts_free(cur);
	return bad;
}

/*
 * 1.  Every single cable fault of the torus: the repair's change is
 * proved on layers and replays clean; on one layer the old tables have
 * no channel list (the promise dqr_plan_proved() needs, so it proves
 * nothing without one) and the check refuses the new tables.
 */
static void test_every_link(const char *spec)
{
	struct dqr_channel_list one = { 0 };
	struct dqr_cycle cyc = { 0 };
	struct dqr_cdg *g;
	struct dqr_vlayers_verdict v;
	struct dqr_plan_report rep;
	struct dqr_plan plan;
	struct gen_world w;
	struct fault x;
	uint32_t i, proved = 0, bad = 0, stages = 0;
	uint32_t drains = 0;
	char why[256];

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	dqr_plan_init(&plan);
	g = dqr_cdg_build(w.f, w.t);
	REQUIRE(g);
	CHECK_EQ(dqr_channel_list_build(w.f, g, &one, &cyc), 1);
	CHECK(cyc.len > 0);
	dqr_channel_list_free(&one);
	dqr_cycle_free(&cyc);
	dqr_cdg_free(g);
	for (i = 0; i < w.num_links; i++) {
		fault_open(&x, &w, w.links[i]);
		REQUIRE(dqr_vlayers_verify(x.tl, x.p, x.t, &v) == 0);
		CHECK(v.acyclic);
		/* the generic check agrees with torus_layers' own */
		CHECK_EQ(dqr_union_vlayers_ok(x.p, x.t, x.t, &x.tp.lay, why,
					      sizeof(why)), v.acyclic);
		CHECK_EQ(dqr_union_vlayers_ok(x.p, w.t, w.t, &x.tp.lay, why,
					      sizeof(why)), 1);
		CHECK_EQ(dqr_union_vlayers_ok(x.p, x.t, x.t, NULL, why,
					      sizeof(why)), 0);
		CHECK_EQ(dqr_plan_proved(x.p, w.t, x.t, NULL, 0, NULL, &plan,
					 &rep), 0);
		if (dqr_plan_proved_vlayers(x.p, w.t, x.t, NULL, 0,
					    dqr_vlayers_list(x.tl),
					    &x.tp.lay, &plan, &rep) == 1) {
			proved++;
			CHECK(rep.proved && rep.safe);
			CHECK(rep.entries > 0);
			bad += replay(x.p, w.t, x.t, &plan, &x.tp.lay);
			stages += plan.num_stages;
			drains += dqr_plan_drains(&plan);
		} else {
			fprintf(stderr, "%s, cable %u: %s\n", spec, i,
				rep.reason);
		}
		fault_close(&x);
	}
	CHECK_EQ(proved, w.num_links);
	CHECK_EQ(bad, 0);
	printf("%s: %u of %u single cable faults proved on layers; %u "
	       "stages, %u drains\n", spec, proved, w.num_links, stages,
	       drains);
	dqr_plan_release(&plan);
	gen_world_close(&w);
}

/* The switch that owns lid (its own LID or its CA's). */
static uint32_t lid_switch(const struct dqr_fabric *f, uint32_t lid)
{
	uint32_t o = dqr_lid_owner(f, lid), node;

	if (o == DQR_NONE)
		return DQR_NONE;
	node = f->ports[o].node;
	if (!dqr_is_switch(f, node))
		node = dqr_peer_node(f, o);
	return f->nodes[node].sw_index;
}

/* A change that must not prove: refused, the list as it was. */
static void refused(const struct gen_world *w, struct dqr_vlayers *tl,
		    const struct dqr_vlayers_plan *tp, const struct dqr_lfts *t,
		    const char *what)
{
	struct dqr_dyn_order *cl = dqr_vlayers_list(tl);
	struct dqr_plan_report rep;
	struct dqr_plan plan;
	size_t mark = dqr_dyn_mark(cl);
	char why[256];

	dqr_plan_init(&plan);
	CHECK_EQ(dqr_plan_proved_vlayers(w->f, w->t, t, NULL, 0, cl, &tp->lay,
					 &plan, &rep), 0);
	CHECK(strstr(rep.reason, what) != NULL);
	CHECK_EQ(dqr_dyn_mark(cl), mark);
	CHECK_EQ(dqr_union_vlayers_ok(w->f, t, t, &tp->lay, why, sizeof(why)),
		 0);
	CHECK_EQ(dqr_plan_change_vlayers(w->f, w->t, t, cl, &tp->lay, NULL,
					 &plan, &rep), 0);
	CHECK_EQ(rep.safe, 0);
	CHECK_EQ(rep.old_ok, 1);
	CHECK_EQ(rep.new_ok, 0);
	printf("refused (%s): %s\n", what, rep.reason);
	dqr_plan_release(&plan);
}

/*
 * Tables held that are bad per layer (as a cable coming back under a
 * transition left mid-way makes them), towards good ones: withdrawn
 * first, stage 1 only withdraws and leaves a state that holds per layer,
 * and the rest replays clean from there to the new tables.
 */
static void held_bad(const struct gen_world *w,
		     const struct dqr_vlayers_plan *tp,
		     const struct dqr_lfts *bad)
{
	struct dqr_plan_report rep;
	struct dqr_plan plan;
	struct dqr_lfts *s1;
	const struct dqr_plan_entry *e;
	uint32_t i;
	char why[256];

	dqr_plan_init(&plan);
	CHECK_EQ(dqr_plan_change_vlayers(w->f, bad, w->t, NULL, &tp->lay,
					 NULL, &plan, &rep), 0);
	CHECK(rep.safe && rep.withdrawn && !rep.proved);
	CHECK(!rep.old_ok && rep.new_ok);
	CHECK(strstr(rep.reason, "withdrawn first") != NULL);
	REQUIRE(plan.num_stages == 2);
	CHECK(dqr_plan_stage_withdraws(&plan, 0));
	s1 = dqr_lfts_clone(bad);
	REQUIRE(s1);
	for (i = plan.stage_off[0]; i < plan.stage_off[1]; i++) {
		e = &plan.entries[i];
		dqr_lft_set(s1, e->sw, e->lid, e->new_port);
	}
	CHECK_EQ(dqr_union_vlayers_ok(w->f, s1, s1, &tp->lay, why,
				      sizeof(why)), 1);
	/* stage 2 from there; stage 1's own union is the bad state's */
	plan.stage_off[0] = plan.stage_off[1];
	CHECK_EQ(replay(w->f, s1, w->t, &plan, &tp->lay), 0);
	printf("held bad: %s\n", rep.reason);
	dqr_lfts_free(s1);
	dqr_plan_release(&plan);
}

/*
 * 2.  Changes made by hand are refused: a DLID sent round the square
 * (1,0) (2,0) (2,1) (1,1) (a loop), and row y = 0 sent always +x round
 * its ring (routes of layer 0 through both cuts: a cycle in that layer,
 * no loop).  An entry that only sends a DLID back where it came from is
 * a discard, not a loop: the union holds, the verifier cuts the pairs.
 */
static void test_bad_changes(void)
{
	static const uint32_t square[] = { 1, 2, 7, 6 };
	struct dqr_vlayers *tl;
	struct dqr_vlayers_plan tp;
	struct dqr_lfts *t;
	struct gen_world w;
	uint32_t lid, x, d, i;
	unsigned p;
	char why[256];

	gen_world_open(&w, "torus:5x5", DQR_REF_DOR_WRAP);
	tl = layers_of(&w);
	dqr_vlayers_plan_init(&tp, tl, w.f);

	/* a DLID of (3,3), far from the square */
	lid = 0;
	for (d = 1; d <= w.f->max_lid && !lid; d++)
		if (lid_switch(w.f, d) == 18)
			lid = d;
	REQUIRE(lid);
	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	for (i = 0; i < 4; i++) {
		p = switch_port_to(w.f, square[i], square[(i + 1) % 4]);
		REQUIRE(p);
		dqr_lft_set(t, square[i], lid, p);
	}
	refused(&w, tl, &tp, t, "loops");
	dqr_lfts_free(t);

	/* (2,0) sends the DLID back to (1,0), which sends it to (2,0) */
	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	dqr_lft_set(t, 1, lid, switch_port_to(w.f, 1, 2));
	dqr_lft_set(t, 2, lid, switch_port_to(w.f, 2, 1));
	CHECK_EQ(dqr_union_vlayers_ok(w.f, w.t, t, &tp.lay, why, sizeof(why)),
		 1);
	dqr_lfts_free(t);

	t = dqr_lfts_clone(w.t);
	REQUIRE(t);
	for (lid = 1; lid <= w.f->max_lid; lid++) {
		d = lid_switch(w.f, lid);
		if (d == DQR_NONE || d >= 5)
			continue;
		for (x = 0; x < 5; x++)
			if (x != d)
				dqr_lft_set(t, x, lid, 1);
	}
	refused(&w, tl, &tp, t, "cycle");
	held_bad(&w, &tp, t);
	dqr_lfts_free(t);
	dqr_vlayers_free(tl);
	gen_world_close(&w);
}

/*
 * 3.  Without a list nothing is proved: both tables hold per layer, so
 * the change is withdrawn, drained and installed (one stage when no
 * changed entry still forwards), and replays clean.
 */
static void test_withdraw(void)
{
	struct dqr_plan_report rep;
	struct dqr_plan plan;
	struct gen_world w;
	struct fault x;
	uint32_t i, two = 0, bad = 0;

	gen_world_open(&w, "torus:5x5", DQR_REF_DOR_WRAP);
	dqr_plan_init(&plan);
	for (i = 0; i < w.num_links; i++) {
		fault_open(&x, &w, w.links[i]);
		CHECK_EQ(dqr_plan_change_vlayers(x.p, w.t, x.t, NULL,
						 &x.tp.lay, NULL, &plan,
						 &rep), 0);
		CHECK(rep.safe && !rep.proved);
		CHECK(strstr(rep.reason, "no channel list") != NULL);
		CHECK_EQ(plan.num_stages, rep.withdrawn ? 2 : 1);
		two += rep.withdrawn > 0;
		bad += replay(x.p, w.t, x.t, &plan, &x.tp.lay);
		fault_close(&x);
	}
	CHECK(two > 0);
	CHECK_EQ(bad, 0);
	printf("without the list: %u of %u changes withdrawn first\n", two,
	       w.num_links);
	dqr_plan_release(&plan);
	gen_world_close(&w);
}

static uint32_t rnd_state = 2026;

static uint32_t rnd(uint32_t n)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % n;
}

/* 1 when every switch's route towards lid in t ends at lid's switch. */
static int all_reach(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     uint32_t lid)
{
	uint32_t sw, x, steps, dst = lid_switch(f, lid);

	for (sw = 0; sw < f->num_switches; sw++) {
		for (x = sw, steps = 0; x != dst && x != DQR_NONE &&
		     steps <= f->num_switches; steps++)
			x = dqr_next_switch(f, t, x, lid);
		if (x != dst)
			return 0;
	}
	return 1;
}

/*
 * 4.  From tables the list never held: a few entries of one DLID of the
 * e-cube tables turned to a random neighbour (still loop free), planned
 * back to e-cube with the list of the e-cube tables alone, as after a
 * restart.  Packets that take an old entry bring their layers to
 * switches downstream that the new tables never give them: every plan
 * the proof makes must replay clean, by the whole judgement, and the
 * proof must refuse some.
 */
static void test_foreign_from(const char *spec, unsigned trials)
{
	struct dqr_vlayers *tl;
	struct dqr_vlayers_plan tp;
	struct dqr_plan_report rep;
	struct dqr_plan plan;
	struct dqr_lfts *from;
	struct gen_world w;
	uint32_t lid, sw, k, n, node, proved = 0, refused = 0, bad = 0;
	unsigned i, pn, np;
	uint8_t nbr[16];
	int r;

	gen_world_open(&w, spec, DQR_REF_DOR_WRAP);
	dqr_plan_init(&plan);
	for (i = 0; i < trials; i++) {
		from = dqr_lfts_clone(w.t);
		REQUIRE(from);
		lid = 1 + rnd(w.f->max_lid);
		n = 1 + rnd(3);
		for (k = 0; k < n; k++) {
			sw = rnd(w.f->num_switches);
			node = w.f->switches[sw];
			np = 0;
			dqr_for_each_linked_port(w.f, node, pn)
				if (np < sizeof(nbr) &&
				    dqr_peer_switch(w.f, dqr_port_index(w.f,
						node, pn)) != DQR_NONE)
					nbr[np++] = (uint8_t)pn;
			if (np && sw != lid_switch(w.f, lid))
				dqr_lft_set(from, sw, lid, nbr[rnd(np)]);
		}
		if (!all_reach(w.f, from, lid) || same_tables(from, w.t)) {
			dqr_lfts_free(from);
			continue;
		}
		tl = layers_of(&w);
		dqr_vlayers_plan_init(&tp, tl, w.f);
		r = dqr_plan_proved_vlayers(w.f, from, w.t, NULL, 0,
					    dqr_vlayers_list(tl), &tp.lay,
					    &plan, &rep);
		REQUIRE(r >= 0);
		if (r) {
			proved++;
			bad += replay(w.f, from, w.t, &plan, &tp.lay) != 0;
		} else {
			refused++;
		}
		dqr_vlayers_free(tl);
		dqr_lfts_free(from);
	}
	CHECK_EQ(bad, 0);
	CHECK(proved > 0);
	CHECK(refused > 0);
	printf("%s: from foreign tables, %u plans proved (%u replay with a "
	       "failing union), %u refused\n", spec, proved, bad, refused);
	dqr_plan_release(&plan);
	gen_world_close(&w);
}

int main(void)
{
	test_every_link("torus:5x5");
	test_every_link("torus:4x4x3");
	test_bad_changes();
	test_withdraw();
	test_foreign_from("torus:5x5", 1000);
	test_foreign_from("torus:6x4", 1000);
	return unit_finish();
}
