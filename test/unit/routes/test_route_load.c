/*
 * test_route_load.c - channel loads under all-to-all traffic and shift
 * permutations, on k-ary n-trees routed by lib's ftree-mod (D-mod-k):
 * the loads D-mod-k must give, shift loads against routes walked
 * independently, and broken tables (no path, loop, dead port) counted as
 * unrouted rather than as load.  Then the permutations of
 * routes/permutation.h, and dqr_perm_load on the 3-cube routed by e-cube:
 * every channel's count, the route lengths and the broken cases worked
 * out by hand.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/permutation.h"
#include "routes/route_load.h"
#include "routes/route_walk.h"
#include "routing/ref_routing.h"
#include "unit.h"

struct tree {
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	uint32_t n;		/* end ports */
	uint32_t *ends;		/* by base LID */
};

/* qsort has no context argument: the fabric being sorted */
static const struct dqr_fabric *sort_fabric;

static int by_lid(const void *a, const void *b)
{
	uint16_t la = sort_fabric->ports[*(const uint32_t *)a].base_lid;
	uint16_t lb = sort_fabric->ports[*(const uint32_t *)b].base_lid;

	return (la > lb) - (la < lb);
}

static void tree_build(struct tree *tr, const char *spec)
{
	char err[256] = "";
	uint32_t i;

	memset(tr, 0, sizeof(*tr));
	if (dqr_gen_parse(spec, &tr->s, err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	tr->f = dqr_gen_build_places(&tr->s, &tr->pl, err, sizeof(err));
	if (!tr->f)
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(tr->f != NULL);
	if (dqr_ref_route(tr->f, &tr->s, tr->pl, DQR_REF_FTREE_MOD, &tr->t,
			  err, sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(tr->t != NULL);
	/* sorted here rather than read off the LID index as lib does */
	tr->ends = malloc(sizeof(*tr->ends) * tr->f->num_ports);
	REQUIRE(tr->ends != NULL);
	for (i = 0; i < tr->f->num_ports; i++) {
		const struct dqr_port *p = &tr->f->ports[i];

		if (p->num && p->remote != DQR_NONE && p->base_lid &&
		    !dqr_is_switch(tr->f, p->node))
			tr->ends[tr->n++] = i;
	}
	sort_fabric = tr->f;
	qsort(tr->ends, tr->n, sizeof(*tr->ends), by_lid);
}

static void tree_free(struct tree *tr)
{
	dqr_lfts_free(tr->t);
	dqr_fabric_free(tr->f);
	free(tr->pl);
	free(tr->ends);
}

static uint32_t switch_of(const struct dqr_fabric *f, uint32_t port)
{
	const struct dqr_node *n = &f->nodes[f->ports[port].node];

	return n->type == DQR_NODE_SWITCH ? n->sw_index : DQR_NONE;
}

static int switch_link(const struct dqr_fabric *f, uint32_t port)
{
	const struct dqr_port *p = &f->ports[port];

	return p->num && p->remote != DQR_NONE &&
	       dqr_is_switch(f, p->node) &&
	       dqr_is_switch(f, f->ports[p->remote].node);
}

static uint64_t ipow(uint64_t b, unsigned e)
{
	uint64_t r = 1;

	while (e--)
		r *= b;
	return r;
}

/*
 * All-to-all on kary:K,N.  D-mod-k spreads the pairs crossing each level
 * boundary evenly, so every channel between level l and l+1 (up or down)
 * carries the crossing pairs over the K^N channels of that boundary:
 * K^N (K^N - K^l) / K^N = K^N - K^l.  The levels differ, so max != min
 * on switch links: the lowest boundary is the busiest (K^N - K), the
 * highest the idlest (K^N - K^(N-1)).  Balance holds per level, not
 * across the tree.
 */
static void check_all_to_all(struct tree *tr)
{
	const struct dqr_fabric *f = tr->f;
	uint64_t kn = ipow(tr->s.k, tr->s.n), want, *load;
	struct dqr_route_load ld;
	uint32_t i, x, y, bad = 0, lvl;

	load = calloc(f->num_ports, sizeof(*load));
	REQUIRE(load != NULL);
	CHECK_EQ(dqr_route_load(f, tr->t, &ld, load), 0);
	CHECK_EQ(tr->n, kn);
	CHECK_EQ(ld.pairs, kn * (kn - 1));
	CHECK_EQ(ld.unrouted, 0);
	/* each level boundary: K^N channels up and K^N down */
	CHECK_EQ(ld.channels, 2 * kn * (tr->s.n - 1));
	CHECK_EQ(ld.max, kn - tr->s.k);
	CHECK_EQ(ld.min, kn - ipow(tr->s.k, tr->s.n - 1));
	CHECK(tr->s.n < 3 || ld.max != ld.min);
	/* a CA sends to, and receives from, every other CA */
	CHECK_EQ(ld.max_all, kn - 1);
	for (i = 0; i < f->num_ports; i++) {
		if (!switch_link(f, i))
			continue;
		x = switch_of(f, i);
		y = switch_of(f, f->ports[i].remote);
		lvl = tr->pl[x].level < tr->pl[y].level ? tr->pl[x].level :
		      tr->pl[y].level;
		want = kn - ipow(tr->s.k, lvl);
		bad += load[i] != want;
	}
	CHECK_EQ(bad, 0);
	printf("  kary:%u,%u all-to-all: %llu pairs, max %llu, min %llu, "
	       "mean %.2f, CA links %llu\n", tr->s.k, tr->s.n,
	       (unsigned long long)ld.pairs, (unsigned long long)ld.max,
	       (unsigned long long)ld.min, ld.mean,
	       (unsigned long long)ld.max_all);
	free(load);
}

/*
 * Walks src -> dst (a CA port) through t, adding 1 to every channel when
 * it is delivered.  Written apart from lib's walker on purpose.
 */
static void naive_route(const struct dqr_fabric *f, const struct dqr_lfts *t,
			uint32_t src, uint32_t dst, uint64_t *load)
{
	uint32_t lid = f->ports[dst].base_lid, hops[300], nh = 0, port, x;
	unsigned guard;

	hops[nh++] = src;
	port = f->ports[src].remote;
	for (guard = 0; guard <= f->num_switches; guard++) {
		const struct dqr_node *n;
		uint8_t p;

		if (!dqr_is_switch(f, f->ports[port].node)) {
			if (port != dst)
				return;
			while (nh)
				load[hops[--nh]]++;
			return;
		}
		x = f->nodes[f->ports[port].node].sw_index;
		n = &f->nodes[f->switches[x]];
		p = dqr_lft_get(t, x, lid);
		if (p < 1 || p > n->num_ports)
			return;
		if (f->ports[n->port_base + p].remote == DQR_NONE)
			return;
		REQUIRE(nh < 300);
		hops[nh++] = n->port_base + p;
		port = f->ports[n->port_base + p].remote;
	}
}

/*
 * Every shift 1 .. n-1 of t on tr's fabric against routes walked twice
 * independently: per channel by naive_route, and the total by the
 * per-DLID forest of route_walk (a delivered route crosses its CA link
 * plus the hops its ingress switch needs).  Also checks the summary
 * against the per-shift figures.  Returns the unrouted routes of all
 * shifts.
 */
static uint64_t check_shifts(const struct tree *tr, const struct dqr_lfts *t,
			     const char *what)
{
	const struct dqr_fabric *f = tr->f;
	uint32_t n = tr->n, ns = f->num_switches, i, j, d, sh, bad_ch = 0;
	uint32_t bad_sum = 0, bad_unr = 0, *scratch;
	struct dqr_walk_state *st;
	struct dqr_shift_summary sum;
	struct dqr_route_load ld;
	uint64_t *got, *want, worst = 0, unrouted = 0, total, hops, lost;
	double max_acc = 0, mean_acc = 0;

	/* per destination, every switch's outcome towards it */
	st = malloc(sizeof(*st) * (size_t)n * ns);
	scratch = malloc(sizeof(*scratch) * ns);
	got = malloc(sizeof(*got) * f->num_ports);
	want = malloc(sizeof(*want) * f->num_ports);
	REQUIRE(st && scratch && got && want);
	for (d = 0; d < n; d++)
		dqr_walk_dlid(f, t, f->ports[tr->ends[d]].base_lid,
			      st + (size_t)d * ns, scratch);
	for (sh = 1; sh < n; sh++) {
		memset(want, 0, sizeof(*want) * f->num_ports);
		hops = 0;
		lost = 0;
		for (i = 0; i < n; i++) {
			const struct dqr_walk_state *w;

			j = (i + sh) % n;
			w = st + (size_t)j * ns +
			    dqr_ingress_switch(f, tr->ends[i]);
			if (w->result == DQR_WALK_OK)
				hops += 1 + w->hops;
			else
				lost++;
			naive_route(f, t, tr->ends[i], tr->ends[j], want);
		}
		CHECK_EQ(dqr_shift_load(f, t, sh, &ld, got), 0);
		total = 0;
		for (i = 0; i < f->num_ports; i++) {
			total += got[i];
			bad_ch += got[i] != want[i];
		}
		bad_sum += total != hops;
		bad_unr += ld.unrouted != lost || ld.pairs != n;
		unrouted += ld.unrouted;
		if (ld.max > worst)
			worst = ld.max;
		max_acc += (double)ld.max;
		mean_acc += ld.mean;
	}
	CHECK_EQ(bad_ch, 0);
	CHECK_EQ(bad_sum, 0);
	CHECK_EQ(bad_unr, 0);
	CHECK_EQ(dqr_shift_load_summary(f, t, &sum), 0);
	CHECK_EQ(sum.end_ports, n);
	CHECK_EQ(sum.shifts, n - 1);
	CHECK_EQ(sum.routes, (uint64_t)n * (n - 1));
	CHECK_EQ(sum.unrouted, unrouted);
	CHECK_EQ(sum.worst_max, worst);
	CHECK(fabs(sum.mean_max - max_acc / (n - 1)) < 1e-9);
	CHECK(fabs(sum.mean - mean_acc / (n - 1)) < 1e-9);
	printf("  %-24s %u shifts: worst max %llu (shift %u), mean max "
	       "%.2f, mean %.3f, unrouted %llu\n", what, sum.shifts,
	       (unsigned long long)sum.worst_max, sum.worst_shift,
	       sum.mean_max, sum.mean, (unsigned long long)sum.unrouted);
	free(st);
	free(scratch);
	free(got);
	free(want);
	return unrouted;
}

/*
 * D-mod-k makes every shift contention free: the K^l sources under a
 * level-l switch are consecutive CAs, so are their destinations, and
 * their destinations' low digits, which pick the up ports, all differ.
 * At most one route per channel, and every CA link carries exactly one.
 */
static void check_shift_intact(struct tree *tr)
{
	const struct dqr_fabric *f = tr->f;
	struct dqr_shift_summary sum;
	struct dqr_route_load ld;
	uint64_t *load;
	uint32_t sh, i, bad = 0;
	char what[64];

	snprintf(what, sizeof(what), "kary:%u,%u ftree-mod", tr->s.k,
		 tr->s.n);
	CHECK_EQ(check_shifts(tr, tr->t, what), 0);
	CHECK_EQ(dqr_shift_load_summary(f, tr->t, &sum), 0);
	CHECK_EQ(sum.worst_max, 1);
	CHECK(fabs(sum.mean_max - 1.0) < 1e-12);
	load = malloc(sizeof(*load) * f->num_ports);
	REQUIRE(load != NULL);
	for (sh = 1; sh < tr->n; sh++) {
		CHECK_EQ(dqr_shift_load(f, tr->t, sh, &ld, load), 0);
		bad += ld.max_all != 1;
		for (i = 0; i < f->num_ports; i++)
			if (f->ports[i].num && f->ports[i].remote != DQR_NONE &&
			    !switch_link(f, i))
				bad += load[i] != 1;
	}
	CHECK_EQ(bad, 0);
	/* the shift is taken mod N; a multiple of N sends nothing */
	CHECK_EQ(dqr_shift_load(f, tr->t, tr->n + 3, &ld, NULL), 0);
	CHECK_EQ(ld.pairs, tr->n);
	CHECK_EQ(dqr_shift_load(f, tr->t, 2 * tr->n, &ld, NULL), 0);
	CHECK_EQ(ld.pairs, 0);
	CHECK_EQ(ld.max_all, 0);
	free(load);
}

/* The channel the route src -> dst takes out of its h-th switch. */
static uint32_t route_channel(const struct tree *tr, uint32_t src,
			      uint32_t dst, unsigned h)
{
	const struct dqr_fabric *f = tr->f;
	uint32_t lid = f->ports[dst].base_lid, port = f->ports[src].remote;
	uint32_t x, ch = DQR_NONE;

	for (;;) {
		REQUIRE(dqr_is_switch(f, f->ports[port].node));
		x = f->nodes[f->ports[port].node].sw_index;
		ch = f->nodes[f->switches[x]].port_base +
		     dqr_lft_get(tr->t, x, lid);
		if (!h--)
			return ch;
		port = f->ports[ch].remote;
	}
}

/*
 * Broken tables on the route from the first CA to the last one (which
 * climbs to the top): the routes through the broken entry are unrouted
 * and load nothing, as the independent walks say.
 */
static void check_broken(struct tree *tr)
{
	const struct dqr_fabric *f = tr->f;
	uint32_t src = tr->ends[0], dst = tr->ends[tr->n - 1], ch, x;
	uint16_t lid = f->ports[dst].base_lid;
	struct dqr_shift_summary sum;
	struct dqr_route_load ld;
	struct dqr_lfts *t;
	unsigned k = tr->s.k;
	uint64_t *load;

	/* no path at the first CA's leaf: its K CAs lose the last CA */
	t = dqr_lfts_clone(tr->t);
	REQUIRE(t != NULL);
	ch = route_channel(tr, src, dst, 0);
	x = switch_of(f, ch);
	dqr_lft_set(t, x, lid, DQR_NO_PATH);
	load = malloc(sizeof(*load) * f->num_ports);
	REQUIRE(load != NULL);
	CHECK_EQ(dqr_route_load(f, t, &ld, load), 0);
	CHECK_EQ(ld.pairs, (uint64_t)tr->n * (tr->n - 1));
	CHECK_EQ(ld.unrouted, k);
	/* lost routes load nothing, not even their first or last link */
	CHECK_EQ(load[src], tr->n - 2);
	CHECK_EQ(load[f->ports[dst].remote], tr->n - 1 - k);
	free(load);
	/* shift n-1 sends the first CA to the last: only that route fails */
	CHECK_EQ(dqr_shift_load(f, t, tr->n - 1, &ld, NULL), 0);
	CHECK_EQ(ld.pairs, tr->n);
	CHECK_EQ(ld.unrouted, 1);
	CHECK_EQ(dqr_shift_load_summary(f, t, &sum), 0);
	CHECK_EQ(sum.unrouted, k);
	CHECK_EQ(check_shifts(tr, t, "  one entry no-path"), k);
	dqr_lfts_free(t);

	/* the second switch sends it back down: leaf and it loop */
	t = dqr_lfts_clone(tr->t);
	REQUIRE(t != NULL);
	x = switch_of(f, f->ports[ch].remote);
	dqr_lft_set(t, x, lid, f->ports[f->ports[ch].remote].num);
	CHECK_EQ(dqr_shift_load(f, t, tr->n - 1, &ld, NULL), 0);
	CHECK(ld.unrouted > 0);
	CHECK(check_shifts(tr, t, "  one entry looping") > 0);
	dqr_lfts_free(t);

	/* the top switch sends it out of an up port, which is free */
	t = dqr_lfts_clone(tr->t);
	REQUIRE(t != NULL);
	ch = route_channel(tr, src, dst, tr->s.n - 1);
	x = switch_of(f, ch);
	REQUIRE(tr->pl[x].level == tr->s.n);
	dqr_lft_set(t, x, lid, k + 1);
	CHECK(f->ports[f->nodes[f->switches[x]].port_base + k + 1].remote ==
	      DQR_NONE);
	CHECK_EQ(dqr_shift_load(f, t, tr->n - 1, &ld, NULL), 0);
	CHECK(ld.unrouted > 0);
	CHECK(check_shifts(tr, t, "  one entry dead port") > 0);
	dqr_lfts_free(t);
}

/* Above DQR_SHIFT_ALL_MAX end ports the summary samples the shifts. */
static void check_sampled(const char *spec)
{
	struct dqr_shift_summary sum;
	struct dqr_route_load ld;
	struct tree tr;
	uint64_t worst = 0, routes = 0;
	double max_acc = 0;
	uint32_t k, sh;

	tree_build(&tr, spec);
	REQUIRE(tr.n > DQR_SHIFT_ALL_MAX);
	CHECK_EQ(dqr_shift_load_summary(tr.f, tr.t, &sum), 0);
	CHECK_EQ(sum.shifts, DQR_SHIFT_SAMPLE);
	for (k = 0; k < DQR_SHIFT_SAMPLE; k++) {
		sh = 1 + (uint32_t)((uint64_t)k * (tr.n - 1) /
				    DQR_SHIFT_SAMPLE);
		CHECK_EQ(dqr_shift_load(tr.f, tr.t, sh, &ld, NULL), 0);
		routes += ld.pairs;
		if (ld.max > worst)
			worst = ld.max;
		max_acc += (double)ld.max;
	}
	CHECK_EQ(sum.routes, routes);
	CHECK_EQ(sum.routes, (uint64_t)DQR_SHIFT_SAMPLE * tr.n);
	CHECK_EQ(sum.unrouted, 0);
	CHECK_EQ(sum.worst_max, worst);
	CHECK(fabs(sum.mean_max - max_acc / DQR_SHIFT_SAMPLE) < 1e-9);
	printf("  %-24s %u of %u shifts: worst max %llu, mean %.3f\n", spec,
	       sum.shifts, tr.n - 1, (unsigned long long)sum.worst_max,
	       sum.mean);
	tree_free(&tr);
}

/* ---------------------------------------------------------- permutation */

static int same(const uint32_t *a, const uint32_t *b, uint32_t n)
{
	return !memcmp(a, b, sizeof(*a) * n);
}

/* always the first: Fisher-Yates then swaps each pi[i] with pi[0] */
static uint32_t below_zero(void *arg, uint32_t m)
{
	(void)m;
	(*(unsigned *)arg)++;
	return 0;
}

/* a small LCG, for a permutation that is not a rotation */
static uint32_t below_lcg(void *arg, uint32_t m)
{
	uint32_t *x = arg;

	*x = *x * 1103515245u + 12345u;
	return (*x >> 16) % m;
}

static void check_builders(void)
{
	/* bit j -> bit 2-j: 001 <-> 100, 011 <-> 110 */
	static const uint32_t rev8[8] = { 0, 4, 2, 6, 1, 5, 3, 7 };
	/* b = 3, L = 1, H = 2: hi = i >> 1, lo = i & 1 -> lo * 4 + hi */
	static const uint32_t tr8[8] = { 0, 4, 1, 5, 2, 6, 3, 7 };
	/* b = 4: the 4 x 4 matrix transposed, row i>>2, column i&3 */
	static const uint32_t tr16[16] = { 0, 4, 8, 12, 1, 5, 9, 13,
					   2, 6, 10, 14, 3, 7, 11, 15 };
	static const uint32_t rot4[4] = { 1, 2, 3, 0 };
	uint32_t pi[16], seen[64], bits[16], x = 7, i;
	unsigned calls = 0;

	CHECK_EQ(dqr_perm_log2(1), 0);
	CHECK_EQ(dqr_perm_log2(64), 6);
	CHECK_EQ(dqr_perm_log2(0), -1);
	CHECK_EQ(dqr_perm_log2(9), -1);
	CHECK_EQ(dqr_perm_bit_reversal(pi, 8), 0);
	CHECK(same(pi, rev8, 8));
	CHECK_EQ(dqr_perm_transpose(pi, 8), 0);
	CHECK(same(pi, tr8, 8));
	CHECK_EQ(dqr_perm_transpose(pi, 16), 0);
	CHECK(same(pi, tr16, 16));
	/* b = 4: 0001 -> 1000, 0110 -> 0110, 1011 -> 1101 */
	CHECK_EQ(dqr_perm_bit_reversal(pi, 16), 0);
	CHECK_EQ(pi[1], 8);
	CHECK_EQ(pi[6], 6);
	CHECK_EQ(pi[11], 13);
	pi[0] = 99;
	CHECK_EQ(dqr_perm_bit_reversal(pi, 9), -1);
	CHECK_EQ(dqr_perm_transpose(pi, 12), -1);
	CHECK_EQ(dqr_perm_transpose(pi, 0), -1);
	CHECK_EQ(pi[0], 99);
	dqr_perm_random(pi, 4, below_zero, &calls);
	CHECK(same(pi, rot4, 4));
	CHECK_EQ(calls, 3);
	dqr_perm_random(seen, 64, below_lcg, &x);
	/* each of 0 .. 63 once: 64 distinct values fill every bit */
	memset(bits, 0, sizeof(bits));
	for (i = 0; i < 64; i++)
		if (seen[i] < 64)
			bits[seen[i] / 4] |= 1u << (seen[i] % 4);
	for (i = 0; i < 16; i++)
		CHECK_EQ(bits[i], 15);
}

/*
 * hypercube:3 routed by e-cube (lowest differing bit first).  Switch
 * label x's port d+1 is dimension d; channel (x, d) is that port.
 */
struct cube {
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	uint32_t n, ends[32];
};

static void cube_build(struct cube *c)
{
	char err[256] = "";
	uint32_t i;

	memset(c, 0, sizeof(*c));
	REQUIRE(dqr_gen_parse("hypercube:3", &c->s, err, sizeof(err)) == 0);
	c->f = dqr_gen_build_places(&c->s, &c->pl, err, sizeof(err));
	REQUIRE(c->f != NULL);
	REQUIRE(dqr_ref_route(c->f, &c->s, c->pl, DQR_REF_ECUBE, &c->t, err,
			      sizeof(err)) == 0);
	REQUIRE(c->f->max_lid < 32);
	c->n = dqr_end_ports(c->f, c->ends);
	CHECK_EQ(c->n, 8);
	/* end port i is the CA of switch label i: the patterns are the
	 * cube's own */
	for (i = 0; i < c->n; i++) {
		CHECK_EQ(switch_of(c->f, c->f->ports[c->ends[i]].remote), i);
		CHECK_EQ(c->pl[i].pos, i);
	}
}

static void cube_free(struct cube *c)
{
	dqr_lfts_free(c->t);
	dqr_fabric_free(c->f);
	free(c->pl);
}

static uint32_t cube_channel(const struct cube *c, uint32_t x, unsigned d)
{
	return c->f->nodes[c->f->switches[x]].port_base + d + 1;
}

/*
 * Every switch-to-switch channel's count against the list worked out by
 * hand (x, d, routes); the others must carry none.
 */
static void check_channels(const struct cube *c, const uint64_t *load,
			   const unsigned (*want)[3], unsigned nwant)
{
	uint32_t x, bad = 0;
	unsigned d, k, w;

	for (x = 0; x < 8; x++)
		for (d = 0; d < 3; d++) {
			w = 0;
			for (k = 0; k < nwant; k++)
				if (want[k][0] == x && want[k][1] == d)
					w = want[k][2];
			bad += load[cube_channel(c, x, d)] != w;
		}
	CHECK_EQ(bad, 0);
}

/*
 * Bit reversal on 3 bits moves 1 <-> 4 and 3 <-> 6 (0, 2, 5, 7 are
 * palindromes).  E-cube fixes bit 0, then bit 2:
 *   1 -> 4: 001 -d0-> 000 -d2-> 100    4 -> 1: 100 -d0-> 101 -d2-> 001
 *   3 -> 6: 011 -d0-> 010 -d2-> 110    6 -> 3: 110 -d0-> 111 -d2-> 011
 * eight channels, one route each: max 1, every route 2 hops.
 *
 * Transpose (b = 3: pi = 0 4 1 5 2 6 3 7) moves six:
 *   1 -> 4: 001 -d0-> 000 -d2-> 100    2 -> 1: 010 -d0-> 011 -d1-> 001
 *   3 -> 5: 011 -d1-> 001 -d2-> 101    4 -> 2: 100 -d1-> 110 -d2-> 010
 *   5 -> 6: 101 -d0-> 100 -d1-> 110    6 -> 3: 110 -d0-> 111 -d2-> 011
 * (011, d1) and (100, d1) carry two routes each: max 2.
 */
static void check_cube_perms(struct cube *c)
{
	static const unsigned rev_ch[][3] = {
		{ 1, 0, 1 }, { 0, 2, 1 }, { 4, 0, 1 }, { 5, 2, 1 },
		{ 3, 0, 1 }, { 2, 2, 1 }, { 6, 0, 1 }, { 7, 2, 1 },
	};
	static const unsigned tr_ch[][3] = {
		{ 1, 0, 1 }, { 0, 2, 1 }, { 2, 0, 1 }, { 3, 1, 2 },
		{ 1, 2, 1 }, { 4, 1, 2 }, { 6, 2, 1 }, { 5, 0, 1 },
		{ 6, 0, 1 }, { 7, 2, 1 },
	};
	const struct dqr_fabric *f = c->f;
	struct dqr_perm_load pl;
	uint64_t load[256];
	uint32_t pi[8], i;

	REQUIRE(f->num_ports <= 256);
	CHECK_EQ(dqr_perm_bit_reversal(pi, 8), 0);
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 4);
	CHECK_EQ(pl.unrouted, 0);
	CHECK_EQ(pl.apart, 0);
	CHECK_EQ(pl.channels, 24);
	CHECK_EQ(pl.max, 1);
	CHECK_EQ(pl.longest, 2);
	CHECK_EQ(pl.hops, 8);
	CHECK(fabs(pl.mean_hops - 2.0) < 1e-12);
	check_channels(c, load, rev_ch, 8);
	/* the CA links: the four that send, the four switches that deliver */
	for (i = 0; i < 8; i++) {
		CHECK_EQ(load[c->ends[i]], pi[i] != i);
		CHECK_EQ(load[f->ports[c->ends[i]].remote], pi[i] != i);
	}

	CHECK_EQ(dqr_perm_transpose(pi, 8), 0);
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 6);
	CHECK_EQ(pl.unrouted, 0);
	CHECK_EQ(pl.max, 2);
	CHECK_EQ(pl.longest, 2);
	CHECK_EQ(pl.hops, 12);
	check_channels(c, load, tr_ch, 10);
	/* without per_channel: the same figures */
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, NULL), 0);
	CHECK_EQ(pl.max, 2);
	CHECK_EQ(pl.hops, 12);

	/* the identity sends nothing */
	for (i = 0; i < 8; i++)
		pi[i] = i;
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 0);
	CHECK_EQ(pl.max, 0);
	CHECK_EQ(pl.longest, 0);
	CHECK(pl.mean_hops == 0.0);

	/* 0 -> 7, 7 -> 0: three hops each, the longest; 1..6 stay */
	pi[0] = 7;
	pi[7] = 0;
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 2);
	CHECK_EQ(pl.longest, 3);
	CHECK(fabs(pl.mean_hops - 3.0) < 1e-12);
	CHECK_EQ(pl.max, 1);
}

/*
 * Broken tables and cut end ports, on bit reversal: each case takes out
 * what is worked out by hand, and what is not delivered loads nothing.
 */
static void check_cube_broken(struct cube *c)
{
	struct dqr_fabric *f;
	struct dqr_perm_load pl;
	struct dqr_lfts *t;
	uint64_t load[256];
	uint32_t pi[8];
	uint16_t lid4 = c->f->ports[c->ends[4]].base_lid;

	CHECK_EQ(dqr_perm_bit_reversal(pi, 8), 0);
	/* switch 000 has no path to CA 4: 1 -> 4 (via 000) is lost */
	t = dqr_lfts_clone(c->t);
	REQUIRE(t != NULL);
	dqr_lft_set(t, 0, lid4, DQR_NO_PATH);
	CHECK_EQ(dqr_perm_load(c->f, t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 4);
	CHECK_EQ(pl.unrouted, 1);
	CHECK_EQ(pl.hops, 6);
	CHECK_EQ(load[cube_channel(c, 1, 0)], 0);
	CHECK_EQ(load[c->ends[1]], 0);
	/* ... and sends it back to 001 on d0: a loop, also lost */
	dqr_lft_set(t, 0, lid4, 1);
	CHECK_EQ(dqr_perm_load(c->f, t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.unrouted, 1);
	CHECK_EQ(pl.max, 1);
	CHECK_EQ(load[cube_channel(c, 1, 0)], 0);
	CHECK_EQ(load[cube_channel(c, 0, 0)], 0);
	dqr_lfts_free(t);

	/* CA 3's cable fails: 3 -> 6 and 6 -> 3 are apart, not walked */
	f = dqr_fabric_clone(c->f);
	REQUIRE(f != NULL);
	dqr_fabric_unlink_port(f, c->ends[3]);
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 4);
	CHECK_EQ(pl.apart, 2);
	CHECK_EQ(pl.unrouted, 0);
	CHECK_EQ(pl.hops, 4);
	CHECK_EQ(load[cube_channel(c, 6, 0)], 0);
	CHECK_EQ(load[c->ends[6]], 0);
	dqr_fabric_free(f);

	/* switch 110 loses its three cables: CA 6, still cabled to it, is
	 * split off with it, so 3 -> 6 and 6 -> 3 are apart; 1 -> 4 and
	 * 4 -> 1 do not pass it and are delivered */
	f = dqr_fabric_clone(c->f);
	REQUIRE(f != NULL);
	dqr_fabric_unlink_port(f, cube_channel(c, 6, 0));
	dqr_fabric_unlink_port(f, cube_channel(c, 6, 1));
	dqr_fabric_unlink_port(f, cube_channel(c, 6, 2));
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.pairs, 4);
	CHECK_EQ(pl.apart, 2);
	CHECK_EQ(pl.unrouted, 0);
	CHECK_EQ(pl.hops, 4);
	CHECK_EQ(pl.channels, 18);
	/* 3 -> 6 is not walked: its first channel carries nothing */
	CHECK_EQ(load[cube_channel(c, 3, 0)], 0);
	CHECK_EQ(load[cube_channel(c, 1, 0)], 1);
	dqr_fabric_free(f);

	/* the cable 000-100 fails, the tables stay: 1 -> 4 meets a dead
	 * port at 000 and is unrouted, the others are delivered */
	f = dqr_fabric_clone(c->f);
	REQUIRE(f != NULL);
	dqr_fabric_unlink_port(f, cube_channel(c, 0, 2));
	CHECK_EQ(dqr_perm_load(f, c->t, c->ends, pi, 8, &pl, load), 0);
	CHECK_EQ(pl.apart, 0);
	CHECK_EQ(pl.unrouted, 1);
	CHECK_EQ(pl.hops, 6);
	CHECK_EQ(pl.channels, 22);
	dqr_fabric_free(f);
}

int main(void)
{
	static const char *const specs[] = { "kary:2,3", "kary:4,3" };
	struct tree tr;
	unsigned i;

	for (i = 0; i < sizeof(specs) / sizeof(specs[0]); i++) {
		tree_build(&tr, specs[i]);
		check_all_to_all(&tr);
		check_shift_intact(&tr);
		check_broken(&tr);
		tree_free(&tr);
	}
	check_sampled("fattree3:22");
	check_builders();
	{
		struct cube c;

		cube_build(&c);
		check_cube_perms(&c);
		check_cube_broken(&c);
		cube_free(&c);
	}
	return unit_finish();
}
