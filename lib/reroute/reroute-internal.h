/*
 * reroute-internal.h - what the two files of the reroute share: the
 * context (reroute.c: the fabric, the destination trees, the run) and
 * the candidates of the path search (reroute_cand.c: their costs, the
 * heap, the commit).  No file outside lib/reroute/ includes it.
 */
#ifndef DQR_REROUTE_INTERNAL_H
#define DQR_REROUTE_INTERNAL_H

#include <stdint.h>

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "reroute/reroute.h"
#include "routes/route_walk.h"

/* Cost units: one hop is worth 16, so turns and changes weigh less. */
#define COST_HOP DQR_REROUTE_HOP_COST
#define COST_NEW_TURN 1		/* a legal dependency the list lacks */
#define COST_REORDER 8		/* a turn that needs a reorder */
/*
 * ... once a topology plug-in has enabled a route for every flow the
 * fault cut: a reorder then only spends the room a later fault needs.
 */
#define COST_REORDER_BYPASSED (64 * COST_HOP)
#define COST_CHANGE_E2E 8	/* ties keep an entry, a hop saved wins */
#define COST_CHANGE_LOCAL (16 * COST_HOP)
#define COST_UPDN_TURN (4 * COST_HOP)	/* down then up, see rank[] */
/*
 * A turn of packets in flight (reroute_cand.c: flight_turns()) that the
 * list refuses: the first upload then needs a drain, which four hops more
 * of route are worth avoiding.
 */
#define COST_FLIGHT_REFUSED (4 * COST_HOP)

enum sw_state {
	SW_OTHER = 0,	/* not looked at for this DLID */
	SW_GOOD,	/* its route reaches the DLID; entry stays */
	SW_DISCONNECTED,	/* must be re-attached */
	SW_SETTLED,	/* re-attached in this search */
	SW_BAD,		/* its route fails, but not through this fault */
	SW_WALKING,	/* on the route being followed */
};

struct cand {
	uint32_t cost;
	uint32_t sw;		/* the disconnected switch to attach */
	uint32_t ch;		/* through this channel */
	uint32_t via;		/* to this switch */
	/*
	 * 0: cost lacks the turn costs (reroute_cand.c: a lower bound,
	 * completed when the candidate comes to the top).
	 */
	uint32_t exact;
	uint32_t next;		/* the switch's next one in the pool */
};

/* A switch's cheapest candidate, in the heap of switches. */
struct cand_top {
	uint32_t cost, sw, ch;
	uint32_t idx;		/* in the pool; stale unless best[sw] */
};

struct dqr_reroute {
	uint32_t num_switches, num_ports;
	/* end ports cabled to each switch, CSR over switch indices */
	uint32_t *end_off, *end_port;
	uint32_t *comp;		/* connected component of each switch */
	int comp_ok;		/* comp is of this run's cabling */
	/*
	 * Per channel: every end port of the switch it leaves holds its
	 * injection dependency into it (committed), when == ends_gen.
	 * Committed dependencies stay, so a candidate through such a
	 * channel need not ask the list about its end ports again; a new
	 * run (channels revived or retired) starts a new generation.
	 */
	uint32_t *ends_ok, ends_gen;
	/*
	 * Distance of each switch from a root in the full model.  New
	 * turns from a link leading away from the root into one leading
	 * back towards it (down then up, as in up*\/down* routing) cost
	 * extra: when every path search prefers one orientation, the turns
	 * the searches enable for different destinations agree with each
	 * other and leave room for the next ones.  Without it, U-turns that
	 * fat-tree switch-to-switch routes need get placed ad hoc and soon
	 * close each other's cycles.
	 */
	uint32_t *rank;
	const uint32_t *rank_use;	/* rank, or the caller's */
	uint32_t *guid_pos;		/* switch -> place in GUID order */
	uint32_t cost_reorder;		/* of this run */

	struct dqr_walk_state *st;
	uint32_t *stack;
	/* per-DLID state, valid where mark[sw] == epoch */
	uint8_t *state;
	uint32_t *mark, epoch;
	/* switch ports whose link is gone, from sync_channels() */
	uint32_t *dead, num_dead;
	/* ports but port 0 the model leaves uncabled, ascending */
	uint32_t *uncabled, num_uncabled;
	uint32_t *cost;
	uint32_t *hops;		/* links of the route, with cost */
	uint32_t *dist;		/* shortest cable path (stretch) */
	uint32_t *queue;
	uint32_t *out;		/* channel for the DLID, DQR_NONE: self */
	uint32_t *disconnected_sw;	/* of the DLID being repaired */
	uint32_t num_disconnected_sw;

	/*
	 * Candidates of the DLID being repaired: a pool with a list per
	 * disconnected switch (head[], best[]: its cheapest), and a heap
	 * that holds each switch's cheapest.
	 */
	struct cand *pool;
	uint32_t pool_len, pool_cap;
	uint32_t *head, *best;
	uint32_t *old_ch;	/* a switch's channel for the DLID before */
	/*
	 * The disconnected switches whose old channel leads into each one:
	 * a list from old_in[x] through old_in_next[] (DQR_NONE ends it),
	 * so that the turns of packets in flight cost what they are.
	 */
	uint32_t *old_in, *old_in_next;
	struct cand_top *heap;
	uint32_t heap_len, heap_cap;
	int lazy;		/* a candidate may wait on a lower bound */
	int gathering;		/* the first ones: no heap entries yet */
	uint32_t pending;	/* switch whose cheapest was taken */

	/* entries written by the last run, in order */
	struct dqr_change *changes;
	uint32_t num_changes, cap_changes;

	/* dependencies of one candidate */
	uint32_t dep_a[DQR_MAX_PORTS + 2], dep_b[DQR_MAX_PORTS + 2];
	uint32_t num_deps;
	int via_dep_present;	/* turn_cost(): dep 0 (into via's out) */
	uint32_t dep_ch;	/* the channel the candidate attaches by */
	uint32_t ends_from;	/* deps from here on: end ports into dep_ch */
	int owner_skipped;	/* the DLID's owner is an end port there */
	uint32_t dep_owner;
	/* turns of packets in flight when it is taken (flight_turns()) */
	uint32_t flight_a[DQR_MAX_PORTS + 1], flight_b[DQR_MAX_PORTS + 1];
	uint32_t num_flight;
};

/* What the candidate functions need of the DLID being repaired. */
struct rr_search {
	const struct dqr_fabric *f;
	const struct dqr_lfts *t;
	struct dqr_dyn_order *cl;
	const struct dqr_reroute_opts *o;
	uint32_t lid, owner;
	struct dqr_reroute_stats *st;
};

static inline int rr_sw_state(const struct dqr_reroute *rr, uint32_t sw)
{
	return rr->mark[sw] == rr->epoch ? rr->state[sw] : SW_OTHER;
}

/* 1 when the hop from switch a to switch b leads towards the root. */
static inline int rr_hop_up(const struct dqr_reroute *rr, uint32_t a,
			    uint32_t b)
{
	if (rr->rank_use[b] != rr->rank_use[a])
		return rr->rank_use[b] < rr->rank_use[a];
	return rr->guid_pos[b] < rr->guid_pos[a];
}

/* A channel the search may use: cabled and in service in the list. */
static inline int rr_usable(const struct dqr_fabric *f,
			    const struct dqr_dyn_order *cl, uint32_t ch)
{
	return dqr_peer_port(f, ch) != DQR_NONE && ch < cl->num_vertices &&
	       cl->pos[ch] != DQR_NONE && !dqr_dyn_is_retired(cl, ch);
}

/* reroute_cand.c */
void rr_cands_reset(struct dqr_reroute *rr, const struct rr_search *s);
int rr_cands_ready(struct dqr_reroute *rr);
int rr_push_candidate(struct dqr_reroute *rr, const struct rr_search *s,
		      uint32_t sw, uint32_t ch, uint32_t via);
int rr_next_candidate(struct dqr_reroute *rr, const struct rr_search *s,
		      struct cand *c);
int rr_relax(struct dqr_reroute *rr, const struct rr_search *s,
	     uint32_t via);
int rr_commit_candidate(struct dqr_reroute *rr, const struct rr_search *s,
			const struct cand *c);

#endif
