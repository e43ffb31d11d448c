/*
 * dyn_reach.c - what the searches of refused turns found, kept for the
 * next turn from the same source.
 *
 * DQR refuses one turn a -> b after another whose source a is the same
 * (a switch's channel towards a neighbour, tried for every DLID behind
 * a dead link, each time with the neighbour's own channel b), and each
 * refusal searched the region until its two sides met.  What the
 * backward side found reaches a, and stays so while no dependency and
 * no position changes (version).  A slot keeps it for one source: the
 * next forward search from a b stops at the first channel known to
 * reach a, and the backward side goes on from where it stopped.  A slot
 * only ever says "cycle"; a turn it cannot refuse is searched as before,
 * so the order, and every reorder, stay what they were.
 *
 * When a switch LID loses the link into its switch, hundreds of
 * switches try a U-turn through each neighbour: thousands of refusals
 * from as many sources, whose searches all meet at one or a few
 * channels.  A channel met that often becomes a hub: everything that
 * reaches it and everything it reaches, found once, and a turn a -> b
 * with b among the first and a among the second is refused at once.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/dyn_order-internal.h"
#include "util/mem.h"

#define REACH_SLOTS 32	/* one bit each in reach_bits */
#define HUBS 4
#define MEETS 16	/* meeting channels counted */
/*
 * Searches that meet at a channel before it becomes a hub: a hub costs
 * about as much as a hundred searches of a refused U-turn on a
 * three-level fat tree.
 */
#define HUB_AFTER 64

struct dqr_dyn_reach {
	uint32_t target;	/* a; DQR_NONE: free */
	uint32_t lb;		/* predecessors below it are not followed */
	int holes;		/* a channel found could not be kept */
	uint64_t version;	/* of the list the channels were found in */
	uint64_t used;		/* reach_clock when last asked */
	uint32_t *set, len, cap;	/* channels that reach a, a first */
	uint32_t done;		/* set[0, done) had their predecessors */
};

struct dqr_dyn_hub {
	uint32_t ch;		/* DQR_NONE: free */
	uint64_t version;	/* of the list the sets were found in */
	uint64_t used;		/* reach_clock when last useful */
	uint64_t *up, *down;	/* bit sets: what reaches ch, what it reaches */
};

struct dqr_dyn_meet {
	uint32_t ch, count;	/* searches that met at ch */
	uint64_t version;
};

static inline int has_bit(const uint64_t *set, uint32_t v)
{
	return set[v >> 6] >> (v & 63) & 1;
}

/*
 * The edge from -> to seen from its end w: w joins set and the queue
 * d->fwd when it is new and the edge live.
 */
static inline void visit(struct dqr_dyn_order *d, uint64_t *set,
			 uint32_t *tail, uint32_t w, uint32_t from, uint32_t to)
{
	if (has_bit(set, w) || !live_edge(d, from, to))
		return;
	set[w >> 6] |= 1ull << (w & 63);
	d->fwd[(*tail)++] = w;
}

/*
 * Into set: what v reaches (forward), or what reaches v, over the live
 * dependencies at any position.  d->fwd serves as the queue.
 */
static void closure(struct dqr_dyn_order *d, uint32_t v, uint64_t *set,
		    int forward)
{
	uint32_t head = 0, tail = 0, u, w;

	memset(set, 0, sizeof(uint64_t) * ((d->num_vertices + 63) / 64));
	set[v >> 6] |= 1ull << (v & 63);
	d->fwd[tail++] = v;
	while (head < tail) {
		u = d->fwd[head++];
		if (forward)
			DYN_FOR_EACH_DEP(d, u, 1, w,
					 visit(d, set, &tail, w, u, w););
		else
			DYN_FOR_EACH_DEP(d, u, 0, w,
					 visit(d, set, &tail, w, w, u););
	}
}

/* Makes m a hub, in a free, stale or the least useful one's place. */
static void make_hub(struct dqr_dyn_order *d, uint32_t m)
{
	size_t words = (d->num_vertices + 63) / 64;
	struct dqr_dyn_hub *h = &d->hubs[0];
	uint32_t k;

	for (k = 0; k < HUBS; k++) {
		if (d->hubs[k].ch == DQR_NONE ||
		    d->hubs[k].version != d->version) {
			h = &d->hubs[k];
			break;
		}
		if (d->hubs[k].used < h->used)
			h = &d->hubs[k];
	}
	h->ch = DQR_NONE;
	if (!h->up)
		h->up = malloc(sizeof(uint64_t) * (words ? words : 1));
	if (!h->down)
		h->down = malloc(sizeof(uint64_t) * (words ? words : 1));
	if (!h->up || !h->down)
		return;
	closure(d, m, h->up, 0);
	closure(d, m, h->down, 1);
	h->ch = m;
	h->version = d->version;
	h->used = ++d->reach_clock;
}

/* One more search met at m; a hub once enough have. */
static void count_meet(struct dqr_dyn_order *d, uint32_t m)
{
	struct dqr_dyn_meet *c = &d->meets[0];
	uint32_t k;

	for (k = 0; k < MEETS; k++) {
		if (d->meets[k].ch == m && d->meets[k].version == d->version) {
			c = &d->meets[k];
			break;
		}
		if (d->meets[k].version != d->version ||
		    d->meets[k].count < c->count)
			c = &d->meets[k];
	}
	if (k == MEETS) {
		c->ch = m;
		c->count = 0;
		c->version = d->version;
	}
	if (++c->count == HUB_AFTER)
		make_hub(d, m);
}

/* 1 when a hub shows that b reaches a. */
static int hub_refuses(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	struct dqr_dyn_hub *h;
	uint32_t k;

	for (k = 0; k < HUBS; k++) {
		h = &d->hubs[k];
		if (h->ch != DQR_NONE && h->version == d->version &&
		    has_bit(h->up, b) && has_bit(h->down, a)) {
			h->used = ++d->reach_clock;
			return 1;
		}
	}
	return 0;
}

static void reach_clear(struct dqr_dyn_order *d, uint32_t k)
{
	struct dqr_dyn_reach *r = &d->reach[k];
	uint32_t i, keep = ~(1u << k);

	for (i = 0; i < r->len; i++)
		d->reach_bits[r->set[i]] &= keep;
	r->len = r->done = 0;
	r->holes = 0;
	r->target = DQR_NONE;
}

/* Adds u to slot k; 0 when out of memory (then the slot has holes). */
static int reach_add(struct dqr_dyn_order *d, uint32_t k, uint32_t u)
{
	struct dqr_dyn_reach *r = &d->reach[k];

	if (dqr_grow((void **)&r->set, &r->cap, r->len + 1, sizeof(uint32_t),
		     256)) {
		r->holes = 1;
		return 0;
	}
	r->set[r->len++] = u;
	d->reach_bits[u] |= 1u << k;
	return 1;
}

/*
 * Keeps the backward side of the search that just met (a -> b refused)
 * in the slot of a, else a free, stale or the least recently asked one.
 */
static uint32_t pick_slot(const struct dqr_dyn_order *d, uint32_t a)
{
	const struct dqr_dyn_reach *r;
	uint32_t k, best = 0;

	for (k = 0; k < REACH_SLOTS; k++)
		if (d->reach[k].target == a)
			return k;
	for (k = 0; k < REACH_SLOTS; k++) {
		r = &d->reach[k];
		if (r->target == DQR_NONE || r->version != d->version)
			return k;
		if (r->used < d->reach[best].used)
			best = k;
	}
	return best;
}

void dyn_reach_keep(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	uint32_t best, i;
	struct dqr_dyn_reach *r;

	if (!d->reach || d->reviving != DQR_NONE)
		return;
	count_meet(d, d->last_meet);
	best = pick_slot(d, a);
	reach_clear(d, best);
	r = &d->reach[best];
	r->target = a;
	r->lb = d->pos[b];
	r->version = d->version;
	r->used = ++d->reach_clock;
	for (i = 0; i < d->last_nb; i++)
		reach_add(d, best, d->bwd[i]);
	/* the last one expanded may have stopped half way */
	r->done = d->last_bi ? d->last_bi - 1 : 0;
	if (r->done > r->len)
		r->done = r->len;
}

/* Slot k's backward step; 1 when it finds a channel b reaches. */
static int reach_step(struct dqr_dyn_order *d, uint32_t k)
{
	struct dqr_dyn_reach *r = &d->reach[k];
	uint32_t v = r->set[r->done++], bit = 1u << k, u;

	DYN_FOR_EACH_DEP(d, v, 0, u,
		if (d->pos[u] < r->lb || (d->reach_bits[u] & bit) ||
		    !live_edge(d, u, v))
			continue;
		if (d->seen[u] == d->epoch)
			return 1;
		reach_add(d, k, u);
	);
	return 0;
}

/*
 * 1 when a slot shows that b reaches a (live, pos[a] > pos[b]): the
 * turn closes a cycle.  0 when there is no slot for a, or none found.
 */
int dyn_reach_refuses(struct dqr_dyn_order *d, uint32_t a, uint32_t b)
{
	struct dqr_dyn_reach *r = NULL;
	uint32_t k, nf = 1, fi = 0, ub = d->pos[a];

	if (!d->reach || d->reviving != DQR_NONE)
		return 0;
	if (hub_refuses(d, a, b))
		return 1;
	/*
	 * A slot whose bound lies above b is not asked: b would have to
	 * climb to what it holds, which took longer than searching anew
	 * (that search then keeps its own, from b's place).
	 */
	for (k = 0; k < REACH_SLOTS; k++) {
		r = &d->reach[k];
		if (r->target == a && r->version == d->version &&
		    r->lb <= d->pos[b])
			break;
	}
	if (k == REACH_SLOTS)
		return 0;
	r->used = ++d->reach_clock;
	if (d->reach_bits[b] & (1u << k))
		return 1;
	new_search(d);
	d->seen[b] = d->epoch;
	d->fwd[0] = b;
	while (fi < nf) {
		/* whole and without b: b does not reach a */
		if (r->done == r->len && !r->holes)
			return 0;
		if (r->done < r->len && r->len - r->done < nf - fi) {
			if (reach_step(d, k))
				return 1;
		} else if (dyn_step(d, d->fwd[fi++], 1, ub, 1u << k,
				    &nf) != DQR_NONE) {
			return 1;
		}
	}
	return 0;
}

#define REACH_BUFS 4

/*
 * The table of the slots' arrays, from which both dyn_reach_new()
 * allocates and dyn_reach_free() frees them (mem.h).
 */
static void reach_bufs(struct dqr_dyn_order *d, struct dqr_buf *b)
{
	const struct dqr_buf t[REACH_BUFS] = {
		DQR_BUF(d->reach, REACH_SLOTS),
		DQR_BUF(d->reach_bits, d->num_vertices),
		DQR_BUF(d->hubs, HUBS), DQR_BUF(d->meets, MEETS),
	};

	memcpy(b, t, sizeof(t));
}

int dyn_reach_new(struct dqr_dyn_order *d)
{
	struct dqr_buf b[REACH_BUFS];
	uint32_t k;

	reach_bufs(d, b);
	if (dqr_bufs_alloc(b, REACH_BUFS))
		return -1;
	for (k = 0; k < REACH_SLOTS; k++)
		d->reach[k].target = DQR_NONE;
	for (k = 0; k < HUBS; k++)
		d->hubs[k].ch = DQR_NONE;
	for (k = 0; k < MEETS; k++)
		d->meets[k].ch = DQR_NONE;
	return 0;
}

void dyn_reach_free(struct dqr_dyn_order *d)
{
	struct dqr_buf b[REACH_BUFS];
	uint32_t k;

	for (k = 0; d->reach && k < REACH_SLOTS; k++)
		free(d->reach[k].set);
	for (k = 0; d->hubs && k < HUBS; k++) {
		free(d->hubs[k].up);
		free(d->hubs[k].down);
	}
	reach_bufs(d, b);
	dqr_bufs_free(b, REACH_BUFS);
}
