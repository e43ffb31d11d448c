/*
 * dyn_order.h - the channel list as a mutable structure (the DQR paper, section
 * IV): new dependencies ("turns") are added while DQR searches paths after
 * a fault, and a turn that points downward is enabled, when it closes no
 * cycle, by moving its target channel and what depends on it upward.
 *
 * The reordering is the dynamic topological sort of Pearce and Kelly
 * (2006): for a new edge a -> b with pos[a] > pos[b] only the channels in
 * positions [pos[b], pos[a]] that b reaches, or that reach a, change
 * places, so a check or an insertion costs its affected region, not the
 * whole list.
 *
 * Every change (edge added, channel moved, channel retired or revived) is
 * written to an undo log: a caller may try several turns together on the
 * real structure and roll back to a mark cheaply.
 *
 * The struct is public so that a path search can read pos[] directly; it
 * must only be changed through the functions below.  Even a check writes
 * the search marks: one structure serves one thread at a time.
 */
#ifndef DQR_DYN_ORDER_H
#define DQR_DYN_ORDER_H

#include <stddef.h>
#include <stdint.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"

/* dqr_dyn_add() and dqr_dyn_revive_channel() results */
#define DQR_DYN_ADDED		0	/* in place, no channel moved */
#define DQR_DYN_REORDERED	1	/* in place after a reorder */
#define DQR_DYN_CYCLE		(-1)	/* refused: nothing changed */
#define DQR_DYN_EINVAL		(-2)	/* out of range or idle channel */
#define DQR_DYN_ENOMEM		(-3)	/* nothing changed */

/* dqr_dyn_check() results */
#define DQR_DYN_REFUSED		0	/* would close a cycle */
#define DQR_DYN_LEGAL		1	/* present, or already upward */
#define DQR_DYN_NEEDS_REORDER	2	/* legal once the list is reordered */

/* an added dependency; kept in insertion order in edges[] */
struct dqr_dyn_edge {
	uint32_t from, to;
	uint32_t next_succ;	/* next added edge out of from */
	uint32_t next_pred;	/* next added edge into to */
};

struct dqr_dyn_reach;
struct dqr_dyn_hub;
struct dqr_dyn_meet;

struct dqr_dyn_undo {
	uint32_t kind;
	uint32_t v;
	uint32_t old;
	uint64_t version;	/* of the list before the change */
};

struct dqr_dyn_order {
	uint32_t num_vertices;
	uint32_t len;		/* channels in the order */
	uint32_t *pos;		/* channel -> position, DQR_NONE if idle */
	uint32_t *order;	/* position -> channel, bottom first */
	uint8_t *retired;	/* 1: failed channel, its edges are ignored */

	/* base dependencies, a copy of the CDG's CSR */
	uint64_t *succ_off, *pred_off;
	uint32_t *succ, *pred;
	int succ_sorted;	/* every succ list ascending */

	/*
	 * Which dependencies exist, for dqr_dyn_has_edge() in O(1): the
	 * successors of a channel are ports of the node it enters, so they
	 * fit a window of 256 indices from win[v] (the lowest base
	 * successor, or the first added one); bits[v] marks the base and
	 * added successors in it.  Those outside (a graph not made of a
	 * fabric) are looked up in the CSR and the lists.
	 */
	uint32_t *win;
	uint64_t (*bits)[4];

	/* added dependencies: one pool, per-vertex lists through next_* */
	struct dqr_dyn_edge *edges;
	uint32_t num_added, cap_added;
	uint32_t *add_succ, *add_pred;	/* list heads, DQR_NONE if empty */

	/* counters; a rollback takes back what it undoes */
	uint64_t num_reorders;	/* additions and revivals that moved */
	uint64_t num_moved;	/* channels whose position changed */

	/* internal: searches, see dyn_order.c */
	uint32_t *seen, epoch;
	uint32_t *fwd, *bwd, *merged;
	uint32_t last_nb, last_bi;	/* the backward side of the last */
	uint32_t last_meet;		/* where its sides met */
	/*
	 * internal: channels known to reach the source of a refused turn,
	 * kept while the order and the live dependencies stay as they were
	 * (see dyn_reach.c).  version names the list's state: every change
	 * gives a new name (the count in versions), a rollback the name of
	 * the state it returns to.
	 */
	uint64_t version, versions, reach_clock;
	struct dqr_dyn_reach *reach;
	uint32_t *reach_bits;	/* per channel: the slots it is in */
	struct dqr_dyn_hub *hubs;
	struct dqr_dyn_meet *meets;
	uint32_t reviving, rv_epoch, *rv_in, *rv_out;
	struct dqr_dyn_undo *log;
	size_t log_len, log_cap;
};

/*
 * A copy of g's dependencies and of cl, which must be a valid channel list
 * of g; neither is referenced afterwards.  NULL when out of memory or when
 * cl is not valid for g.
 */
struct dqr_dyn_order *dqr_dyn_new(const struct dqr_cdg *g,
				  const struct dqr_channel_list *cl);
void dqr_dyn_free(struct dqr_dyn_order *d);
/*
 * A copy of d that changes apart from it: the same order, base and
 * added dependencies, retired channels and version.  NULL when out of
 * memory.  d must not be half way through a revival.
 */
struct dqr_dyn_order *dqr_dyn_clone(const struct dqr_dyn_order *d);

/* 1 when a -> b is a base or added dependency (retired or not). */
int dqr_dyn_has_edge(const struct dqr_dyn_order *d, uint32_t a, uint32_t b);

/*
 * Could a -> b be added?  DQR_DYN_LEGAL when it is present or pos[a] <
 * pos[b] (or an end is retired: it constrains nothing now),
 * DQR_DYN_NEEDS_REORDER when a reorder makes it legal, DQR_DYN_REFUSED
 * when it would close a cycle or a, b are not channels (a == b, idle, out
 * of range).  With cost not NULL, *cost is the number of channels the
 * reorder would reassign (0 unless a reorder is needed); computing it costs
 * a second search of the region.  The order is not changed, only the
 * search marks.
 */
int dqr_dyn_check(struct dqr_dyn_order *d, uint32_t a, uint32_t b,
		  uint32_t *cost);

/*
 * Adds the dependency a -> b, reordering if needed: DQR_DYN_ADDED,
 * DQR_DYN_REORDERED, or a negative DQR_DYN_* with nothing changed.  An
 * edge already present is DQR_DYN_ADDED and not stored twice.  An edge
 * with a retired end is stored without a check; it counts (and may be
 * refused) when the channel is revived.
 */
int dqr_dyn_add(struct dqr_dyn_order *d, uint32_t a, uint32_t b);

/*
 * Undo: dqr_dyn_rollback(d, m) brings order, pos, the added edges, the
 * retired flags and the counters back to what they were when
 * m = dqr_dyn_mark(d) was taken.  dqr_dyn_commit() empties the log: marks
 * taken before it must not be used afterwards.
 */
size_t dqr_dyn_mark(const struct dqr_dyn_order *d);
void dqr_dyn_rollback(struct dqr_dyn_order *d, size_t mark);
void dqr_dyn_commit(struct dqr_dyn_order *d);

/*
 * A failed channel: its edges (base and added) stop constraining the
 * order.  Removing constraints keeps the order valid, so nothing moves.
 * 0, or DQR_DYN_EINVAL for a vertex that is not a channel.
 */
int dqr_dyn_retire_channel(struct dqr_dyn_order *d, uint32_t c);

/*
 * The channel is back and its edges count again.  Reorders made while it
 * was retired may have left some of them pointing downward: they are then
 * re-inserted one at a time, each with the same reorder as dqr_dyn_add().
 * DQR_DYN_ADDED (nothing moved), DQR_DYN_REORDERED, or DQR_DYN_CYCLE when
 * its edges together with the current ones form a cycle: the channel then
 * stays retired and nothing changed; the caller must drop some of its
 * dependencies (rebuild) before it can count again.
 */
int dqr_dyn_revive_channel(struct dqr_dyn_order *d, uint32_t c);

static inline int dqr_dyn_is_retired(const struct dqr_dyn_order *d,
				     uint32_t c)
{
	return d->retired[c];
}

/*
 * The state of the list in a few words, for the run-time checks
 * (util/check.h): a change that was refused or rolled back must leave
 * all of them as they were.  The version names the state (a rollback
 * gives the old name back); the counters and the log move with every
 * change, so they catch a change made behind the log's back.
 */
struct dqr_dyn_fingerprint {
	uint64_t version, reorders, moved;
	size_t log_len;
	uint32_t added, len;
};

static inline struct dqr_dyn_fingerprint dqr_dyn_fingerprint(
	const struct dqr_dyn_order *d)
{
	struct dqr_dyn_fingerprint p = {
		d->version, d->num_reorders, d->num_moved, d->log_len,
		d->num_added, d->len,
	};

	return p;
}

static inline int dqr_dyn_same(const struct dqr_dyn_order *d,
			       const struct dqr_dyn_fingerprint *p)
{
	struct dqr_dyn_fingerprint q = dqr_dyn_fingerprint(d);

	return q.version == p->version && q.reorders == p->reorders &&
	       q.moved == p->moved && q.log_len == p->log_len &&
	       q.added == p->added && q.len == p->len;
}

/* 1 when order/pos agree and every live dependency points upward. */
int dqr_dyn_valid(const struct dqr_dyn_order *d);

/* Copies the current order into cl (allocated here); -1 out of memory. */
int dqr_dyn_export(const struct dqr_dyn_order *d,
		   struct dqr_channel_list *cl);

#endif
