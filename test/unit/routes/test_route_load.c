/*
 * test_route_load.c - channel loads under all-to-all traffic and shift
 * permutations, on k-ary n-trees routed by lib's ftree-mod (D-mod-k):
 * the loads D-mod-k must give, shift loads against routes walked
 * independently, and broken tables (no path, loop, dead port) counted as
 * unrouted rather than as load.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
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
	return unit_finish();
}
