/*
 * test_topo_diff.c - projecting a degraded or changed fabric onto the
 * reference model.
 */
#include <stdlib.h>

#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "unit.h"

static struct dqr_fabric *kary23(void)
{
	struct dqr_gen_spec s;
	char err[128];

	REQUIRE(dqr_gen_parse("kary:2,3", &s, err, sizeof(err)) == 0);
	return dqr_gen_build(&s, err, sizeof(err));
}

static void test_same_and_degraded(void)
{
	struct dqr_fabric *ref = kary23(), *cur = kary23(), *p;
	struct dqr_topo_diff d;
	uint32_t sw_port;

	REQUIRE(ref && cur);
	p = dqr_fabric_project(ref, cur, &d);
	REQUIRE(p);
	CHECK_EQ(d.links_missing + d.nodes_missing + d.nodes_new +
		 d.links_new + d.lids_changed, 0);
	CHECK(dqr_topo_diff_degraded_only(&d));
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);

	/* a leaf's first up link (port 3 of switch 0) fails */
	sw_port = dqr_port_index(cur, cur->switches[0], 3);
	dqr_fabric_unlink_port(cur, sw_port);
	p = dqr_fabric_project(ref, cur, &d);
	REQUIRE(p);
	CHECK_EQ(d.links_missing, 1);
	CHECK_EQ(d.num_missing_ports, 2);	/* switch to switch */
	CHECK(dqr_topo_diff_degraded_only(&d));
	CHECK_EQ(p->ports[dqr_port_index(p, p->switches[0], 3)].remote,
		 DQR_NONE);
	CHECK(ref->ports[dqr_port_index(ref, ref->switches[0], 3)].remote !=
	      DQR_NONE);
	CHECK_EQ(p->num_ports, ref->num_ports);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	dqr_fabric_free(cur);
	dqr_fabric_free(ref);
}

static void test_missing_node_and_new_things(void)
{
	struct dqr_fabric *ref = kary23(), *cur = kary23(), *p;
	struct dqr_topo_diff d;
	uint32_t ca, i, lid;

	REQUIRE(ref && cur);
	/* the last CA vanishes: its GUID is no longer in cur */
	ca = cur->num_nodes - 1;
	lid = cur->ports[dqr_port_index(cur, ca, 1)].base_lid;
	cur->nodes[ca].guid = 0xdead;
	p = dqr_fabric_project(ref, cur, &d);
	REQUIRE(p);
	CHECK_EQ(d.nodes_missing, 1);
	CHECK_EQ(d.nodes_new, 1);	/* the GUID cur has instead */
	CHECK_EQ(d.links_missing, 1);
	CHECK_EQ(d.links_new, 1);
	CHECK(!dqr_topo_diff_degraded_only(&d));
	CHECK_EQ(dqr_lid_owner(p, lid), DQR_NONE);
	CHECK_EQ(d.num_missing_ports, 1);	/* the leaf's side only */
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	cur->nodes[ca].guid = ref->nodes[ca].guid;

	/* a LID moved */
	for (i = 0; i < cur->num_ports; i++)
		if (cur->ports[i].base_lid == lid)
			cur->ports[i].base_lid = 0x100;
	p = dqr_fabric_project(ref, cur, &d);
	REQUIRE(p);
	CHECK_EQ(d.lids_changed, 1);
	CHECK(!dqr_topo_diff_degraded_only(&d));
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	dqr_fabric_free(cur);
	dqr_fabric_free(ref);
}

int main(void)
{
	test_same_and_degraded();
	test_missing_node_and_new_things();
	return unit_finish();
}
