/*
 * verify.h - judging a set of forwarding tables against a fabric.
 *
 * The same code serves dqr-check (tables read back from switches) and the
 * plugin (tables about to be uploaded): reachability of every
 * (source port, destination LID) pair, forwarding loops, dead ports, hop
 * statistics, and the channel dependency graph with its channel list or
 * one cycle.
 */
#ifndef DQR_VERIFY_H
#define DQR_VERIFY_H

#include <stdint.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "routes/route_walk.h"
#include "util/names.h"

#define DQR_MAX_HOPS 64

/* Pair kinds by the kind of source and destination. */
#define DQR_PAIR_KINDS(X)						\
	X(DQR_PAIR_CA_CA, "ca-to-ca")					\
	X(DQR_PAIR_CA_SW, "ca-to-switch")				\
	X(DQR_PAIR_SW_CA, "switch-to-ca")				\
	X(DQR_PAIR_SW_SW, "switch-to-switch")

enum dqr_pair_kind {
	DQR_PAIR_KINDS(DQR_ENUM_ID)
	DQR_PAIR_NUM_KINDS
};

const char *dqr_pair_kind_name(enum dqr_pair_kind k);

struct dqr_verify_report {
	uint32_t switches, end_ports, lids, channels;
	uint64_t dependencies;

	uint64_t pairs[DQR_PAIR_NUM_KINDS];	/* pairs judged */
	uint64_t unreachable[DQR_PAIR_NUM_KINDS];
	/* of the unreachable, those with no cable path at all */
	uint64_t disconnected[DQR_PAIR_NUM_KINDS];
	/* unreachable pairs by the reason of the first failure */
	uint64_t by_result[DQR_WALK_NUM_RESULTS];

	/* (switch, DLID) entries that are themselves faulty */
	uint64_t loop_entries;		/* entry lies on a forwarding loop */
	uint64_t dead_port_entries;	/* entry names an unlinked port */

	uint64_t hop_hist[DQR_MAX_HOPS + 1];	/* reachable pairs by hops */
	uint32_t hops_min, hops_max;
	double hops_mean;

	int cycle_found;
	struct dqr_cycle cycle;		/* when cycle_found */

	double ms_walk, ms_cdg, ms_channel_list;

	/* up to this many examples of each failure for the report */
	uint32_t num_examples;
	struct dqr_pair_example {
		uint32_t src_port;	/* global port index of the source */
		uint32_t dlid;
		uint32_t fail_sw;	/* switch index where it failed */
		uint8_t result;
		uint8_t kind;
	} examples[16];
};

/*
 * Judges t on f.  When cl is not NULL and the graph is acyclic the channel
 * list is handed over to the caller.  Returns 0, or -1 when out of memory.
 */
int dqr_verify(const struct dqr_fabric *f, const struct dqr_lfts *t,
	       struct dqr_verify_report *r, struct dqr_channel_list *cl);
void dqr_verify_report_free(struct dqr_verify_report *r);

#define DQR_PAIRS_ALL ((1u << DQR_PAIR_NUM_KINDS) - 1)
#define DQR_PAIRS_CA (1u << DQR_PAIR_CA_CA)

/*
 * 1 when every physically connected pair of the kinds in the mask (bits
 * 1 << enum dqr_pair_kind) is reachable and there is no loop, no dead
 * port and no dependency cycle.
 */
int dqr_verify_ok(const struct dqr_verify_report *r, unsigned kinds);

static inline uint64_t dqr_report_unreachable(const struct dqr_verify_report *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		n += r->unreachable[k];
	return n;
}

#endif
