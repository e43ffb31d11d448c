/*
 * lft.h - the linear forwarding tables of every switch of a fabric.
 *
 * One row per switch index, one byte per LID 0 .. lid_count-1, so that a
 * whole fabric's tables are one allocation and a row compares with memcmp
 * the way OpenSM compares 64-LID blocks.
 */
#ifndef DQR_LFT_H
#define DQR_LFT_H

#include <stdint.h>
#include <string.h>

#include "fabric/fabric.h"
#include "util/check.h"

#define DQR_LFT_BLOCK 64	/* LIDs per LinearForwardingTable block */

struct dqr_lfts {
	uint32_t num_switches;
	uint32_t lid_count;	/* max LID + 1 */
	uint8_t *port;		/* [sw * lid_count + lid] */
};

/*
 * All entries DQR_NO_PATH.  Returns NULL when out of memory.  The
 * accessors check the switch index (and a write the LID) against the
 * table: both come from lib's own loops, never from input.
 */
struct dqr_lfts *dqr_lfts_new(uint32_t num_switches, uint32_t lid_count);
struct dqr_lfts *dqr_lfts_clone(const struct dqr_lfts *t);
void dqr_lfts_free(struct dqr_lfts *t);

static inline uint8_t dqr_lft_get(const struct dqr_lfts *t, uint32_t sw,
				  uint32_t lid)
{
	DQR_CHECK(sw < t->num_switches);
	if (lid >= t->lid_count)
		return DQR_NO_PATH;
	return t->port[(size_t)sw * t->lid_count + lid];
}

static inline void dqr_lft_set(struct dqr_lfts *t, uint32_t sw, uint32_t lid,
			       uint8_t port)
{
	DQR_CHECK(sw < t->num_switches && lid < t->lid_count);
	t->port[(size_t)sw * t->lid_count + lid] = port;
}

static inline uint8_t *dqr_lft_row(const struct dqr_lfts *t, uint32_t sw)
{
	DQR_CHECK(sw < t->num_switches);
	return t->port + (size_t)sw * t->lid_count;
}

/*
 * The channel that switch sw's entry towards lid sends on: DQR_NONE for
 * DQR_NO_PATH, port 0 (delivered here), a port out of range or a port
 * without a cable.  The next hop of lid's destination tree.
 */
static inline uint32_t dqr_next_channel(const struct dqr_fabric *f,
					const struct dqr_lfts *t, uint32_t sw,
					uint32_t lid)
{
	const struct dqr_node *n = &f->nodes[f->switches[sw]];
	uint8_t p = dqr_lft_get(t, sw, lid);

	if (p == 0 || p > n->num_ports ||
	    f->ports[n->port_base + p].remote == DQR_NONE)
		return DQR_NONE;
	return n->port_base + p;
}

/*
 * The switch index that sw's entry towards lid leads to, or DQR_NONE
 * (no channel, or the cable ends at a CA or router).
 */
static inline uint32_t dqr_next_switch(const struct dqr_fabric *f,
				       const struct dqr_lfts *t, uint32_t sw,
				       uint32_t lid)
{
	uint32_t ch = dqr_next_channel(f, t, sw, lid);

	if (ch == DQR_NONE)
		return DQR_NONE;
	return f->nodes[dqr_peer_node(f, ch)].sw_index;
}

struct dqr_lft_diff {
	uint64_t entries;	/* (switch, LID) entries that differ */
	uint64_t blocks;	/* 64-LID blocks that differ */
	uint32_t switches;	/* switches with at least one difference */
};

/*
 * Compares two tables of the same switches; LIDs beyond one table's end
 * count as DQR_NO_PATH there.
 */
void dqr_lfts_diff(const struct dqr_lfts *a, const struct dqr_lfts *b,
		   struct dqr_lft_diff *d);

#endif
