/*
 * test_tolerance.c - a copy of the reactor (dqr_reactor_clone()) answers
 * a fault as the reactor itself would, and trying one leaves the
 * reactor as it was; the fault-tolerance walk (tolerance.h) counts every
 * single fault of a fat tree and a mesh, after a fault too.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order.h"
#include "reaction/base_choice.h"
#include "reaction/tolerance.h"
#include "reaction/what_if.h"
#include "small_fabrics.h"
#include "unit.h"

/* x started by the plugin's choice of base on spec's fabric (*f). */
static void start(struct dqr_reactor *x, const char *spec,
		  struct dqr_fabric **f)
{
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl = NULL;
	struct dqr_options o;
	struct dqr_lfts *t;
	struct dqr_start st;

	*f = gen_fabric(spec, &s, &pl);
	REQUIRE(*f);
	free(pl);
	dqr_options_init(&o);
	dqr_reactor_init(x, &o);
	if (!strncmp(spec, "kary", 4))
		REQUIRE(dqr_choose_fat_tree(x, *f, &t) == 0);
	else
		REQUIRE(dqr_choose_grid(x, *f, &t) == 0);
	REQUIRE(dqr_react_start(x, *f, &t, x->topo.routing, &st) == 0);
	dqr_lfts_free(t);
}

static int same_tables(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	return a->num_switches == b->num_switches &&
	       a->lid_count == b->lid_count &&
	       !memcmp(a->port, b->port,
		       (size_t)a->num_switches * a->lid_count);
}

/* The cut of ports answered by x itself; its new tables into *t. */
static void answer_cut(struct dqr_reactor *x, const uint32_t *ports,
		       uint32_t n, struct dqr_lfts **t)
{
	struct dqr_fabric *p;
	struct dqr_topo_diff d;
	struct dqr_reaction r;

	REQUIRE(dqr_react_project_cut(x, ports, n, DQR_NONE, &p, &d) == 0);
	REQUIRE(dqr_react_update(x, p, &d, NULL, &r) == 0);
	CHECK_EQ(r.answer, DQR_ANSWER_UPDATE);
	*t = dqr_lfts_clone(r.target);
	REQUIRE(*t);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
}

/*
 * A copy answers a switch fault with the tables the reactor gives it,
 * and the reactor's tables, list and cables down are untouched by the
 * copy's answer; the same after a first fault.
 */
static void test_clone_answers_alike(void)
{
	struct dqr_fabric *f;
	struct dqr_reactor x, y;
	struct dqr_what_if w;
	struct dqr_lfts *before, *mine;
	struct dqr_dyn_fingerprint fp;
	uint32_t ports[16], n, up, round;

	start(&x, "kary:4,3", &f);
	up = dqr_port_index(f, dqr_fabric_find_name(f, "sw-L1-0000"), 5);
	n = dqr_what_if_node_ports(f, dqr_fabric_find_name(f, "sw-L2-0005"),
				   ports);
	REQUIRE(n == 8);
	for (round = 0; round < 2; round++) {
		before = dqr_lfts_clone(x.recon.cur);
		REQUIRE(before);
		fp = dqr_dyn_fingerprint(x.recon.cl);
		REQUIRE(dqr_reactor_clone(&x, &y) == 0);
		CHECK(!strcmp(dqr_topology_name(&y), "fat tree"));
		REQUIRE(dqr_what_if(&y, ports, n, DQR_WHAT_IF_CYCLE, &w) == 0);
		CHECK(dqr_what_if_survived(&w));
		CHECK(w.diff.entries > 0);
		/* the reactor is as it was */
		CHECK(same_tables(x.recon.cur, before));
		CHECK(dqr_dyn_same(x.recon.cl, &fp));
		CHECK(dqr_dyn_valid(y.recon.cl));
		/* and answers as the copy did */
		answer_cut(&x, ports, n, &mine);
		CHECK(same_tables(mine, y.recon.cur));
		dqr_lfts_free(mine);
		dqr_what_if_release(&w);
		dqr_reactor_release(&y);
		dqr_lfts_free(before);
		/* the second round: from a fresh start that lost a leaf
		 * uplink first */
		dqr_reactor_release(&x);
		dqr_fabric_free(f);
		start(&x, "kary:4,3", &f);
		answer_cut(&x, &up, 1, &mine);
		dqr_lfts_free(mine);
	}
	dqr_reactor_release(&x);
	dqr_fabric_free(f);
}

/* Every single fault of x, counted. */
static void walk(const struct dqr_reactor *x, struct dqr_tolerance *t)
{
	REQUIRE(dqr_tolerance_begin(x, t) == 0);
	while (t->judged < t->num_faults)
		REQUIRE(dqr_tolerance_next(x, t) == 0);
	CHECK_EQ(t->fate[DQR_FATE_ABSORBED] + t->fate[DQR_FATE_DRAINED] +
		 t->fate[DQR_FATE_CUT], t->num_faults);
	CHECK_EQ(t->num_cut, t->fate[DQR_FATE_CUT]);
}

/*
 * The 4-ary 3-tree: 128 switch cables and 48 switches, each absorbed or
 * survived after a drain (dqr-sim --what-if all says the same: 176
 * survived, 48 drains, every one a switch's); after a leaf uplink is
 * lost, the other 127 cables and the 48 switches.
 */
static void test_fat_tree(void)
{
	struct dqr_fabric *f;
	struct dqr_reactor x;
	struct dqr_tolerance t;
	struct dqr_lfts *mine;
	char name[64];
	uint32_t up;

	start(&x, "kary:4,3", &f);
	walk(&x, &t);
	CHECK_EQ(t.num_cables, 128);
	CHECK_EQ(t.num_faults, 176);
	CHECK_EQ(t.fate[DQR_FATE_ABSORBED], 128);
	CHECK_EQ(t.fate[DQR_FATE_DRAINED], 48);
	CHECK_EQ(t.fate[DQR_FATE_CUT], 0);
	dqr_fault_name(f, t.faults[t.num_cables], name, sizeof(name));
	CHECK(!strncmp(name, "sw-L", 4) && !strchr(name, '['));
	dqr_fault_name(f, t.faults[0], name, sizeof(name));
	CHECK(strchr(name, '[') != NULL);
	dqr_tolerance_release(&t);

	up = dqr_port_index(f, dqr_fabric_find_name(f, "sw-L1-0000"), 5);
	answer_cut(&x, &up, 1, &mine);
	dqr_lfts_free(mine);
	walk(&x, &t);
	CHECK_EQ(t.num_cables, 127);
	CHECK_EQ(t.num_faults, 175);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&x);
	dqr_fabric_free(f);
}

/*
 * A 1-D mesh (a line of 4 switches): every cable and every inner switch
 * cuts pairs a cable path no longer joins, which is not a loss; the walk
 * finds none it cannot absorb.  A 4x4 mesh: 24 cables, 16 switches.
 */
static void test_mesh(void)
{
	struct dqr_fabric *f;
	struct dqr_reactor x;
	struct dqr_tolerance t;

	start(&x, "mesh:4", &f);
	walk(&x, &t);
	CHECK_EQ(t.num_faults, 3 + 4);
	CHECK_EQ(t.fate[DQR_FATE_CUT], 0);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&x);
	dqr_fabric_free(f);

	start(&x, "mesh:4x4", &f);
	walk(&x, &t);
	CHECK_EQ(t.num_faults, 24 + 16);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&x);
	dqr_fabric_free(f);
}

/*
 * Every single fault of spec's fabric judged where the tables changed
 * (the walk's way) and whole (dqr-sim's --what-if all): the same
 * verdict, the same drains; *proven counts those the quick judgement
 * settled alone.
 */
static void quick_agrees(const char *spec, uint32_t *proven)
{
	struct dqr_fabric *f;
	struct dqr_reactor x, y;
	struct dqr_tolerance t;
	struct dqr_what_if a, b;
	uint32_t i, fault, n, *ports;

	start(&x, spec, &f);
	REQUIRE(dqr_tolerance_begin(&x, &t) == 0);
	ports = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	REQUIRE(ports);
	*proven = 0;
	for (i = 0; i < t.num_faults; i++) {
		fault = t.faults[i];
		if (fault & DQR_FAULT_SWITCH) {
			n = dqr_what_if_node_ports(f, fault & ~DQR_FAULT_SWITCH,
						   ports);
		} else {
			ports[0] = fault;
			n = 1;
		}
		REQUIRE(dqr_reactor_clone(&x, &y) == 0);
		REQUIRE(dqr_what_if(&y, ports, n, DQR_WHAT_IF_QUICK, &a) == 0);
		dqr_reactor_release(&y);
		REQUIRE(dqr_reactor_clone(&x, &y) == 0);
		REQUIRE(dqr_what_if(&y, ports, n, 0, &b) == 0);
		dqr_reactor_release(&y);
		CHECK_EQ(dqr_what_if_survived(&a), dqr_what_if_survived(&b));
		CHECK_EQ(a.drains, b.drains);
		CHECK_EQ(a.diff.entries, b.diff.entries);
		*proven += a.quick;
		dqr_what_if_release(&a);
		dqr_what_if_release(&b);
	}
	free(ports);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&x);
	dqr_fabric_free(f);
}

/* The quick judgement agrees, and settles most faults alone. */
static void test_quick(void)
{
	uint32_t proven;

	quick_agrees("kary:4,3", &proven);
	CHECK(proven >= 128);
	quick_agrees("mesh:4x4", &proven);
	CHECK(proven > 0);
	quick_agrees("torus:4x4", &proven);
	CHECK(proven > 0);
}

/* Not ready, nothing to walk; no copy of a reactor that is not. */
static void test_not_ready(void)
{
	struct dqr_options o;
	struct dqr_reactor x, y;
	struct dqr_tolerance t;

	dqr_options_init(&o);
	dqr_reactor_init(&x, &o);
	CHECK_EQ(dqr_reactor_clone(&x, &y), 1);
	dqr_reactor_release(&y);
	CHECK_EQ(dqr_tolerance_begin(&x, &t), 0);
	CHECK_EQ(t.num_faults, 0);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&x);
}

int main(void)
{
	test_clone_answers_alike();
	test_fat_tree();
	test_mesh();
	test_quick();
	test_not_ready();
	return unit_finish();
}
