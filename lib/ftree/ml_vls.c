/*
 * ml_vls.c - NL and ML of the FT paper on VL 0 and VL 1 (see ml_vls.h).
 *
 * Two walks over every route: the first finds the U-turn routes and what
 * they need from the SL2VL tables, the second reads the finished mapping
 * back and builds the (channel, VL) dependency graph from it alone.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "ftree/ml_vls.h"
#include "util/errmsg.h"
#include "util/mem.h"
#include "util/sort.h"
#include "util/timing.h"

/*
 * SL2VL keys: bits 0..7 SL, 8..15 out port, 16..23 in port, 24..55 the
 * switch index or the CA port's global index, bit 60 set for a CA port.
 * Sorting them keeps the 16 SLs of one (switch, in, out) together.
 */
#define KEY_CA (1ull << 60)
#define KEY_SL_MASK 0xffull
#define EMPTY UINT64_MAX

static uint64_t sw_key(uint32_t sw, unsigned in, unsigned out)
{
	return (uint64_t)sw << 24 | (uint64_t)in << 16 | (uint64_t)out << 8;
}

static uint64_t ca_key(uint32_t port)
{
	return KEY_CA | (uint64_t)port << 24;
}

/* Route keys for the SL of U-turn routes: (source port, DLID). */
static uint64_t route_key(uint32_t src, uint32_t dlid)
{
	return (uint64_t)src << 16 | (dlid & 0xffff);
}

struct dqr_ml_vls {
	uint64_t *route;	/* sorted route keys of placed U-turn routes */
	uint8_t *route_sl;
	uint64_t num_routes;
	uint64_t *vl1;		/* sorted SL2VL keys that map to VL 1 */
	uint64_t num_vl1;
	struct dqr_cycle cycle[DQR_VL_LAYERS];
};

/* ------------------------------------------------------------ lookups */

/* Index of the first key >= k. */
static uint64_t lower_bound(const uint64_t *a, uint64_t n, uint64_t k)
{
	uint64_t lo = 0, hi = n;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		if (a[mid] < k)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static uint8_t key_vl(const struct dqr_ml_vls *v, uint64_t k)
{
	uint64_t i = lower_bound(v->vl1, v->num_vl1, k);

	return i < v->num_vl1 && v->vl1[i] == k;
}

uint8_t dqr_vl_path_sl(const struct dqr_ml_vls *v, uint32_t src_port,
		       uint32_t dlid)
{
	uint64_t k = route_key(src_port, dlid);
	uint64_t i = lower_bound(v->route, v->num_routes, k);

	return i < v->num_routes && v->route[i] == k ? v->route_sl[i] : 0;
}

uint8_t dqr_vl_sl2vl(const struct dqr_ml_vls *v, uint32_t sw,
		     uint8_t in_port, uint8_t out_port, uint8_t sl)
{
	return key_vl(v, sw_key(sw, in_port, out_port) | (sl & 15));
}

uint8_t dqr_vl_ca_sl2vl(const struct dqr_ml_vls *v, uint32_t ca_port,
			uint8_t sl)
{
	return key_vl(v, ca_key(ca_port) | (sl & 15));
}

static void table_of(const struct dqr_ml_vls *v, uint64_t base,
		     uint8_t vl[DQR_VL_NUM_SL])
{
	uint64_t i = lower_bound(v->vl1, v->num_vl1, base);

	memset(vl, 0, DQR_VL_NUM_SL);
	for (; i < v->num_vl1 && (v->vl1[i] & ~KEY_SL_MASK) == base; i++)
		vl[v->vl1[i] & 15] = 1;
}

void dqr_vl_sl2vl_table(const struct dqr_ml_vls *v, uint32_t sw,
			uint8_t in_port, uint8_t out_port,
			uint8_t vl[DQR_VL_NUM_SL])
{
	table_of(v, sw_key(sw, in_port, out_port), vl);
}

void dqr_vl_ca_sl2vl_table(const struct dqr_ml_vls *v, uint32_t ca_port,
			   uint8_t vl[DQR_VL_NUM_SL])
{
	table_of(v, ca_key(ca_port), vl);
}

const struct dqr_cycle *dqr_vl_cycle(const struct dqr_ml_vls *v,
				     unsigned layer)
{
	return &v->cycle[layer < DQR_VL_LAYERS ? layer : 0];
}

void dqr_ml_vls_free(struct dqr_ml_vls *v)
{
	unsigned l;

	if (!v)
		return;
	free(v->route);
	free(v->route_sl);
	free(v->vl1);
	for (l = 0; l < DQR_VL_LAYERS; l++)
		dqr_cycle_free(&v->cycle[l]);
	free(v);
}

/* ------------------------------------------------------------ walking */

enum { DIR_NONE, DIR_UP, DIR_DOWN };

struct hop {
	uint64_t key;		/* SL2VL key of the hop, SL 0 */
	uint32_t ch;		/* the channel it sends on */
};

struct route {
	uint32_t src, dlid, owner;
	uint32_t n;		/* hops */
	uint32_t uturn;		/* index of the first U-turn hop, or n */
	uint32_t uturn_sw;	/* switch X it leaves */
};

/*
 * Follows t from src to r->dlid.  0 with h[0 .. r->n) filled, or -1 when
 * the route does not reach the DLID; more than max hops is a loop.
 */
static int walk(const struct dqr_fabric *f, const struct dqr_lfts *t,
		const uint32_t *level, struct route *r, struct hop *h,
		uint32_t max)
{
	const struct dqr_port *p = &f->ports[r->src];
	uint32_t sw, n = 0;
	unsigned in = 0;
	int prev = DIR_NONE;

	r->uturn = DQR_NONE;
	if (!dqr_is_switch(f, p->node)) {
		h[n].key = ca_key(r->src);
		h[n++].ch = r->src;
		sw = dqr_peer_switch(f, r->src);
		in = f->ports[dqr_peer_port(f, r->src)].num;
		/* injection climbs: no U-turn at the first switch */
		prev = DIR_UP;
	} else {
		sw = f->nodes[p->node].sw_index;
	}
	for (;;) {
		uint8_t q = dqr_lft_get(t, sw, r->dlid);
		uint32_t ch, rem, next;
		int dir;

		if (q == 0) {
			if (r->owner != dqr_port_index(f, f->switches[sw], 0))
				return -1;
			break;
		}
		ch = dqr_next_channel(f, t, sw, r->dlid);
		if (ch == DQR_NONE || n >= max)
			return -1;
		rem = dqr_peer_port(f, ch);
		h[n].key = sw_key(sw, in, q);
		h[n].ch = ch;
		next = dqr_peer_switch(f, ch);
		if (next == DQR_NONE) {
			n++;
			if (rem != r->owner)
				return -1;
			break;
		}
		dir = level[next] > level[sw] ? DIR_UP :
		      level[next] < level[sw] ? DIR_DOWN : DIR_NONE;
		if (r->uturn == DQR_NONE && dir == DIR_UP &&
		    prev == DIR_DOWN) {
			r->uturn = n;
			r->uturn_sw = sw;
		}
		prev = dir;
		n++;
		in = f->ports[rem].num;
		sw = next;
	}
	r->n = n;
	if (r->uturn == DQR_NONE)
		r->uturn = n;
	return 0;
}

/* The sources of ml_vls.h: end ports with a LID and switch port 0. */
static int is_source(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	if (dqr_is_switch(f, p->node))
		return p->num == 0;
	return p->num && p->base_lid && p->remote != DQR_NONE &&
	       dqr_is_switch(f, f->ports[p->remote].node);
}

typedef int (*route_fn)(void *arg, const struct route *r,
			const struct hop *h);

/*
 * Calls fn for every route that reaches its DLID; counts the others in
 * *unrouted.  Stops with fn's value when it is not 0.
 */
static int for_each_route(const struct dqr_fabric *f,
			  const struct dqr_lfts *t, const uint32_t *level,
			  struct hop *h, route_fn fn, void *arg,
			  uint64_t *unrouted)
{
	uint32_t max = f->num_switches + 2, lid;
	struct route r;
	int ret;

	for (r.src = 0; r.src < f->num_ports; r.src++) {
		if (!is_source(f, r.src))
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			r.owner = dqr_lid_owner(f, lid);
			if (r.owner == DQR_NONE || r.owner == r.src)
				continue;
			r.dlid = lid;
			if (walk(f, t, level, &r, h, max)) {
				(*unrouted)++;
				continue;
			}
			ret = fn(arg, &r, h);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/* ------------------------------------------------------------ key map */

/* Open addressing, keys never EMPTY: SL2VL keys stay below bit 61. */
struct kmap {
	uint64_t *key;
	uint8_t *val;
	uint64_t mask;
};

static int kmap_init(struct kmap *m, uint64_t n)
{
	uint64_t cap = 16, i;

	while (cap < 2 * n)
		cap <<= 1;
	m->key = malloc(sizeof(*m->key) * cap);
	m->val = malloc(cap);
	m->mask = cap - 1;
	if (!m->key || !m->val)
		return -1;
	for (i = 0; i < cap; i++)
		m->key[i] = EMPTY;
	return 0;
}

static void kmap_free(struct kmap *m)
{
	free(m->key);
	free(m->val);
	m->key = NULL;
	m->val = NULL;
}

static uint64_t kmap_slot(const struct kmap *m, uint64_t k)
{
	uint64_t i = (k * 0x9e3779b97f4a7c15ull) >> 20;

	for (i &= m->mask; m->key[i] != EMPTY && m->key[i] != k;
	     i = (i + 1) & m->mask)
		;
	return i;
}

/* The value of k, or NULL. */
static uint8_t *kmap_find(const struct kmap *m, uint64_t k)
{
	uint64_t i = kmap_slot(m, k);

	return m->key[i] == k ? &m->val[i] : NULL;
}

/* The value of k, inserted as 0 when new (capacity was sized for it). */
static uint8_t *kmap_get(struct kmap *m, uint64_t k)
{
	uint64_t i = kmap_slot(m, k);

	if (m->key[i] == EMPTY) {
		m->key[i] = k;
		m->val[i] = 0;
	}
	return &m->val[i];
}

/* ------------------------------------------------------------ build */

/* What the first walk keeps of a U-turn route. */
struct urec {
	uint32_t src, dlid;
	uint64_t off;		/* its hops in ukey/ulayer */
	uint32_t n;
	uint8_t pref, sl;
};

struct build {
	const struct dqr_fabric *f;
	const uint32_t *level;
	struct dqr_vl_stats *st;
	struct urec *rec;
	uint64_t nrec, caprec;
	uint64_t *ukey;		/* SL2VL keys of U-turn hops, SL 0 */
	uint8_t *ulayer;	/* the layer each one wants */
	uint64_t nkey, capkey, caplayer;
};

/*
 * Room for need elements of size bytes in *p, doubling from 1024: the
 * walk appends per route, and the counts are 64 bits (mem.h's dqr_grow()
 * stops at 2^31).  0, or -1 when out of memory (*p as it was).
 */
static int grow(void **p, uint64_t *cap, uint64_t need, size_t size)
{
	uint64_t c = *cap ? *cap : 1024;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	q = realloc(*p, c * size);
	if (!q)
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

/*
 * The first walk's callback: counts every route, and for one with a U-turn
 * records its hops' SL2VL keys and which layer each hop wants (VL 1 from
 * the U-turn on), with the SL its U-turn's level prefers, for the SLs to
 * be chosen once all are known.  0, or -1 when out of memory.
 */
static int collect(void *arg, const struct route *r, const struct hop *h)
{
	struct build *b = arg;
	const struct dqr_fabric *f = b->f;
	struct urec *u;
	uint32_t i;

	b->st->routes++;
	if (r->uturn == r->n)
		return 0;
	b->st->uturn_routes++;
	if (!dqr_is_switch(f, f->ports[r->src].node) ||
	    !dqr_is_switch(f, f->ports[r->owner].node))
		b->st->uturn_end++;
	if (grow((void **)&b->rec, &b->caprec, b->nrec + 1, sizeof(*b->rec)) ||
	    grow((void **)&b->ukey, &b->capkey, b->nkey + r->n,
		 sizeof(*b->ukey)) ||
	    grow((void **)&b->ulayer, &b->caplayer, b->nkey + r->n, 1))
		return -1;
	u = &b->rec[b->nrec++];
	u->src = r->src;
	u->dlid = r->dlid;
	u->off = b->nkey;
	u->n = r->n;
	u->pref = 1 + (b->level[r->uturn_sw] < 14 ? b->level[r->uturn_sw] : 14);
	u->sl = 0;
	for (i = 0; i < r->n; i++) {
		b->ukey[b->nkey] = h[i].key;
		b->ulayer[b->nkey++] = i >= r->uturn;
	}
	return 0;
}

/* Keys wanting both VLs if every U-turn route kept its preferred SL. */
static int count_conflicts(struct build *b, uint64_t *out)
{
	struct kmap m;
	uint64_t i, j, n = 0;

	if (kmap_init(&m, b->nkey)) {
		kmap_free(&m);
		return -1;
	}
	for (i = 0; i < b->nrec; i++) {
		const struct urec *u = &b->rec[i];

		for (j = u->off; j < u->off + u->n; j++)
			*kmap_get(&m, b->ukey[j] | u->pref) |=
				1u << b->ulayer[j];
	}
	for (i = 0; i <= m.mask; i++)
		n += m.key[i] != EMPTY && m.val[i] == 3;
	kmap_free(&m);
	*out = n;
	return 0;
}

static int fits(const struct build *b, const struct kmap *m,
		const struct urec *u, unsigned sl)
{
	uint64_t j;

	for (j = u->off; j < u->off + u->n; j++) {
		const uint8_t *v = kmap_find(m, b->ukey[j] | sl);

		if (v && *v != b->ulayer[j])
			return 0;
	}
	return 1;
}

/*
 * The routes by (source GUID, port, DLID): the same SLs come out of any
 * model of the same cabling and tables, whatever its node order, so a
 * checker that models the fabric read back from the switches finds the
 * mapping the SM installed.  NULL when out of memory.
 */
static struct dqr_guid_key *turn_order(const struct build *b)
{
	const struct dqr_fabric *f = b->f;
	struct dqr_guid_key *o = malloc(sizeof(*o) * (b->nrec ? b->nrec : 1));
	uint64_t i;

	if (!o)
		return NULL;
	for (i = 0; i < b->nrec; i++) {
		const struct dqr_port *p = &f->ports[b->rec[i].src];

		/* the source node, then source port number << 32 | DLID */
		o[i].guid = f->nodes[p->node].guid;
		o[i].tie = (uint64_t)p->num << 32 | b->rec[i].dlid;
		o[i].val = i;
	}
	qsort(o, b->nrec, sizeof(*o), dqr_guid_key_cmp);
	return o;
}

/*
 * Greedy recolouring: each U-turn route in turn (turn_order()) takes its
 * preferred SL if that agrees with what earlier routes fixed, else the
 * first of 1..15 that does, else SL 0.  The result has no conflict by
 * construction: SL 0 keys are all VL 0 and no U-turn route is placed
 * there.
 */
static int place(struct build *b, struct dqr_ml_vls *v)
{
	struct dqr_guid_key *order = turn_order(b);
	struct kmap m;
	uint64_t i, j, n;
	unsigned c, sl = 0;

	if (!order)
		return -1;
	if (kmap_init(&m, b->nkey)) {
		kmap_free(&m);
		free(order);
		return -1;
	}
	for (i = 0; i < b->nrec; i++) {
		struct urec *u = &b->rec[order[i].val];

		for (c = 0; c < DQR_VL_NUM_SL; c++) {
			sl = c ? c : u->pref;
			if (c && c == u->pref)
				continue;
			if (fits(b, &m, u, sl))
				break;
		}
		if (c == DQR_VL_NUM_SL) {
			u->sl = 0;
			b->st->unplaced++;
			b->st->sl_mask |= 1;
			continue;
		}
		u->sl = sl;
		b->st->moved += sl != u->pref;
		b->st->sl_mask |= 1u << sl;
		for (j = u->off; j < u->off + u->n; j++)
			*kmap_get(&m, b->ukey[j] | sl) = b->ulayer[j];
	}
	free(order);

	/* records come in (src, dlid) order: already sorted */
	n = b->nrec - b->st->unplaced;
	v->route = malloc(sizeof(*v->route) * (n ? n : 1));
	v->route_sl = malloc(n ? n : 1);
	for (i = 0, n = 0; i <= m.mask; i++)
		n += m.key[i] != EMPTY && m.val[i] == 1;
	v->vl1 = malloc(sizeof(*v->vl1) * (n ? n : 1));
	if (!v->route || !v->route_sl || !v->vl1) {
		kmap_free(&m);
		return -1;
	}
	for (i = 0; i < b->nrec; i++)
		if (b->rec[i].sl) {
			v->route[v->num_routes] =
				route_key(b->rec[i].src, b->rec[i].dlid);
			v->route_sl[v->num_routes++] = b->rec[i].sl;
		}
	for (i = 0; i <= m.mask; i++)
		if (m.key[i] != EMPTY && m.val[i] == 1)
			v->vl1[v->num_vl1++] = m.key[i];
	kmap_free(&m);
	return 0;
}

/* ------------------------------------------------------------ verify */

/*
 * Dependencies as bits, as cdg.c does, per vertex (channel, VL): one
 * bit per (VL of the next channel, port number of the next channel at
 * the node the first one enters).  8 words: 2 VLs x 256 ports.
 */
#define DEP_WORDS 8

struct verify {
	const struct dqr_fabric *f;
	const struct dqr_ml_vls *v;
	uint64_t *bits;		/* [(ch * 2 + vl) * DEP_WORDS] */
};

static uint64_t *dep_word(uint64_t *bits, uint32_t ch, unsigned vl,
			  unsigned next_vl, unsigned q)
{
	return &bits[((uint64_t)ch * 2 + vl) * DEP_WORDS + next_vl * 4 +
		     (q >> 6)];
}

static int has_dep(const uint64_t *bits, uint32_t ch, unsigned vl,
		   unsigned next_vl, unsigned q)
{
	return (*dep_word((uint64_t *)bits, ch, vl, next_vl, q) >>
		(q & 63)) & 1;
}

/* The VL the mapping gives a hop of a route on SL sl. */
static unsigned hop_vl(const struct dqr_ml_vls *v, const struct hop *h,
		       uint8_t sl)
{
	return key_vl(v, h->key | sl);
}

/*
 * The second walk's callback: the dependencies of route r as the finished
 * mapping puts them, (channel, VL) -> (next channel, VL), one bit each, so
 * that the graph judged is the one the switches will use, not the one the
 * build meant.
 */
static int record_deps(void *arg, const struct route *r, const struct hop *h)
{
	struct verify *w = arg;
	uint8_t sl = dqr_vl_path_sl(w->v, r->src, r->dlid);
	unsigned vl = hop_vl(w->v, &h[0], sl), next_vl;
	uint32_t i;

	for (i = 1; i < r->n; i++) {
		unsigned q = w->f->ports[h[i].ch].num;

		next_vl = hop_vl(w->v, &h[i], sl);
		*dep_word(w->bits, h[i - 1].ch, vl, next_vl, q) |=
			1ull << (q & 63);
		vl = next_vl;
	}
	return 0;
}

/* Whether the graph of `which` holds channel a -> a's node's port q. */
static int in_graph(const uint64_t *bits, uint32_t a, unsigned q, int which)
{
	if (which < DQR_VL_LAYERS)
		return has_dep(bits, a, which, which, q);
	/* the projection onto one VL: any pair of VLs */
	return has_dep(bits, a, 0, 0, q) || has_dep(bits, a, 0, 1, q) ||
	       has_dep(bits, a, 1, 0, q) || has_dep(bits, a, 1, 1, q);
}

static uint32_t target(const struct dqr_fabric *f, uint32_t a, unsigned q)
{
	return dqr_port_index(f, dqr_peer_node(f, a), q);
}

/*
 * The dependency graph of one VL (which = 0, 1) or of the projection
 * onto one VL (which = 2), over the fabric's ports like cdg.h's.
 */
static struct dqr_cdg *layer_cdg(const struct dqr_fabric *f,
				 const uint64_t *bits, int which)
{
	struct dqr_cdg *g = calloc(1, sizeof(*g));
	uint32_t n = f->num_ports, a;
	uint64_t e = 0;
	unsigned q;

	if (!g)
		return NULL;
	g->num_vertices = n;
	g->succ_off = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!g->succ_off)
		goto fail;
	for (a = 0; a < n; a++) {
		const struct dqr_port *p = &f->ports[a];

		g->succ_off[a] = e;
		if (!p->num || p->remote == DQR_NONE)
			continue;
		g->num_channels++;
		for (q = 0; q <= DQR_MAX_PORTS; q++)
			e += in_graph(bits, a, q, which);
	}
	g->succ_off[n] = e;
	g->num_edges = e;
	g->succ = malloc(sizeof(uint32_t) * (e ? e : 1));
	if (!g->succ)
		goto fail;
	e = 0;
	for (a = 0; a < n; a++) {
		if (g->succ_off[a + 1] == g->succ_off[a])
			continue;
		for (q = 0; q <= DQR_MAX_PORTS; q++)
			if (in_graph(bits, a, q, which))
				g->succ[e++] = target(f, a, q);
	}
	if (!dqr_cdg_index_preds(g))
		return g;
fail:
	dqr_cdg_free(g);
	return NULL;
}

/* 1 acyclic, 0 cyclic (cycle filled when not NULL), -1 no memory. */
static int check_graph(const struct dqr_fabric *f, const uint64_t *bits,
		       int which, uint64_t *edges, struct dqr_cycle *cycle)
{
	struct dqr_channel_list cl;
	struct dqr_cdg *g = layer_cdg(f, bits, which);
	int r;

	if (!g)
		return -1;
	if (edges)
		*edges = g->num_edges;
	r = dqr_channel_list_build(f, g, &cl, cycle);
	dqr_cdg_free(g);
	if (r == 0) {
		dqr_channel_list_free(&cl);
		return 1;
	}
	return r == 1 ? 0 : -1;
}

/*
 * Judges the mapping v on tables t: every route walked again through v,
 * each VL's dependency graph checked acyclic (a cycle kept for the report),
 * and no dependency from VL 1 back down to VL 0, so the two layers cannot
 * close a cycle between them; the figures go to st.  0, or -1 when out of
 * memory.
 */
static int verify(const struct dqr_fabric *f, const struct dqr_lfts *t,
		  const uint32_t *level, struct hop *h,
		  struct dqr_ml_vls *v, struct dqr_vl_stats *st)
{
	struct verify w = { f, v, NULL };
	uint64_t unrouted = 0;
	uint32_t a;
	unsigned l, q;
	int r;

	w.bits = calloc((size_t)f->num_ports * 2 * DEP_WORDS + 1,
			sizeof(uint64_t));
	if (!w.bits)
		return -1;
	for_each_route(f, t, level, h, record_deps, &w, &unrouted);
	for (a = 0; a < f->num_ports; a++)
		for (q = 0; q <= DQR_MAX_PORTS; q++) {
			st->edges_up += has_dep(w.bits, a, 0, 1, q);
			st->edges_down += has_dep(w.bits, a, 1, 0, q);
		}
	for (l = 0; l < DQR_VL_LAYERS; l++) {
		r = check_graph(f, w.bits, l, &st->edges[l], &v->cycle[l]);
		if (r < 0)
			goto fail;
		st->acyclic[l] = r;
	}
	r = check_graph(f, w.bits, DQR_VL_LAYERS, NULL, NULL);
	if (r < 0)
		goto fail;
	st->one_layer_acyclic = r;
	st->deadlock_free = st->acyclic[0] && st->acyclic[1] &&
			    !st->edges_down;
	free(w.bits);
	return 0;
fail:
	free(w.bits);
	return -1;
}

int dqr_ml_vls_build(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     const struct dqr_ftree *ft, struct dqr_ml_vls **out,
		     struct dqr_vl_stats *st, char *err, size_t errlen)
{
	struct build b = { 0 };
	struct dqr_ml_vls *v;
	struct hop *h;
	double t0 = dqr_now_ms(), t1;
	unsigned s;
	int ret = -1;

	*out = NULL;
	memset(st, 0, sizeof(*st));
	if (ft->num_switches != f->num_switches ||
	    t->num_switches != f->num_switches) {
		dqr_set_err(err, errlen, "vl layers: %u switches in the "
			    "fabric, %u in the fat tree, %u in the tables",
			    f->num_switches, ft->num_switches,
			    t->num_switches);
		return -1;
	}
	v = calloc(1, sizeof(*v));
	h = malloc(sizeof(*h) * ((size_t)f->num_switches + 3));
	if (!v || !h)
		goto oom;
	b.f = f;
	b.level = ft->level;
	b.st = st;
	if (for_each_route(f, t, ft->level, h, collect, &b, &st->unrouted))
		goto oom;
	if (st->routes > st->uturn_routes)
		st->sl_mask |= 1;
	if (count_conflicts(&b, &st->conflict_keys) || place(&b, v))
		goto oom;
	qsort(v->vl1, v->num_vl1, sizeof(*v->vl1), dqr_cmp_u64);
	st->vl1_entries = v->num_vl1;
	st->vls_used = v->num_vl1 ? 2 : 1;
	for (s = 0; s < DQR_VL_NUM_SL; s++)
		st->sls_used += (st->sl_mask >> s) & 1;
	t1 = dqr_now_ms();
	st->build_ms = t1 - t0;

	if (verify(f, t, ft->level, h, v, st))
		goto oom;
	st->verify_ms = dqr_now_ms() - t1;
	*out = v;
	v = NULL;
	ret = 0;
	goto out;
oom:
	dqr_set_err(err, errlen, "vl layers: out of memory");
out:
	DQR_FREE_ALL(b.rec, b.ukey, b.ulayer, h);
	dqr_ml_vls_free(v);
	return ret;
}
