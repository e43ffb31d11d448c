/*
 * ref_routing.c - reference base routings for generated fabrics (what each
 * one does is in ref_routing.h).
 *
 * Every routing works per target switch: the LIDs a switch delivers (its
 * own and those of the CAs on it) share one computation over the switches,
 * and only the final choice among equal next hops depends on the LID.
 * Rows of the tables are written a target's LIDs at a time, so the
 * row-major table is touched one cache line per (switch, target), not one
 * per entry.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "routes/route_walk.h"
#include "routing/ref_routing.h"
#include "routing/twophase.h"
#include "routing/uturn_route.h"
#include "shape/ftree_shape.h"
#include "util/check.h"
#include "util/errmsg.h"
#include "util/mem.h"

#define REF_INF UINT32_MAX
#define REF_MAX_LEVELS 20	/* kary: N <= 16 */

static const char *const ref_names[DQR_REF_NUM_KINDS] = {
	DQR_REF_KINDS(DQR_ENUM_NAME)
};

const char *dqr_ref_name(enum dqr_ref_kind kind)
{
	return dqr_name_of(ref_names, DQR_REF_NUM_KINDS, kind);
}

int dqr_ref_parse(const char *name, enum dqr_ref_kind *kind)
{
	int k = dqr_name_index(ref_names, DQR_REF_NUM_KINDS, name);

	if (k < 0)
		return -1;
	*kind = (enum dqr_ref_kind)k;
	return 0;
}

enum dqr_ref_kind dqr_ref_auto(const struct dqr_gen_spec *spec)
{
	if (!spec)
		return DQR_REF_UPDN;
	switch (spec->kind) {
	case DQR_GEN_KARY:
	case DQR_GEN_FATTREE2:
	case DQR_GEN_FATTREE3:
		return DQR_REF_FTREE_MOD;
	case DQR_GEN_MESH:
	case DQR_GEN_TORUS:
		return DQR_REF_DOR;
	case DQR_GEN_HYPERCUBE:
		return DQR_REF_ECUBE;
	}
	return DQR_REF_UPDN;
}

/* ---------------------------------------------------------------- model */

static int is_updn(enum dqr_ref_kind kind)
{
	return kind == DQR_REF_UPDN || kind == DQR_REF_UPDN_MESH;
}

/* What the routings need to know of one destination LID. */
struct lid_info {
	uint32_t key;		/* spreads LIDs over equal next hops */
	uint8_t last;		/* port at the delivering switch */
	uint8_t is_sw;		/* owned by a switch */
	uint8_t off;		/* offset in its port's LMC block */
};

/*
 * Switch-to-switch links of every switch in port order, neighbours of
 * lower rank ("up") first.  Links between equal ranks are left out: no
 * routing here uses them.
 */
struct adj {
	uint32_t *off;		/* num_switches + 1 */
	uint32_t *nup;		/* up neighbours, first in each list */
	uint32_t *sw;		/* neighbour's switch index */
	uint8_t *port;		/* port number at this end */
};

/* Per target: the next hops a switch may take, laid out like an adj. */
struct cands {
	uint8_t *port;
	uint32_t *n;
};

struct updn {
	struct adj a;		/* ranked by (BFS depth, switch index) */
	uint32_t *order;	/* switches by rank */
	uint32_t *dd;		/* per target: shortest all-down hops */
	uint32_t *len;		/* per target: hops of the route taken */
	uint32_t *stamp;	/* == gen: dd is set (switch above target) */
	uint32_t gen;
	uint32_t *queue;
	struct cands c;
};

struct ftree {
	struct adj a;		/* ranked by level: up = the level above */
	uint32_t nup[REF_MAX_LEVELS + 1];	/* up ports per level */
	uint64_t div[REF_MAX_LEVELS + 1];	/* D-mod-k digit weights */
	uint32_t *stamp;	/* == gen: ancestor of the target (or it) */
	uint32_t gen;
	uint32_t *queue;
	struct cands c;		/* descending next hops of ancestors */
	/* per LID of the current target: up port index by level */
	uint32_t *choice;
};

struct ref {
	const struct dqr_fabric *f;
	const struct dqr_gen_spec *s;
	const struct dqr_gen_place *pl;
	struct dqr_lfts *t;
	enum dqr_ref_kind kind;
	uint32_t ns;
	uint32_t *tg_off;	/* LIDs by delivering switch: ns + 1 */
	uint32_t *tg_lid;
	uint32_t max_bucket;	/* most LIDs of one target */
	struct lid_info *li;	/* per LID */
	struct updn u;
	struct ftree ft;
};

/* The switch index behind port p of switch x, or DQR_NONE. */
static uint32_t peer_switch(const struct dqr_fabric *f, uint32_t x,
			    unsigned p)
{
	return dqr_peer_switch(f, dqr_port_index(f, f->switches[x], p));
}

/*
 * The switch behind port p of x as up*\/down* sees it: UPDN_MESH leaves
 * out the wrap cables of a torus (coordinates more than one apart).
 */
static uint32_t ref_peer(const struct ref *r, uint32_t x, unsigned p)
{
	uint32_t y = peer_switch(r->f, x, p);

	if (y == DQR_NONE || r->kind != DQR_REF_UPDN_MESH ||
	    !dqr_gen_wrap_between(&r->pl[x], &r->pl[y], r->s->ndims))
		return y;
	return DQR_NONE;
}

static int port_linked(const struct dqr_fabric *f, uint32_t x, unsigned p)
{
	uint32_t node = f->switches[x];

	return p >= 1 && p <= f->nodes[node].num_ports &&
	       dqr_peer_port(f, dqr_port_index(f, node, p)) != DQR_NONE;
}

static void adj_free(struct adj *a)
{
	DQR_FREE_ALL(a->off, a->nup, a->sw, a->port);
}

/*
 * Each switch's links to switches of another rank, as CSR: up links
 * (towards lower rank) first, counted in nup[], then the down ones, each
 * group in port order.  Links within a rank are left out: up*\/down* never
 * takes them.  Built once per routing, so that every destination's BFS
 * reads a flat array.  0, or -1 when out of memory (adj_free() cleans).
 */
static int adj_build(const struct ref *r, const uint32_t *rank,
		     struct adj *a)
{
	const struct dqr_fabric *f = r->f;
	uint32_t ns = f->num_switches, x, y, n = 0, pass;
	unsigned p;

	a->off = malloc(sizeof(*a->off) * (ns + 1));
	a->nup = malloc(sizeof(*a->nup) * (ns + 1));
	if (!a->off || !a->nup)
		return -1;
	for (x = 0; x < ns; x++)
		dqr_for_each_linked_port(f, f->switches[x], p) {
			y = ref_peer(r, x, p);
			n += y != DQR_NONE && rank[y] != rank[x];
		}
	a->sw = malloc(sizeof(*a->sw) * (n + 1));
	a->port = malloc(n + 1);
	if (!a->sw || !a->port)
		return -1;
	n = 0;
	for (x = 0; x < ns; x++) {
		a->off[x] = n;
		for (pass = 0; pass < 2; pass++) {
			dqr_for_each_linked_port(f, f->switches[x], p) {
				y = ref_peer(r, x, p);
				if (y == DQR_NONE || rank[y] == rank[x])
					continue;
				/* pass 0 takes the up links, pass 1 the rest */
				if ((rank[y] < rank[x]) != (pass == 0))
					continue;
				a->sw[n] = y;
				a->port[n++] = (uint8_t)p;
			}
			if (!pass)
				a->nup[x] = n - a->off[x];
		}
	}
	a->off[ns] = n;
	return 0;
}

static int cands_alloc(struct cands *c, const struct adj *a, uint32_t ns)
{
	c->port = malloc(a->off[ns] + 1);
	c->n = calloc(ns + 1, sizeof(*c->n));
	return c->port && c->n ? 0 : -1;
}

static void cands_free(struct cands *c)
{
	free(c->port);
	free(c->n);
}

static uint8_t cands_pick(const struct cands *c, const struct adj *a,
			  uint32_t x, uint32_t key)
{
	uint32_t n = c->n[x];

	return n ? c->port[a->off[x] + key % n] : DQR_NO_PATH;
}

/* Buckets the owned LIDs by the switch that delivers them. */
static int targets_build(struct ref *r)
{
	const struct dqr_fabric *f = r->f;
	uint32_t lid, owner, sw, i, *fill, *ord, n = 0;
	int ret = -1;

	r->tg_off = calloc(r->ns + 2, sizeof(*r->tg_off));
	r->tg_lid = malloc(sizeof(*r->tg_lid) * (f->max_lid + 1));
	r->li = calloc(f->max_lid + 1, sizeof(*r->li));
	fill = malloc(sizeof(*fill) * (r->ns + 1));
	ord = malloc(sizeof(*ord) * (f->num_nodes + 1));
	if (!r->tg_off || !r->tg_lid || !r->li || !fill || !ord)
		goto out;
	/* D-mod-k digits come from the CA's place among the CAs */
	for (i = 0; i < f->num_nodes; i++)
		ord[i] = dqr_is_switch(f, i) ? 0 : n++;
	for (lid = 1; lid <= f->max_lid; lid++) {
		const struct dqr_port *p;
		struct lid_info *li = &r->li[lid];

		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			continue;
		sw = dqr_ingress_switch(f, owner);
		if (sw == DQR_NONE)
			continue;
		p = &f->ports[owner];
		li->is_sw = dqr_is_switch(f, p->node);
		li->last = li->is_sw ? 0 :
			   f->ports[dqr_peer_port(f, owner)].num;
		li->off = (uint8_t)(p->base_lid ? lid - p->base_lid : 0);
		li->key = r->kind == DQR_REF_FTREE_MOD && !li->is_sw ?
			  ord[p->node] : lid;
		r->tg_off[sw + 1]++;
	}
	for (sw = 0; sw < r->ns; sw++) {
		if (r->tg_off[sw + 1] > r->max_bucket)
			r->max_bucket = r->tg_off[sw + 1];
		r->tg_off[sw + 1] += r->tg_off[sw];
		fill[sw] = r->tg_off[sw];
	}
	for (lid = 1; lid <= f->max_lid; lid++) {
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			continue;
		sw = dqr_ingress_switch(f, owner);
		if (sw != DQR_NONE)
			r->tg_lid[fill[sw]++] = lid;
	}
	ret = 0;
out:
	free(fill);
	free(ord);
	return ret;
}

/* ---------------------------------------------------------------- updn */

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The switches in the order they may root a component: by index, or for
 * UPDN_MESH by grid position, so that a mesh is rooted at its corner of
 * lowest coordinates.  There every route climbs towards the corner, then
 * descends, which spreads the load best (busiest link 1.5x dimension
 * order's on a 10x10 mesh; rooted in the middle, 3.8x).
 */
static int updn_roots(const struct ref *r, uint32_t *roots)
{
	uint64_t *key;
	uint32_t x;

	for (x = 0; x < r->ns; x++)
		roots[x] = x;
	if (r->kind != DQR_REF_UPDN_MESH)
		return 0;
	key = malloc(sizeof(*key) * (r->ns + 1));
	if (!key)
		return -1;
	for (x = 0; x < r->ns; x++)
		key[x] = (uint64_t)r->pl[x].pos << 32 | x;
	qsort(key, r->ns, sizeof(*key), cmp_u64);
	for (x = 0; x < r->ns; x++)
		roots[x] = (uint32_t)key[x];
	free(key);
	return 0;
}

/*
 * Ranks every switch by (BFS depth from its component's first switch in
 * updn_roots' order, switch index): a link goes up towards the lower
 * rank, so equal depths break towards the lower index.
 */
static int updn_rank(const struct ref *r, uint32_t *order, uint32_t *rank)
{
	const struct dqr_fabric *f = r->f;
	uint32_t ns = f->num_switches, *depth, *queue, *cnt;
	uint32_t x, y, i, head, tail, root, max_depth = 0;
	unsigned p;
	int ret = -1;

	depth = malloc(sizeof(*depth) * (ns + 1));
	queue = malloc(sizeof(*queue) * (ns + 1));
	cnt = calloc(ns + 2, sizeof(*cnt));
	if (!depth || !queue || !cnt || updn_roots(r, order))
		goto out;
	for (x = 0; x < ns; x++)
		depth[x] = REF_INF;
	for (i = 0; i < ns; i++) {
		root = order[i];
		if (depth[root] != REF_INF)
			continue;
		depth[root] = 0;
		head = tail = 0;
		queue[tail++] = root;
		while (head < tail) {
			x = queue[head++];
			dqr_for_each_linked_port(f, f->switches[x], p) {
				y = ref_peer(r, x, p);
				if (y == DQR_NONE || depth[y] != REF_INF)
					continue;
				depth[y] = depth[x] + 1;
				if (depth[y] > max_depth)
					max_depth = depth[y];
				queue[tail++] = y;
			}
		}
	}
	/* counting sort by depth; index order within a depth */
	for (x = 0; x < ns; x++)
		cnt[depth[x] + 1]++;
	for (x = 0; x < max_depth + 1; x++)
		cnt[x + 1] += cnt[x];
	for (x = 0; x < ns; x++) {
		rank[x] = cnt[depth[x]]++;
		order[rank[x]] = x;
	}
	ret = 0;
out:
	free(depth);
	free(queue);
	free(cnt);
	return ret;
}

/*
 * What up*\/down* needs for every destination: the BFS ranks and the order
 * switches are settled in (updn_rank()), the up and down links by rank,
 * and room for each switch's equal next hops.  0, or -1 when out of memory.
 */
static int updn_init(struct ref *r)
{
	struct updn *u = &r->u;
	uint32_t *rank;
	int ret = -1;

	u->order = malloc(sizeof(*u->order) * (r->ns + 1));
	u->dd = malloc(sizeof(*u->dd) * (r->ns + 1));
	u->len = malloc(sizeof(*u->len) * (r->ns + 1));
	u->stamp = calloc(r->ns + 1, sizeof(*u->stamp));
	u->queue = malloc(sizeof(*u->queue) * (r->ns + 1));
	rank = malloc(sizeof(*rank) * (r->ns + 1));
	if (!u->order || !u->dd || !u->len || !u->stamp || !u->queue || !rank)
		goto out;
	if (updn_rank(r, u->order, rank) || adj_build(r, rank, &u->a) ||
	    cands_alloc(&u->c, &u->a, r->ns))
		goto out;
	ret = 0;
out:
	free(rank);
	return ret;
}

static void updn_free(struct updn *u)
{
	adj_free(&u->a);
	cands_free(&u->c);
	DQR_FREE_ALL(u->order, u->dd, u->len, u->stamp, u->queue);
}

/* A switch above the target: its down links one hop nearer. */
static uint32_t updn_down_cands(struct updn *u, uint32_t x)
{
	const struct adj *a = &u->a;
	uint32_t e, y, n = 0;

	for (e = a->off[x] + a->nup[x]; e < a->off[x + 1]; e++) {
		y = a->sw[e];
		if (u->stamp[y] == u->gen && u->dd[y] + 1 == u->dd[x])
			u->c.port[a->off[x] + n++] = a->port[e];
	}
	u->len[x] = u->dd[x];
	return n;
}

/* Any other switch: its up links to the shortest settled routes. */
static uint32_t updn_up_cands(struct updn *u, uint32_t x)
{
	const struct adj *a = &u->a;
	uint32_t e, y, n = 0, best = REF_INF;

	for (e = a->off[x]; e < a->off[x] + a->nup[x]; e++) {
		y = a->sw[e];
		if (u->len[y] > best)
			continue;
		if (u->len[y] < best) {
			best = u->len[y];
			n = 0;
		}
		if (best != REF_INF)
			u->c.port[a->off[x] + n++] = a->port[e];
	}
	u->len[x] = best == REF_INF ? REF_INF : best + 1;
	return n;
}

/*
 * The next hops towards target t, from a BFS over (switch, phase) states
 * backwards from t.  The down phase first: dd, the shortest path that
 * only goes down, is a BFS from t along up links, and only the switches
 * above t get one.  A switch that has one must take it: with one entry
 * per LID it cannot tell a packet that came down to it (and may not turn
 * up) from one that climbed or started there, and a packet only comes
 * down to it because the switch above takes its own all-down path.  A
 * switch without one climbs to the up neighbours whose routes are
 * shortest; those rank lower and are settled first.
 */
static void updn_target(struct updn *u, uint32_t ns, uint32_t t)
{
	const struct adj *a = &u->a;
	uint32_t i, x, y, e, head = 0, tail = 0, g;

	g = ++u->gen;
	u->stamp[t] = g;
	u->dd[t] = 0;
	u->queue[tail++] = t;
	while (head < tail) {
		x = u->queue[head++];
		for (e = a->off[x]; e < a->off[x] + a->nup[x]; e++) {
			y = a->sw[e];
			if (u->stamp[y] == g)
				continue;
			u->stamp[y] = g;
			u->dd[y] = u->dd[x] + 1;
			u->queue[tail++] = y;
		}
	}
	/* by rank: up neighbours are settled before the switch */
	for (i = 0; i < ns; i++) {
		x = u->order[i];
		if (x == t) {
			u->len[x] = 0;
			u->c.n[x] = 0;
		} else if (u->stamp[x] == g) {
			u->c.n[x] = updn_down_cands(u, x);
		} else {
			u->c.n[x] = updn_up_cands(u, x);
		}
	}
}

/*
 * Spreads a destination's routes over equal next hops.  Hashing the
 * switch in keeps the choices of consecutive hops uncorrelated: with a
 * plain key mod n every switch of a fat tree picks the same index and
 * one top switch in n carries everything.
 */
static uint32_t updn_spread(uint32_t key, uint32_t x)
{
	uint32_t h = key * 0x9e3779b1u ^ (x + 0x7f4a7c15u) * 0x85ebca77u;

	h ^= h >> 15;
	h *= 0x2c1b3c6du;
	h ^= h >> 12;
	h *= 0x297a2d39u;
	h ^= h >> 15;
	return h;
}

/* ---------------------------------------------------------------- ftree */

/*
 * Fat trees.  CA LIDs climb, then descend (ftree_port).  Switch LIDs
 * cannot all go that way: two middle switches of one fattree3 pod in
 * different groups, or two cores, have no switch above both, and the way
 * between them turns down, then up.  They take updn rooted at switch 0,
 * which is leaf 0, and in that order every climb-then-descend route is
 * legal too: a climb goes up the order until it meets leaf 0's ancestors
 * and down it from there on; a descent goes up it while it runs down leaf
 * 0's ancestors and down it after; and a route that climbed through leaf
 * 0's ancestors below its top descends outside them.  Both route sets
 * obey one up/down order, so together they stay acyclic.
 */

/*
 * What ftree-mod needs: levels as ranks (the top lowest, so that up links
 * climb), the links by level, and the D-mod-k divisors div[l] from the
 * most up links a switch of each level has, so that a degraded switch
 * still picks by its level's nominal arity.  0, or -1 when out of memory.
 */
static int ftree_init(struct ref *r)
{
	struct ftree *ft = &r->ft;
	uint32_t x, *rank, l;
	int ret = -1;

	rank = malloc(sizeof(*rank) * (r->ns + 1));
	ft->stamp = calloc(r->ns + 1, sizeof(*ft->stamp));
	ft->queue = malloc(sizeof(*ft->queue) * (r->ns + 1));
	ft->choice = malloc(sizeof(*ft->choice) * (REF_MAX_LEVELS + 1) *
			    (r->max_bucket + 1));
	if (!rank || !ft->stamp || !ft->queue || !ft->choice)
		goto out;
	for (x = 0; x < r->ns; x++)
		rank[x] = REF_MAX_LEVELS - r->pl[x].level;
	if (adj_build(r, rank, &ft->a) || cands_alloc(&ft->c, &ft->a, r->ns))
		goto out;
	/* the nominal arity of a level: what an intact switch there has */
	for (x = 0; x < r->ns; x++)
		if (ft->a.nup[x] > ft->nup[r->pl[x].level])
			ft->nup[r->pl[x].level] = ft->a.nup[x];
	ft->div[1] = 1;
	for (l = 1; l < REF_MAX_LEVELS; l++) {
		uint64_t k = ft->nup[l] ? ft->nup[l] : 1;

		/* past the LID space every digit is 0 anyway */
		ft->div[l + 1] = ft->div[l] > (1ull << 32) ? ft->div[l] :
				 ft->div[l] * k;
	}
	ret = 0;
out:
	free(rank);
	return ret;
}

static void ftree_free(struct ftree *ft)
{
	adj_free(&ft->a);
	cands_free(&ft->c);
	DQR_FREE_ALL(ft->stamp, ft->queue, ft->choice);
}

/*
 * Marks t and every switch above it (those reaching t by going down
 * only), and gives each of those its down links towards t.
 */
static void ftree_target(struct ftree *ft, uint32_t t)
{
	const struct adj *a = &ft->a;
	uint32_t head = 0, tail = 0, x, e, n;

	ft->gen++;
	ft->stamp[t] = ft->gen;
	ft->queue[tail++] = t;
	while (head < tail) {
		x = ft->queue[head++];
		for (e = a->off[x]; e < a->off[x] + a->nup[x]; e++) {
			if (ft->stamp[a->sw[e]] == ft->gen)
				continue;
			ft->stamp[a->sw[e]] = ft->gen;
			ft->queue[tail++] = a->sw[e];
		}
	}
	for (head = 1; head < tail; head++) {
		x = ft->queue[head];
		n = 0;
		for (e = a->off[x] + a->nup[x]; e < a->off[x + 1]; e++)
			if (ft->stamp[a->sw[e]] == ft->gen)
				ft->c.port[a->off[x] + n++] = a->port[e];
		ft->c.n[x] = n;
	}
}

/*
 * The up port index each level climbs by towards LID li: level l takes
 * (key / div[l] + off) mod nup[l], a choice that depends on the
 * destination and the level only, so all sources meet on one top switch
 * per destination, and the CAs of one leaf (keys differing in the lowest
 * digit) leave it by different up ports.  Computed once per LID, the
 * divisions stay out of the loop over the switches.
 */
static void ftree_choices(struct ftree *ft, const struct lid_info *li,
			  uint32_t *choice)
{
	unsigned l;

	for (l = 1; l <= REF_MAX_LEVELS; l++)
		choice[l] = ft->nup[l] ? (uint32_t)((li->key / ft->div[l] +
						    li->off) % ft->nup[l]) : 0;
}

/* Switch x towards a CA LID delivered by the target ftree_target marked. */
static uint8_t ftree_port(const struct ref *r, uint32_t x,
			  const struct lid_info *li, const uint32_t *choice)
{
	const struct ftree *ft = &r->ft;
	unsigned l = r->pl[x].level;
	uint32_t nu = ft->a.nup[x], idx;

	if (ft->stamp[x] == ft->gen)
		return cands_pick(&ft->c, &ft->a, x, li->key + li->off);
	if (!nu || !ft->nup[l])
		return DQR_NO_PATH;
	/* a switch that lost up links still climbs, by what is left */
	idx = choice[l] < nu ? choice[l] : choice[l] % nu;
	return ft->a.port[ft->a.off[x] + idx];
}

/* ---------------------------------------------------------------- direct */

/*
 * Dimension order from x towards switch t: the first dimension whose
 * coordinate differs, port 2d+1 upwards or 2d+2 downwards (dor-wrap takes
 * the shorter way round a ring, ties upwards); DQR_NO_PATH when x is t or
 * that port lost its cable, as the routing does not detour.
 */
static uint8_t dor_port(const struct ref *r, uint32_t x, uint32_t t)
{
	const struct dqr_gen_place *px = &r->pl[x], *pt = &r->pl[t];
	unsigned d, sz, up, plus, p;

	for (d = 0; d < r->s->ndims; d++) {
		if (px->coord[d] == pt->coord[d])
			continue;
		sz = r->s->dims[d];
		if (r->kind == DQR_REF_DOR_WRAP &&
		    r->s->kind == DQR_GEN_TORUS && sz > 2) {
			up = (pt->coord[d] + sz - px->coord[d]) % sz;
			plus = up <= sz - up;
		} else {
			plus = px->coord[d] < pt->coord[d];
		}
		p = plus ? 2 * d + 1 : 2 * d + 2;
		return port_linked(r->f, x, p) ? (uint8_t)p : DQR_NO_PATH;
	}
	return DQR_NO_PATH;
}

static uint8_t ecube_port(const struct ref *r, uint32_t x, uint32_t t)
{
	uint32_t diff = r->pl[x].pos ^ r->pl[t].pos;
	unsigned p;

	if (!diff)
		return DQR_NO_PATH;
	p = (unsigned)__builtin_ctz(diff) + 1;
	return port_linked(r->f, x, p) ? (uint8_t)p : DQR_NO_PATH;
}

/* ---------------------------------------------------------------- driver */

/*
 * Fills every switch's entries towards the LIDs of target switch t (its
 * own and those of its CAs): the target delivers, a direct network's
 * switch takes one port for all of them, up*\/down* and ftree-mod choose
 * per LID.  The per-destination search runs once for all of t's LIDs.
 */
static void route_target(struct ref *r, uint32_t t)
{
	uint32_t b = r->tg_off[t], e = r->tg_off[t + 1], x, i, lid;
	int need_updn = is_updn(r->kind), need_ft = 0;
	uint8_t p = DQR_NO_PATH;

	for (i = b; i < e; i++) {
		if (r->kind != DQR_REF_FTREE_MOD)
			break;
		if (r->li[r->tg_lid[i]].is_sw)
			need_updn = 1;
		else
			need_ft = 1;
	}
	if (need_updn)
		updn_target(&r->u, r->ns, t);
	if (need_ft) {
		ftree_target(&r->ft, t);
		for (i = b; i < e; i++)
			ftree_choices(&r->ft, &r->li[r->tg_lid[i]],
				      r->ft.choice + (size_t)(i - b) *
				      (REF_MAX_LEVELS + 1));
	}
	for (x = 0; x < r->ns; x++) {
		uint8_t *row = dqr_lft_row(r->t, x);

		if (x == t) {
			for (i = b; i < e; i++)
				row[r->tg_lid[i]] = r->li[r->tg_lid[i]].last;
			continue;
		}
		/* direct networks: one port for all the target's LIDs */
		if (r->kind == DQR_REF_DOR || r->kind == DQR_REF_DOR_WRAP)
			p = dor_port(r, x, t);
		else if (r->kind == DQR_REF_ECUBE)
			p = ecube_port(r, x, t);
		for (i = b; i < e; i++) {
			const struct lid_info *li;

			lid = r->tg_lid[i];
			li = &r->li[lid];
			if (is_updn(r->kind) ||
			    (r->kind == DQR_REF_FTREE_MOD && li->is_sw))
				p = cands_pick(&r->u.c, &r->u.a, x,
					       updn_spread(li->key, x));
			else if (r->kind == DQR_REF_FTREE_MOD)
				p = ftree_port(r, x, li, r->ft.choice +
					       (size_t)(i - b) *
					       (REF_MAX_LEVELS + 1));
			/* never a port without a link (ref_routing.h) */
			DQR_CHECK(p == DQR_NO_PATH || port_linked(r->f, x, p));
			row[lid] = p;
		}
	}
}

/* Places as dqr_gen_build_places gives them, from the spec alone. */
static struct dqr_gen_place *derive_places(const struct dqr_gen_spec *s,
					   uint32_t ns)
{
	struct dqr_gen_place *pl = calloc(ns + 1, sizeof(*pl));
	uint32_t i, h = s->radix / 2, per, stride;
	unsigned d;

	if (!pl)
		return NULL;
	for (i = 0; i < ns; i++) {
		struct dqr_gen_place *p = &pl[i];

		switch (s->kind) {
		case DQR_GEN_KARY:
			per = ns / s->n;
			p->level = (uint16_t)(i / per + 1);
			p->pos = i % per;
			break;
		case DQR_GEN_FATTREE2:
			p->level = i < s->radix ? 1 : 2;
			p->pos = i < s->radix ? i : i - s->radix;
			break;
		case DQR_GEN_FATTREE3:
			p->level = (uint16_t)(i / (s->radix * h) + 1);
			p->pos = i % (s->radix * h);
			p->group = (uint16_t)(p->level < 3 ? p->pos / h : 0);
			break;
		case DQR_GEN_MESH:
		case DQR_GEN_TORUS:
			p->pos = i;
			stride = 1;
			for (d = 0; d < s->ndims; d++) {
				p->coord[d] = (uint16_t)(i / stride %
							 s->dims[d]);
				stride *= s->dims[d];
			}
			break;
		case DQR_GEN_HYPERCUBE:
			p->pos = i;
			break;
		}
	}
	return pl;
}

/* Caller's places must fit the spec: they index arrays here. */
static int check_places(const struct dqr_gen_spec *s,
			const struct dqr_gen_place *pl, uint32_t ns,
			char *err, size_t errlen)
{
	uint32_t i;
	unsigned d;

	for (i = 0; i < ns; i++) {
		int bad = 0;

		switch (s->kind) {
		case DQR_GEN_KARY:
		case DQR_GEN_FATTREE2:
		case DQR_GEN_FATTREE3:
			bad = pl[i].level < 1 || pl[i].level > REF_MAX_LEVELS;
			break;
		case DQR_GEN_MESH:
		case DQR_GEN_TORUS:
			for (d = 0; d < s->ndims; d++)
				bad |= pl[i].coord[d] >= s->dims[d];
			break;
		case DQR_GEN_HYPERCUBE:
			bad = pl[i].pos >= ns;
			break;
		}
		if (bad) {
			dqr_set_err(err, errlen, "place of switch %u does "
				    "not fit the spec", i);
			return -1;
		}
	}
	return 0;
}

/*
 * 0 when routing kind is defined on fabrics of spec s (updn on any), else
 * -1 with a message naming both: a routing applied to the wrong fabric
 * would route nowhere and look like DQR's failure.
 */
static int check_kind(const struct dqr_gen_spec *s, enum dqr_ref_kind kind,
		      char *err, size_t errlen)
{
	int ok = 0;

	if (kind == DQR_REF_UPDN)
		return 0;
	if (!s) {
		dqr_set_err(err, errlen, "routing %s needs the generator spec",
			dqr_ref_name(kind));
		return -1;
	}
	switch (kind) {
	case DQR_REF_FTREE_MOD:
		ok = s->kind == DQR_GEN_KARY || s->kind == DQR_GEN_FATTREE2 ||
		     s->kind == DQR_GEN_FATTREE3;
		break;
	case DQR_REF_DOR:
	case DQR_REF_DOR_WRAP:
	case DQR_REF_UPDN_MESH:
		ok = s->kind == DQR_GEN_MESH || s->kind == DQR_GEN_TORUS;
		break;
	case DQR_REF_ECUBE:
	case DQR_REF_TWOPHASE:
		ok = s->kind == DQR_GEN_HYPERCUBE;
		break;
	default:
		break;
	}
	if (!ok) {
		char buf[64];

		dqr_gen_format(s, buf, sizeof(buf));
		dqr_set_err(err, errlen, "routing %s does not apply to %s",
			dqr_ref_name(kind), buf);
		return -1;
	}
	return 0;
}

/* twophase.h on the generator's labels, with the plugin's default seed. */
static int twophase_route(const struct dqr_fabric *f,
			  const struct dqr_gen_spec *s,
			  const struct dqr_gen_place *places,
			  struct dqr_lfts **out, char *err, size_t errlen)
{
	struct dqr_twophase *tp;
	int ret;

	if (dqr_twophase_new(f, s->ndims, places, 1, &tp, err, errlen))
		return -1;
	ret = dqr_twophase_route(tp, f, out, NULL);
	dqr_twophase_free(tp);
	if (ret)
		dqr_set_err(err, errlen, "out of memory");
	return ret;
}

/*
 * The plugin's own fat-tree routing.  It finds the tree in the cabling,
 * so it needs neither spec nor places, and routes read fabrics as well.
 */
static int uturn_route(const struct dqr_fabric *f, struct dqr_lfts **out,
		       char *err, size_t errlen)
{
	struct dqr_uturn_stats st;
	struct dqr_ftree *ft;
	int ret;

	if (dqr_ftree_detect(f, &ft, err, errlen))
		return -1;
	ret = dqr_uturn_route(f, ft, out, &st, err, errlen);
	dqr_ftree_free(ft);
	return ret;
}

int dqr_ref_route(const struct dqr_fabric *f, const struct dqr_gen_spec *spec,
		  const struct dqr_gen_place *places, enum dqr_ref_kind kind,
		  struct dqr_lfts **out, char *err, size_t errlen)
{
	struct dqr_gen_place *own = NULL;
	struct dqr_gen_counts c;
	struct ref r = { 0 };
	uint32_t t;
	int ret = -1;

	*out = NULL;
	if (kind == DQR_REF_AUTO)
		kind = dqr_ref_auto(spec);
	if ((unsigned)kind >= DQR_REF_NUM_KINDS) {
		dqr_set_err(err, errlen, "unknown routing %d", (int)kind);
		return -1;
	}
	if (!f->finished) {
		dqr_set_err(err, errlen, "fabric not finished");
		return -1;
	}
	if (kind == DQR_REF_UTURN)
		return uturn_route(f, out, err, errlen);
	if (check_kind(spec, kind, err, errlen))
		return -1;
	if (kind != DQR_REF_UPDN) {
		if (dqr_gen_count(spec, &c, err, errlen))
			return -1;
		if (c.switches != f->num_switches) {
			dqr_set_err(err, errlen, "fabric has %u switches, the "
				    "spec %llu", f->num_switches,
				    (unsigned long long)c.switches);
			return -1;
		}
		if (!places)
			places = own = derive_places(spec, f->num_switches);
		if (!places)
			goto nomem;
		if (check_places(spec, places, f->num_switches, err, errlen))
			goto out;
	}
	if (kind == DQR_REF_TWOPHASE) {
		ret = twophase_route(f, spec, places, out, err, errlen);
		goto out;
	}
	r.f = f;
	r.s = spec;
	r.pl = places;
	r.kind = kind;
	r.ns = f->num_switches;
	r.t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	if (!r.t || targets_build(&r))
		goto nomem;
	if ((is_updn(kind) || kind == DQR_REF_FTREE_MOD) && updn_init(&r))
		goto nomem;
	if (kind == DQR_REF_FTREE_MOD && ftree_init(&r))
		goto nomem;
	for (t = 0; t < r.ns; t++)
		if (r.tg_off[t] != r.tg_off[t + 1])
			route_target(&r, t);
	*out = r.t;
	r.t = NULL;
	ret = 0;
	goto out;
nomem:
	dqr_set_err(err, errlen, "out of memory");
out:
	dqr_lfts_free(r.t);
	updn_free(&r.u);
	ftree_free(&r.ft);
	DQR_FREE_ALL(r.tg_off, r.tg_lid, r.li, own);
	return ret;
}
