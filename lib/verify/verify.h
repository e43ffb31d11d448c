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
/* k's name in reports ("ca-to-ca", ...); "?" for a bad value. */
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

/*
 * Judging a change instead of the whole tables: what a DQR pass is
 * about to upload after a fault, in time proportional to the change.
 *
 * Given the fabric after the fault, the tables to upload (to), the
 * entries in which they differ from the tables in force (from), the
 * switch ports whose cable the fault took, and a channel list of from
 * (pos[]: channel -> position, every dependency of from pointing up,
 * e.g. DQR's dynamic channel list), it checks
 *
 *   reachability and loops, per DLID with a changed entry (or an entry
 *     through a cut port): every switch whose route in to reaches such an
 *     entry (found backwards from them over the neighbours' entries),
 *     with the end ports that inject there, must reach the DLID, unless
 *     no cable joins them to it; no entry lies on a loop, none names a
 *     dead port;
 *   acyclicity: every dependency a changed entry takes part in (into its
 *     new channel from the channels and end ports that feed it, out of it
 *     into the next switch's channel) must point up in pos[].  The other
 *     dependencies of to are from's, which pos[] orders, so to's
 *     dependency graph then has pos[] as a topological order.  A
 *     dependency pointing down is refused even if it closes no cycle:
 *     the change is then not proven (dqr_verify() can judge it whole).
 *
 * Switches whose route meets no changed entry keep the routes from had;
 * from itself is taken as judged (connected and loop free on the fabric
 * before the fault, as the last verification found it).
 *
 * It also counts, for the transition, the DLIDs whose old and new
 * entries together (each switch forwarding by either) contain a loop:
 * uploaded at once, such a change loops while it lands, and the planner
 * must split it into stages.  That count does not make the change bad.
 */
struct dqr_entry_ref {
	uint32_t sw, lid;
};

struct dqr_change_set {
	const struct dqr_lfts *from;	/* tables in force */
	const struct dqr_lfts *to;	/* tables to upload */
	const struct dqr_entry_ref *entries;	/* where to differs */
	uint32_t num_entries;
	const uint32_t *cut;		/* switch ports the fault took */
	uint32_t num_cut;
	const uint32_t *pos;		/* channel list of from */
	uint32_t num_pos;
};

struct dqr_change_report {
	uint32_t entries;		/* changed entries judged */
	uint32_t dlids;			/* DLIDs judged */
	uint64_t routes;		/* (switch, DLID) routes walked */
	uint64_t pairs;			/* (source, DLID) pairs behind them */
	uint64_t unreachable;		/* of those, cable path but lost */
	uint64_t cut_off;		/* of those, no cable path */
	uint64_t loop_entries;
	uint64_t dead_port_entries;
	uint64_t deps;			/* dependencies judged */
	uint64_t deps_down;		/* of them, pointing down in pos[] */
	uint32_t union_loop_dlids;	/* old and new entries loop together */
	int ok;				/* nothing of the above but union */
	char reason[160];		/* the first problem; "" when ok */
};

struct dqr_change_check;

/*
 * A workspace for the changes of fabrics shaped as f (the reference
 * topology: same switches, nodes and ports); NULL when out of memory.
 */
struct dqr_change_check *dqr_change_check_new(const struct dqr_fabric *f);
void dqr_change_check_free(struct dqr_change_check *w);

/*
 * Judges the change c on f (the projection after the fault) into *r.
 * Costs the routes that meet a changed entry, their neighbours' entries
 * and, per cut port, one row of to.  Returns 0, or -1 when out of
 * memory.
 */
int dqr_verify_change(struct dqr_change_check *w, const struct dqr_fabric *f,
		      const struct dqr_change_set *c,
		      struct dqr_change_report *r);

static inline uint64_t dqr_report_unreachable(const struct dqr_verify_report *r)
{
	uint64_t n = 0;
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		n += r->unreachable[k];
	return n;
}

#endif
