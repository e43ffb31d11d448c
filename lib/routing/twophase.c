/*
 * twophase.c - two-phase randomised routing of a hypercube on one VL
 * (twophase.h says what and why).  One destination tree per LID: the
 * default tree in O(switches), then, where faults broke it, a repair in
 * O(switches * n) that keeps every route climbing in rank.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "routing/twophase.h"
#include "util/check.h"
#include "util/errmsg.h"

/* the classes of twophase.h, in the order routes climb them */
enum { CLASS_A, CLASS_B, CLASS_C, CLASS_D, CLASS_E, CLASSES };

#define RANK_TOP UINT32_MAX	/* the destination: anything may enter */
#define NO_CLIMB (UINT32_MAX - 1)	/* tmax of a label that cannot */

struct dqr_twophase {
	unsigned n;
	uint32_t num_labels;	/* 2^n */
	uint32_t num_switches;	/* of the reference topology */
	uint32_t *sw_of;	/* label -> switch index, DQR_NONE */
	uint32_t *label;	/* switch index -> label, DQR_NONE */
	uint32_t lid_count;
	/* per LID: its intermediate, a label of n - 2 bits (bits 2..n-1
	 * of the subcube's labels), DQR_NONE for a LID without owner */
	uint32_t *imed;
};

/* Work space of one routing: per label unless said otherwise. */
struct work {
	const struct dqr_twophase *tp;
	const struct dqr_fabric *f;
	uint8_t *nbp;		/* [label * n + dim]: port to the neighbour */
	uint8_t *state;		/* enum state */
	uint8_t *dim;		/* out dimension of a routed label */
	uint32_t *top;		/* rank of its out channel, RANK_TOP at dest */
	uint32_t *stack;
	/* the repair's: labels to settle, labels settled, and the highest
	 * climbing route over the whole cube (rank, dimension) */
	uint8_t *want, *settled, *tdim;
	uint32_t *tmax, tmax_for;	/* for destination tmax_for */
	/* bucket queue by rank: pool entries, linked per bucket */
	uint32_t *bucket, *ent_label, *ent_next, *key;
	uint32_t ranks, pool, used;
};

enum state { UNKNOWN, ROUTED, BROKEN, ABSENT };

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

unsigned dqr_twophase_length_bound(unsigned n)
{
	return n + (unsigned)floor(sqrt(2.0 * n * log(6.0 * n)));
}

/* The source side is C00 and C11: bits 0 and 1 equal. */
static int source_side(uint32_t x)
{
	return (x & 1) == ((x >> 1) & 1);
}

static unsigned class_of(uint32_t x, unsigned dim)
{
	if (dim >= 2)
		return source_side(x) ? CLASS_B : CLASS_D;
	if (source_side(x))
		return CLASS_C;
	return dim == 0 ? CLASS_A : CLASS_E;
}

static uint32_t rank_of(unsigned n, uint32_t x, unsigned dim)
{
	return class_of(x, dim) * n + dim;
}

uint32_t dqr_twophase_rank(const struct dqr_twophase *tp, uint32_t sw,
			   unsigned dim)
{
	if (sw >= tp->num_switches || tp->label[sw] == DQR_NONE ||
	    dim >= tp->n)
		return DQR_NONE;
	return rank_of(tp->n, tp->label[sw], dim);
}

uint32_t dqr_twophase_label(const struct dqr_twophase *tp, uint32_t sw)
{
	return sw < tp->num_switches ? tp->label[sw] : DQR_NONE;
}

/* The destination-side subcube (bits 0 and 1) that reaches label d. */
static uint32_t dest_cube(uint32_t d)
{
	/* C00 is reached from C01 across dimension 1, C11 from C10 */
	return (d & 3) == 0 ? 2 : (d & 3) == 3 ? 1 : d & 3;
}

/* The switch a LID ends at in f, and the port that delivers it there. */
static uint32_t lid_switch(const struct dqr_fabric *f, uint32_t lid,
			   uint8_t *deliver)
{
	uint32_t p, node, r;

	if (lid > f->max_lid || f->lid_port[lid] == DQR_NONE)
		return DQR_NONE;
	p = f->lid_port[lid];
	node = f->ports[p].node;
	if (dqr_is_switch(f, node)) {
		*deliver = 0;
		return f->nodes[node].sw_index;
	}
	r = f->ports[p].remote;
	if (r == DQR_NONE || !dqr_is_switch(f, f->ports[r].node))
		return DQR_NONE;
	*deliver = f->ports[r].num;
	return f->nodes[f->ports[r].node].sw_index;
}

static unsigned popcount(uint32_t x)
{
	return (unsigned)__builtin_popcount(x);
}

/*
 * Intermediates: the LIDs in an order drawn from the seed take the
 * labels in turn, so every label serves as many LIDs give or take one;
 * one farther from the destination's copy than the length bound allows
 * passes to the next label.
 */
static int draw_intermediates(struct dqr_twophase *tp,
			      const struct dqr_fabric *f, uint64_t seed)
{
	uint32_t lid, k, cnt = 0, m = tp->num_labels >> 2, i, d, *order;
	unsigned far = dqr_twophase_length_bound(tp->n) - 3 - (tp->n - 2);
	uint64_t s = seed;
	uint8_t dl;

	order = malloc((size_t)tp->lid_count * sizeof(*order));
	if (!order)
		return -1;
	for (lid = 1; lid < tp->lid_count; lid++)
		if (lid_switch(f, lid, &dl) != DQR_NONE)
			order[cnt++] = lid;
	for (k = cnt; k > 1; k--) {
		uint32_t j = (uint32_t)(splitmix(&s) % k), x = order[k - 1];

		order[k - 1] = order[j];
		order[j] = x;
	}
	for (k = 0; k < cnt; k++) {
		lid = order[k];
		d = tp->label[lid_switch(f, lid, &dl)];
		i = k % m;
		while (popcount(i ^ (d >> 2)) > far)
			i = (i + 1) % m;
		tp->imed[lid] = i;
	}
	free(order);
	return 0;
}

int dqr_twophase_new(const struct dqr_fabric *f, unsigned n,
		     const struct dqr_gen_place *place, uint64_t seed,
		     struct dqr_twophase **out, char *err, size_t errlen)
{
	struct dqr_twophase *tp;
	uint32_t sw, x;

	*out = NULL;
	if (n < DQR_TWOPHASE_MIN_DIMS || n > DQR_TWOPHASE_MAX_DIMS) {
		dqr_set_err(err, errlen, "two-phase routing needs a %u- to "
			    "%u-cube, not a %u-cube", DQR_TWOPHASE_MIN_DIMS,
			    DQR_TWOPHASE_MAX_DIMS, n);
		return -1;
	}
	tp = calloc(1, sizeof(*tp));
	if (!tp)
		goto nomem;
	tp->n = n;
	tp->num_labels = 1u << n;
	tp->num_switches = f->num_switches;
	tp->lid_count = f->max_lid + 1;
	tp->sw_of = malloc((size_t)tp->num_labels * sizeof(*tp->sw_of));
	tp->label = malloc((size_t)(f->num_switches + 1) *
			   sizeof(*tp->label));
	tp->imed = malloc((size_t)tp->lid_count * sizeof(*tp->imed));
	if (!tp->sw_of || !tp->label || !tp->imed)
		goto nomem;
	memset(tp->sw_of, 0xff, (size_t)tp->num_labels * sizeof(*tp->sw_of));
	memset(tp->imed, 0xff, (size_t)tp->lid_count * sizeof(*tp->imed));
	for (sw = 0; sw < f->num_switches; sw++) {
		x = place[sw].pos;
		if (x >= tp->num_labels || tp->sw_of[x] != DQR_NONE) {
			dqr_set_err(err, errlen, "switch %u: label %u out of "
				    "range or taken twice", sw, x);
			dqr_twophase_free(tp);
			return -1;
		}
		tp->sw_of[x] = sw;
		tp->label[sw] = x;
	}
	if (draw_intermediates(tp, f, seed))
		goto nomem;
	*out = tp;
	return 0;
nomem:
	dqr_twophase_free(tp);
	dqr_set_err(err, errlen, "out of memory");
	return -1;
}

static void *dup(const void *p, size_t len)
{
	void *q = malloc(len);

	if (q)
		memcpy(q, p, len);
	return q;
}

struct dqr_twophase *dqr_twophase_clone(const struct dqr_twophase *tp)
{
	struct dqr_twophase *c = malloc(sizeof(*c));

	if (!c)
		return NULL;
	*c = *tp;
	c->sw_of = dup(tp->sw_of, (size_t)tp->num_labels * sizeof(*c->sw_of));
	c->label = dup(tp->label, (size_t)(tp->num_switches + 1) *
		       sizeof(*c->label));
	c->imed = dup(tp->imed, (size_t)tp->lid_count * sizeof(*c->imed));
	if (!c->sw_of || !c->label || !c->imed) {
		dqr_twophase_free(c);
		return NULL;
	}
	return c;
}

void dqr_twophase_free(struct dqr_twophase *tp)
{
	if (!tp)
		return;
	free(tp->sw_of);
	free(tp->label);
	free(tp->imed);
	free(tp);
}

/* ------------------------------------------------------------ work space */

/* Frees what work_init() allocated (any of it NULL). */
static void work_free(struct work *w)
{
	free(w->nbp);
	free(w->state);
	free(w->dim);
	free(w->top);
	free(w->stack);
	free(w->want);
	free(w->settled);
	free(w->tdim);
	free(w->tmax);
	free(w->bucket);
	free(w->ent_label);
	free(w->ent_next);
	free(w->key);
}

/* The cube's cables in f: nbp[x * n + d], 0 where none joins x and x^2^d. */
static int work_init(struct work *w, const struct dqr_twophase *tp,
		     const struct dqr_fabric *f)
{
	uint32_t nl = tp->num_labels, sw, x, y, diff;
	unsigned n = tp->n, p;

	memset(w, 0, sizeof(*w));
	w->tp = tp;
	w->f = f;
	w->tmax_for = DQR_NONE;
	w->ranks = CLASSES * n;
	/* a label enters the queue once, and once more per channel in */
	w->pool = nl * (n + 1);
	w->nbp = calloc((size_t)nl * n, 1);
	w->state = malloc(nl);
	w->dim = malloc(nl);
	w->top = malloc((size_t)nl * sizeof(*w->top));
	w->stack = malloc((size_t)nl * sizeof(*w->stack));
	w->want = malloc(nl);
	w->settled = malloc(nl);
	w->tdim = malloc(nl);
	w->tmax = malloc((size_t)nl * sizeof(*w->tmax));
	w->bucket = malloc((size_t)w->ranks * sizeof(*w->bucket));
	w->ent_label = malloc((size_t)w->pool * sizeof(*w->ent_label));
	w->ent_next = malloc((size_t)w->pool * sizeof(*w->ent_next));
	w->key = malloc((size_t)nl * sizeof(*w->key));
	if (!w->nbp || !w->state || !w->dim || !w->top || !w->stack ||
	    !w->want || !w->settled || !w->tdim || !w->tmax || !w->bucket ||
	    !w->ent_label || !w->ent_next || !w->key) {
		work_free(w);
		return -1;
	}
	for (sw = 0; sw < f->num_switches && sw < tp->num_switches; sw++) {
		const struct dqr_node *nd = &f->nodes[f->switches[sw]];

		x = tp->label[sw];
		for (p = 1; p <= nd->num_ports; p++) {
			uint32_t r = f->ports[nd->port_base + p].remote;

			if (r == DQR_NONE ||
			    !dqr_is_switch(f, f->ports[r].node))
				continue;
			y = tp->label[f->nodes[f->ports[r].node].sw_index];
			diff = x ^ y;
			if (y == DQR_NONE || !diff || (diff & (diff - 1)))
				continue;
			w->nbp[(size_t)x * n + (unsigned)__builtin_ctz(diff)] =
				(uint8_t)p;
		}
	}
	return 0;
}

static int linked(const struct work *w, uint32_t x, unsigned d)
{
	return w->nbp[(size_t)x * w->tp->n + d] != 0;
}

/* ----------------------------------------------------------- default tree */

/* Lowest dimension from 2 up in which x and t differ, or -1. */
static int fix_dim(uint32_t x, uint32_t t)
{
	uint32_t diff = (x ^ t) & ~3u;

	return diff ? __builtin_ctz(diff) : -1;
}

/* x lies on the bit-fixing path from a to b (labels of one subcube). */
static int on_path(uint32_t x, uint32_t a, uint32_t b)
{
	uint32_t xa = x ^ a, xb = x ^ b;

	if (xa & xb)
		return 0;
	if (!xa || !xb)
		return 1;
	/* fixed so far: the low dimensions; still as at a: the high ones */
	return 31 - __builtin_clz(xa) < __builtin_ctz(xb);
}

/*
 * The default tree's dimension at x towards d through intermediate i
 * (n - 2 bits); x != d.
 */
static unsigned default_dim(uint32_t x, uint32_t d, uint32_t i)
{
	uint32_t dc = dest_cube(d), dd = (d & ~3u) | dc, ic;

	if ((x & 3) == dc && on_path(x, (i << 2) | dc, dd))
		return x == dd ? 1 : (unsigned)fix_dim(x, dd);
	if (!source_side(x))
		return 0;
	ic = (i << 2) | (x & 3);
	if (x == ic)
		return (unsigned)__builtin_ctz((x & 3) ^ dc);
	return (unsigned)fix_dim(x, ic);
}

/*
 * Routes every label by the default tree, then marks what reaches d
 * (ROUTED) and what a missing cable or switch cuts off (BROKEN).
 * Labels without a switch are ABSENT.  Returns the broken count.
 */
static uint32_t default_tree(struct work *w, uint32_t d, uint32_t i)
{
	const struct dqr_twophase *tp = w->tp;
	uint32_t nl = tp->num_labels, x, y, sp, broken = 0;
	unsigned n = tp->n;

	for (x = 0; x < nl; x++) {
		w->state[x] = tp->sw_of[x] == DQR_NONE ? ABSENT : UNKNOWN;
		if (x != d && w->state[x] == UNKNOWN)
			w->dim[x] = (uint8_t)default_dim(x, d, i);
	}
	w->state[d] = ROUTED;
	w->top[d] = RANK_TOP;
	for (x = 0; x < nl; x++) {
		if (w->state[x] != UNKNOWN)
			continue;
		/* follow the route to a known label, then settle it back */
		sp = 0;
		y = x;
		while (w->state[y] == UNKNOWN) {
			/* routes climb in rank: no label twice */
			DQR_CHECK(sp < nl);
			w->stack[sp++] = y;
			if (!linked(w, y, w->dim[y]))
				break;
			y ^= 1u << w->dim[y];
		}
		while (sp) {
			uint32_t z = w->stack[--sp];
			int ok = w->state[y] == ROUTED &&
				 linked(w, z, w->dim[z]);

			w->state[z] = ok ? ROUTED : BROKEN;
			w->top[z] = rank_of(n, z, w->dim[z]);
			broken += !ok;
			y = z;
		}
	}
	return broken;
}

/* --------------------------------------------------------------- repair */

/*
 * Bucket queue over ranks, highest first: key[x] is the highest rank
 * of an out channel of x whose next label is settled and climbs on
 * above it (top[y] > rank).  A label pushed again with a higher key
 * leaves its old entry behind, skipped when met.
 */
static void push(struct work *w, uint32_t x, uint32_t k)
{
	uint32_t e = w->used++;

	DQR_CHECK(e < w->pool && k < w->ranks);
	w->key[x] = k;
	w->ent_label[e] = x;
	w->ent_next[e] = w->bucket[k];
	w->bucket[k] = e;
}

/* The best climbing out channel of x into settled labels, or -1. */
static int best_dim(const struct work *w, uint32_t x, const uint32_t *top,
		    uint32_t *rank)
{
	unsigned n = w->tp->n, d;
	uint32_t r, y;
	int best = -1;

	for (d = 0; d < n; d++) {
		if (!linked(w, x, d))
			continue;
		y = x ^ (1u << d);
		r = rank_of(n, x, d);
		if (!w->settled[y] || r >= top[y])
			continue;
		if (best < 0 || r > *rank) {
			best = (int)d;
			*rank = r;
		}
	}
	return best;
}

/*
 * Settles the labels of want[] by their highest climbing channel into
 * what is settled, highest first, writing top[] and dims[] for each: a
 * label settled later cannot offer a higher rank, as its own is lower.
 * What stays in want[] has no climbing route.  O(labels * n).
 */
static void climb_attach(struct work *w, uint32_t *top, uint8_t *dims)
{
	uint32_t nl = w->tp->num_labels, x, y, e, r = 0, k;
	unsigned n = w->tp->n, d;
	int b;

	w->used = 0;
	for (k = 0; k < w->ranks; k++)
		w->bucket[k] = DQR_NONE;
	for (x = 0; x < nl; x++) {
		w->key[x] = DQR_NONE;
		if (w->want[x] && (b = best_dim(w, x, top, &r)) >= 0)
			push(w, x, r);
	}
	for (k = w->ranks; k-- > 0;) {
		while ((e = w->bucket[k]) != DQR_NONE) {
			w->bucket[k] = w->ent_next[e];
			x = w->ent_label[e];
			if (!w->want[x] || w->key[x] != k)
				continue;
			b = best_dim(w, x, top, &r);
			DQR_CHECK(b >= 0 && r == k);
			w->want[x] = 0;
			w->settled[x] = 1;
			dims[x] = (uint8_t)b;
			top[x] = k;
			for (d = 0; d < n; d++) {
				y = x ^ (1u << d);
				if (!linked(w, x, d) || !w->want[y])
					continue;
				r = rank_of(n, y, d);
				if (r < k && (w->key[y] == DQR_NONE ||
					      r > w->key[y]))
					push(w, y, r);
			}
		}
	}
}

/*
 * Repairs the broken labels of destination d.  First each climbs into
 * the routed part as high as it can.  What cannot takes its channel of
 * the highest climbing route over the whole cube (tmax), and the labels
 * ahead that do not climb on above it are raised to theirs: a raise only
 * lifts a label's rank, so every route into it still climbs.
 */
static void repair(struct work *w, uint32_t d, struct dqr_twophase_stats *st)
{
	uint32_t nl = w->tp->num_labels, x, y, z;
	int left = 0;

	for (x = 0; x < nl; x++) {
		w->want[x] = w->state[x] == BROKEN;
		w->settled[x] = w->state[x] == ROUTED;
	}
	climb_attach(w, w->top, w->dim);
	for (x = 0; x < nl; x++) {
		if (w->state[x] != BROKEN)
			continue;
		if (w->want[x]) {
			left = 1;
			continue;
		}
		w->state[x] = ROUTED;
		st->reattached++;
	}
	if (!left)
		return;
	/* tmax is d's alone: its other LIDs reuse it */
	if (w->tmax_for != d) {
		for (x = 0; x < nl; x++) {
			w->want[x] = w->state[x] != ABSENT && x != d;
			w->settled[x] = x == d;
			w->tmax[x] = 0;
		}
		w->tmax[d] = RANK_TOP;
		climb_attach(w, w->tmax, w->tdim);
		for (x = 0; x < nl; x++)
			if (!w->settled[x])
				w->tmax[x] = NO_CLIMB;
		w->tmax_for = d;
	}
	for (x = 0; x < nl; x++) {
		if (w->state[x] != BROKEN)
			continue;
		if (w->tmax[x] == NO_CLIMB) {
			st->unrouted++;
			continue;
		}
		/* walk ahead, raising until the route climbs on */
		for (y = x;; y = z) {
			if (y != x && w->state[y] == ROUTED)
				st->raised++;
			else
				st->reattached++;
			w->state[y] = ROUTED;
			w->dim[y] = w->tdim[y];
			w->top[y] = w->tmax[y];
			z = y ^ (1u << w->tdim[y]);
			if (w->state[z] == ROUTED && w->top[z] > w->top[y])
				break;
		}
	}
}

/* ---------------------------------------------------------------- route */

static void write_lid(struct work *w, struct dqr_lfts *t, uint32_t lid,
		      uint32_t d, uint8_t deliver)
{
	const struct dqr_twophase *tp = w->tp;
	uint32_t x;

	for (x = 0; x < tp->num_labels; x++) {
		uint32_t sw = tp->sw_of[x];

		if (sw == DQR_NONE || w->state[x] != ROUTED)
			continue;
		dqr_lft_set(t, sw, lid, x == d ? deliver :
			    w->nbp[(size_t)x * tp->n + w->dim[x]]);
	}
}

/*
 * The LIDs to route, grouped by the switch they end at (lids[off[sw]
 * .. off[sw + 1])), so that a destination's LIDs share its climbing
 * routes (tmax).  0, or -1 when out of memory.
 */
static int by_switch(const struct work *w, const struct dqr_fabric *f,
		     uint32_t **offp, uint32_t **lidsp)
{
	const struct dqr_twophase *tp = w->tp;
	uint32_t ns = f->num_switches, lid, sw, *off, *lids;
	uint8_t deliver;

	off = calloc((size_t)ns + 2, sizeof(*off));
	lids = malloc(((size_t)f->max_lid + 1) * sizeof(*lids));
	if (!off || !lids) {
		free(off);
		free(lids);
		return -1;
	}
	for (lid = 1; lid <= f->max_lid && lid < tp->lid_count; lid++) {
		sw = lid_switch(f, lid, &deliver);
		if (sw < ns && sw < tp->num_switches &&
		    tp->imed[lid] != DQR_NONE)
			off[sw + 2]++;
	}
	for (sw = 0; sw < ns; sw++)
		off[sw + 2] += off[sw + 1];
	for (lid = 1; lid <= f->max_lid && lid < tp->lid_count; lid++) {
		sw = lid_switch(f, lid, &deliver);
		if (sw < ns && sw < tp->num_switches &&
		    tp->imed[lid] != DQR_NONE)
			lids[off[sw + 1]++] = lid;
	}
	*offp = off;
	*lidsp = lids;
	return 0;
}

int dqr_twophase_route(const struct dqr_twophase *tp,
		       const struct dqr_fabric *f, struct dqr_lfts **out,
		       struct dqr_twophase_stats *st)
{
	struct dqr_twophase_stats dummy;
	struct dqr_lfts *t;
	struct work w;
	uint32_t lid, sw, d, i, *off = NULL, *lids = NULL;
	uint8_t deliver = 0;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof(*st));
	*out = NULL;
	t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	if (!t)
		return -1;
	if (work_init(&w, tp, f) || by_switch(&w, f, &off, &lids)) {
		work_free(&w);
		dqr_lfts_free(t);
		return -1;
	}
	for (i = 0; i < off[f->num_switches]; i++) {
		lid = lids[i];
		sw = lid_switch(f, lid, &deliver);
		d = tp->label[sw];
		st->lids++;
		if (default_tree(&w, d, tp->imed[lid])) {
			st->lids_broken++;
			repair(&w, d, st);
		}
		write_lid(&w, t, lid, d, deliver);
	}
	free(off);
	free(lids);
	work_free(&w);
	*out = t;
	return 0;
}

/* --------------------------------------------------------- active nodes */

/* 1 when label x's group has a switch or a cable missing. */
static int group_faulty(const struct work *w, uint32_t x)
{
	uint32_t g = x & ~3u, k;

	for (k = 0; k < 4; k++) {
		if (w->tp->sw_of[g | k] == DQR_NONE)
			return 1;
		if (!linked(w, g | k, 0) || !linked(w, g | k, 1))
			return 1;
	}
	return 0;
}

/*
 * Faulty bit-fixing paths of the subcube of label a: from a to every
 * label of it (into = 0), or from every label of it to a (into = 1).
 * bad[] is scratch, indexed by the inner bits of the other end xor a's.
 */
static uint32_t faulty_paths(const struct work *w, const uint8_t *marked,
			     uint32_t a, int into, uint8_t *bad)
{
	uint32_t m = w->tp->num_labels >> 2, v, u, hi, cnt = 0;

	for (v = 0; v < m; v++) {
		u = a ^ (v << 2);
		if (!v) {
			bad[v] = marked[a];
		} else if (!into) {
			/* from a: the last step fixes v's highest bit */
			hi = 1u << (31 - __builtin_clz(v));
			bad[v] = bad[v ^ hi] || marked[u] ||
				 !linked(w, u, (unsigned)__builtin_ctz(hi) + 2);
		} else {
			/* into a: the first step fixes v's lowest bit */
			hi = v & -v;
			bad[v] = bad[v ^ hi] || marked[u] ||
				 !linked(w, u, (unsigned)__builtin_ctz(hi) + 2);
		}
		cnt += bad[v];
	}
	return cnt;
}

double dqr_twophase_path_bound(const struct dqr_twophase *tp)
{
	return (double)tp->num_labels / (12.0 * (tp->n - 2));
}

long dqr_twophase_active(const struct dqr_twophase *tp,
			 const struct dqr_fabric *f, uint8_t *level,
			 uint32_t *whole)
{
	uint32_t nl = tp->num_labels, x, src, dst, sw;
	double limit = dqr_twophase_path_bound(tp);
	uint8_t *marked, *bad, *from_ok, *into_ok;
	struct work w;
	long cnt = 0;

	if (work_init(&w, tp, f))
		return -1;
	marked = malloc(nl);
	bad = malloc(nl >> 2);
	from_ok = malloc(nl);
	into_ok = malloc(nl);
	if (!marked || !bad || !from_ok || !into_ok) {
		cnt = -1;
		goto out;
	}
	for (x = 0; x < nl; x++)
		marked[x] = (uint8_t)group_faulty(&w, x);
	for (x = 0; x < nl; x++) {
		from_ok[x] = faulty_paths(&w, marked, x, 0, bad) <= limit;
		into_ok[x] = faulty_paths(&w, marked, x, 1, bad) <= limit;
	}
	for (sw = 0; sw < f->num_switches; sw++)
		level[sw] = DQR_TWOPHASE_LEFT_OUT;
	*whole = 0;
	for (x = 0; x < nl; x++) {
		sw = tp->sw_of[x];
		if (sw == DQR_NONE || sw >= f->num_switches || marked[x])
			continue;
		/* its packets start from its source-side copy and end
		 * through its destination-side copy */
		src = source_side(x) ? x : x ^ 1;
		dst = (x & 3) == dest_cube(x) ? x : x ^ 2;
		(*whole)++;
		level[sw] = from_ok[src] && into_ok[dst] ?
			    DQR_TWOPHASE_ACTIVE : DQR_TWOPHASE_WHOLE;
		cnt += level[sw] == DQR_TWOPHASE_ACTIVE;
	}
out:
	free(marked);
	free(bad);
	free(from_ok);
	free(into_ok);
	work_free(&w);
	return cnt;
}
