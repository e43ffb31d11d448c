/*
 * test_fabric.c - building the model: nodes, links, LIDs, LFT diffs.
 */
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "unit.h"

static void test_build(void)
{
	struct dqr_fabric *f = dqr_fabric_new();
	uint32_t sw, ca, ca2;
	char err[128];

	REQUIRE(f);
	sw = dqr_fabric_add_node(f, DQR_NODE_SWITCH, 8, 0xaa, "leaf");
	ca = dqr_fabric_add_node(f, DQR_NODE_CA, 2, 0xbb, "host");
	ca2 = dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0xcc, "host2");
	CHECK_EQ(sw, 0);
	CHECK_EQ(ca, 1);
	CHECK_EQ(dqr_fabric_add_node(f, DQR_NODE_SWITCH, 0, 1, "x"), DQR_NONE);
	CHECK_EQ(dqr_fabric_add_node(f, DQR_NODE_SWITCH, 255, 1, "x"),
		 DQR_NONE);
	CHECK_EQ(dqr_fabric_add_node(f, 7, 4, 1, "x"), DQR_NONE);

	CHECK_EQ(dqr_fabric_link(f, sw, 1, ca, 1), 0);
	CHECK_EQ(dqr_fabric_link(f, ca, 1, sw, 1), 0);	/* other end, same */
	CHECK_EQ(dqr_fabric_link(f, sw, 1, ca, 2), -1);	/* port taken */
	CHECK_EQ(dqr_fabric_link(f, sw, 0, ca, 2), -1);	/* port 0 */
	CHECK_EQ(dqr_fabric_link(f, sw, 9, ca, 2), -1);	/* no such port */
	CHECK_EQ(dqr_fabric_link(f, sw, 2, sw, 2), -1);	/* itself */
	CHECK_EQ(dqr_fabric_link(f, sw, 2, ca2, 1), 0);

	CHECK_EQ(dqr_fabric_set_lid(f, sw, 0, 1, 0), 0);
	CHECK_EQ(dqr_fabric_set_lid(f, sw, 1, 9, 0), -1); /* switch port 1 */
	CHECK_EQ(dqr_fabric_set_lid(f, ca, 0, 9, 0), -1); /* CA port 0 */
	CHECK_EQ(dqr_fabric_set_lid(f, ca, 1, 4, 2), 0);  /* LIDs 4..7 */
	CHECK_EQ(dqr_fabric_set_lid(f, ca, 1, 0xbfff, 1), -1);
	CHECK_EQ(dqr_fabric_set_lid(f, ca2, 1, 8, 0), 0);
	CHECK_EQ(dqr_fabric_finish(f, err, sizeof(err)), 0);

	CHECK_EQ(f->num_switches, 1);
	CHECK_EQ(f->switches[0], sw);
	CHECK_EQ(f->nodes[ca].sw_index, DQR_NONE);
	CHECK_EQ(f->max_lid, 8);
	CHECK_EQ(dqr_lid_owner(f, 1), dqr_port_index(f, sw, 0));
	CHECK_EQ(dqr_lid_owner(f, 5), dqr_port_index(f, ca, 1));
	CHECK_EQ(dqr_lid_owner(f, 7), dqr_port_index(f, ca, 1));
	CHECK_EQ(dqr_lid_owner(f, 2), DQR_NONE);
	CHECK_EQ(dqr_lid_owner(f, 9), DQR_NONE);
	CHECK_EQ(dqr_fabric_count_end_ports(f), 2);
	CHECK_EQ(dqr_fabric_find_guid(f, 0xbb), ca);
	CHECK_EQ(dqr_fabric_find_name(f, "host2"), ca2);
	CHECK_EQ(dqr_fabric_find_name(f, "nobody"), DQR_NONE);
	CHECK(!strcmp(dqr_node_name(f, sw), "leaf"));

	dqr_fabric_unlink_port(f, dqr_port_index(f, sw, 2));
	CHECK_EQ(f->ports[dqr_port_index(f, ca2, 1)].remote, DQR_NONE);
	CHECK_EQ(dqr_fabric_count_end_ports(f), 1);

	/* two ports claiming LID 8 */
	CHECK_EQ(dqr_fabric_set_lid(f, ca, 2, 8, 0), 0);
	CHECK_EQ(dqr_fabric_finish(f, err, sizeof(err)), -1);
	CHECK(strstr(err, "LID 8") != NULL);
	dqr_fabric_free(f);
}

static void test_lft_diff(void)
{
	struct dqr_lfts *a = dqr_lfts_new(3, 200), *b;
	struct dqr_lft_diff d;

	REQUIRE(a);
	CHECK_EQ(dqr_lft_get(a, 2, 199), DQR_NO_PATH);
	CHECK_EQ(dqr_lft_get(a, 2, 500), DQR_NO_PATH);
	b = dqr_lfts_clone(a);
	REQUIRE(b);
	dqr_lfts_diff(a, b, &d);
	CHECK_EQ(d.entries, 0);
	dqr_lft_set(b, 0, 1, 3);
	dqr_lft_set(b, 0, 2, 3);	/* same block as LID 1 */
	dqr_lft_set(b, 0, 64, 3);	/* next block */
	dqr_lft_set(b, 2, 199, 1);
	dqr_lfts_diff(a, b, &d);
	CHECK_EQ(d.entries, 4);
	CHECK_EQ(d.blocks, 3);
	CHECK_EQ(d.switches, 2);
	dqr_lfts_free(a);
	dqr_lfts_free(b);
}

int main(void)
{
	test_build();
	test_lft_diff();
	return unit_finish();
}
