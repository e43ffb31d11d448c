/*
 * small_fabrics.c - rings with clockwise and line routing.
 */
#include <stdio.h>

#include "small_fabrics.h"

struct dqr_fabric *ring_fabric(unsigned n)
{
	struct dqr_fabric *f = dqr_fabric_new();
	char name[32], err[128];
	unsigned i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sw%u", i);
		dqr_fabric_add_node(f, DQR_NODE_SWITCH, 4, 0x100 + i, name);
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ca%u", i);
		dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0x200 + i, name);
	}
	for (i = 0; i < n; i++) {
		dqr_fabric_link(f, i, 1, (i + 1) % n, 2);
		dqr_fabric_link(f, i, 3, n + i, 1);
		dqr_fabric_set_lid(f, i, 0, i + 1, 0);
		dqr_fabric_set_lid(f, n + i, 1, n + i + 1, 0);
	}
	if (dqr_fabric_finish(f, err, sizeof(err))) {
		fprintf(stderr, "ring_fabric: %s\n", err);
		dqr_fabric_free(f);
		return NULL;
	}
	return f;
}

/* The ring position a LID belongs to. */
static unsigned lid_pos(unsigned lid, unsigned n)
{
	return (lid - 1) % n;
}

static void local_entries(struct dqr_lfts *t, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		dqr_lft_set(t, i, i + 1, 0);
		dqr_lft_set(t, i, n + i + 1, 3);
	}
}

struct dqr_lfts *ring_clockwise(const struct dqr_fabric *f, unsigned n)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid;

	for (sw = 0; sw < n; sw++)
		for (lid = 1; lid <= 2 * n; lid++)
			dqr_lft_set(t, sw, lid, 1);
	local_entries(t, n);
	return t;
}

struct dqr_lfts *ring_as_line(const struct dqr_fabric *f, unsigned n)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid;

	for (sw = 0; sw < n; sw++)
		for (lid = 1; lid <= 2 * n; lid++)
			dqr_lft_set(t, sw, lid, lid_pos(lid, n) > sw ? 1 : 2);
	local_entries(t, n);
	return t;
}
