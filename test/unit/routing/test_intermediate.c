/*
 * test_intermediate.c - the IN paper's model (routing/intermediate.h)
 * and the fault sets up to symmetry that feed it
 * (shape/grid_symmetry.h): the grids' cables and distances; every class
 * walk counts each set once (members summed to n choose k) and judges
 * alike sets alike (its weighted totals equal those of every set judged
 * one by one); the model's dimension-order segments are the paths of
 * lib's dimension-order tables; the model reproduces the paper's Tables
 * 1 and 2 where they are exhaustive and small, and its hand cases; the
 * tables of its routes deliver every pair the cables join, change only
 * the entries whose dimension-order path failed, and fit LASH's layers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"
#include "routes/route_load.h"
#include "routing/intermediate.h"
#include "routing/lash_vlayers.h"
#include "routing/ref_routing.h"
#include "shape/grid_links.h"
#include "shape/grid_symmetry.h"
#include "unit.h"

static struct dqr_grid_links *grid(const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_grid_links *gl = NULL;
	char err[128];

	CHECK_EQ(dqr_gen_parse(spec, &s, err, sizeof(err)), 0);
	CHECK_EQ(dqr_grid_links_new(&s, &gl, err, sizeof(err)), 0);
	return gl;
}

struct totals {
	struct dqr_imed *im;
	unsigned max;
	uint64_t sets, classes;
	uint64_t lost[DQR_IMED_MAX + 1];
	uint64_t via[DQR_IMED_MAX + 1], hops, pairs;
};

static void add(struct totals *t, const struct dqr_imed_verdict *v,
		uint64_t members)
{
	unsigned m;

	t->sets += members;
	t->classes++;
	for (m = 0; m <= t->max; m++) {
		t->lost[m] += v->unrouted[m] ? members : 0;
		t->via[m] += v->via[m] * members;
	}
	t->hops += v->hops * members;
	t->pairs += v->pairs * members;
}

static int judge_class(const uint32_t *set, unsigned k, uint64_t members,
		       void *arg)
{
	struct totals *t = arg;
	struct dqr_imed_verdict v;

	CHECK_EQ(dqr_imed_judge(t->im, set, k, t->max, &v), 0);
	add(t, &v, members);
	return 0;
}

/* Every set of k cables of n, one by one (lexicographic order). */
static void every_set(struct totals *t, uint32_t n, unsigned k)
{
	uint32_t set[DQR_FAULT_SET_MAX];
	struct dqr_imed_verdict v;
	unsigned i;
	int j;

	for (i = 0; i < k; i++)
		set[i] = i;
	for (;;) {
		CHECK_EQ(dqr_imed_judge(t->im, set, k, t->max, &v), 0);
		add(t, &v, 1);
		for (j = (int)k - 1; j >= 0 && set[j] == n - k + (unsigned)j;
		     j--)
			;
		if (j < 0)
			return;
		set[j]++;
		for (i = (unsigned)j + 1; i < k; i++)
			set[i] = set[i - 1] + 1;
	}
}

/* Classes under flags against every set, k = 1 .. kmax. */
static void classes_match_sets(const char *spec, unsigned flags,
			       enum dqr_imed_segment seg, unsigned kmax)
{
	struct dqr_grid_links *gl = grid(spec);
	struct dqr_grid_symmetry *sym = NULL;
	struct totals a, b;
	char err[128];
	unsigned k, m;

	CHECK_EQ(dqr_grid_symmetry_new(gl, flags, &sym, err, sizeof(err)),
		 0);
	memset(&a, 0, sizeof(a));
	CHECK_EQ(dqr_imed_new(gl, seg, &a.im, err, sizeof(err)), 0);
	a.max = 3;
	for (k = 1; k <= kmax; k++) {
		struct dqr_imed *im = a.im;

		memset(&a, 0, sizeof(a));
		a.im = im;
		a.max = 3;
		b = a;
		CHECK_EQ(dqr_fault_classes(sym, k, judge_class, &a), 0);
		every_set(&b, gl->num_links, k);
		CHECK_EQ(a.sets, dqr_choose(gl->num_links, k));
		CHECK_EQ(b.sets, a.sets);
		CHECK(a.classes <= b.classes);
		for (m = 0; m <= 3; m++) {
			CHECK_EQ(a.lost[m], b.lost[m]);
			CHECK_EQ(a.via[m], b.via[m]);
		}
		CHECK_EQ(a.hops, b.hops);
		CHECK_EQ(a.pairs, b.pairs);
		printf("%s flags %u %s k=%u: %llu sets in %llu classes\n",
		       spec, flags, seg == DQR_IMED_DOR ? "dor" : "minimal",
		       k, (unsigned long long)a.sets,
		       (unsigned long long)a.classes);
	}
	dqr_imed_free(a.im);
	dqr_grid_symmetry_free(sym);
	dqr_grid_links_free(gl);
}

static void test_links(void)
{
	struct dqr_grid_links *gl = grid("torus:3x3x3");
	struct dqr_gen_spec s;
	unsigned c[3] = { 2, 0, 1 };
	char err[128];
	uint32_t node = dqr_grid_node(gl, c), l;

	CHECK_EQ(gl->num_nodes, 27);
	CHECK_EQ(gl->num_links, 81);
	CHECK_EQ(node, 2 + 3 * (0 + 3 * 1));
	CHECK_EQ(dqr_grid_dist(gl, 0, node), 2);	/* 2 is 1 away round */
	for (l = 0; l < gl->num_links; l++)
		CHECK_EQ(dqr_grid_dist(gl, gl->low[l], gl->high[l]), 1);
	dqr_grid_links_free(gl);
	gl = grid("mesh:3x3x3");
	CHECK_EQ(gl->num_links, 54);
	CHECK_EQ(dqr_grid_dist(gl, 0, 26), 6);
	dqr_grid_links_free(gl);
	gl = grid("torus:3x3");
	CHECK_EQ(gl->num_links, 18);
	dqr_grid_links_free(gl);
	/* a ring of 2 cables one pair twice */
	CHECK_EQ(dqr_gen_parse("torus:2x3", &s, err, sizeof(err)), 0);
	gl = (struct dqr_grid_links *)1;
	CHECK_EQ(dqr_grid_links_new(&s, &gl, err, sizeof(err)), -1);
	CHECK(gl == NULL && strstr(err, "ring") != NULL);
	CHECK_EQ(dqr_gen_parse("kary:2,2", &s, err, sizeof(err)), 0);
	CHECK_EQ(dqr_grid_links_new(&s, &gl, err, sizeof(err)), -1);
}

/* The share of sets of k cables not tolerated through at most m. */
static double lost_pct(const char *spec, enum dqr_imed_segment seg,
		       unsigned k, unsigned max, unsigned m)
{
	struct dqr_grid_links *gl = grid(spec);
	struct dqr_grid_symmetry *sym = NULL;
	struct totals t;
	char err[128];

	memset(&t, 0, sizeof(t));
	t.max = max;
	CHECK_EQ(dqr_grid_symmetry_new(gl, DQR_SYM_ALL, &sym, err,
				       sizeof(err)), 0);
	CHECK_EQ(dqr_imed_new(gl, seg, &t.im, err, sizeof(err)), 0);
	CHECK_EQ(dqr_fault_classes(sym, k, judge_class, &t), 0);
	dqr_imed_free(t.im);
	dqr_grid_symmetry_free(sym);
	dqr_grid_links_free(gl);
	return 100.0 * (double)t.lost[m] / (double)t.sets;
}

/* within the paper's rounding to two decimals */
#define CHECK_PAPER(got, paper) CHECK((got) > (paper) - 0.0051 && \
				      (got) < (paper) + 0.0051)

static void test_paper_tables(void)
{
	/* Table 1, 3x3x3 torus: I x 1 */
	CHECK_PAPER(lost_pct("torus:3x3x3", DQR_IMED_MINIMAL, 1, 3, 1), 0);
	CHECK_PAPER(lost_pct("torus:3x3x3", DQR_IMED_MINIMAL, 2, 3, 1), 2.50);
	CHECK_PAPER(lost_pct("torus:3x3x3", DQR_IMED_MINIMAL, 3, 3, 1), 7.44);
	CHECK_PAPER(lost_pct("torus:3x3x3", DQR_IMED_MINIMAL, 3, 3, 2), 0);
	/* Table 2, 3x3 torus: I x 1, I x 2, I x 3 */
	CHECK_PAPER(lost_pct("torus:3x3", DQR_IMED_MINIMAL, 2, 3, 1), 11.76);
	CHECK_PAPER(lost_pct("torus:3x3", DQR_IMED_MINIMAL, 4, 3, 2), 1.18);
	CHECK_PAPER(lost_pct("torus:3x3", DQR_IMED_MINIMAL, 5, 3, 2), 10.71);
	CHECK_PAPER(lost_pct("torus:3x3", DQR_IMED_MINIMAL, 6, 3, 2), 40.24);
	CHECK_PAPER(lost_pct("torus:3x3", DQR_IMED_MINIMAL, 6, 3, 3), 2.33);
	/* Table 2, 3x3x3 mesh: one fault needs two intermediates */
	CHECK_PAPER(lost_pct("mesh:3x3x3", DQR_IMED_MINIMAL, 1, 2, 1), 100);
	CHECK_PAPER(lost_pct("mesh:3x3x3", DQR_IMED_MINIMAL, 2, 2, 2), 0);
	CHECK_PAPER(lost_pct("mesh:3x3x3", DQR_IMED_MINIMAL, 3, 2, 2), 0.97);
	/* dimension order's one path is easier to keep whole */
	CHECK_EQ(lost_pct("torus:3x3x3", DQR_IMED_DOR, 3, 1, 1), 0);
}

/* A line of three cut in the middle: the far pair is not counted. */
static void test_hand_cases(void)
{
	struct dqr_grid_links *gl = grid("mesh:3");
	struct dqr_imed *im = NULL;
	struct dqr_imed_verdict v;
	uint32_t cut = 1, bad = 2;
	char err[128];

	CHECK_EQ(gl->num_links, 2);
	CHECK_EQ(dqr_imed_new(gl, DQR_IMED_DOR, &im, err, sizeof(err)), 0);
	CHECK_EQ(dqr_imed_judge(im, &cut, 1, 3, &v), 0);
	CHECK_EQ(v.pairs, 2);
	CHECK_EQ(v.unrouted[3], 0);
	CHECK_EQ(v.via[0], 2);
	CHECK_EQ(v.hops, 2);
	CHECK_EQ(dqr_imed_judge(im, &bad, 1, 3, &v), -1);
	CHECK_EQ(dqr_imed_judge(im, &cut, 1, DQR_IMED_MAX + 1, &v), -1);
	dqr_imed_free(im);
	dqr_grid_links_free(gl);

	/* a ring of 5, one cable down: the pair across it goes round,
	 * 4 hops, through an intermediate (0 -> 2 -> 4 for 0 .. 4) */
	gl = grid("torus:5");
	CHECK_EQ(dqr_imed_new(gl, DQR_IMED_DOR, &im, err, sizeof(err)), 0);
	cut = 4;	/* 4 - 0 */
	CHECK_EQ(dqr_imed_judge(im, &cut, 1, 1, &v), 0);
	CHECK_EQ(v.pairs, 20);
	/* 0-4 both ways, 0-3 and 1-4 both ways cross it */
	CHECK_EQ(v.unrouted[0], 6);
	CHECK_EQ(v.unrouted[1], 0);
	CHECK_EQ(v.via[1], 6);
	dqr_imed_free(im);
	dqr_grid_links_free(gl);
}

/*
 * The switch pairs whose route in lib's dor-wrap tables of spec crosses
 * cable l of gl (generated with the model's numbering: pos is the node,
 * port 2d + 1 leaves it upwards in d) must be those whose direct segment
 * the model finds unsound with l failed, for every l.
 */
static void test_dor_is_the_tables(const char *spec)
{
	struct dqr_grid_links *gl = grid(spec);
	struct dqr_gen_spec gs;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f;
	struct dqr_lfts *t = NULL;
	struct dqr_imed *im = NULL;
	struct dqr_imed_verdict v;
	uint32_t *sw_of, l, s, d, x, hops, wrong = 0;
	char err[128];

	CHECK_EQ(dqr_gen_parse(spec, &gs, err, sizeof(err)), 0);
	f = dqr_gen_build_places(&gs, &pl, err, sizeof(err));
	CHECK(f != NULL);
	CHECK_EQ(dqr_ref_route(f, &gs, pl, DQR_REF_DOR_WRAP, &t, err,
			       sizeof(err)), 0);
	CHECK_EQ(dqr_imed_new(gl, DQR_IMED_DOR, &im, err, sizeof(err)), 0);
	sw_of = calloc(gl->num_nodes, sizeof(*sw_of));
	for (s = 0; s < f->num_switches; s++)
		sw_of[pl[s].pos] = s;
	for (l = 0; l < gl->num_links; l++) {
		uint32_t a = sw_of[gl->low[l]], b = sw_of[gl->high[l]];
		uint64_t crossing = 0;

		for (s = 0; s < f->num_switches; s++)
			for (d = 0; d < f->num_switches; d++) {
				unsigned lid = dqr_switch_lid(f, d);
				int crossed = 0;

				for (x = s, hops = 0; x != d && hops < 64;
				     hops++) {
					uint8_t p = dqr_lft_get(t, x, lid);
					uint32_t y = dqr_peer_switch(f,
						dqr_port_index(f,
							f->switches[x], p));

					crossed |= (x == a && y == b) ||
						   (x == b && y == a);
					x = y;
				}
				wrong += x != d;
				crossing += crossed;
			}
		CHECK_EQ(dqr_imed_judge(im, &l, 1, 0, &v), 0);
		CHECK_EQ(v.unrouted[0], crossing);
	}
	CHECK_EQ(wrong, 0);
	printf("%s: dimension order's segments are the tables' routes, "
	       "%u cables\n", spec, gl->num_links);
	free(sw_of);
	dqr_imed_free(im);
	dqr_lfts_free(t);
	free(pl);
	dqr_fabric_free(f);
	dqr_grid_links_free(gl);
}

/* The walk from switch s to LID lid in t: its hops, or -1 (loop, hole). */
static int walk(const struct dqr_fabric *f, const struct dqr_lfts *t,
		uint32_t s, unsigned lid, uint32_t dst)
{
	uint32_t x = s;
	int hops = 0;

	while (x != dst && hops <= (int)f->num_switches) {
		uint8_t p = dqr_lft_get(t, x, lid);

		if (p == DQR_NO_PATH || p == 0)
			return -1;
		x = dqr_peer_switch(f, dqr_port_index(f, f->switches[x], p));
		if (x == DQR_NONE)
			return -1;
		hops++;
	}
	return x == dst ? hops : -1;
}

static void test_tables(const char *spec, const uint32_t *cut, unsigned n,
			unsigned max)
{
	struct dqr_grid_links *gl = grid(spec);
	struct dqr_gen_spec gs;
	struct dqr_gen_place *pl = NULL;
	struct dqr_fabric *f0, *f;
	struct dqr_lfts *dor = NULL, *t = NULL;
	struct dqr_imed *im = NULL;
	struct dqr_imed_verdict v;
	struct dqr_route_load ld;
	uint32_t s, d, changed = 0, broken = 0, kept_moved = 0, sw_low;
	uint8_t *sl;
	unsigned i, layers = 0;
	char err[128];

	CHECK_EQ(dqr_gen_parse(spec, &gs, err, sizeof(err)), 0);
	f0 = dqr_gen_build_places(&gs, &pl, err, sizeof(err));
	CHECK_EQ(dqr_ref_route(f0, &gs, pl, DQR_REF_DOR_WRAP, &dor, err,
			       sizeof(err)), 0);
	f = dqr_fabric_clone(f0);
	for (i = 0; i < n; i++) {
		for (sw_low = 0; pl[sw_low].pos != gl->low[cut[i]]; sw_low++)
			;
		dqr_fabric_unlink_port(f, dqr_port_index(f,
				f->switches[sw_low], 2 * gl->dim[cut[i]] + 1));
	}
	CHECK_EQ(dqr_imed_new(gl, DQR_IMED_DOR, &im, err, sizeof(err)), 0);
	CHECK_EQ(dqr_imed_judge(im, cut, n, max, &v), 0);
	CHECK_EQ(v.unrouted[max], 0);
	CHECK_EQ(dqr_imed_tables(im, f, pl, max, &t, err, sizeof(err)), 0);
	CHECK_EQ(dqr_route_load(f, t, &ld, NULL), 0);
	CHECK_EQ(ld.unrouted, 0);
	for (s = 0; s < f->num_switches; s++)
		for (d = 0; d < f->num_switches; d++) {
			unsigned lid = dqr_switch_lid(f, d);
			int was = walk(f, dor, s, lid, d);
			int now = walk(f, t, s, lid, d);

			int differs = dqr_lft_get(t, s, lid) !=
				      dqr_lft_get(dor, s, lid);

			changed += differs;
			broken += s != d && was < 0;
			CHECK(now >= 0);
			/* where dimension order still arrives, nothing
			 * changes */
			kept_moved += was >= 0 && differs;
		}
	CHECK(changed >= 1 && broken >= changed);
	CHECK_EQ(kept_moved, 0);
	sl = calloc((size_t)f->num_switches * f->num_switches, 1);
	CHECK_EQ(dqr_lash_vlayers(f, t, 8, sl, &layers, err, sizeof(err)), 0);
	CHECK(layers >= 1 && layers <= 8);
	printf("%s, %u cables cut: %u entries changed for %u broken routes, "
	       "max load %llu, %u LASH layers\n", spec, n, changed, broken,
	       (unsigned long long)ld.max, layers);
	free(sl);
	dqr_lfts_free(t);
	dqr_lfts_free(dor);
	dqr_imed_free(im);
	dqr_fabric_free(f);
	dqr_fabric_free(f0);
	free(pl);
	dqr_grid_links_free(gl);
}

int main(void)
{
	static const uint32_t cut3[] = { 0, 7, 40 };
	static const uint32_t cut6[] = { 1, 2, 3, 4, 5, 6 };

	test_tables("torus:4x4x3", cut3, 3, 2);
	test_tables("torus:3x3x3", cut6, 6, 3);
	test_tables("mesh:4x3x2", cut3, 3, 3);
	test_dor_is_the_tables("torus:4x3");
	test_dor_is_the_tables("torus:4x4x3");
	test_dor_is_the_tables("mesh:4x3x2");
	test_links();
	test_hand_cases();
	classes_match_sets("torus:3x3", DQR_SYM_ALL, DQR_IMED_MINIMAL, 4);
	classes_match_sets("torus:3x3", DQR_SYM_TRANSLATE | DQR_SYM_REFLECT,
			   DQR_IMED_DOR, 3);
	classes_match_sets("torus:4x3", DQR_SYM_TRANSLATE, DQR_IMED_DOR, 3);
	classes_match_sets("mesh:3x3", DQR_SYM_ALL, DQR_IMED_MINIMAL, 4);
	classes_match_sets("mesh:4x3", DQR_SYM_REFLECT, DQR_IMED_DOR, 3);
	classes_match_sets("torus:3x3x3", DQR_SYM_ALL, DQR_IMED_MINIMAL, 2);
	test_paper_tables();
	return unit_finish();
}
