/*
 * intermediate.c - the IN paper's routes through intermediate switches,
 * judged for one set of failed cables (the header says how).
 */
#include "routing/intermediate.h"

#include <stdlib.h>
#include <string.h>

#include "util/check.h"
#include "util/errmsg.h"
#include "util/mem.h"
#include "util/union_find.h"

#define IMED_MAX_NODES 2048
#define IMED_FAR UINT16_MAX

struct dqr_imed {
	const struct dqr_grid_links *gl;
	enum dqr_imed_segment seg;
	uint32_t n, words;
	uint16_t *dist;		/* [a * n + b], fault free */
	uint16_t *coord;	/* [node * ndims + d] */
	uint64_t *sound;	/* [s * words]: bit t, segment s..t is sound */
	uint32_t *comp;		/* per switch: its component's root */
	uint8_t *down;		/* per cable: failed */
	uint32_t *hop_cd;	/* one tree: each switch's directed cable */
	uint16_t *len[DQR_IMED_MAX + 1];	/* per switch, one column */
	uint8_t *via[DQR_IMED_MAX + 1];
};

static int has(const uint64_t *row, uint32_t t)
{
	return (row[t / 64] >> (t % 64)) & 1;
}

/* 1 when the ring walk from s to t (upwards when up) steps from x. */
static int ring_steps_from(unsigned k, int torus, unsigned s, unsigned t,
			   unsigned x, int up)
{
	if (!torus) {
		if (up)
			return s <= x && x < t;
		return t < x && x <= s;
	}
	if (up)
		return (x + k - s) % k < (t + k - s) % k;
	return (s + k - x) % k < (s + k - t) % k;
}

/* 1 when dimension order routing takes cable l from s to t. */
static int dor_takes(const struct dqr_imed *im, uint32_t s, uint32_t t,
		     uint32_t l)
{
	const struct dqr_grid_links *gl = im->gl;
	const uint16_t *cs = im->coord + (size_t)s * gl->ndims;
	const uint16_t *ct = im->coord + (size_t)t * gl->ndims;
	const uint16_t *ca = im->coord + (size_t)gl->low[l] * gl->ndims;
	unsigned d = gl->dim[l], j, k = gl->dims[d];
	unsigned upward;
	int up;

	for (j = 0; j < gl->ndims; j++) {
		if (j < d && ca[j] != ct[j])
			return 0;
		if (j > d && ca[j] != cs[j])
			return 0;
	}
	if (cs[d] == ct[d])
		return 0;
	upward = (ct[d] + k - cs[d]) % k;
	up = gl->torus ? upward <= k - upward : ct[d] > cs[d];
	/* going down, the cable is stepped from its upper end */
	return ring_steps_from(k, gl->torus, cs[d], ct[d],
			       up ? ca[d] : (ca[d] + 1) % k, up);
}

/* 1 when a minimal path from s to t takes cable l, either way. */
static int minimal_takes(const struct dqr_imed *im, uint32_t s, uint32_t t,
			 uint32_t l)
{
	const uint16_t *ds = im->dist + (size_t)s * im->n;
	const uint16_t *dt = im->dist + (size_t)t * im->n;
	uint32_t a = im->gl->low[l], b = im->gl->high[l];

	return ds[a] + 1 + dt[b] == ds[t] || ds[b] + 1 + dt[a] == ds[t];
}

/* Which segments the failed cables leave whole: im->sound. */
static void find_sound(struct dqr_imed *im, const uint32_t *failed,
		       unsigned nfailed)
{
	uint32_t s, t;
	unsigned i;

	memset(im->sound, 0, (size_t)im->n * im->words * sizeof(uint64_t));
	for (s = 0; s < im->n; s++) {
		uint64_t *row = im->sound + (size_t)s * im->words;

		for (t = 0; t < im->n; t++) {
			for (i = 0; i < nfailed; i++)
				if (im->seg == DQR_IMED_DOR ?
				    dor_takes(im, s, t, failed[i]) :
				    minimal_takes(im, s, t, failed[i]))
					break;
			if (i == nfailed)
				row[t / 64] |= 1ull << (t % 64);
		}
	}
}

/*
 * The switches the cables still join, im->comp: pairs cut apart need no
 * route and are not counted.
 */
static void find_components(struct dqr_imed *im, const uint32_t *failed,
			    unsigned nfailed)
{
	const struct dqr_grid_links *gl = im->gl;
	uint32_t l, v;
	unsigned i;

	for (v = 0; v < im->n; v++)
		im->comp[v] = v;
	memset(im->down, 0, gl->num_links);
	for (i = 0; i < nfailed; i++)
		im->down[failed[i]] = 1;
	for (l = 0; l < gl->num_links; l++)
		if (!im->down[l])
			im->comp[dqr_uf_root(im->comp, gl->low[l])] =
				dqr_uf_root(im->comp, gl->high[l]);
	for (v = 0; v < im->n; v++)
		im->comp[v] = dqr_uf_root(im->comp, v);
}

/*
 * The routes to d from every switch through at most m intermediates,
 * m = 0 .. max, in len[m] and via[m] (IMED_FAR: none).
 */
static void routes_to(struct dqr_imed *im, uint32_t d, unsigned max)
{
	uint32_t x, w;
	unsigned m;

	for (x = 0; x < im->n; x++) {
		const uint64_t *row = im->sound + (size_t)x * im->words;

		im->len[0][x] = has(row, d) ? im->dist[(size_t)x * im->n + d] :
			IMED_FAR;
		im->via[0][x] = 0;
	}
	for (m = 1; m <= max; m++) {
		const uint16_t *prev = im->len[m - 1];
		const uint8_t *pvia = im->via[m - 1];

		for (x = 0; x < im->n; x++) {
			const uint64_t *row = im->sound + (size_t)x * im->words;
			const uint16_t *dx = im->dist + (size_t)x * im->n;
			unsigned best = prev[x], bvia = pvia[x];

			/* shortest already, through the fewest: more
			 * intermediates cannot do better (most switches) */
			for (w = best == dx[d] ? im->words : 0; w < im->words;
			     w++) {
				uint64_t bits = row[w];

				while (bits) {
					uint32_t i = w * 64 +
						(uint32_t)__builtin_ctzll(bits);
					unsigned c;

					bits &= bits - 1;
					if (i == x || prev[i] == IMED_FAR)
						continue;
					c = dx[i] + prev[i];
					if (c < best || (c == best &&
					    pvia[i] + 1u < bvia)) {
						best = c;
						bvia = pvia[i] + 1u;
					}
				}
			}
			im->len[m][x] = (uint16_t)best;
			im->via[m][x] = (uint8_t)bvia;
		}
	}
}

int dqr_imed_judge(struct dqr_imed *im, const uint32_t *failed,
		   unsigned nfailed, unsigned max,
		   struct dqr_imed_verdict *v)
{
	uint32_t s, d;
	unsigned i, m;

	memset(v, 0, sizeof(*v));
	if (max > DQR_IMED_MAX)
		return -1;
	for (i = 0; i < nfailed; i++)
		if (failed[i] >= im->gl->num_links)
			return -1;
	find_sound(im, failed, nfailed);
	find_components(im, failed, nfailed);
	for (d = 0; d < im->n; d++) {
		int needed = 0;

		for (s = 0; s < im->n; s++) {
			if (s == d || im->comp[s] != im->comp[d])
				continue;
			v->pairs++;
			if (has(im->sound + (size_t)s * im->words, d)) {
				v->via[0]++;
				v->hops += im->dist[(size_t)s * im->n + d];
			} else {
				needed = 1;
			}
		}
		if (!needed)
			continue;
		routes_to(im, d, max);
		for (s = 0; s < im->n; s++) {
			if (s == d || im->comp[s] != im->comp[d] ||
			    has(im->sound + (size_t)s * im->words, d))
				continue;
			for (m = 0; m <= max; m++)
				if (im->len[m][s] == IMED_FAR)
					v->unrouted[m]++;
			if (im->len[max][s] == IMED_FAR)
				continue;
			v->via[im->via[max][s]]++;
			v->hops += im->len[max][s];
		}
	}
	return 0;
}

/* The switch after x on the dimension-order path to t (x != t). */
static uint32_t dor_next(const struct dqr_imed *im, uint32_t x, uint32_t t,
			 uint32_t *cable_dir)
{
	const struct dqr_grid_links *gl = im->gl;
	const uint16_t *cx = im->coord + (size_t)x * gl->ndims;
	const uint16_t *ct = im->coord + (size_t)t * gl->ndims;
	unsigned c[DQR_GEN_MAX_DIMS], d, j, k;
	int up;

	for (d = 0; d < gl->ndims && cx[d] == ct[d]; d++)
		;
	DQR_CHECK(d < gl->ndims);
	k = gl->dims[d];
	if (gl->torus) {
		unsigned upward = (ct[d] + k - cx[d]) % k;

		up = upward <= k - upward;
	} else {
		up = ct[d] > cx[d];
	}
	for (j = 0; j < gl->ndims; j++)
		c[j] = cx[j];
	c[d] = up ? (c[d] + 1) % k : (c[d] + k - 1) % k;
	t = dqr_grid_node(gl, c);
	*cable_dir = up ? 2 * (uint32_t)gl->up[x * gl->ndims + d] :
		2 * (uint32_t)gl->up[t * gl->ndims + d] + 1;
	return t;
}

/* The busiest cable on the tree's way from x through y to the root. */
static uint64_t bottleneck(const struct dqr_imed *im, const uint64_t *load,
			   const uint32_t *next, uint32_t cd, uint32_t y,
			   uint32_t d)
{
	uint64_t most = load[cd];

	for (; y != d; y = next[y]) {
		DQR_CHECK(next[y] != DQR_IMED_NONE);
		if (load[im->hop_cd[y]] > most)
			most = load[im->hop_cd[y]];
	}
	return most;
}

/*
 * x's hop in d's tree when its direct segment failed: the first hop of a
 * best route, the one whose way (on through the tree, whose switches
 * nearer d are placed) meets the least busy bottleneck.
 */
static void broken_hop(struct dqr_imed *im, uint32_t x, uint32_t d,
		       unsigned max, const uint64_t *load, uint32_t *next)
{
	const uint64_t *row = im->sound + (size_t)x * im->words;
	const uint16_t *dx = im->dist + (size_t)x * im->n;
	unsigned len = im->len[max][x], nvia = im->via[max][x];
	uint64_t best = UINT64_MAX, b;
	uint32_t w, cd, y;

	for (w = 0; w < im->words; w++) {
		uint64_t bits = row[w];

		while (bits) {
			uint32_t i = w * 64 + (uint32_t)__builtin_ctzll(bits);

			bits &= bits - 1;
			if (i == x || im->len[max - 1][i] == IMED_FAR ||
			    dx[i] + im->len[max - 1][i] != len ||
			    im->via[max - 1][i] + 1u != nvia)
				continue;
			y = dor_next(im, x, i, &cd);
			if (y == next[x])
				continue;
			b = load ? bottleneck(im, load, next, cd, y, d) : 0;
			if (next[x] == DQR_IMED_NONE || b < best) {
				best = b;
				next[x] = y;
				im->hop_cd[x] = cd;
			}
		}
	}
	DQR_CHECK(next[x] != DQR_IMED_NONE);
}

int dqr_imed_tree(struct dqr_imed *im, uint32_t d, unsigned max,
		  const uint64_t *load, uint32_t *next)
{
	unsigned len, longest = 0;
	uint32_t x;

	if (d >= im->n || max > DQR_IMED_MAX)
		return -1;
	routes_to(im, d, max);
	for (x = 0; x < im->n; x++) {
		next[x] = DQR_IMED_NONE;
		len = im->len[max][x];
		if (x == d || len == IMED_FAR)
			continue;
		if (has(im->sound + (size_t)x * im->words, d))
			next[x] = dor_next(im, x, d, &im->hop_cd[x]);
		else if (len > longest)
			longest = len;
	}
	/* nearer switches first: their way on is known when x chooses */
	for (len = 1; len <= longest; len++)
		for (x = 0; x < im->n; x++)
			if (x != d && next[x] == DQR_IMED_NONE &&
			    im->len[max][x] == len)
				broken_hop(im, x, d, max, load, next);
	return 0;
}

int dqr_imed_new(const struct dqr_grid_links *gl,
		 enum dqr_imed_segment seg, struct dqr_imed **out,
		 char *err, size_t errlen)
{
	struct dqr_imed *im;
	uint32_t a, b, n = gl->num_nodes;
	unsigned m, d, c[DQR_GEN_MAX_DIMS];
	int bad = 0;

	*out = NULL;
	if (n > IMED_MAX_NODES) {
		dqr_set_err(err, errlen, "%u switches: the model takes at "
			    "most %u", n, IMED_MAX_NODES);
		return -1;
	}
	im = calloc(1, sizeof(*im));
	if (!im)
		goto nomem;
	im->gl = gl;
	im->seg = seg;
	im->n = n;
	im->words = (n + 63) / 64;
	im->dist = calloc((size_t)n * n, sizeof(*im->dist));
	im->coord = calloc((size_t)n * gl->ndims, sizeof(*im->coord));
	im->sound = calloc((size_t)n * im->words, sizeof(*im->sound));
	im->comp = calloc(n, sizeof(*im->comp));
	im->down = calloc(gl->num_links + 1, sizeof(*im->down));
	im->hop_cd = calloc(n, sizeof(*im->hop_cd));
	bad = !im->dist || !im->coord || !im->sound || !im->comp ||
		!im->down || !im->hop_cd;
	for (m = 0; m <= DQR_IMED_MAX; m++) {
		im->len[m] = calloc(n, sizeof(*im->len[m]));
		im->via[m] = calloc(n, sizeof(*im->via[m]));
		bad |= !im->len[m] || !im->via[m];
	}
	if (bad)
		goto nomem;
	for (a = 0; a < n; a++) {
		dqr_grid_coords(gl, a, c);
		for (d = 0; d < gl->ndims; d++)
			im->coord[(size_t)a * gl->ndims + d] = (uint16_t)c[d];
		for (b = 0; b < n; b++)
			im->dist[(size_t)a * n + b] =
				(uint16_t)dqr_grid_dist(gl, a, b);
	}
	*out = im;
	return 0;
nomem:
	dqr_imed_free(im);
	dqr_set_err(err, errlen, "out of memory");
	return -1;
}

const struct dqr_grid_links *dqr_imed_grid(const struct dqr_imed *im)
{
	return im->gl;
}

void dqr_imed_free(struct dqr_imed *im)
{
	unsigned m;

	if (!im)
		return;
	for (m = 0; m <= DQR_IMED_MAX; m++)
		DQR_FREE_ALL(im->len[m], im->via[m]);
	DQR_FREE_ALL(im->dist, im->coord, im->sound, im->comp, im->down,
		     im->hop_cd, im);
}
