/*
 * test_ref_routing.c - lib's reference base routings on generated fabrics:
 * every pair of every kind routed, no loop, no dead port, no dependency
 * cycle (except DOR with wrap links, which must have one), minimal hops
 * where the routing is minimal, D-mod-k balance, and up/down on fabrics
 * with links removed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_walk.h"
#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "unit.h"
#include "util/timing.h"
#include "verify/verify.h"

#define FAR 0xffff

static struct dqr_fabric *gen(const char *spec, struct dqr_gen_spec *s,
			      struct dqr_gen_place **places)
{
	struct dqr_fabric *f = gen_fabric(spec, s, places);

	REQUIRE(f != NULL);
	return f;
}

static struct dqr_lfts *route(const struct dqr_fabric *f,
			      const struct dqr_gen_spec *s,
			      const struct dqr_gen_place *pl,
			      enum dqr_ref_kind kind, const char *what)
{
	struct dqr_lfts *t = NULL;
	char err[256] = "";

	if (dqr_ref_route(f, s, pl, kind, &t, err, sizeof(err)))
		fprintf(stderr, "%s %s: %s\n", what, dqr_ref_name(kind), err);
	REQUIRE(t != NULL);
	return t;
}

/* The switch index behind port p of switch x, or DQR_NONE. */
static uint32_t next_switch(const struct dqr_fabric *f, uint32_t x,
			    unsigned p)
{
	const struct dqr_node *n = &f->nodes[f->switches[x]];
	uint32_t r;

	if (p < 1 || p > n->num_ports)
		return DQR_NONE;
	r = f->ports[n->port_base + p].remote;
	if (r == DQR_NONE || !dqr_is_switch(f, f->ports[r].node))
		return DQR_NONE;
	return f->nodes[f->ports[r].node].sw_index;
}

/* Switch-to-switch hop distances over the links present, FAR if none. */
static uint16_t *switch_distances(const struct dqr_fabric *f)
{
	uint32_t ns = f->num_switches, s, x, y, head, tail, *queue;
	uint16_t *dist = malloc(sizeof(*dist) * ns * ns);
	unsigned p;

	queue = malloc(sizeof(*queue) * ns);
	REQUIRE(dist && queue);
	for (s = 0; s < ns; s++) {
		uint16_t *d = dist + (size_t)s * ns;

		for (x = 0; x < ns; x++)
			d[x] = FAR;
		d[s] = 0;
		head = tail = 0;
		queue[tail++] = s;
		while (head < tail) {
			x = queue[head++];
			for (p = 1; p <= f->nodes[f->switches[x]].num_ports;
			     p++) {
				y = next_switch(f, x, p);
				if (y == DQR_NONE || d[y] != FAR)
					continue;
				d[y] = d[x] + 1;
				queue[tail++] = y;
			}
		}
	}
	free(queue);
	return dist;
}

static struct dqr_verify_report judge(const struct dqr_fabric *f,
				      const struct dqr_lfts *t,
				      const char *what)
{
	struct dqr_verify_report r;

	REQUIRE(dqr_verify(f, t, &r, NULL) == 0);
	printf("  %-28s pairs %llu+%llu+%llu+%llu unreachable %llu "
	       "(disconnected %llu) loops %llu dead %llu hops %u-%u "
	       "mean %.2f %s\n", what,
	       (unsigned long long)r.pairs[DQR_PAIR_CA_CA],
	       (unsigned long long)r.pairs[DQR_PAIR_CA_SW],
	       (unsigned long long)r.pairs[DQR_PAIR_SW_CA],
	       (unsigned long long)r.pairs[DQR_PAIR_SW_SW],
	       (unsigned long long)dqr_report_unreachable(&r),
	       (unsigned long long)(r.disconnected[0] + r.disconnected[1] +
				    r.disconnected[2] + r.disconnected[3]),
	       (unsigned long long)r.loop_entries,
	       (unsigned long long)r.dead_port_entries, r.hops_min,
	       r.hops_max, r.hops_mean,
	       r.cycle_found ? "CYCLE" : "acyclic");
	return r;
}

/* Every pair of every kind delivered, no loop, no dead port, no cycle. */
static void check_perfect(const struct dqr_fabric *f,
			  const struct dqr_lfts *t, const char *what)
{
	struct dqr_verify_report r = judge(f, t, what);
	uint64_t ca_lids = 0, sw_lids = 0, ends, sws = f->num_switches;
	uint32_t lid, o;

	for (lid = 1; lid <= f->max_lid; lid++) {
		o = dqr_lid_owner(f, lid);
		if (o == DQR_NONE)
			continue;
		if (dqr_is_switch(f, f->ports[o].node))
			sw_lids++;
		else
			ca_lids++;
	}
	ends = dqr_fabric_count_end_ports(f);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK_EQ(dqr_report_unreachable(&r), 0);
	/* every pair was judged: nothing lost on the way */
	CHECK_EQ(r.pairs[DQR_PAIR_CA_CA], ca_lids * (ends - 1));
	CHECK_EQ(r.pairs[DQR_PAIR_SW_CA], ca_lids * sws);
	CHECK_EQ(r.pairs[DQR_PAIR_CA_SW], sw_lids * ends);
	CHECK_EQ(r.pairs[DQR_PAIR_SW_SW], sw_lids * (sws - 1));
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.dead_port_entries, 0);
	CHECK(!r.cycle_found);
	dqr_verify_report_free(&r);
}

/*
 * Routes that are not shortest, counted separately for CA sources (every
 * switch with a CA on it) and for the other switches, towards every CA
 * LID.
 */
static void count_detours(const struct dqr_fabric *f,
			  const struct dqr_lfts *t, const uint16_t *dist,
			  uint64_t *ca_detours, uint64_t *sw_detours)
{
	uint32_t ns = f->num_switches, lid, x, *scratch;
	struct dqr_walk_state *st;
	char *has_ca = calloc(ns, 1);
	uint32_t i;

	st = malloc(sizeof(*st) * ns);
	scratch = malloc(sizeof(*scratch) * ns);
	REQUIRE(st && scratch && has_ca);
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (p->num && p->remote != DQR_NONE &&
		    !dqr_is_switch(f, p->node))
			has_ca[dqr_ingress_switch(f, i)] = 1;
	}
	*ca_detours = *sw_detours = 0;
	for (lid = 1; lid <= f->max_lid; lid++) {
		uint32_t owner = dqr_lid_owner(f, lid), tgt;

		if (owner == DQR_NONE || dqr_is_switch(f, f->ports[owner].node))
			continue;
		tgt = dqr_ingress_switch(f, owner);
		dqr_walk_dlid(f, t, lid, st, scratch);
		for (x = 0; x < ns; x++) {
			unsigned best = dist[(size_t)x * ns + tgt] + 1u;

			if (st[x].result == DQR_WALK_OK && st[x].hops == best)
				continue;
			if (has_ca[x])
				++*ca_detours;
			else
				++*sw_detours;
		}
	}
	free(st);
	free(scratch);
	free(has_ca);
}

/* ---------------------------------------------------------------- load */

/* Routes per channel the slow way: every CA pair, hop by hop. */
static uint64_t *naive_load(const struct dqr_fabric *f,
			    const struct dqr_lfts *t)
{
	uint64_t *load = calloc(f->num_ports, sizeof(*load));
	uint32_t s, d;

	REQUIRE(load != NULL);
	for (s = 0; s < f->num_ports; s++) {
		const struct dqr_port *ps = &f->ports[s];

		if (!ps->num || ps->remote == DQR_NONE ||
		    dqr_is_switch(f, ps->node))
			continue;
		for (d = 0; d < f->num_ports; d++) {
			const struct dqr_port *pd = &f->ports[d];
			uint32_t x = dqr_ingress_switch(f, s), hops = 0;

			if (d == s || !pd->num || pd->remote == DQR_NONE ||
			    dqr_is_switch(f, pd->node))
				continue;
			load[s]++;
			while (hops++ < DQR_MAX_HOPS) {
				const struct dqr_node *n =
					&f->nodes[f->switches[x]];
				uint8_t p = dqr_lft_get(t, x, pd->base_lid);
				uint32_t r;

				REQUIRE(p >= 1 && p <= n->num_ports);
				load[n->port_base + p]++;
				r = f->ports[n->port_base + p].remote;
				if (r == d)
					break;
				x = f->nodes[f->ports[r].node].sw_index;
				REQUIRE(x != DQR_NONE);
			}
		}
	}
	return load;
}

static void check_load_matches_naive(const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, NULL);
	struct dqr_lfts *t = route(f, &s, NULL, DQR_REF_AUTO, spec);
	struct dqr_route_load ld;
	uint64_t *fast = calloc(f->num_ports, sizeof(*fast));
	uint64_t *slow = naive_load(f, t);
	uint32_t i, bad = 0;

	REQUIRE(fast != NULL);
	CHECK_EQ(dqr_route_load(f, t, &ld, fast), 0);
	for (i = 0; i < f->num_ports; i++)
		bad += fast[i] != slow[i];
	CHECK_EQ(bad, 0);
	CHECK_EQ(ld.unrouted, 0);
	free(fast);
	free(slow);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/*
 * The least possible busiest channel of a tree under all-to-all CA
 * traffic: every pair whose leaves are 2m hops apart crosses each level
 * boundary below m once upwards, so some up channel out of level l
 * carries at least ceil(crossing pairs / up channels).  (Downwards is the
 * same count.)
 */
static uint64_t tree_ideal(const struct dqr_fabric *f,
			   const struct dqr_gen_place *pl,
			   const uint16_t *dist)
{
	uint64_t cross[32] = { 0 }, chans[32] = { 0 }, ideal = 0;
	uint32_t ns = f->num_switches, *cas, x, y, l;
	unsigned p;

	cas = calloc(ns, sizeof(*cas));
	REQUIRE(cas != NULL);
	for (x = 0; x < f->num_ports; x++) {
		const struct dqr_port *pt = &f->ports[x];

		if (pt->num && pt->remote != DQR_NONE &&
		    !dqr_is_switch(f, pt->node))
			cas[dqr_ingress_switch(f, x)]++;
	}
	for (x = 0; x < ns; x++) {
		for (p = 1; p <= f->nodes[f->switches[x]].num_ports; p++) {
			y = next_switch(f, x, p);
			if (y != DQR_NONE && pl[y].level == pl[x].level + 1)
				chans[pl[x].level]++;
		}
		for (y = 0; y < ns && cas[x]; y++)
			for (l = 1; l <= dist[(size_t)x * ns + y] / 2u; l++)
				cross[l] += (uint64_t)cas[x] * cas[y];
	}
	for (l = 1; l < 32; l++)
		if (chans[l] && (cross[l] + chans[l] - 1) / chans[l] > ideal)
			ideal = (cross[l] + chans[l] - 1) / chans[l];
	free(cas);
	return ideal;
}

static void check_balance(const char *spec)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	struct dqr_lfts *t = route(f, &s, pl, DQR_REF_FTREE_MOD, spec);
	uint16_t *dist = switch_distances(f);
	struct dqr_route_load ld, lu;
	struct dqr_lfts *u = route(f, &s, pl, DQR_REF_UPDN, spec);
	uint64_t ideal = tree_ideal(f, pl, dist);

	CHECK_EQ(dqr_route_load(f, t, &ld, NULL), 0);
	CHECK_EQ(dqr_route_load(f, u, &lu, NULL), 0);
	printf("  %-14s all-to-all %llu pairs: ftree-mod max %llu min %llu "
	       "mean %.1f (ideal max %llu); updn max %llu mean %.1f\n", spec,
	       (unsigned long long)ld.pairs, (unsigned long long)ld.max,
	       (unsigned long long)ld.min, ld.mean,
	       (unsigned long long)ideal, (unsigned long long)lu.max,
	       lu.mean);
	CHECK_EQ(ld.unrouted, 0);
	CHECK_EQ(ld.max, ideal);
	CHECK_EQ(lu.unrouted, 0);
	/* no routing beats the bound; hashed updn stays within twice it */
	CHECK(lu.max >= ld.max);
	CHECK(lu.max <= 2 * ideal);
	dqr_lfts_free(t);
	dqr_lfts_free(u);
	dqr_fabric_free(f);
	free(pl);
	free(dist);
}

/* ---------------------------------------------------------------- cases */

static void check_spec(const char *spec, int minimal)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	enum dqr_ref_kind kind = dqr_ref_auto(&s);
	struct dqr_lfts *t, *t2, *u;
	uint64_t ca_det, sw_det;
	uint16_t *dist = switch_distances(f);
	char what[96];

	printf("%s\n", spec);
	t = route(f, &s, pl, DQR_REF_AUTO, spec);
	snprintf(what, sizeof(what), "%s", dqr_ref_name(kind));
	check_perfect(f, t, what);
	/* places derived from the spec give the same tables */
	t2 = route(f, &s, NULL, kind, spec);
	CHECK(t2->lid_count == t->lid_count &&
	      !memcmp(t->port, t2->port,
		      (size_t)t->num_switches * t->lid_count));
	count_detours(f, t, dist, &ca_det, &sw_det);
	printf("  %-28s non-shortest routes to CA LIDs: %llu from CA "
	       "switches, %llu from others\n", what,
	       (unsigned long long)ca_det, (unsigned long long)sw_det);
	if (minimal) {
		CHECK_EQ(ca_det, 0);
		CHECK_EQ(sw_det, 0);
	}

	u = route(f, NULL, NULL, DQR_REF_UPDN, spec);
	check_perfect(f, u, "updn");
	count_detours(f, u, dist, &ca_det, &sw_det);
	printf("  %-28s non-shortest routes to CA LIDs: %llu from CA "
	       "switches, %llu from others\n", "updn",
	       (unsigned long long)ca_det, (unsigned long long)sw_det);
	dqr_lfts_free(t2);
	/* the spec does not matter to updn */
	t2 = route(f, &s, pl, DQR_REF_UPDN, spec);
	CHECK(!memcmp(u->port, t2->port,
		      (size_t)u->num_switches * u->lid_count));

	dqr_lfts_free(t);
	dqr_lfts_free(t2);
	dqr_lfts_free(u);
	dqr_fabric_free(f);
	free(pl);
	free(dist);
}

static void check_torus_wrap(const char *spec)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	struct dqr_lfts *t = route(f, &s, pl, DQR_REF_DOR_WRAP, spec);
	struct dqr_verify_report r;
	uint16_t *dist = switch_distances(f);
	uint64_t ca_det, sw_det;

	printf("%s dor-wrap\n", spec);
	r = judge(f, t, "dor-wrap");
	CHECK_EQ(dqr_report_unreachable(&r), 0);
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.dead_port_entries, 0);
	CHECK(r.cycle_found);
	CHECK(!dqr_verify_ok(&r, DQR_PAIRS_ALL));
	printf("  cycle of %u channels\n", r.cycle.len);
	dqr_verify_report_free(&r);
	count_detours(f, t, dist, &ca_det, &sw_det);
	CHECK_EQ(ca_det + sw_det, 0);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(pl);
	free(dist);
}

/* Grid distance between two places, never across a wrap cable. */
static unsigned mesh_distance(const struct dqr_gen_spec *s,
			      const struct dqr_gen_place *a,
			      const struct dqr_gen_place *b)
{
	unsigned d, n = 0;

	for (d = 0; d < s->ndims; d++)
		n += a->coord[d] > b->coord[d] ? a->coord[d] - b->coord[d] :
		     b->coord[d] - a->coord[d];
	return n;
}

/*
 * UPDN_MESH: every pair routed, acyclic, no wrap cable taken, minimal on
 * a mesh, and rooted at the switch of grid position 0: no route moves
 * towards it again once it has moved away (that would be a down-to-up
 * turn in its order).  reflect mirrors every coordinate, so that the
 * root is the last switch index instead of the first.
 */
static void check_updn_mesh(const char *spec, int reflect)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	uint16_t *dist = switch_distances(f);
	uint32_t x, y, at, root = DQR_NONE, lid, o, hops, wraps = 0;
	uint32_t turns = 0;
	uint64_t ca_det, sw_det;
	struct dqr_lfts *t;
	unsigned d, prev, cur;
	uint8_t p;

	for (x = 0; x < f->num_switches; x++) {
		uint32_t pos = 0;

		for (d = s.ndims; d-- > 0;) {
			if (reflect)
				pl[x].coord[d] = (uint16_t)(s.dims[d] - 1 -
							    pl[x].coord[d]);
			pos = pos * s.dims[d] + pl[x].coord[d];
		}
		pl[x].pos = pos;
		if (!pos)
			root = x;
	}
	printf("%s updn-mesh%s: root switch %u\n", spec,
	       reflect ? " (mirrored places)" : "", root);
	CHECK_EQ(root, reflect ? f->num_switches - 1 : 0);
	t = route(f, &s, pl, DQR_REF_UPDN_MESH, spec);
	check_perfect(f, t, "updn-mesh");
	for (lid = 1; lid <= f->max_lid; lid++) {
		o = dqr_lid_owner(f, lid);
		if (o == DQR_NONE)
			continue;
		for (x = 0; x < f->num_switches; x++) {
			int away = 0;

			prev = mesh_distance(&s, &pl[x], &pl[root]);
			for (at = x, hops = 0; hops <= f->num_switches;
			     hops++) {
				p = dqr_lft_get(t, at, lid);
				y = next_switch(f, at, p);
				if (y == DQR_NONE)
					break;
				wraps += mesh_distance(&s, &pl[at],
						       &pl[y]) != 1;
				cur = mesh_distance(&s, &pl[y], &pl[root]);
				turns += away && cur < prev;
				away |= cur > prev;
				prev = cur;
				at = y;
			}
		}
	}
	CHECK_EQ(wraps, 0);
	CHECK_EQ(turns, 0);
	if (s.kind == DQR_GEN_MESH) {
		count_detours(f, t, dist, &ca_det, &sw_det);
		CHECK_EQ(ca_det + sw_det, 0);
	}
	/* a generated mesh's switch 0 is its corner: plain UPDN's root */
	if (s.kind == DQR_GEN_MESH && !reflect) {
		struct dqr_lfts *u = route(f, NULL, NULL, DQR_REF_UPDN, spec);

		CHECK(!memcmp(u->port, t->port,
			      (size_t)t->num_switches * t->lid_count));
		dqr_lfts_free(u);
	}
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(pl);
	free(dist);
}

/* Unlinks every nth switch-to-switch link, from the k-th on. */
static unsigned drop_links(struct dqr_fabric *f, unsigned n, unsigned k)
{
	uint32_t i, seen = 0;
	unsigned dropped = 0;

	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (!p->num || p->remote == DQR_NONE || i > p->remote ||
		    !dqr_is_switch(f, p->node) ||
		    !dqr_is_switch(f, f->ports[p->remote].node))
			continue;
		if (seen++ % n != k)
			continue;
		dqr_fabric_unlink_port(f, i);
		dropped++;
	}
	return dropped;
}

static void check_faulty(const char *spec, unsigned n, unsigned k)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	struct dqr_verify_report r;
	struct dqr_lfts *t;
	unsigned dropped = drop_links(f, n, k);
	char what[96];

	printf("%s with %u of its switch links removed\n", spec, dropped);
	CHECK(dropped > 0);
	t = route(f, NULL, NULL, DQR_REF_UPDN, spec);
	snprintf(what, sizeof(what), "updn (-%u links)", dropped);
	r = judge(f, t, what);
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK(!r.cycle_found);
	dqr_verify_report_free(&r);
	dqr_lfts_free(t);

	/* the intact-fabric routings: holes, but never loops or dead ports */
	t = route(f, &s, pl, DQR_REF_AUTO, spec);
	snprintf(what, sizeof(what), "%s (-%u links)",
		 dqr_ref_name(dqr_ref_auto(&s)), dropped);
	r = judge(f, t, what);
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.dead_port_entries, 0);
	dqr_verify_report_free(&r);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(pl);
}

/* A switch cut off from the rest with its CA: two components. */
static void check_components(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen("mesh:4x4", &s, NULL);
	const struct dqr_node *n = &f->nodes[f->switches[5]];
	uint32_t lid_sw5 = f->ports[n->port_base].base_lid;
	uint32_t ca5 = f->num_switches + 5, ca5_lid, x, lid, bad = 0;
	struct dqr_verify_report r;
	struct dqr_lfts *t;
	unsigned p;

	printf("mesh:4x4 with switch 5 cut off\n");
	ca5_lid = f->ports[dqr_port_index(f, ca5, 1)].base_lid;
	for (p = 1; p <= 4; p++)
		dqr_fabric_unlink_port(f, n->port_base + p);
	t = route(f, NULL, NULL, DQR_REF_UPDN, "mesh:4x4 cut");
	r = judge(f, t, "updn (2 components)");
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK(r.disconnected[DQR_PAIR_CA_CA] > 0);
	CHECK_EQ(dqr_report_unreachable(&r),
		 r.disconnected[0] + r.disconnected[1] + r.disconnected[2] +
		 r.disconnected[3]);
	dqr_verify_report_free(&r);
	/* across the cut: DQR_NO_PATH both ways; inside each: routed */
	for (x = 0; x < f->num_switches; x++)
		for (lid = 1; lid <= f->max_lid; lid++) {
			uint32_t o = dqr_lid_owner(f, lid);
			int there, here = x == 5;

			if (o == DQR_NONE)
				continue;
			there = lid == lid_sw5 || lid == ca5_lid;
			if ((here != there) != (dqr_lft_get(t, x, lid) ==
						DQR_NO_PATH))
				bad++;
		}
	CHECK_EQ(bad, 0);
	CHECK_EQ(dqr_lft_get(t, 5, lid_sw5), 0);
	CHECK_EQ(dqr_lft_get(t, 5, ca5_lid), 5);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void check_errors(void)
{
	struct dqr_gen_spec sm, sh, sk;
	struct dqr_gen_place *pl;
	struct dqr_fabric *fm = gen("mesh:4x4", &sm, NULL);
	struct dqr_fabric *fh = gen("hypercube:4", &sh, NULL);
	struct dqr_fabric *fk = gen("kary:2,3", &sk, &pl);
	struct dqr_lfts *t = (struct dqr_lfts *)1;
	char err[256];
	enum dqr_ref_kind k;
	unsigned i;

	err[0] = '\0';
	CHECK_EQ(dqr_ref_route(fm, &sm, NULL, DQR_REF_FTREE_MOD, &t, err,
			       sizeof(err)), -1);
	CHECK(t == NULL);
	CHECK(strstr(err, "ftree-mod") != NULL);
	CHECK_EQ(dqr_ref_route(fm, NULL, NULL, DQR_REF_DOR, &t, err,
			       sizeof(err)), -1);
	CHECK_EQ(dqr_ref_route(fh, &sh, NULL, DQR_REF_DOR, &t, err,
			       sizeof(err)), -1);
	CHECK_EQ(dqr_ref_route(fm, &sm, NULL, DQR_REF_ECUBE, &t, err,
			       sizeof(err)), -1);
	/* a fabric that is not the spec's */
	CHECK_EQ(dqr_ref_route(fk, &sm, NULL, DQR_REF_DOR, &t, err,
			       sizeof(err)), -1);
	CHECK(strstr(err, "switches") != NULL);
	CHECK_EQ(dqr_ref_route(fm, &sm, NULL, (enum dqr_ref_kind)77, &t, err,
			       sizeof(err)), -1);
	/* places that do not fit */
	pl[3].level = 0;
	CHECK_EQ(dqr_ref_route(fk, &sk, pl, DQR_REF_FTREE_MOD, &t, err,
			       sizeof(err)), -1);
	CHECK(t == NULL);
	/* dor-wrap on a mesh has no wraps to take: plain dor */
	{
		struct dqr_lfts *a = route(fm, &sm, NULL, DQR_REF_DOR, "m");
		struct dqr_lfts *b = route(fm, &sm, NULL, DQR_REF_DOR_WRAP,
					   "m");

		CHECK(!memcmp(a->port, b->port,
			      (size_t)a->num_switches * a->lid_count));
		dqr_lfts_free(a);
		dqr_lfts_free(b);
	}

	for (i = 0; i < DQR_REF_NUM_KINDS; i++) {
		CHECK_EQ(dqr_ref_parse(dqr_ref_name((enum dqr_ref_kind)i), &k),
			 0);
		CHECK_EQ(k, i);
	}
	CHECK_EQ(dqr_ref_parse("minhop", &k), -1);
	CHECK(!strcmp(dqr_ref_name((enum dqr_ref_kind)99), "?"));
	CHECK(!strcmp(dqr_ref_name(DQR_REF_FTREE_MOD), "ftree-mod"));
	CHECK_EQ(dqr_ref_auto(NULL), DQR_REF_UPDN);
	CHECK_EQ(dqr_ref_auto(&sm), DQR_REF_DOR);
	CHECK_EQ(dqr_ref_auto(&sh), DQR_REF_ECUBE);
	CHECK_EQ(dqr_ref_auto(&sk), DQR_REF_FTREE_MOD);
	free(pl);
	dqr_fabric_free(fm);
	dqr_fabric_free(fh);
	dqr_fabric_free(fk);
}

/* Switch sw's port toward lid in the routing kind. */
struct entry {
	enum dqr_ref_kind kind;
	uint32_t sw, lid;
	unsigned port;
};

/* The entries e[0..n) on spec's fabric; e of one routing kind adjacent. */
static void check_entries(const char *spec, const struct entry *e,
			  unsigned n)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, NULL);
	struct dqr_lfts *t = NULL;
	unsigned i;

	for (i = 0; i < n; i++) {
		if (!i || e[i].kind != e[i - 1].kind) {
			dqr_lfts_free(t);
			t = route(f, &s, NULL, e[i].kind, spec);
		}
		CHECK_EQ(dqr_lft_get(t, e[i].sw, e[i].lid), e[i].port);
	}
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* The port choices, spelt out on small cases. */
static void check_port_rules(void)
{
	static const struct {
		const char *spec;
		unsigned n;
		struct entry e[4];
	} cases[] = {
		/*
		 * x first; switch 0 (0,0) to switch 8 (2,2): +x, then +y;
		 * back -x first, then -y
		 */
		{ "mesh:3x3", 4, { { DQR_REF_DOR, 0, 9, 1 },
				   { DQR_REF_DOR, 2, 9, 3 },
				   { DQR_REF_DOR, 8, 1, 2 },
				   { DQR_REF_DOR, 6, 1, 4 } } },
		/* wrap the short way: 0 -> 3 goes -x (2 hops); DOR does not */
		{ "torus:5", 4, { { DQR_REF_DOR_WRAP, 0, 4, 2 },
				  { DQR_REF_DOR_WRAP, 0, 3, 1 },
				  { DQR_REF_DOR, 0, 4, 1 },
				  { DQR_REF_DOR, 4, 1, 2 } } },
		/* 0 -> 6 fixes bit 1 first (port 2), then bit 2 */
		{ "hypercube:3", 3, { { DQR_REF_ECUBE, 0, 7, 2 },
				      { DQR_REF_ECUBE, 2, 7, 3 },
				      { DQR_REF_ECUBE, 7, 1, 1 } } },
	};
	struct dqr_gen_spec s;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	uint32_t ca;
	unsigned i;

	/* fattree2:8: leaf i port 5+s to spine s; CA c at leaf c/4 */
	f = gen("fattree2:8", &s, NULL);
	t = route(f, &s, NULL, DQR_REF_FTREE_MOD, "fattree2:8");
	for (ca = 0; ca < 32; ca++) {
		uint32_t lid = f->ports[dqr_port_index(f, 12 + ca, 1)].base_lid;
		uint32_t leaf = ca / 4, other = (leaf + 1) % 8;

		/* D-mod-k: towards CA c every leaf climbs to spine c mod 4 */
		CHECK_EQ(dqr_lft_get(t, other, lid), 5 + ca % 4);
		CHECK_EQ(dqr_lft_get(t, leaf, lid), 1 + ca % 4);
		CHECK_EQ(dqr_lft_get(t, 8 + ca % 4, lid), 1 + leaf);
	}
	dqr_lfts_free(t);
	dqr_fabric_free(f);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		check_entries(cases[i].spec, cases[i].e, cases[i].n);
}

static void check_lmc(const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, NULL);
	struct dqr_lfts *t = route(f, &s, NULL, DQR_REF_AUTO, spec);
	struct dqr_lfts *u = route(f, NULL, NULL, DQR_REF_UPDN, spec);

	printf("%s\n", spec);
	check_perfect(f, t, dqr_ref_name(dqr_ref_auto(&s)));
	check_perfect(f, u, "updn");
	dqr_lfts_free(t);
	dqr_lfts_free(u);
	dqr_fabric_free(f);
}

static void time_large(const char *spec, enum dqr_ref_kind kind,
		       int load, int verify)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	struct dqr_route_load ld;
	struct dqr_lfts *t;
	double t0 = dqr_now_ms(), ms;

	t = route(f, kind == DQR_REF_UPDN ? NULL : &s, pl, kind, spec);
	ms = dqr_now_ms() - t0;
	printf("%s %s: %u switches, %u LIDs routed in %.1f ms\n", spec,
	       dqr_ref_name(kind), f->num_switches, f->max_lid, ms);
	if (load) {
		t0 = dqr_now_ms();
		CHECK_EQ(dqr_route_load(f, t, &ld, NULL), 0);
		printf("  all-to-all %llu pairs in %.1f ms: max %llu min %llu "
		       "mean %.1f, CA links %llu\n",
		       (unsigned long long)ld.pairs, dqr_now_ms() - t0,
		       (unsigned long long)ld.max, (unsigned long long)ld.min,
		       ld.mean, (unsigned long long)ld.max_all);
		CHECK_EQ(ld.unrouted, 0);
		if (s.kind == DQR_GEN_FATTREE3 && kind == DQR_REF_FTREE_MOD) {
			uint64_t r = s.radix, h = r / 2;

			/* leaf<->middle: h (R h - 1); middle<->core:
			 * h^2 (R - 1); both are their level's ideal */
			CHECK_EQ(ld.max, h * (r * h - 1));
			CHECK_EQ(ld.min, h * h * (r - 1));
		}
	}
	if (verify)
		check_perfect(f, t, dqr_ref_name(kind));
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(pl);
}

int main(void)
{
	/* every route minimal but on the tori */
	static const char *const minimal[] = {
		"kary:2,3", "kary:4,3", "kary:2,6", "fattree2:8", "fattree2:36",
		"fattree3:8", "mesh:4x4", "mesh:5x3x2", "hypercube:4",
		"kary:3,1", "hypercube:1,cas=0",
	};
	static const char *const tori[] = { "torus:4x4", "torus:3x4x2,cas=2" };
	int large = getenv("DQR_TEST_LARGE") != NULL;
	unsigned i;

	for (i = 0; i < sizeof(minimal) / sizeof(minimal[0]); i++)
		check_spec(minimal[i], 1);
	for (i = 0; i < sizeof(tori) / sizeof(tori[0]); i++)
		check_spec(tori[i], 0);
	check_torus_wrap("torus:4x4");
	check_torus_wrap("torus:3x5x4");
	check_updn_mesh("mesh:6x5", 0);
	check_updn_mesh("mesh:6x5", 1);
	check_updn_mesh("mesh:4x3x3,cas=2", 1);
	check_updn_mesh("torus:5x4", 0);
	check_updn_mesh("torus:3x4x5", 1);
	check_lmc("fattree2:8,lmc=2");
	check_lmc("kary:2,3,lmc=1");
	check_lmc("mesh:4x4,lmc=1");
	check_lmc("hypercube:3,lmc=3");

	printf("balance (all-to-all CA traffic over switch links)\n");
	check_balance("fattree2:36");
	check_balance("fattree2:8");
	check_balance("fattree3:8");
	check_balance("kary:4,3");
	check_balance("kary:2,6");
	check_load_matches_naive("kary:2,3");
	check_load_matches_naive("fattree2:8");
	check_load_matches_naive("fattree3:4");
	check_load_matches_naive("mesh:4x3,cas=2");

	check_faulty("kary:4,3", 7, 3);
	check_faulty("fattree3:8", 5, 1);
	check_faulty("fattree2:36", 11, 0);
	check_faulty("mesh:5x3x2", 6, 2);
	check_faulty("torus:4x4", 9, 4);
	check_faulty("hypercube:4", 8, 5);
	check_components();
	check_errors();
	check_port_rules();

	time_large("fattree3:36", DQR_REF_FTREE_MOD, 1, large);
	time_large("mesh:20x20", DQR_REF_DOR, 1, 1);
	if (large) {
		time_large("fattree3:36", DQR_REF_UPDN, 1, 1);
		time_large("torus:20x20", DQR_REF_DOR_WRAP, 0, 0);
		time_large("hypercube:10", DQR_REF_ECUBE, 0, 1);
	}
	return unit_finish();
}
