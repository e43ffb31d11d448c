/*
 * test_twophase.c - two-phase routing of hypercubes (twophase.h): every
 * route climbs in rank (so one VL holds them all), every pair routed and
 * no dependency cycle on intact cubes with and without LMC, routes within
 * the length bound, the same tables from the same seed, and on cubes with
 * cables and switches missing every pair of active switches routed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_walk.h"
#include "routing/twophase.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

struct cube {
	struct dqr_gen_spec s;
	struct dqr_gen_place *pl;
	struct dqr_fabric *f;
	struct dqr_twophase *tp;
	unsigned n;
};

static void cube_open(struct cube *c, const char *spec, uint64_t seed)
{
	char err[256] = "";

	c->f = gen_fabric(spec, &c->s, &c->pl);
	REQUIRE(c->f != NULL);
	c->n = c->s.ndims;
	if (dqr_twophase_new(c->f, c->n, c->pl, seed, &c->tp, err,
			     sizeof(err)))
		fprintf(stderr, "%s: %s\n", spec, err);
	REQUIRE(c->tp != NULL);
}

static void cube_close(struct cube *c)
{
	dqr_twophase_free(c->tp);
	dqr_fabric_free(c->f);
	free(c->pl);
}

static struct dqr_lfts *route(const struct cube *c, const struct dqr_fabric *f,
			      struct dqr_twophase_stats *st)
{
	struct dqr_lfts *t = NULL;

	REQUIRE(!dqr_twophase_route(c->tp, f, &t, st));
	REQUIRE(t != NULL);
	return t;
}

/* What walking every (switch, LID) entry of t found. */
struct walk {
	uint64_t routes, delivered, falls;	/* falls: rank not climbing */
	uint32_t longest;
	uint64_t missed_active;		/* active switch to active LID */
};

/*
 * Walks from every switch to every LID of f and checks every hop's rank
 * against the hop before.  active: per switch index, or NULL.
 */
static struct walk walk_all(const struct cube *c, const struct dqr_fabric *f,
			    const struct dqr_lfts *t, const uint8_t *active)
{
	struct walk wk;
	uint32_t sw, lid, x, y, last, r, hops, dsw;

	memset(&wk, 0, sizeof(wk));
	for (lid = 1; lid <= f->max_lid; lid++) {
		if (f->lid_port[lid] == DQR_NONE)
			continue;
		dsw = dqr_lid_switch(f, lid);
		for (sw = 0; sw < f->num_switches; sw++) {
			x = sw;
			last = 0;
			hops = 0;
			wk.routes++;
			for (;;) {
				uint8_t p = dqr_lft_get(t, x, lid);

				if (x == dsw) {
					wk.delivered++;
					break;
				}
				y = dqr_next_switch(f, t, x, lid);
				if (p == DQR_NO_PATH || y == DQR_NONE ||
				    hops > 4 * c->n)
					break;
				r = dqr_twophase_rank(c->tp, x, (unsigned)
					__builtin_ctz(dqr_twophase_label(
					c->tp, x) ^ dqr_twophase_label(c->tp,
					y)));
				if (hops && r <= last)
					wk.falls++;
				last = r;
				hops++;
				x = y;
			}
			if (x == dsw && hops > wk.longest)
				wk.longest = hops;
			if (x != dsw && active && active[sw] &&
			    dsw != DQR_NONE && active[dsw])
				wk.missed_active++;
		}
	}
	return wk;
}

static void check_intact(const char *spec, uint64_t seed)
{
	struct dqr_twophase_stats st;
	struct dqr_verify_report r;
	struct cube c;
	struct dqr_lfts *t;
	struct walk wk;
	uint32_t whole;
	uint8_t *act;

	cube_open(&c, spec, seed);
	t = route(&c, c.f, &st);
	printf("%s: %u LIDs, %llu re-attached\n", spec, st.lids,
	       (unsigned long long)st.reattached);
	CHECK_EQ(st.lids_broken, 0);
	CHECK_EQ(st.unrouted, 0);
	REQUIRE(!dqr_verify(c.f, t, &r, NULL));
	CHECK(dqr_verify_ok(&r, DQR_PAIRS_ALL));
	CHECK(!r.cycle_found);
	dqr_verify_report_free(&r);
	wk = walk_all(&c, c.f, t, NULL);
	CHECK_EQ(wk.falls, 0);
	CHECK_EQ(wk.delivered, wk.routes);
	/* switch hops: at most 2n - 1, and the paper's bound */
	CHECK(wk.longest <= 2 * c.n - 1);
	CHECK(wk.longest <= dqr_twophase_length_bound(c.n));
	act = malloc(c.f->num_switches);
	REQUIRE(act != NULL);
	CHECK_EQ(dqr_twophase_active(c.tp, c.f, act, &whole),
		 (long)c.f->num_switches);
	CHECK_EQ(whole, c.f->num_switches);
	free(act);
	dqr_lfts_free(t);
	cube_close(&c);
}

/* Same seed, same tables; another seed, other intermediates. */
static void check_seed(void)
{
	struct cube a, b, o;
	struct dqr_lfts *ta, *tb, *to;
	size_t len;

	cube_open(&a, "hypercube:6", 7);
	cube_open(&b, "hypercube:6", 7);
	cube_open(&o, "hypercube:6", 8);
	ta = route(&a, a.f, NULL);
	tb = route(&b, b.f, NULL);
	to = route(&o, o.f, NULL);
	len = (size_t)ta->num_switches * ta->lid_count;
	CHECK(!memcmp(ta->port, tb->port, len));
	CHECK(memcmp(ta->port, to->port, len) != 0);
	dqr_lfts_free(ta);
	dqr_lfts_free(tb);
	dqr_lfts_free(to);
	cube_close(&a);
	cube_close(&b);
	cube_close(&o);
}

static uint32_t rnd_state = 12345;

static uint32_t rnd(uint32_t k)
{
	rnd_state = rnd_state * 1103515245u + 12345u;
	return (rnd_state >> 8) % k;
}

/* The ports of every cable of switch sw, appended to cut. */
static unsigned switch_cables(const struct dqr_fabric *f, uint32_t sw,
			      uint32_t *cut, unsigned k)
{
	const struct dqr_node *nd = &f->nodes[f->switches[sw]];
	unsigned p;

	for (p = 1; p <= nd->num_ports; p++)
		if (f->ports[nd->port_base + p].remote != DQR_NONE)
			cut[k++] = nd->port_base + p;
	return k;
}

/*
 * spec less cables random cables and switches random switches: no
 * cycle, no loop, every route climbing, every pair of active switches
 * routed.
 */
static void check_faults(const char *spec, unsigned cables,
			 unsigned switches, uint64_t seed)
{
	struct dqr_twophase_stats st;
	struct dqr_verify_report r;
	struct dqr_fabric *g;
	struct dqr_lfts *t;
	struct walk wk;
	struct cube c;
	uint32_t *links, nl, *cut;
	unsigned k = 0, i;
	uint32_t whole;
	uint8_t *act;
	long na;

	cube_open(&c, spec, seed);
	nl = switch_links(c.f, &links);
	REQUIRE(links != NULL);
	shuffle(links, nl, rnd);
	cut = malloc((cables + switches * (c.n + 4)) * sizeof(*cut));
	REQUIRE(cut != NULL);
	for (i = 0; i < cables && i < nl; i++)
		cut[k++] = links[i];
	for (i = 0; i < switches; i++)
		k = switch_cables(c.f, rnd(c.f->num_switches), cut, k);
	g = cut_cables(c.f, cut, k, NULL);
	t = route(&c, g, &st);
	act = malloc(g->num_switches);
	REQUIRE(act != NULL);
	na = dqr_twophase_active(c.tp, g, act, &whole);
	REQUIRE(na >= 0);
	/* the pairs the scheme answers for: switches of whole groups */
	for (i = 0; i < g->num_switches; i++)
		act[i] = act[i] != DQR_TWOPHASE_LEFT_OUT;
	REQUIRE(!dqr_verify(g, t, &r, NULL));
	CHECK(!r.cycle_found);
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.dead_port_entries, 0);
	wk = walk_all(&c, g, t, act);
	printf("%s less %u cables, %u switches: %ld active, %u whole of %u, "
	       "%u LIDs broken, %llu re-attached, %llu raised, %llu "
	       "unrouted, longest %u\n", spec, cables, switches, na, whole,
	       g->num_switches,
	       st.lids_broken, (unsigned long long)st.reattached,
	       (unsigned long long)st.raised,
	       (unsigned long long)st.unrouted, wk.longest);
	CHECK(st.lids_broken > 0);
	CHECK_EQ(wk.falls, 0);
	CHECK_EQ(wk.missed_active, 0);
	dqr_verify_report_free(&r);
	free(act);
	free(cut);
	free(links);
	dqr_lfts_free(t);
	dqr_fabric_free(g);
	cube_close(&c);
}

static void check_errors(void)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen_fabric("hypercube:4", &s, &pl);
	struct dqr_twophase *tp = NULL;
	char err[256] = "";

	REQUIRE(f != NULL);
	CHECK(dqr_twophase_new(f, 2, pl, 1, &tp, err, sizeof(err)) < 0);
	CHECK(tp == NULL && strstr(err, "2-cube") != NULL);
	pl[3].pos = pl[2].pos;
	CHECK(dqr_twophase_new(f, 4, pl, 1, &tp, err, sizeof(err)) < 0);
	CHECK(tp == NULL && strstr(err, "taken twice") != NULL);
	dqr_fabric_free(f);
	free(pl);
}

int main(void)
{
	check_intact("hypercube:3", 1);
	check_intact("hypercube:6", 1);
	check_intact("hypercube:6,lmc=2", 3);
	check_intact("hypercube:7,cas=2", 5);
	check_seed();
	check_faults("hypercube:6", 12, 0, 1);
	check_faults("hypercube:6", 0, 3, 2);
	check_faults("hypercube:7", 40, 2, 3);
	check_faults("hypercube:8", 60, 4, 4);
	check_errors();
	return unit_finish();
}
