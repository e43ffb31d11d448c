/*
 * grid_symmetry.c - a grid's symmetries on its cables, and fault sets
 * one per class (orderly generation, as the header says).
 */
#include "shape/grid_symmetry.h"

#include <stdlib.h>
#include <string.h>

#include "util/check.h"
#include "util/errmsg.h"
#include "util/mem.h"

#define SYM_MAX_IMAGES (1u << 24)

struct sym_map {
	unsigned perm[DQR_GEN_MAX_DIMS];	/* d goes to perm[d] */
	unsigned reflect;			/* bit d: d runs backwards */
	unsigned shift[DQR_GEN_MAX_DIMS];	/* added after, in perm[d] */
};

static uint32_t map_node(const struct dqr_grid_links *gl,
			 const struct sym_map *m, uint32_t node)
{
	unsigned c[DQR_GEN_MAX_DIMS], img[DQR_GEN_MAX_DIMS];
	unsigned d;

	dqr_grid_coords(gl, node, c);
	for (d = 0; d < gl->ndims; d++) {
		unsigned k = gl->dims[d], x = c[d];

		if (m->reflect & (1u << d))
			x = gl->torus ? (k - x) % k : k - 1 - x;
		img[m->perm[d]] = (x + m->shift[m->perm[d]]) % k;
	}
	return dqr_grid_node(gl, img);
}

static uint32_t map_link(const struct dqr_grid_links *gl,
			 const struct sym_map *m, uint32_t l)
{
	uint32_t a = map_node(gl, m, gl->low[l]);
	uint32_t b = map_node(gl, m, gl->high[l]);
	int down;
	int32_t c = dqr_grid_cable(gl, a, b, &down);

	DQR_CHECK(c >= 0 && gl->dim[c] == m->perm[gl->dim[l]]);
	return (uint32_t)c;
}

/* Every permutation of ndims dimensions, as perm[] rows; their count. */
static unsigned permutations(unsigned ndims, unsigned perms[6][3])
{
	static const unsigned all[6][3] = {
		{ 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 },
		{ 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 },
	};
	unsigned i, n = 0, d;

	for (i = 0; i < 6; i++) {
		int fits = 1;

		for (d = 0; d < ndims; d++)
			if (all[i][d] >= ndims)
				fits = 0;
		for (d = ndims; d < 3; d++)
			if (all[i][d] != d)
				fits = 0;
		if (fits)
			memcpy(perms[n++], all[i], sizeof(all[i]));
	}
	return n;
}

static int perm_allowed(const struct dqr_grid_links *gl,
			const unsigned *perm, unsigned flags)
{
	unsigned d;

	for (d = 0; d < gl->ndims; d++) {
		if (perm[d] == d)
			continue;
		if (!(flags & DQR_SYM_SWAP_DIMS) ||
		    gl->dims[perm[d]] != gl->dims[d])
			return 0;
	}
	return 1;
}

/* Fills s->map; the maps are counted with multiplicity, which is even. */
static int fill_maps(const struct dqr_grid_links *gl, unsigned flags,
		     struct dqr_grid_symmetry *s, char *err, size_t errlen)
{
	unsigned perms[6][3], np = permutations(gl->ndims, perms);
	unsigned reflections = (flags & DQR_SYM_REFLECT) ?
		1u << gl->ndims : 1;
	uint32_t shifts = (gl->torus && (flags & DQR_SYM_TRANSLATE)) ?
		gl->num_nodes : 1;
	unsigned p, r, d;
	uint32_t t, g = 0, l;
	uint64_t count = 0;

	for (p = 0; p < np; p++)
		if (perm_allowed(gl, perms[p], flags))
			count += (uint64_t)reflections * shifts;
	if (count * gl->num_links > SYM_MAX_IMAGES) {
		dqr_set_err(err, errlen, "%llu symmetries of %u cables: too "
			    "many", (unsigned long long)count, gl->num_links);
		return -1;
	}
	s->num_maps = (uint32_t)count;
	s->map = calloc(count * gl->num_links + 1, sizeof(*s->map));
	if (!s->map) {
		dqr_set_err(err, errlen, "out of memory");
		return -1;
	}
	for (p = 0; p < np; p++) {
		if (!perm_allowed(gl, perms[p], flags))
			continue;
		for (r = 0; r < reflections; r++) {
			for (t = 0; t < shifts; t++) {
				struct sym_map m = { .reflect = r };

				memcpy(m.perm, perms[p], sizeof(m.perm));
				dqr_grid_coords(gl, t, m.shift);
				for (d = gl->ndims; d < 3; d++)
					m.shift[d] = 0;
				for (l = 0; l < gl->num_links; l++)
					s->map[(uint64_t)g * gl->num_links +
					       l] = map_link(gl, &m, l);
				g++;
			}
		}
	}
	return 0;
}

/*
 * Each cable's orbit's least cable, and per cable the maps that take it
 * there: the only ones that can make a set's image start lower.  -1 when
 * out of memory.
 */
static int fill_orbits(struct dqr_grid_symmetry *s)
{
	uint32_t n = s->num_links, g, l, at;
	uint32_t *fill;

	s->rep = calloc(n + 1, sizeof(*s->rep));
	s->to_rep_first = calloc(n + 1, sizeof(*s->to_rep_first));
	fill = calloc(n + 1, sizeof(*fill));
	if (!s->rep || !s->to_rep_first || !fill) {
		free(fill);
		return -1;
	}
	for (l = 0; l < n; l++)
		s->rep[l] = l;
	for (g = 0; g < s->num_maps; g++)
		for (l = 0; l < n; l++) {
			uint32_t img = s->map[(uint64_t)g * n + l];

			if (img < s->rep[l])
				s->rep[l] = img;
		}
	for (g = 0; g < s->num_maps; g++)
		for (l = 0; l < n; l++)
			if (s->map[(uint64_t)g * n + l] == s->rep[l])
				s->to_rep_first[l + 1]++;
	for (l = 0; l < n; l++)
		s->to_rep_first[l + 1] += s->to_rep_first[l];
	s->to_rep = calloc(s->to_rep_first[n] + 1, sizeof(*s->to_rep));
	if (!s->to_rep) {
		free(fill);
		return -1;
	}
	for (g = 0; g < s->num_maps; g++)
		for (l = 0; l < n; l++)
			if (s->map[(uint64_t)g * n + l] == s->rep[l]) {
				at = s->to_rep_first[l] + fill[l]++;
				s->to_rep[at] = g;
			}
	free(fill);
	return 0;
}

int dqr_grid_symmetry_new(const struct dqr_grid_links *gl, unsigned flags,
			  struct dqr_grid_symmetry **out, char *err,
			  size_t errlen)
{
	struct dqr_grid_symmetry *s = calloc(1, sizeof(*s));

	*out = NULL;
	if (!s) {
		dqr_set_err(err, errlen, "out of memory");
		return -1;
	}
	s->num_links = gl->num_links;
	if (fill_maps(gl, flags, s, err, errlen) < 0) {
		dqr_grid_symmetry_free(s);
		return -1;
	}
	if (fill_orbits(s) < 0) {
		dqr_grid_symmetry_free(s);
		dqr_set_err(err, errlen, "out of memory");
		return -1;
	}
	*out = s;
	return 0;
}

void dqr_grid_symmetry_free(struct dqr_grid_symmetry *s)
{
	if (!s)
		return;
	DQR_FREE_ALL(s->map, s->rep, s->to_rep_first, s->to_rep, s);
}

/* -1, 0 or 1 as a is below, equal to or above b (sorted k-tuples). */
static int tuple_cmp(const uint32_t *a, const uint32_t *b, unsigned k)
{
	unsigned i;

	for (i = 0; i < k; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/*
 * 0 when set is the least of its images, with *stab the maps that fix
 * it; 1 when an image is smaller.
 */
static int is_least(const struct dqr_grid_symmetry *s, const uint32_t *set,
		    unsigned k, uint64_t *stab)
{
	uint32_t img[DQR_FAULT_SET_MAX];
	unsigned i, j, m;
	uint32_t x;

	*stab = 0;
	for (i = 0; i < k; i++) {
		if (s->rep[set[i]] != set[0])
			continue;
		for (x = s->to_rep_first[set[i]];
		     x < s->to_rep_first[set[i] + 1]; x++) {
			const uint32_t *row = s->map +
				(uint64_t)s->to_rep[x] * s->num_links;
			int c;

			for (j = 0; j < k; j++) {
				uint32_t v = row[set[j]];

				for (m = j; m > 0 && img[m - 1] > v; m--)
					img[m] = img[m - 1];
				img[m] = v;
			}
			c = tuple_cmp(img, set, k);
			if (c < 0)
				return 1;
			if (c == 0)
				(*stab)++;
		}
	}
	DQR_CHECK(*stab > 0);
	return 0;
}

struct class_walk {
	const struct dqr_grid_symmetry *s;
	unsigned k;
	uint32_t set[DQR_FAULT_SET_MAX];
	dqr_fault_class_fn visit;
	void *arg;
};

/*
 * Completes w->set[0 .. have) to k cables in increasing order, none from
 * an orbit whose least cable lies below the first, and visits those that
 * are their class's representative.
 */
static int extend(struct class_walk *w, unsigned have)
{
	const struct dqr_grid_symmetry *s = w->s;
	uint32_t c;
	uint64_t stab;
	int rc;

	if (have == w->k) {
		if (is_least(s, w->set, w->k, &stab))
			return 0;
		return w->visit(w->set, w->k, s->num_maps / stab, w->arg);
	}
	for (c = w->set[have - 1] + 1; c + (w->k - have) <= s->num_links;
	     c++) {
		if (s->rep[c] < w->set[0])
			continue;
		w->set[have] = c;
		rc = extend(w, have + 1);
		if (rc)
			return rc;
	}
	return 0;
}

int dqr_fault_classes(const struct dqr_grid_symmetry *s, unsigned k,
		      dqr_fault_class_fn visit, void *arg)
{
	struct class_walk w = { .s = s, .k = k, .visit = visit, .arg = arg };
	uint32_t first;
	int rc;

	if (k < 1 || k > DQR_FAULT_SET_MAX || k > s->num_links)
		return 0;
	for (first = 0; first < s->num_links; first++) {
		if (s->rep[first] != first)
			continue;
		w.set[0] = first;
		rc = extend(&w, 1);
		if (rc)
			return rc;
	}
	return 0;
}

uint64_t dqr_choose(uint64_t n, unsigned k)
{
	uint64_t r = 1;
	unsigned i;

	if (k > n)
		return 0;
	for (i = 1; i <= k; i++) {
		if (r > UINT64_MAX / (n - k + i))
			return UINT64_MAX;
		r = r * (n - k + i) / i;
	}
	return r;
}
