/*
 * test_dyn_order.c - the mutable channel list: turns enabled by
 * reordering (the DQR paper, section IV), refused cycles, undo, retired
 * channels, and a randomized cross-check against a plain full search.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "deps/dyn_order.h"
#include "deps/edge_list.h"
#include "death.h"
#include "small_fabrics.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers */

static uint64_t rng_state;

static uint32_t rnd(uint32_t n)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)((rng_state >> 11) % n);
}

/* dqr_topo_order()'s tie break: a random ready vertex */
static uint32_t pick_random(void *ctx, uint32_t r)
{
	(void)ctx;
	return rnd(r);
}

/*
 * A random DAG: a hidden ranking, m distinct edges from lower to higher
 * rank at most window apart.  rank[] is returned for legal additions.
 */
static struct dqr_cdg *random_dag(uint32_t n, uint32_t m, uint32_t window,
				  uint32_t **rank_out)
{
	uint32_t *rank = malloc(sizeof(uint32_t) * n), *byrank;
	uint32_t *e = malloc(sizeof(uint32_t) * 2 * (m ? m : 1));
	uint8_t *adj = n <= 4096 ? calloc((size_t)n * n, 1) : NULL;
	uint32_t i, r, s, got = 0, tries = 0;
	struct dqr_channel_list shuffle;
	struct dqr_cdg *g;

	/* without edges every vertex is ready: a random order is a shuffle */
	g = dqr_cdg_of_edges(n, NULL, 0);
	if (!g || dqr_topo_order(g, pick_random, NULL, &shuffle))
		abort();
	dqr_cdg_free(g);
	byrank = shuffle.order;
	for (i = 0; i < n; i++)
		rank[byrank[i]] = i;
	while (got < m && tries++ < 20 * m) {
		r = rnd(n - 1);
		s = r + 1 + rnd(window < n - 1 - r ? window : n - 1 - r);
		if (adj) {
			if (adj[(size_t)byrank[r] * n + byrank[s]])
				continue;
			adj[(size_t)byrank[r] * n + byrank[s]] = 1;
		}
		e[2 * got] = byrank[r];
		e[2 * got + 1] = byrank[s];
		got++;
	}
	g = dqr_cdg_of_edges(n, e, got);
	free(adj);
	free(e);
	dqr_channel_list_free(&shuffle);
	if (rank_out)
		*rank_out = rank;
	else
		free(rank);
	return g;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return (a > b) - (a < b);
}

/* As the CDG of a fabric has them: dqr_dyn_has_edge() then bisects. */
static void sort_succ_lists(struct dqr_cdg *g)
{
	uint32_t v;

	for (v = 0; v < g->num_vertices; v++)
		qsort(g->succ + g->succ_off[v],
		      g->succ_off[v + 1] - g->succ_off[v], sizeof(uint32_t),
		      cmp_u32);
}

static void *dup_bytes(const void *p, size_t size)
{
	void *q = malloc(size ? size : 1);

	if (size)
		memcpy(q, p, size);
	return q;
}

/* Everything rollback must restore: the arrays, then the counts. */
enum {
	SNAP_POS, SNAP_ORDER, SNAP_ADD_SUCC, SNAP_ADD_PRED, SNAP_RETIRED,
	SNAP_EDGES, SNAP_ARRAYS
};

struct snap_array {
	const void *p;
	size_t size;		/* in bytes */
};

struct snap {
	struct snap_array copy[SNAP_ARRAYS];
	uint32_t num_added;
	uint64_t num_reorders, num_moved;
};

static void snap_arrays(const struct dqr_dyn_order *d,
			struct snap_array a[SNAP_ARRAYS])
{
	size_t n = d->num_vertices, u = sizeof(uint32_t);
	const struct snap_array now[SNAP_ARRAYS] = {
		[SNAP_POS] = { d->pos, n * u },
		[SNAP_ORDER] = { d->order, d->len * u },
		[SNAP_ADD_SUCC] = { d->add_succ, n * u },
		[SNAP_ADD_PRED] = { d->add_pred, n * u },
		[SNAP_RETIRED] = { d->retired, n },
		[SNAP_EDGES] = { d->edges, d->num_added * sizeof(*d->edges) },
	};

	memcpy(a, now, sizeof(now));
}

static void snap_take(struct snap *s, const struct dqr_dyn_order *d)
{
	struct snap_array a[SNAP_ARRAYS];
	unsigned i;

	snap_arrays(d, a);
	for (i = 0; i < SNAP_ARRAYS; i++) {
		s->copy[i].p = dup_bytes(a[i].p, a[i].size);
		s->copy[i].size = a[i].size;
	}
	s->num_added = d->num_added;
	s->num_reorders = d->num_reorders;
	s->num_moved = d->num_moved;
}

static int snap_same(const struct snap *s, const struct dqr_dyn_order *d)
{
	struct snap_array a[SNAP_ARRAYS];
	unsigned i;

	snap_arrays(d, a);
	for (i = 0; i < SNAP_ARRAYS; i++)
		if (a[i].size != s->copy[i].size ||
		    memcmp(a[i].p, s->copy[i].p, a[i].size))
			return 0;
	return s->num_added == d->num_added &&
	       s->num_reorders == d->num_reorders &&
	       s->num_moved == d->num_moved;
}

static void snap_free(struct snap *s)
{
	unsigned i;

	for (i = 0; i < SNAP_ARRAYS; i++)
		free((void *)s->copy[i].p);
}

static int same_pos(const uint32_t *pos, const struct dqr_dyn_order *d)
{
	return !memcmp(pos, d->pos, sizeof(uint32_t) * d->num_vertices);
}

/* ------------------------------------------------------- shadow graph */

/*
 * The same dependencies kept the plain way, to judge dqr_dyn_* against a
 * full search that knows nothing of positions.
 */
struct shadow {
	uint32_t n;
	uint8_t *adj, *retired;
	uint32_t **succ, **pred, *ns, *np, *cap_s, *cap_p;
	uint32_t *stack, *seen, epoch;
	uint32_t *added, num_added, cap_added;	/* pairs, for undo */
};

static void vec_push(uint32_t **v, uint32_t *len, uint32_t *cap, uint32_t x)
{
	if (*len == *cap) {
		*cap = *cap ? 2 * *cap : 4;
		*v = realloc(*v, sizeof(uint32_t) * *cap);
	}
	(*v)[(*len)++] = x;
}

static void shadow_edge(struct shadow *s, uint32_t a, uint32_t b)
{
	s->adj[(size_t)a * s->n + b] = 1;
	vec_push(&s->succ[a], &s->ns[a], &s->cap_s[a], b);
	vec_push(&s->pred[b], &s->np[b], &s->cap_p[b], a);
}

static void shadow_init(struct shadow *s, const struct dqr_cdg *g)
{
	uint32_t n = g->num_vertices, v;
	uint64_t k;

	memset(s, 0, sizeof(*s));
	s->n = n;
	/* one block each for the bytes, the lists and the counts */
	s->adj = calloc((size_t)n * n + n, 1);
	s->succ = calloc(2 * (size_t)n, sizeof(*s->succ));
	s->ns = calloc(6 * (size_t)n, sizeof(uint32_t));
	if (!s->adj || !s->succ || !s->ns)
		abort();
	s->retired = s->adj + (size_t)n * n;
	s->pred = s->succ + n;
	s->np = s->ns + n;
	s->cap_s = s->np + n;
	s->cap_p = s->cap_s + n;
	s->stack = s->cap_p + n;
	s->seen = s->stack + n;
	for (v = 0; v < n; v++)
		for (k = g->succ_off[v]; k < g->succ_off[v + 1]; k++)
			shadow_edge(s, v, g->succ[k]);
}

static void shadow_add(struct shadow *s, uint32_t a, uint32_t b)
{
	shadow_edge(s, a, b);
	vec_push(&s->added, &s->num_added, &s->cap_added, a);
	vec_push(&s->added, &s->num_added, &s->cap_added, b);
}

/* Drops added edges down to keep (counted in edges). */
static void shadow_undo(struct shadow *s, uint32_t keep)
{
	uint32_t a, b;

	while (s->num_added > 2 * keep) {
		b = s->added[--s->num_added];
		a = s->added[--s->num_added];
		s->adj[(size_t)a * s->n + b] = 0;
		s->ns[a]--;
		s->np[b]--;
	}
}

static void shadow_free(struct shadow *s)
{
	uint32_t v;

	for (v = 0; v < s->n; v++) {
		free(s->succ[v]);
		free(s->pred[v]);
	}
	free(s->adj);
	free(s->succ);
	free(s->ns);
	free(s->added);
}

/*
 * Marks (epoch) everything from reaches over live edges, forward or
 * backward; returns 1 when to is among them.
 */
static int shadow_reach(struct shadow *s, uint32_t from, uint32_t to,
			int backward)
{
	uint32_t sp = 0, v, w, i, mark = ++s->epoch;
	uint32_t **adj = backward ? s->pred : s->succ;
	uint32_t *deg = backward ? s->np : s->ns;

	if (s->retired[from])
		return 0;
	s->seen[from] = mark;
	s->stack[sp++] = from;
	while (sp) {
		v = s->stack[--sp];
		for (i = 0; i < deg[v]; i++) {
			w = adj[v][i];
			if (s->retired[w] || s->seen[w] == mark)
				continue;
			s->seen[w] = mark;
			s->stack[sp++] = w;
		}
	}
	return s->seen[to] == mark;
}

/*
 * What dqr_dyn_add(a, b) must do (live ends, no cycle, pos[a] > pos[b]),
 * from full searches of the shadow graph: F = what b reaches below a, B
 * = what reaches a above b; their positions go to B first, then F, each
 * in its old order.  want[] gets pos[] as it must be after; returns
 * |F| + |B|, the cost dqr_dyn_check() must report.
 */
static uint32_t want_reorder(struct shadow *sh, const struct dqr_dyn_order *d,
			     uint32_t a, uint32_t b, uint32_t *want)
{
	uint32_t n = d->num_vertices, lo = d->pos[b], hi = d->pos[a];
	uint32_t *in_b = malloc(sizeof(uint32_t) * 3 * (n + 1));
	uint32_t *in_f = in_b + n + 1, *merged = in_f + n + 1;
	uint32_t p, v, fm, nf = 0, nb = 0, k;

	if (!in_b)
		abort();
	shadow_reach(sh, b, a, 0);
	fm = sh->epoch;
	shadow_reach(sh, a, b, 1);
	for (p = lo; p <= hi; p++) {
		v = d->order[p];
		if (sh->retired[v])
			continue;
		if (sh->seen[v] == fm)
			in_f[nf++] = v;
		else if (sh->seen[v] == sh->epoch)
			in_b[nb++] = v;
		else
			continue;
		merged[nf + nb - 1] = p;
	}
	memcpy(want, d->pos, sizeof(uint32_t) * n);
	for (k = 0; k < nb + nf; k++)
		want[k < nb ? in_b[k] : in_f[k - nb]] = merged[k];
	free(in_b);
	return nf + nb;
}

/* -------------------------------------------------------------- tests */

static uint32_t ch(const struct dqr_fabric *f, unsigned sw, unsigned port)
{
	return dqr_port_index(f, sw, port);
}

/* Builds the dynamic list of a ring routed as a line. */
static struct dqr_dyn_order *line_order(unsigned n, struct dqr_fabric **fp,
					struct dqr_cdg **gp)
{
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *t = ring_as_line(f, n);
	struct dqr_dyn_order *d;

	REQUIRE(dyn_order_of_tables(f, t, &d, gp) == 0);
	REQUIRE(d);
	dqr_lfts_free(t);
	*fp = f;
	return d;
}

static void test_line_cycles(void)
{
	unsigned n;

	for (n = 3; n <= 8; n++) {
		struct dqr_fabric *f;
		struct dqr_cdg *g;
		struct dqr_dyn_order *d = line_order(n, &f, &g);
		uint32_t cw_last = ch(f, n - 2, 1), wrap = ch(f, n - 1, 1);
		uint32_t *before;
		int r;

		CHECK(dqr_dyn_valid(d));
		CHECK_EQ(d->len, g->num_channels);
		CHECK(dqr_dyn_has_edge(d, ch(f, 0, 1), ch(f, 1, 1)));
		CHECK(!dqr_dyn_has_edge(d, cw_last, wrap));

		/* the wrap link n-1 -> 0 joins the clockwise chain once */
		r = dqr_dyn_add(d, cw_last, wrap);
		CHECK(r == DQR_DYN_ADDED || r == DQR_DYN_REORDERED);
		CHECK(dqr_dyn_valid(d));
		CHECK(dqr_dyn_has_edge(d, cw_last, wrap));
		CHECK_EQ(d->num_added, 1);

		/* ... and closing it is refused with nothing changed */
		before = dup_bytes(d->pos, sizeof(uint32_t) * d->num_vertices);
		CHECK_EQ(dqr_dyn_check(d, wrap, ch(f, 0, 1), NULL),
			 DQR_DYN_REFUSED);
		CHECK_EQ(dqr_dyn_add(d, wrap, ch(f, 0, 1)), DQR_DYN_CYCLE);
		CHECK(same_pos(before, d));
		CHECK_EQ(d->num_added, 1);
		CHECK(!dqr_dyn_has_edge(d, wrap, ch(f, 0, 1)));
		/* the same for the counter-clockwise chain */
		CHECK_EQ(dqr_dyn_add(d, ch(f, 0, 2), ch(f, n - 1, 2)) >= 0, 1);
		CHECK_EQ(dqr_dyn_add(d, ch(f, 1, 2), ch(f, 0, 2)),
			 DQR_DYN_CYCLE);
		CHECK(dqr_dyn_valid(d));
		/* an edge already present is not stored twice */
		CHECK_EQ(dqr_dyn_add(d, ch(f, 0, 1), ch(f, 1, 1)),
			 DQR_DYN_ADDED);
		CHECK_EQ(d->num_added, 2);
		free(before);
		dqr_dyn_free(d);
		dqr_cdg_free(g);
		dqr_fabric_free(f);
	}
}

/*
 * The line 0-1-...-(n-1) loses link 1-2: every new dependency of the line
 * rotated to start at switch 2 (which goes through the unused wrap link)
 * goes in, one by one, some by reordering.
 */
static void test_line_fault_reroute(void)
{
	const unsigned n = 6;
	struct dqr_fabric *f;
	struct dqr_cdg *g, *g2;
	struct dqr_dyn_order *d = line_order(n, &f, &g);
	struct dqr_lfts *t2 = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	struct dqr_channel_list cl;
	uint32_t v, added = 0, bad = 0;
	unsigned sw, lid;
	uint64_t k;

	for (sw = 0; sw < n; sw++)
		for (lid = 1; lid <= 2 * n; lid++) {
			unsigned p = (lid - 1) % n;

			dqr_lft_set(t2, sw, lid,
				    (p + n - 2) % n > (sw + n - 2) % n ? 1 : 2);
		}
	for (sw = 0; sw < n; sw++) {
		dqr_lft_set(t2, sw, sw + 1, 0);
		dqr_lft_set(t2, sw, n + sw + 1, 3);
	}
	g2 = dqr_cdg_build(f, t2);
	REQUIRE(g2);
	/* the new routing never uses the failed link 1-2 */
	for (v = 0; v < 2; v++) {
		uint32_t c = v ? ch(f, 2, 2) : ch(f, 1, 1);

		CHECK_EQ(g2->succ_off[c + 1] - g2->succ_off[c], 0);
		CHECK_EQ(g2->pred_off[c + 1] - g2->pred_off[c], 0);
	}

	CHECK_EQ(dqr_dyn_retire_channel(d, ch(f, 1, 1)), 0);
	CHECK_EQ(dqr_dyn_retire_channel(d, ch(f, 2, 2)), 0);
	CHECK(dqr_dyn_valid(d));
	for (v = 0; v < g2->num_vertices; v++)
		for (k = g2->succ_off[v]; k < g2->succ_off[v + 1]; k++) {
			uint32_t w = g2->succ[k];

			if (dqr_dyn_has_edge(d, v, w))
				continue;
			bad += dqr_dyn_add(d, v, w) < 0;
			bad += !dqr_dyn_valid(d);
			added++;
		}
	CHECK(added > 0);
	CHECK_EQ(bad, 0);
	CHECK(d->num_reorders > 0);
	CHECK(d->num_moved >= d->num_reorders);
	/* the exported list is valid for the new routing on its own */
	REQUIRE(dqr_dyn_export(d, &cl) == 0);
	CHECK(dqr_channel_list_valid(&cl, g2));
	CHECK_EQ(cl.len, d->len);
	dqr_channel_list_free(&cl);
	/* the failed link still blocks a revival: the old line is back */
	CHECK_EQ(dqr_dyn_revive_channel(d, ch(f, 1, 1)), DQR_DYN_CYCLE);
	CHECK(dqr_dyn_is_retired(d, ch(f, 1, 1)));
	CHECK(dqr_dyn_valid(d));

	dqr_cdg_free(g2);
	dqr_lfts_free(t2);
	dqr_dyn_free(d);
	dqr_cdg_free(g);
	dqr_fabric_free(f);
}

/*
 * The DQR paper Fig. 1/2: the ring A B C D with shortest paths, ties broken so
 * that A->C and B->D go clockwise, C->A and D->B counter-clockwise.  Link
 * A-B fails; A->B and A->C now go A D C (turn AD -> DC), B->A and C->A go
 * C D A (turn CD -> DA).  In the list below CD -> DA points down: DA must
 * move above CD.
 */
enum { AB, BC, CD, DA, BA, CB, DC, AD, RING_CH };

static void test_paper_ring(void)
{
	static const uint32_t e[] = {
		AB, BC,  BC, CD,  CB, BA,  DC, CB,
	};
	static const uint32_t list[RING_CH] = {
		DA, AD, AB, BC, CD, DC, CB, BA,
	};
	static const uint32_t after[RING_CH] = {
		BC, AD, AB, CD, DA, DC, CB, BA,
	};
	struct dqr_cdg *g = dqr_cdg_of_edges(RING_CH, e, 4);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	uint32_t i, cost = 99, *before;

	cl.num_vertices = cl.len = RING_CH;
	cl.order = malloc(sizeof(list));
	cl.pos = malloc(sizeof(list));
	for (i = 0; i < RING_CH; i++) {
		cl.order[i] = list[i];
		cl.pos[list[i]] = i;
	}
	d = dqr_dyn_new(g, &cl);
	REQUIRE(d);
	CHECK(dqr_dyn_valid(d));

	CHECK_EQ(dqr_dyn_retire_channel(d, AB), 0);
	CHECK_EQ(dqr_dyn_retire_channel(d, BA), 0);
	CHECK(dqr_dyn_is_retired(d, AB));

	CHECK_EQ(dqr_dyn_check(d, AD, DC, &cost), DQR_DYN_LEGAL);
	CHECK_EQ(cost, 0);
	CHECK_EQ(dqr_dyn_add(d, AD, DC), DQR_DYN_ADDED);

	/* region DA..CD: DA forward, CD <- BC backward (AB is retired) */
	CHECK_EQ(dqr_dyn_check(d, CD, DA, &cost), DQR_DYN_NEEDS_REORDER);
	CHECK_EQ(cost, 3);
	CHECK(d->pos[DA] < d->pos[CD]);
	CHECK_EQ(dqr_dyn_add(d, CD, DA), DQR_DYN_REORDERED);
	CHECK(d->pos[CD] < d->pos[DA]);
	CHECK(dqr_dyn_valid(d));
	CHECK_EQ(d->num_reorders, 1);
	CHECK_EQ(d->num_added, 2);
	/* AB is dead and kept its place; DA took CD's, CD and BC moved down */
	CHECK_EQ(d->num_moved, 3);
	for (i = 0; i < RING_CH; i++)
		CHECK_EQ(d->order[i], after[i]);

	/*
	 * Two U-turns close the remaining line into a cycle: DA -> AD is
	 * fine alone, CB -> BC then closes BC CD DA AD DC CB.
	 */
	CHECK(dqr_dyn_add(d, DA, AD) >= 0);
	CHECK(dqr_dyn_valid(d));
	before = dup_bytes(d->pos, sizeof(uint32_t) * RING_CH);
	CHECK_EQ(dqr_dyn_check(d, CB, BC, &cost), DQR_DYN_REFUSED);
	CHECK_EQ(dqr_dyn_add(d, CB, BC), DQR_DYN_CYCLE);
	CHECK(same_pos(before, d));
	CHECK_EQ(d->num_added, 3);

	/*
	 * The link returns.  AB -> BC now points down (BC moved while AB was
	 * dead): AB is re-inserted below BC; CB -> BA still points up.
	 */
	CHECK_EQ(dqr_dyn_revive_channel(d, AB), DQR_DYN_REORDERED);
	CHECK(d->pos[AB] < d->pos[BC]);
	CHECK_EQ(dqr_dyn_revive_channel(d, BA), DQR_DYN_ADDED);
	CHECK(!dqr_dyn_is_retired(d, AB));
	CHECK(dqr_dyn_valid(d));

	free(before);
	dqr_channel_list_free(&cl);
	dqr_dyn_free(d);
	dqr_cdg_free(g);
}

static void test_invalid(void)
{
	static const uint32_t e[] = { 0, 1,  1, 2 };
	struct dqr_cdg *g = dqr_cdg_of_edges(4, e, 2);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	uint32_t cost;

	/* vertex 3 is idle: not in the list */
	cl.num_vertices = 4;
	cl.len = 3;
	cl.order = malloc(sizeof(uint32_t) * 4);
	cl.pos = malloc(sizeof(uint32_t) * 4);
	cl.order[0] = 1;
	cl.order[1] = 0;
	cl.order[2] = 2;
	cl.pos[0] = 1;
	cl.pos[1] = 0;
	cl.pos[2] = 2;
	cl.pos[3] = DQR_NONE;
	CHECK(dqr_dyn_new(g, &cl) == NULL);	/* 0 -> 1 points down */
	cl.order[0] = 0;
	cl.order[1] = 1;
	cl.pos[0] = 0;
	cl.pos[1] = 1;
	d = dqr_dyn_new(g, &cl);
	REQUIRE(d);
	CHECK_EQ(dqr_dyn_add(d, 0, 3), DQR_DYN_EINVAL);
	CHECK_EQ(dqr_dyn_add(d, 7, 0), DQR_DYN_EINVAL);
	CHECK_EQ(dqr_dyn_add(d, 1, 1), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_check(d, 1, 1, &cost), DQR_DYN_REFUSED);
	CHECK_EQ(dqr_dyn_check(d, 3, 1, &cost), DQR_DYN_REFUSED);
	CHECK_EQ(dqr_dyn_retire_channel(d, 3), DQR_DYN_EINVAL);
	CHECK_EQ(dqr_dyn_revive_channel(d, 9), DQR_DYN_EINVAL);
	CHECK_EQ(dqr_dyn_revive_channel(d, 0), DQR_DYN_ADDED);
	CHECK_EQ(d->num_added, 0);
	CHECK_EQ(dqr_dyn_mark(d), 0);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
}

/* Revival that needs a reorder, and one refused because of a cycle. */
/* The list 0, 1, .. n-1 of g's n channels, in cl. */
static struct dqr_dyn_order *identity_order(const struct dqr_cdg *g,
					    struct dqr_channel_list *cl)
{
	struct dqr_dyn_order *d;
	uint32_t i, n = g->num_vertices;

	cl->num_vertices = cl->len = n;
	cl->order = malloc(sizeof(uint32_t) * n);
	cl->pos = malloc(sizeof(uint32_t) * n);
	REQUIRE(cl->order && cl->pos);
	for (i = 0; i < n; i++)
		cl->order[i] = cl->pos[i] = i;
	d = dqr_dyn_new(g, cl);
	REQUIRE(d);
	return d;
}

static void test_retire_revive(void)
{
	/* chain 0 -> 1 -> 2 -> 3 -> 4, and 5 -> 6 */
	static const uint32_t e[] = { 0, 1,  1, 2,  2, 3,  3, 4,  5, 6 };
	struct dqr_cdg *g = dqr_cdg_of_edges(7, e, 5);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = identity_order(g, &cl);
	struct snap s;
	uint32_t cost;
	size_t m;

	/* with 2 dead, 4 -> 1 is only a reorder away: 1 goes above 4 */
	CHECK_EQ(dqr_dyn_check(d, 4, 1, NULL), DQR_DYN_REFUSED);
	CHECK_EQ(dqr_dyn_retire_channel(d, 2), 0);
	CHECK(dqr_dyn_valid(d));
	CHECK_EQ(dqr_dyn_check(d, 4, 1, &cost), DQR_DYN_NEEDS_REORDER);
	CHECK_EQ(cost, 3);	/* 1 forward, 4 and 3 backward */
	CHECK_EQ(dqr_dyn_add(d, 4, 1), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));
	/* reviving 2 would close 1 2 3 4 1: refused, nothing changed */
	snap_take(&s, d);
	m = dqr_dyn_mark(d);
	CHECK_EQ(dqr_dyn_revive_channel(d, 2), DQR_DYN_CYCLE);
	CHECK(dqr_dyn_is_retired(d, 2));
	CHECK(snap_same(&s, d));
	CHECK_EQ(dqr_dyn_mark(d), m);
	snap_free(&s);

	/*
	 * An edge with a dead end is stored unchecked: 6 -> 5 while 6 is
	 * dead, against the base 5 -> 6.  Reviving 6 finds the 2-cycle.
	 */
	CHECK_EQ(dqr_dyn_retire_channel(d, 6), 0);
	CHECK_EQ(dqr_dyn_add(d, 6, 5), DQR_DYN_ADDED);
	CHECK_EQ(dqr_dyn_check(d, 6, 5, NULL), DQR_DYN_LEGAL);
	CHECK_EQ(dqr_dyn_revive_channel(d, 6), DQR_DYN_CYCLE);
	CHECK(dqr_dyn_valid(d));

	/* a revival that moves: 5 -> 3 was stored pointing down */
	CHECK_EQ(dqr_dyn_retire_channel(d, 5), 0);
	CHECK_EQ(dqr_dyn_add(d, 0, 5), DQR_DYN_ADDED);	/* 0 < 5 anyway */
	CHECK_EQ(dqr_dyn_add(d, 5, 3), DQR_DYN_ADDED);	/* down, unchecked */
	CHECK(d->pos[5] > d->pos[3]);
	CHECK_EQ(dqr_dyn_revive_channel(d, 5), DQR_DYN_REORDERED);
	CHECK(!dqr_dyn_is_retired(d, 5));
	CHECK(d->pos[0] < d->pos[5] && d->pos[5] < d->pos[3]);
	CHECK(dqr_dyn_valid(d));
	/* 5 -> 6 still has its dead end: ignored */
	CHECK(dqr_dyn_is_retired(d, 6));

	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
}

/* Undo restores everything byte for byte, nested marks included. */
/*
 * A refusal holds only while the path that closes the cycle stays live:
 * whatever takes an edge of it away (a retirement, a rollback of a
 * revival or of an added edge) makes the same turn legal again.
 */
static void test_refusals_forgotten(void)
{
	/* chain 0 -> 1 -> 2, and 3 alone */
	static const uint32_t e[] = { 0, 1,  1, 2 };
	struct dqr_cdg *g = dqr_cdg_of_edges(4, e, 2);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = identity_order(g, &cl);
	size_t m;

	/* a retirement */
	CHECK_EQ(dqr_dyn_add(d, 2, 0), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_retire_channel(d, 1), 0);
	CHECK_EQ(dqr_dyn_check(d, 2, 0, NULL), DQR_DYN_NEEDS_REORDER);

	/* a revival rolled back */
	dqr_dyn_commit(d);
	m = dqr_dyn_mark(d);
	CHECK_EQ(dqr_dyn_revive_channel(d, 1), DQR_DYN_ADDED);
	CHECK_EQ(dqr_dyn_add(d, 2, 0), DQR_DYN_CYCLE);
	dqr_dyn_rollback(d, m);
	CHECK(dqr_dyn_is_retired(d, 1));
	CHECK_EQ(dqr_dyn_check(d, 2, 0, NULL), DQR_DYN_NEEDS_REORDER);
	CHECK_EQ(dqr_dyn_revive_channel(d, 1), DQR_DYN_ADDED);
	CHECK_EQ(dqr_dyn_check(d, 2, 0, NULL), DQR_DYN_REFUSED);

	/* an added edge rolled back */
	m = dqr_dyn_mark(d);
	CHECK_EQ(dqr_dyn_add(d, 2, 3), DQR_DYN_ADDED);
	CHECK_EQ(dqr_dyn_add(d, 3, 0), DQR_DYN_CYCLE);
	dqr_dyn_rollback(d, m);
	CHECK_EQ(dqr_dyn_add(d, 3, 0), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));

	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
}

/*
 * Turns from one source into many channels, as DQR tries a switch's
 * channel for every DLID behind a dead link: each refused exactly when
 * its target reaches the source, whatever was refused before, and
 * every legal one reordered as Pearce and Kelly prescribe.
 */
static void test_refusals_one_source(void)
{
	/*
	 * 0 -> 1 -> 5 -> 9, 2 -> 4 -> 9, 3 -> 5, 6 -> 7 (6, 7 and 8 do
	 * not reach 9); the list 0 .. 9 in order, 9 on top.
	 */
	static const uint32_t e[] = { 0, 1,  1, 5,  5, 9,  2, 4,  4, 9,
				      3, 5,  6, 7 };
	struct dqr_cdg *g = dqr_cdg_of_edges(10, e, 7);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = identity_order(g, &cl);
	size_t m;

	CHECK_EQ(dqr_dyn_add(d, 9, 0), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 9, 2), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 9, 3), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 9, 1), DQR_DYN_CYCLE);
	CHECK_EQ(d->num_reorders, 0);
	/* 8 reaches nothing: 9 goes below it */
	m = dqr_dyn_mark(d);
	CHECK_EQ(dqr_dyn_add(d, 9, 8), DQR_DYN_REORDERED);
	CHECK(d->pos[9] < d->pos[8]);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_rollback(d, m);
	CHECK_EQ(dqr_dyn_add(d, 9, 6), DQR_DYN_REORDERED);
	dqr_dyn_rollback(d, m);
	/* a new edge 7 -> 4 makes 6 reach 9 */
	CHECK_EQ(dqr_dyn_add(d, 9, 2), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 7, 4), DQR_DYN_REORDERED);
	CHECK_EQ(dqr_dyn_add(d, 9, 6), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 9, 2), DQR_DYN_CYCLE);
	/* with 4 dead, 2 and 6 no longer reach 9; 0 still does */
	CHECK_EQ(dqr_dyn_retire_channel(d, 4), 0);
	CHECK_EQ(dqr_dyn_add(d, 9, 0), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_add(d, 9, 2), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_add(d, 9, 6) >= 0);
	CHECK(dqr_dyn_add(d, 9, 7) >= 0);
	CHECK_EQ(dqr_dyn_add(d, 9, 3), DQR_DYN_CYCLE);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);

	/*
	 * 0 -> 5 -> 6 -> 8 -> 9, 0 -> 2, 0 -> 3, 1 -> 6: refusing 9 -> 0
	 * searches back from 9 through 8 and 6; once 8 is dead, 6 no
	 * longer reaches 9, and 9 -> 1 is legal.
	 */
	{
		static const uint32_t e2[] = { 0, 5,  5, 6,  6, 8,  8, 9,
					       0, 2,  0, 3,  1, 6 };

		g = dqr_cdg_of_edges(10, e2, 7);
		d = identity_order(g, &cl);
	}
	CHECK_EQ(dqr_dyn_add(d, 9, 0), DQR_DYN_CYCLE);
	CHECK_EQ(dqr_dyn_retire_channel(d, 8), 0);
	CHECK_EQ(dqr_dyn_add(d, 9, 1), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
}

/*
 * Hundreds of refused turns from as many sources, all through one
 * channel (a switch LID that lost the link into its switch): each
 * refused, and the turns that close no cycle still go in, before and
 * after a rollback, and once the channel is dead.
 */
static void test_refusals_one_channel(void)
{
	/*
	 * y0..y9 (0..9) alone, b0..b99 (10..109) -> h (111) -> a0..a99
	 * (112..211), every b also -> w (110), z (212) alone on top; the
	 * searches meet at h
	 */
	enum { Y = 0, B = 10, W = 110, H = 111, A = 112, Z = 212, N = 213 };
	uint32_t e[600], i;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	size_t m;

	for (i = 0; i < 100; i++) {
		e[6 * i] = B + i;
		e[6 * i + 1] = H;
		e[6 * i + 2] = H;
		e[6 * i + 3] = A + i;
		e[6 * i + 4] = B + i;
		e[6 * i + 5] = W;
	}
	g = dqr_cdg_of_edges(N, e, 300);
	REQUIRE(g);
	d = identity_order(g, &cl);
	for (i = 0; i < 100; i++)
		CHECK_EQ(dqr_dyn_add(d, A + i, B + (i * 7) % 100),
			 DQR_DYN_CYCLE);
	CHECK_EQ(d->num_reorders, 0);
	m = dqr_dyn_mark(d);
	/* y reaches nothing, z is reached from nothing */
	CHECK_EQ(dqr_dyn_add(d, A + 3, Y + 1), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_rollback(d, m);
	CHECK_EQ(dqr_dyn_add(d, Z, B + 5), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_rollback(d, m);
	CHECK_EQ(dqr_dyn_add(d, A + 99, B), DQR_DYN_CYCLE);
	/* without h nothing reaches an a */
	CHECK_EQ(dqr_dyn_retire_channel(d, H), 0);
	CHECK_EQ(dqr_dyn_add(d, A + 7, B + 7), DQR_DYN_REORDERED);
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_free(d);
	dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
}

static void test_rollback(void)
{
	uint32_t n = 400, *rank, i, a, b, reorders = 0, r, bad = 0;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	struct snap s0, s1;
	size_t m0, m1 = 0;
	int ret;

	rng_state = 0x9e3779b97f4a7c15ull;
	g = random_dag(n, 3 * n, 40, &rank);
	REQUIRE(dqr_topo_order(g, pick_random, NULL, &cl) == 0);
	d = dqr_dyn_new(g, &cl);
	REQUIRE(d);

	snap_take(&s0, d);
	m0 = dqr_dyn_mark(d);
	for (i = 0; i < 300; i++) {
		if (i == 100) {
			CHECK_EQ(dqr_dyn_retire_channel(d, 7), 0);
			snap_take(&s1, d);
			m1 = dqr_dyn_mark(d);
		}
		if (i == 200)
			CHECK(dqr_dyn_revive_channel(d, 7) >= 0);
		if (i == 250)
			CHECK_EQ(dqr_dyn_retire_channel(d, 9), 0);
		/* legal by the hidden ranking, mostly against the list */
		a = rnd(n);
		b = rnd(n);
		if (rank[a] > rank[b]) {
			r = a;
			a = b;
			b = r;
		}
		if (a == b)
			continue;
		ret = dqr_dyn_add(d, a, b);
		bad += ret < 0;
		reorders += ret == DQR_DYN_REORDERED;
	}
	CHECK_EQ(bad, 0);
	CHECK(reorders > 10);
	CHECK(dqr_dyn_valid(d));
	CHECK(!snap_same(&s1, d));

	dqr_dyn_rollback(d, m1);
	CHECK(snap_same(&s1, d));
	CHECK(dqr_dyn_is_retired(d, 7));
	CHECK(dqr_dyn_valid(d));
	dqr_dyn_rollback(d, m0);
	CHECK(snap_same(&s0, d));
	CHECK(!dqr_dyn_is_retired(d, 7));
	CHECK_EQ(d->num_added, 0);
	CHECK_EQ(d->num_reorders, 0);
	CHECK_EQ(d->num_moved, 0);
	for (i = 0, bad = 0; i < n; i++)
		bad += d->add_succ[i] != DQR_NONE || d->add_pred[i] != DQR_NONE;
	CHECK_EQ(bad, 0);

	/* commit keeps the state and forgets the way back */
	do {
		a = rnd(n);
		b = rnd(n);
	} while (rank[a] >= rank[b] || d->pos[a] < d->pos[b]);
	CHECK_EQ(dqr_dyn_add(d, a, b), DQR_DYN_REORDERED);
	snap_free(&s1);
	snap_take(&s1, d);
	dqr_dyn_commit(d);
	CHECK_EQ(dqr_dyn_mark(d), 0);
	dqr_dyn_rollback(d, 0);
	CHECK(snap_same(&s1, d));
	CHECK_EQ(d->num_added, 1);

	snap_free(&s0);
	snap_free(&s1);
	free(rank);
	dqr_channel_list_free(&cl);
	dqr_dyn_free(d);
	dqr_cdg_free(g);
}

/*
 * Thousands of random attempts, each judged by a full search of the
 * shadow graph: cycle or not, the cost of the region, has_edge, and the
 * order valid after each; retire, revive and rollback mixed in.
 */
static unsigned stress_one(uint32_t n, uint32_t m, uint32_t window,
			   unsigned attempts, int sorted)
{
	struct dqr_cdg *g = random_dag(n, m, window, NULL);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d;
	struct shadow sh;
	unsigned bad = 0, it, refused = 0, reordered = 0;
	uint32_t *before = malloc(sizeof(uint32_t) * n);
	uint32_t *want = malloc(sizeof(uint32_t) * n);
	uint32_t recent[8][2], num_recent = 0;
	size_t mark = 0;
	uint32_t mark_edges = 0;
	struct snap s;
	int have_mark = 0;

	if (sorted)
		sort_succ_lists(g);
	if (dqr_topo_order(g, pick_random, NULL, &cl) ||
	    !(d = dqr_dyn_new(g, &cl))) {
		free(before);
		dqr_cdg_free(g);
		return 1;
	}
	shadow_init(&sh, g);
	for (it = 0; it < attempts; it++) {
		uint32_t a = rnd(n), b = rnd(n), cost, want_cost = 0, v;
		int cyc, chk, ret, pa_lt_pb, dead;

		/* now and then a failure, a repair, or a try rolled back */
		if (rnd(50) == 0) {
			v = rnd(n);
			if (dqr_dyn_retire_channel(d, v))
				bad++;
			sh.retired[v] = 1;
		} else if (rnd(50) == 0) {
			v = rnd(n);
			if (sh.retired[v]) {
				sh.retired[v] = 0;
				cyc = 0;
				/* a cycle among live edges goes through v */
				{
					uint32_t i;

					for (i = 0; i < sh.ns[v] && !cyc; i++)
						cyc = !sh.retired[sh.succ[v][i]]
						      && shadow_reach(&sh,
							sh.succ[v][i], v, 0);
				}
				ret = dqr_dyn_revive_channel(d, v);
				if (cyc != (ret == DQR_DYN_CYCLE) || ret <
				    DQR_DYN_CYCLE)
					bad++;
				if (cyc)
					sh.retired[v] = 1;
			}
		} else if (rnd(100) == 0 && !have_mark) {
			mark = dqr_dyn_mark(d);
			mark_edges = d->num_added;
			snap_take(&s, d);
			have_mark = 1;
		} else if (have_mark && rnd(30) == 0) {
			dqr_dyn_rollback(d, mark);
			shadow_undo(&sh, mark_edges);
			memcpy(sh.retired, s.copy[SNAP_RETIRED].p, n);
			bad += !snap_same(&s, d);
			snap_free(&s);
			have_mark = 0;
		}

		/*
		 * a turn refused lately, as DQR tries one for many DLIDs,
		 * or one from the same source into another channel (the
		 * next DLID's), which the search may keep what it found for
		 */
		if (num_recent && rnd(3) == 0) {
			v = rnd(num_recent < 8 ? num_recent : 8);
			a = recent[v][0];
			b = rnd(2) ? recent[v][1] : rnd(n);
		}
		if (a == b)
			continue;
		dead = sh.retired[a] || sh.retired[b];
		cyc = !dead && shadow_reach(&sh, b, a, 0);
		pa_lt_pb = d->pos[a] < d->pos[b];
		if (!dead && !cyc && !pa_lt_pb)
			want_cost = want_reorder(&sh, d, a, b, want);
		chk = dqr_dyn_check(d, a, b, &cost);
		bad += dqr_dyn_check(d, a, b, NULL) != chk;
		if (dead || pa_lt_pb)
			bad += chk != DQR_DYN_LEGAL || cost != 0;
		else if (cyc)
			bad += chk != DQR_DYN_REFUSED;
		else
			bad += chk != DQR_DYN_NEEDS_REORDER ||
			       cost != want_cost;
		bad += dqr_dyn_has_edge(d, a, b) !=
		       sh.adj[(size_t)a * n + b];

		memcpy(before, d->pos, sizeof(uint32_t) * n);
		ret = dqr_dyn_add(d, a, b);
		if (cyc) {
			refused++;
			bad += ret != DQR_DYN_CYCLE || !same_pos(before, d);
			v = num_recent++ % 8;
			recent[v][0] = a;
			recent[v][1] = b;
		} else {
			bad += ret < 0 ||
			       (ret == DQR_DYN_REORDERED) != (chk == 2);
			/* the very reorder Pearce and Kelly prescribe */
			if (ret == DQR_DYN_REORDERED)
				bad += !same_pos(want, d);
			reordered += ret == DQR_DYN_REORDERED;
			if (!sh.adj[(size_t)a * n + b])
				shadow_add(&sh, a, b);
		}
		bad += !dqr_dyn_valid(d);
		bad += d->num_added != sh.num_added / 2;
	}
	if (have_mark)
		snap_free(&s);
	/* a run that never refused nor reordered tested little */
	bad += !refused || !reordered;
	shadow_free(&sh);
	free(before);
	free(want);
	dqr_channel_list_free(&cl);
	dqr_dyn_free(d);
	dqr_cdg_free(g);
	return bad;
}

static void test_stress(void)
{
	static const struct {
		uint32_t n, m, window;
		unsigned attempts;
	} runs[] = {
		{ 20, 30, 20, 500 },
		{ 60, 120, 60, 1500 },
		{ 200, 600, 30, 3000 },
		{ 300, 900, 300, 3000 },
		{ 500, 1000, 50, 3000 },
	};
	unsigned i, sorted;

	rng_state = 0x243f6a8885a308d3ull;
	for (sorted = 0; sorted < 2; sorted++)
		for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
			CHECK_EQ(stress_one(runs[i].n, runs[i].m,
					    runs[i].window, runs[i].attempts,
					    sorted), 0);
}

#ifdef DQR_CHECKS
/*
 * A mark taken before dqr_dyn_commit() used after it (dyn_order.h: "must
 * not be used afterwards") stops the program where the log is shorter
 * than the mark, rather than rolling back what is not there.
 */
static void stale_mark(void *arg)
{
	static const uint32_t e[] = { 0, 1 };
	struct dqr_cdg *g = dqr_cdg_of_edges(3, e, 1);
	struct dqr_channel_list cl;
	struct dqr_dyn_order *d = identity_order(g, &cl);
	size_t m;

	(void)arg;
	CHECK_EQ(dqr_dyn_add(d, 1, 2), DQR_DYN_ADDED);
	m = dqr_dyn_mark(d);
	CHECK_EQ(dqr_dyn_add(d, 0, 2), DQR_DYN_ADDED);
	m = dqr_dyn_mark(d);
	dqr_dyn_commit(d);
	dqr_dyn_rollback(d, m);
}
#endif

static void test_contracts(void)
{
#ifdef DQR_CHECKS
	CHECK(unit_dies(stale_mark, NULL, "deps/dyn_order.c:"));
	CHECK(unit_dies(stale_mark, NULL, "mark <= d->log_len"));
#endif
}

int main(void)
{
	test_contracts();
	test_line_cycles();
	test_line_fault_reroute();
	test_paper_ring();
	test_invalid();
	test_retire_revive();
	test_refusals_forgotten();
	test_refusals_one_source();
	test_refusals_one_channel();
	test_rollback();
	test_stress();
	return unit_finish();
}
