/*
 * test_ml_vls.c - NL and ML on two VLs (ml_vls.h).
 *
 * (a) fault-free uturn tables on kary:4,3: U-turn routes are exactly the
 *     switch pairs without a common ancestor, both layers acyclic;
 * (b) two link faults in one group of kary:4,3, repaired by hand with
 *     the FT paper's U-turns in two different switches: one VL is cyclic,
 *     the two layers are not;
 * (c) a ring whose fake levels make every route turn: ML itself is
 *     cyclic and must be reported so, with the cycle.
 * Every route is walked here independently of lib and its VL per hop
 * read back from the mapping.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "ftree/ml_vls.h"
#include "routing/uturn_route.h"
#include "shape/ftree_shape.h"
#include "small_fabrics.h"
#include "unit.h"

/* ------------------------------------------------------------ helpers */

struct thop {
	uint32_t node;		/* node the hop leaves */
	unsigned in, out;	/* ports there (in 0: the route starts) */
};

/*
 * Walks src -> lid.  Returns the number of hops, or -1 when the route
 * does not arrive.  *uturn: index of the first hop that climbs after one
 * that descended, or the hop count.
 */
static int twalk(const struct dqr_fabric *f, const struct dqr_lfts *t,
		 const uint32_t *level, uint32_t src, unsigned lid,
		 struct thop *h, unsigned max, unsigned *uturn)
{
	uint32_t owner = dqr_lid_owner(f, lid), node = f->ports[src].node;
	unsigned n = 0, in = 0;
	int last_down = 0;

	*uturn = ~0u;
	if (!dqr_is_switch(f, node)) {
		uint32_t r = f->ports[src].remote;

		h[n].node = node;
		h[n].in = 0;
		h[n++].out = f->ports[src].num;
		node = f->ports[r].node;
		in = f->ports[r].num;
	}
	while (n < max) {
		uint32_t sw = f->nodes[node].sw_index, r, next;
		unsigned q = dqr_lft_get(t, sw, lid);

		if (q == 0)
			break;
		if (q > f->nodes[node].num_ports)
			return -1;
		r = f->ports[f->nodes[node].port_base + q].remote;
		if (r == DQR_NONE)
			return -1;
		h[n].node = node;
		h[n].in = in;
		h[n++].out = q;
		next = f->ports[r].node;
		if (!dqr_is_switch(f, next)) {
			node = DQR_NONE;
			if (r != owner)
				return -1;
			break;
		}
		if (level[f->nodes[next].sw_index] > level[sw]) {
			if (last_down && *uturn == ~0u)
				*uturn = n - 1;
			last_down = 0;
		} else {
			last_down = level[f->nodes[next].sw_index] < level[sw];
		}
		node = next;
		in = f->ports[r].num;
	}
	if (n >= max)
		return -1;
	if (node != DQR_NONE &&
	    f->nodes[node].port_base != owner)
		return -1;
	if (*uturn == ~0u)
		*uturn = n;
	return (int)n;
}

/* The VL the mapping gives hop h of a route on SL sl. */
static unsigned mapped_vl(const struct dqr_fabric *f,
			  const struct dqr_ml_vls *v, const struct thop *h,
			  uint8_t sl)
{
	if (!dqr_is_switch(f, h->node))
		return dqr_vl_ca_sl2vl(v, dqr_port_index(f, h->node, h->out),
				       sl);
	return dqr_vl_sl2vl(v, f->nodes[h->node].sw_index, h->in, h->out, sl);
}

static int is_source(const struct dqr_fabric *f, uint32_t i)
{
	const struct dqr_port *p = &f->ports[i];

	if (dqr_is_switch(f, p->node))
		return p->num == 0;
	return p->num && p->base_lid && p->remote != DQR_NONE;
}

struct route_check {
	uint64_t routes, uturns, end_uturns;
	uint64_t bad_sl;	/* SL 0 on a U-turn route, or not 0 without */
	uint64_t bad_vl;	/* a hop whose mapped VL is not its layer */
	uint64_t unrouted;
};

/*
 * Every route: a route without U-turn must be on SL 0 and VL 0
 * throughout; a U-turn route on some SL != 0 with VL 0 before its
 * U-turn hop and VL 1 from it on.  Three checks: no hop breaks that, and
 * the U-turn routes are the ones st counted; rc holds the counts.
 */
static void check_routes(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 const uint32_t *level, const struct dqr_ml_vls *v,
			 const struct dqr_vl_stats *st, struct route_check *rc)
{
	unsigned max = f->num_switches + 2, lid, u, i;
	struct thop *h = malloc(sizeof(*h) * (max + 1));
	uint32_t src;

	memset(rc, 0, sizeof(*rc));
	REQUIRE(h != NULL);
	for (src = 0; src < f->num_ports; src++) {
		if (!is_source(f, src))
			continue;
		for (lid = 1; lid <= f->max_lid; lid++) {
			uint32_t owner = dqr_lid_owner(f, lid);
			uint8_t sl;
			int n;

			if (owner == DQR_NONE || owner == src)
				continue;
			n = twalk(f, t, level, src, lid, h, max, &u);
			if (n < 0) {
				rc->unrouted++;
				continue;
			}
			rc->routes++;
			sl = dqr_vl_path_sl(v, src, lid);
			if (u < (unsigned)n) {
				rc->uturns++;
				rc->end_uturns +=
					!dqr_is_switch(f, f->ports[src].node) ||
					!dqr_is_switch(f, f->ports[owner].node);
			}
			if ((u < (unsigned)n) != (sl != 0))
				rc->bad_sl++;
			for (i = 0; i < (unsigned)n; i++)
				if (mapped_vl(f, v, &h[i], sl) != (i >= u))
					rc->bad_vl++;
		}
	}
	free(h);
	CHECK_EQ(rc->uturns, st->uturn_routes);
	CHECK_EQ(rc->bad_sl, 0);
	CHECK_EQ(rc->bad_vl, 0);
}

struct tree {
	struct dqr_fabric *f;
	struct dqr_ftree *ft;
	struct dqr_lfts *t;
};

static void tree_build(struct tree *tr, const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_uturn_stats us;
	char err[256] = "";

	memset(tr, 0, sizeof(*tr));
	REQUIRE(dqr_gen_parse(spec, &s, err, sizeof(err)) == 0);
	tr->f = dqr_gen_build(&s, err, sizeof(err));
	REQUIRE(tr->f != NULL);
	if (dqr_ftree_detect(tr->f, &tr->ft, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(tr->ft != NULL);
	if (dqr_uturn_route(tr->f, tr->ft, &tr->t, &us, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(tr->t != NULL);
}

static void tree_free(struct tree *tr)
{
	dqr_lfts_free(tr->t);
	dqr_ftree_free(tr->ft);
	dqr_fabric_free(tr->f);
}

/* ------------------------------------------------------------ (a) */

/* Marks sw and every switch above it (up links only). */
static void mark_up(const struct dqr_fabric *f, const struct dqr_ftree *ft,
		    uint32_t sw, uint8_t *mark)
{
	uint32_t e;

	mark[sw] = 1;
	for (e = ft->up_off[sw]; e < ft->up_off[sw + 1]; e++) {
		uint32_t p = dqr_peer_switch(f, ft->up[e]);

		if (p != DQR_NONE && !mark[p])
			mark_up(f, ft, p, mark);
	}
}

/*
 * Ordered switch pairs with no common ancestor: those and only those
 * cannot be routed up*\/down* and must turn.
 */
static uint64_t pairs_needing_uturn(const struct dqr_fabric *f,
				    const struct dqr_ftree *ft)
{
	uint32_t s = f->num_switches, a, b, x;
	uint8_t *up = calloc((size_t)s * s, 1);
	uint64_t n = 0;

	REQUIRE(up != NULL);
	for (a = 0; a < s; a++)
		mark_up(f, ft, a, &up[(size_t)a * s]);
	for (a = 0; a < s; a++)
		for (b = 0; b < s; b++) {
			int common = 0;

			if (a == b)
				continue;
			for (x = 0; x < s && !common; x++)
				common = up[(size_t)a * s + x] &&
					 up[(size_t)b * s + x];
			n += !common;
		}
	free(up);
	return n;
}

static void test_fault_free(void)
{
	struct tree tr;
	struct dqr_ml_vls *v = NULL;
	struct dqr_vl_stats st;
	struct route_check rc;
	char err[256] = "";
	uint8_t tab[DQR_VL_NUM_SL];
	uint32_t sw, in, out, sl, ends = 0;
	uint64_t vl1 = 0;

	tree_build(&tr, "kary:4,3");
	CHECK_EQ(dqr_ml_vls_build(tr.f, tr.t, tr.ft, &v, &st, err,
				  sizeof(err)), 0);
	REQUIRE(v != NULL);
	ends = dqr_fabric_count_end_ports(tr.f);
	/* every source (CAs, switches) to every other LID owner */
	CHECK_EQ(st.routes, (uint64_t)(ends + 48) * (ends + 48 - 1));
	CHECK_EQ(st.unrouted, 0);
	/* CAs always share a top switch: only switch pairs turn */
	CHECK_EQ(st.uturn_end, 0);
	CHECK(st.uturn_routes > 0);
	CHECK_EQ(st.uturn_routes, pairs_needing_uturn(tr.f, tr.ft));
	CHECK_EQ(st.unplaced, 0);
	CHECK(st.acyclic[0]);
	CHECK(st.acyclic[1]);
	CHECK(st.deadlock_free);
	CHECK_EQ(st.edges_down, 0);
	CHECK(st.edges_up > 0);
	CHECK_EQ(st.vls_used, 2);
	CHECK(st.sls_used >= 2);
	CHECK(st.sl_mask & 1);
	CHECK(st.one_layer_acyclic);

	check_routes(tr.f, tr.t, tr.ft->level, v, &st, &rc);
	CHECK_EQ(rc.unrouted, 0);
	CHECK_EQ(rc.routes, st.routes);
	CHECK_EQ(rc.end_uturns, 0);

	/* the 16-entry tables agree with the single lookups */
	for (sw = 0; sw < tr.f->num_switches; sw++)
		for (in = 0; in <= 8; in++)
			for (out = 1; out <= 8; out++) {
				dqr_vl_sl2vl_table(v, sw, in, out, tab);
				for (sl = 0; sl < DQR_VL_NUM_SL; sl++) {
					if (tab[sl] !=
					    dqr_vl_sl2vl(v, sw, in, out, sl))
						vl1 = ~0ull;
					else if (vl1 != ~0ull)
						vl1 += tab[sl];
				}
			}
	CHECK_EQ(vl1, st.vl1_entries);
	/* CAs inject on VL 0 whatever the SL: no route turns at once */
	dqr_vl_ca_sl2vl_table(v, dqr_port_index(tr.f, 48, 1), tab);
	for (sl = 0; sl < DQR_VL_NUM_SL; sl++)
		CHECK_EQ(tab[sl], 0);
	/* a pair that does not exist has the default SL */
	CHECK_EQ(dqr_vl_path_sl(v, 0, 0xbfff), 0);

	dqr_ml_vls_free(v);
	tree_free(&tr);
}

/* ------------------------------------------------------------ (b) */

static uint32_t peer(const struct dqr_fabric *f, uint32_t ch)
{
	return dqr_peer_switch(f, ch);
}

/* The channel from switch a to switch b in a's list, or DQR_NONE. */
static uint32_t link_to(const struct dqr_fabric *f, const uint32_t *off,
			const uint32_t *list, uint32_t a, uint32_t b)
{
	uint32_t e;

	for (e = off[a]; e < off[a + 1]; e++)
		if (peer(f, list[e]) == b)
			return list[e];
	return DQR_NONE;
}

static int reaches(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   const uint32_t *level, uint32_t sw, unsigned lid)
{
	unsigned max = f->num_switches + 2, u;
	struct thop h[64];

	return twalk(f, t, level, f->nodes[f->switches[sw]].port_base, lid,
		     h, max < 64 ? max : 64, &u) >= 0;
}

static unsigned port_num(const struct dqr_fabric *f, uint32_t ch)
{
	return f->ports[ch].num;
}

/*
 * The FT paper's local re-routing for one entry of sw towards lid that
 * names a dead down link: down to the next live lower switch L of the
 * group after the dead one (in D), which climbs to the upper switch two
 * places after sw in D if that reaches lid, else to the first that does.
 * Returns 0 when fixed.
 */
static int reroute_down(const struct dqr_fabric *f, struct dqr_lfts *t,
			const struct dqr_ftree *ft, uint32_t sw, unsigned lid,
			uint32_t dead)
{
	uint32_t d0 = ft->down_off[sw], nd = ft->down_off[sw + 1] - d0;
	uint32_t i, j, k, at = 0;
	uint8_t old = dqr_lft_get(t, sw, lid);

	for (i = 0; i < nd; i++)
		if (ft->down[d0 + i] == dead)
			at = i;
	for (i = 1; i < nd; i++) {
		uint32_t ch = ft->down[d0 + (at + i) % nd], l = peer(f, ch);
		uint32_t u0, nu, self = 0;
		uint8_t lold;

		if (l == DQR_NONE)
			continue;
		u0 = ft->up_off[l];
		nu = ft->up_off[l + 1] - u0;
		for (j = 0; j < nu; j++)
			if (peer(f, ft->up[u0 + j]) == sw)
				self = j;
		lold = dqr_lft_get(t, l, lid);
		for (k = 0; k < nu; k++) {
			uint32_t up = ft->up[u0 + (self + 2 + k) % nu];

			if (peer(f, up) == DQR_NONE || peer(f, up) == sw)
				continue;
			dqr_lft_set(t, sw, lid, port_num(f, ch));
			dqr_lft_set(t, l, lid, port_num(f, up));
			if (reaches(f, t, ft->level, sw, lid))
				return 0;
			dqr_lft_set(t, sw, lid, old);
			dqr_lft_set(t, l, lid, lold);
		}
	}
	return -1;
}

/* A dead up link: the next live up link in D that still reaches lid. */
static int reroute_up(const struct dqr_fabric *f, struct dqr_lfts *t,
		      const struct dqr_ftree *ft, uint32_t sw, unsigned lid,
		      uint32_t dead)
{
	uint32_t u0 = ft->up_off[sw], nu = ft->up_off[sw + 1] - u0, i, at = 0;
	uint8_t old = dqr_lft_get(t, sw, lid);

	for (i = 0; i < nu; i++)
		if (ft->up[u0 + i] == dead)
			at = i;
	for (i = 1; i < nu; i++) {
		uint32_t ch = ft->up[u0 + (at + i) % nu];

		if (peer(f, ch) == DQR_NONE)
			continue;
		dqr_lft_set(t, sw, lid, port_num(f, ch));
		if (reaches(f, t, ft->level, sw, lid))
			return 0;
	}
	dqr_lft_set(t, sw, lid, old);
	return -1;
}

static int is_down(const struct dqr_ftree *ft, uint32_t sw, uint32_t ch)
{
	uint32_t e;

	for (e = ft->down_off[sw]; e < ft->down_off[sw + 1]; e++)
		if (ft->down[e] == ch)
			return 1;
	return 0;
}

/* Every entry that names a dead port, re-pointed; failures counted. */
static unsigned repair(const struct dqr_fabric *f, struct dqr_lfts *t,
		       const struct dqr_ftree *ft)
{
	unsigned lid, failed = 0;
	uint32_t sw;

	for (lid = 1; lid <= f->max_lid; lid++) {
		if (dqr_lid_owner(f, lid) == DQR_NONE)
			continue;
		for (sw = 0; sw < f->num_switches; sw++) {
			const struct dqr_node *n = &f->nodes[f->switches[sw]];
			unsigned q = dqr_lft_get(t, sw, lid);
			uint32_t ch = n->port_base + q;

			if (q == 0 || q > n->num_ports ||
			    f->ports[ch].remote != DQR_NONE)
				continue;
			if (is_down(ft, sw, ch))
				failed += !!reroute_down(f, t, ft, sw, lid, ch);
			else
				failed += !!reroute_up(f, t, ft, sw, lid, ch);
		}
	}
	return failed;
}

static void cut(struct dqr_fabric *f, uint32_t ch)
{
	uint32_t r = f->ports[ch].remote;

	REQUIRE(r != DQR_NONE);
	dqr_fabric_unlink_port(f, ch);
	dqr_fabric_unlink_port(f, r);
}

static void test_two_faults(void)
{
	struct tree tr;
	struct dqr_ml_vls *v = NULL;
	struct dqr_vl_stats st;
	struct route_check rc;
	struct dqr_cdg *g;
	struct dqr_channel_list cl;
	const struct dqr_lfts *ts[1];
	struct dqr_cycle cy = { 0 };
	char err[256] = "";
	uint32_t top = DQR_NONE, sw, mu, m[4], u[4], a, b, i, it = 0;
	uint32_t c[4];
	int r;

	tree_build(&tr, "kary:4,3");
	/*
	 * One top group: middles m[] in top's D order, tops u[] in m[0]'s
	 * (the same order from every middle, Corollary 1).  mu, the group's
	 * U-turn switch, carries the top-to-top routes; the faults keep
	 * away from it so those need no repair.
	 */
	for (sw = 0; sw < tr.f->num_switches && top == DQR_NONE; sw++)
		if (tr.ft->level[sw] == tr.ft->num_levels - 1)
			top = sw;
	REQUIRE(top != DQR_NONE);
	REQUIRE(tr.ft->down_off[top + 1] - tr.ft->down_off[top] == 4);
	for (i = 0; i < 4; i++)
		m[i] = peer(tr.f, tr.ft->down[tr.ft->down_off[top] + i]);
	for (i = 0; i < 4; i++)
		u[i] = peer(tr.f, tr.ft->up[tr.ft->up_off[m[0]] + i]);
	mu = tr.ft->uturn_sw[top];
	for (i = 0; i < 4; i++)
		if (m[i] == mu)
			it = i;
	/*
	 * Faults u0 - m[a] and u2 - m[b]: u0 re-routes down to m[a+1],
	 * which climbs to u2; u2 down to m[b+1] = mu, which climbs to u0.
	 * The cycle u0->m[a+1]->u2->mu->u0 then needs only the ordinary
	 * up-down turns at u2 and u0 that D-mod-k traffic provides.
	 */
	a = (it + 1) % 4;
	b = (it + 3) % 4;
	cut(tr.f, link_to(tr.f, tr.ft->down_off, tr.ft->down, u[0], m[a]));
	cut(tr.f, link_to(tr.f, tr.ft->down_off, tr.ft->down, u[2], m[b]));
	CHECK_EQ(repair(tr.f, tr.t, tr.ft), 0);

	CHECK_EQ(dqr_ml_vls_build(tr.f, tr.t, tr.ft, &v, &st, err,
				  sizeof(err)), 0);
	REQUIRE(v != NULL);
	CHECK_EQ(st.unrouted, 0);
	/* CA routes now turn too */
	CHECK(st.uturn_end > 0);

	/* the cycle's four channels and their dependencies, on one VL */
	c[0] = link_to(tr.f, tr.ft->down_off, tr.ft->down, u[0],
		       m[(a + 1) % 4]);
	c[1] = link_to(tr.f, tr.ft->up_off, tr.ft->up, m[(a + 1) % 4], u[2]);
	c[2] = link_to(tr.f, tr.ft->down_off, tr.ft->down, u[2], mu);
	c[3] = link_to(tr.f, tr.ft->up_off, tr.ft->up, mu, u[0]);
	for (i = 0; i < 4; i++)
		REQUIRE(c[i] != DQR_NONE);
	ts[0] = tr.t;
	r = dqr_channel_list_of_tables(tr.f, ts, 1, &cl, &cy, &g);
	REQUIRE(g != NULL);
	for (i = 0; i < 4; i++)
		CHECK(dqr_cdg_has_edge(g, c[i], c[(i + 1) % 4]));
	CHECK_EQ(r, 1);
	if (r == 0)
		dqr_channel_list_free(&cl);
	CHECK(cy.len >= 2);
	dqr_cycle_free(&cy);
	dqr_cdg_free(g);
	CHECK(!st.one_layer_acyclic);

	/* two layers: no cycle left */
	CHECK(st.acyclic[0]);
	CHECK(st.acyclic[1]);
	CHECK_EQ(st.edges_down, 0);
	CHECK(st.deadlock_free);
	CHECK_EQ(st.unplaced, 0);
	CHECK_EQ(dqr_vl_cycle(v, 0)->len, 0);
	CHECK_EQ(dqr_vl_cycle(v, 1)->len, 0);

	/* after its U-turn every route is on VL 1, by the mapping */
	check_routes(tr.f, tr.t, tr.ft->level, v, &st, &rc);
	CHECK_EQ(rc.unrouted, 0);
	CHECK_EQ(rc.end_uturns, st.uturn_end);

	dqr_ml_vls_free(v);
	tree_free(&tr);
}

/* ------------------------------------------------------------ (c) */

static void test_cyclic_ml(void)
{
	const unsigned n = 6;
	struct dqr_fabric *f = ring_fabric(n);
	struct dqr_lfts *t;
	struct dqr_ftree ft = { 0 };
	struct dqr_ml_vls *v = NULL;
	struct dqr_vl_stats st;
	struct route_check rc;
	const struct dqr_cycle *cy;
	uint32_t level[6];
	char err[256] = "";
	unsigned i, on_ring = 0;

	REQUIRE(f != NULL);
	t = ring_clockwise(f, n);
	REQUIRE(t != NULL);
	/*
	 * Levels 0, 1, 0, 1, ...: clockwise, every second hop descends, so
	 * every route of three switch hops turns, and the ML part of the
	 * routes runs round the whole ring.
	 */
	for (i = 0; i < n; i++)
		level[i] = i & 1;
	ft.num_switches = n;
	ft.num_levels = 2;
	ft.level = level;

	CHECK_EQ(dqr_ml_vls_build(f, t, &ft, &v, &st, err, sizeof(err)), 0);
	REQUIRE(v != NULL);
	CHECK_EQ(st.unrouted, 0);
	CHECK(st.uturn_routes > 0);
	CHECK(st.uturn_end > 0);
	/* NL only holds the hops before a first U-turn: a line */
	CHECK(st.acyclic[0]);
	CHECK(!st.acyclic[1]);
	CHECK(!st.deadlock_free);
	CHECK(!st.one_layer_acyclic);
	/* clockwise U-turns on one level collide; recolouring separates */
	CHECK(st.conflict_keys > 0);
	CHECK(st.moved > 0);
	CHECK_EQ(st.unplaced, 0);
	CHECK(st.sls_used >= 3);

	cy = dqr_vl_cycle(v, 1);
	CHECK_EQ(cy->len, n);
	for (i = 0; i < cy->len; i++)
		on_ring += f->ports[cy->channels[i]].num == 1 &&
			   dqr_is_switch(f, f->ports[cy->channels[i]].node);
	CHECK_EQ(on_ring, n);
	CHECK_EQ(dqr_vl_cycle(v, 0)->len, 0);

	check_routes(f, t, level, v, &st, &rc);
	CHECK_EQ(rc.routes, st.routes);

	dqr_ml_vls_free(v);

	/* the same ring as a line: nothing wraps, both layers acyclic */
	dqr_lfts_free(t);
	t = ring_as_line(f, n);
	REQUIRE(t != NULL);
	CHECK_EQ(dqr_ml_vls_build(f, t, &ft, &v, &st, err, sizeof(err)), 0);
	REQUIRE(v != NULL);
	CHECK(st.acyclic[0]);
	CHECK(st.acyclic[1]);
	CHECK(st.deadlock_free);
	dqr_ml_vls_free(v);

	/* tables and levels that do not belong together are refused */
	ft.num_switches = n - 1;
	CHECK_EQ(dqr_ml_vls_build(f, t, &ft, &v, &st, err, sizeof(err)),
		 -1);
	CHECK(v == NULL);
	CHECK(strstr(err, "switches") != NULL);

	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

int main(void)
{
	test_fault_free();
	test_two_faults();
	test_cyclic_ml();
	return unit_finish();
}
