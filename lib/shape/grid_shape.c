/*
 * grid_shape.c - meshes, tori and hypercubes from the switch graph (how
 * and why in grid_shape.h).
 *
 * A switch's place is one number, its slot: x + X*(y + Y*(z ...)) over
 * the dimensions found, so one table of slots says which coordinates are
 * taken.  Up to FIND_DIMS dimensions are found (a hypercube has one per
 * bit); pairs of size 2 fold back into rings of 4 where there are more
 * than 3, and more than 3 left are refused afterwards.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shape/grid_shape.h"
#include "util/errmsg.h"
#include "util/mem.h"

#define FIND_DIMS 16
#define MAX_SEEDS 64
#define MAX_SLOTS (1u << 24)

/* The switch graph: distinct switch neighbours, CSR, first cable's port. */
struct sgraph {
	uint32_t ns;
	uint32_t *off, *nbr;
	uint8_t *port;
	uint32_t edges;
};

/* One attempt from one seed. */
struct find {
	const struct dqr_fabric *f;	/* for the names in messages */
	const struct sgraph *g;
	unsigned nd;
	uint32_t size[FIND_DIMS], stride[FIND_DIMS];
	uint8_t wrap[FIND_DIMS];
	uint32_t nslots;
	uint32_t *slot;		/* per switch, DQR_NONE while unplaced */
	uint32_t *owner;	/* per slot, DQR_NONE when free */
	uint32_t *queue;
};

static const char *sw_name(const struct find *fd, uint32_t sw)
{
	return dqr_node_name(fd->f, fd->f->switches[sw]);
}

static void sgraph_free(struct sgraph *g)
{
	DQR_FREE_ALL(g->off, g->nbr, g->port);
}

static int adjacent(const struct sgraph *g, uint32_t a, uint32_t b)
{
	uint32_t e;

	for (e = g->off[a]; e < g->off[a + 1]; e++)
		if (g->nbr[e] == b)
			return 1;
	return 0;
}

/* Whether a and b share a neighbour other than v (a square a-v-b-x). */
static int square(const struct sgraph *g, uint32_t a, uint32_t b, uint32_t v)
{
	uint32_t e, x;

	for (e = g->off[a]; e < g->off[a + 1]; e++) {
		x = g->nbr[e];
		if (x != v && x != b && adjacent(g, x, b))
			return 1;
	}
	return 0;
}

/*
 * a and b, both neighbours of v, lie in one dimension through v: cabled
 * to each other (a ring of 3) or spanning no square with v.
 */
static int same_dim(const struct sgraph *g, uint32_t v, uint32_t a,
		    uint32_t b)
{
	return adjacent(g, a, b) || !square(g, a, b, v);
}

/*
 * b continues straight on from a through v, with evidence: in one
 * dimension, and b spans a square with every other neighbour of v.  A
 * turn whose square a missing cable broke fails this: it lies in one
 * dimension with the turn's opposite side, or with a third neighbour.
 */
static int strong_straight(const struct sgraph *g, uint32_t v, uint32_t a,
			   uint32_t b)
{
	uint32_t e, x;

	if (!same_dim(g, v, a, b))
		return 0;
	for (e = g->off[v]; e < g->off[v + 1]; e++) {
		x = g->nbr[e];
		if (x != a && x != b && same_dim(g, v, b, x))
			return 0;
	}
	return 1;
}

/*
 * The switch graph of f: each switch's distinct switch neighbours (a
 * parallel cable counts once, by its first port), as CSR.  A switch with
 * more neighbours than FIND_DIMS dimensions allow is refused here, so that
 * no fabric far from a grid pays for the search.  0, or -1 with a message.
 */
static int sgraph_build(const struct dqr_fabric *f, struct sgraph *g,
			char *err, size_t errlen)
{
	uint32_t sw, node, peer, n = 0, e;
	unsigned pn;

	memset(g, 0, sizeof(*g));
	g->ns = f->num_switches;
	g->off = calloc((size_t)g->ns + 1, sizeof(*g->off));
	for (sw = 0; g->off && sw < g->ns; sw++) {
		node = f->switches[sw];
		dqr_for_each_linked_port(f, node, pn)
			n++;
	}
	g->nbr = malloc(sizeof(*g->nbr) * (n + 1));
	g->port = malloc(n + 1);
	if (!g->off || !g->nbr || !g->port) {
		dqr_set_err(err, errlen, "out of memory");
		return -1;
	}
	n = 0;
	for (sw = 0; sw < g->ns; sw++) {
		node = f->switches[sw];
		g->off[sw] = n;
		dqr_for_each_linked_port(f, node, pn) {
			peer = dqr_peer_switch(f, dqr_port_index(f, node, pn));
			if (peer == DQR_NONE || peer == sw)
				continue;
			for (e = g->off[sw]; e < n && g->nbr[e] != peer; e++)
				;
			if (e < n)
				continue;	/* a parallel cable */
			g->nbr[n] = peer;
			g->port[n++] = (uint8_t)pn;
		}
		if (n - g->off[sw] > FIND_DIMS * 2) {
			dqr_set_err(err, errlen, "switch \"%s\" has %u switch "
				    "neighbours, more than a grid's",
				    dqr_node_name(f, node), n - g->off[sw]);
			return -1;
		}
	}
	g->off[g->ns] = n;
	g->edges = n / 2;
	return 0;
}

/* Every switch reaches every other (scratch: ns entries each). */
static int connected(const struct sgraph *g, uint32_t *mark, uint32_t *queue)
{
	uint32_t head = 0, tail = 0, v, e;

	memset(mark, 0, sizeof(*mark) * g->ns);
	mark[0] = 1;
	queue[tail++] = 0;
	while (head < tail) {
		v = queue[head++];
		for (e = g->off[v]; e < g->off[v + 1]; e++)
			if (!mark[g->nbr[e]]) {
				mark[g->nbr[e]] = 1;
				queue[tail++] = g->nbr[e];
			}
	}
	return tail == g->ns;
}

/* ------------------------------------------------------------ the seed */

/*
 * Walks straight on from s through a.  Returns the steps taken to the end
 * of the line, or with *ring set the size of the ring that led back to
 * s; -1 when the line branches or runs on past every switch.
 */
static long walk(const struct sgraph *g, uint32_t s, uint32_t a, int *ring)
{
	uint32_t prev = s, cur = a, next, w, e;
	unsigned cands, strong;
	long len = 1;

	*ring = 0;
	for (;;) {
		next = DQR_NONE;
		cands = strong = 0;
		for (e = g->off[cur]; e < g->off[cur + 1]; e++) {
			w = g->nbr[e];
			if (w == prev || !same_dim(g, cur, prev, w))
				continue;
			cands++;
			/* a ring closing wins over a broken square */
			if (w == s) {
				next = s;
				strong = 1;
				break;
			}
			if (strong_straight(g, cur, prev, w)) {
				strong++;
				next = w;
			} else if (!strong) {
				next = w;
			}
		}
		/* several candidates: only one with evidence will do */
		if (cands > 1 && strong != 1)
			return -1;
		if (next == DQR_NONE)
			return len;
		if (next == s) {
			*ring = 1;
			return len + 1;
		}
		if (++len > (long)g->ns)
			return -1;
		prev = cur;
		cur = next;
	}
}

/*
 * Sorts the seed's neighbours into dimensions, sizes them by walking,
 * and places the seed and its neighbours.
 */
static int seed_dims(struct find *fd, uint32_t s, char *err, size_t errlen)
{
	const struct sgraph *g = fd->g;
	uint32_t rep[FIND_DIMS][2], e, a, s_slot = 0;
	unsigned nmem[FIND_DIMS], d, i;
	uint64_t slots = 1;
	long la, lb;
	int ring, rb;

	fd->nd = 0;
	for (e = g->off[s]; e < g->off[s + 1]; e++) {
		a = g->nbr[e];
		for (d = 0; d < fd->nd; d++)
			if (same_dim(g, s, rep[d][0], a))
				break;
		if (d == fd->nd) {
			if (fd->nd == FIND_DIMS)
				goto pairs;
			nmem[fd->nd++] = 0;
		}
		if (nmem[d] == 2)
			goto pairs;
		rep[d][nmem[d]++] = a;
	}
	for (d = 0; d < fd->nd; d++) {
		la = walk(g, s, rep[d][0], &ring);
		if (la < 0)
			goto branch;
		fd->wrap[d] = (uint8_t)ring;
		fd->size[d] = (uint32_t)(ring ? la : la + 1);
		if (nmem[d] == 2 && !ring) {
			lb = walk(g, s, rep[d][1], &rb);
			if (lb < 0 || rb)
				goto branch;
			fd->size[d] += (uint32_t)lb;
			/* the seed sits lb from the - end */
			s_slot += (uint32_t)lb * (uint32_t)slots;
		} else if (ring && nmem[d] != 2) {
			goto branch;
		}
		fd->stride[d] = (uint32_t)slots;
		slots *= fd->size[d];
		if (slots > MAX_SLOTS) {
			dqr_set_err(err, errlen, "the dimensions from switch "
				    "\"%s\" span more than %u coordinates",
				    sw_name(fd, s), MAX_SLOTS);
			return -1;
		}
	}
	if (slots < g->ns) {
		dqr_set_err(err, errlen, "the dimensions from switch \"%s\" "
			    "hold %llu coordinates for %u switches",
			    sw_name(fd, s), (unsigned long long)slots, g->ns);
		return -1;
	}
	fd->nslots = (uint32_t)slots;
	fd->owner = malloc(sizeof(*fd->owner) * fd->nslots);
	if (!fd->owner) {
		dqr_set_err(err, errlen, "out of memory");
		return -1;
	}
	memset(fd->owner, 0xff, sizeof(*fd->owner) * fd->nslots);
	fd->slot[s] = s_slot;
	fd->owner[s_slot] = s;
	/* the first member of a dimension is its + side */
	for (d = 0; d < fd->nd; d++)
		for (i = 0; i < nmem[d]; i++) {
			uint32_t c = s_slot / fd->stride[d] % fd->size[d];
			uint32_t to = i == 0 ? (c + 1) % fd->size[d] :
				      (c + fd->size[d] - 1) % fd->size[d];
			uint32_t sl = s_slot - c * fd->stride[d] +
				      to * fd->stride[d];

			if (fd->owner[sl] != DQR_NONE)
				goto branch;
			fd->slot[rep[d][i]] = sl;
			fd->owner[sl] = rep[d][i];
		}
	return 0;
pairs:
	dqr_set_err(err, errlen, "the neighbours of switch \"%s\" do not "
		    "pair into dimensions", sw_name(fd, s));
	return -1;
branch:
	dqr_set_err(err, errlen, "a straight line from switch \"%s\" "
		    "branches or its ends disagree", sw_name(fd, s));
	return -1;
}

/* ----------------------------------------------------------- placing */

static uint32_t coord_of(const struct find *fd, uint32_t slot, unsigned d)
{
	return slot / fd->stride[d] % fd->size[d];
}

/*
 * The step from slot a to slot b: dimension in *d, +1 or -1 in *sign; -1
 * when they are no grid neighbours.
 */
static int step_of(const struct find *fd, uint32_t a, uint32_t b,
		   unsigned *d, int *sign)
{
	unsigned i, found = 0;
	uint32_t ca, cb, n;

	for (i = 0; i < fd->nd; i++) {
		ca = coord_of(fd, a, i);
		cb = coord_of(fd, b, i);
		if (ca == cb)
			continue;
		n = fd->size[i];
		if (found++)
			return -1;
		*d = i;
		if (cb == ca + 1 || (fd->wrap[i] && ca == n - 1 && cb == 0))
			*sign = 1;
		else if (ca == cb + 1 || (fd->wrap[i] && cb == n - 1 &&
					  ca == 0))
			*sign = -1;
		else
			return -1;
	}
	return found == 1 ? 0 : -1;
}

/* The slot one step from slot in d; DQR_NONE past a mesh's border. */
static uint32_t step(const struct find *fd, uint32_t slot, unsigned d,
		     int sign)
{
	uint32_t c = coord_of(fd, slot, d), n = fd->size[d], to;

	if (sign > 0)
		to = c + 1 < n ? c + 1 : fd->wrap[d] ? 0 : DQR_NONE;
	else
		to = c > 0 ? c - 1 : fd->wrap[d] ? n - 1 : DQR_NONE;
	if (to == DQR_NONE)
		return DQR_NONE;
	return slot - c * fd->stride[d] + to * fd->stride[d];
}

/*
 * Where w goes, seen from its placed neighbour v: from each placed
 * neighbour u of v, across the square u-v-w-x (w takes u's step to x)
 * or, without one, straight on.  DQR_NONE unless all that is free agree.
 */
static uint32_t place_from(const struct find *fd, uint32_t v, uint32_t w,
			   int lax)
{
	const struct sgraph *g = fd->g;
	uint32_t e, k, u, x, cand, got = DQR_NONE;
	unsigned d;
	int sign;

	for (e = g->off[v]; e < g->off[v + 1]; e++) {
		u = g->nbr[e];
		if (u == w || fd->slot[u] == DQR_NONE)
			continue;
		cand = DQR_NONE;
		if (lax ? same_dim(g, v, u, w) :
			  strong_straight(g, v, u, w)) {
			if (!step_of(fd, fd->slot[u], fd->slot[v], &d, &sign))
				cand = step(fd, fd->slot[v], d, sign);
		} else {
			for (k = g->off[u]; k < g->off[u + 1]; k++) {
				x = g->nbr[k];
				if (x == v || fd->slot[x] == DQR_NONE ||
				    !adjacent(g, x, w))
					continue;
				if (!step_of(fd, fd->slot[u], fd->slot[x], &d,
					     &sign))
					cand = step(fd, fd->slot[v], d, sign);
				break;
			}
		}
		if (cand == DQR_NONE || fd->owner[cand] != DQR_NONE)
			continue;
		if (got != DQR_NONE && got != cand)
			return DQR_NONE;
		got = cand;
	}
	return got;
}

/*
 * Places what a BFS from the queue reaches, straight steps only with
 * evidence; then, as long as that helps, retries the switches left over
 * (their neighbours may know more now), and when nothing moves takes a
 * straight step without evidence (a switch whose only other cable went
 * missing has nothing better).
 */
static uint32_t place_spread(struct find *fd, uint32_t head, uint32_t tail)
{
	const struct sgraph *g = fd->g;
	uint32_t v, w, e, sl, before;
	unsigned round;
	int lax = 0;

	for (round = 0; round < 16; round++) {
		while (head < tail) {
			v = fd->queue[head++];
			for (e = g->off[v]; e < g->off[v + 1]; e++) {
				w = g->nbr[e];
				if (fd->slot[w] != DQR_NONE)
					continue;
				sl = place_from(fd, v, w, 0);
				if (sl == DQR_NONE)
					continue;
				fd->slot[w] = sl;
				fd->owner[sl] = w;
				fd->queue[tail++] = w;
			}
		}
		if (tail == g->ns)
			break;
		before = tail;
		for (w = 0; w < g->ns; w++) {
			if (fd->slot[w] != DQR_NONE)
				continue;
			for (e = g->off[w]; e < g->off[w + 1]; e++) {
				v = g->nbr[e];
				if (fd->slot[v] == DQR_NONE)
					continue;
				sl = place_from(fd, v, w, lax);
				if (sl == DQR_NONE)
					continue;
				fd->slot[w] = sl;
				fd->owner[sl] = w;
				fd->queue[tail++] = w;
				break;
			}
		}
		if (tail == before) {
			if (lax)
				break;
			lax = 1;
		} else {
			lax = 0;
		}
	}
	return tail;
}

/*
 * Places every switch from seed s and its neighbours (place_spread()),
 * then checks that every cable joins neighbours in one dimension: the
 * grid is accepted only when the cabling alone says so (grid_shape.h).
 * 0, or -1 with the first switch or cable that does not fit.
 */
static int place_all(struct find *fd, uint32_t s, char *err, size_t errlen)
{
	const struct sgraph *g = fd->g;
	uint32_t tail = 0, v, e, placed;

	fd->queue[tail++] = s;
	for (e = g->off[s]; e < g->off[s + 1]; e++)
		fd->queue[tail++] = g->nbr[e];
	tail = place_spread(fd, 0, tail);
	placed = tail;
	if (placed < g->ns) {
		dqr_set_err(err, errlen, "from switch \"%s\", %u of %u "
			    "switches have no unambiguous coordinates",
			    sw_name(fd, s), g->ns - placed, g->ns);
		return -1;
	}
	for (v = 0; v < g->ns; v++)
		for (e = g->off[v]; e < g->off[v + 1]; e++) {
			unsigned d;
			int sign;

			if (step_of(fd, fd->slot[v], fd->slot[g->nbr[e]], &d,
				    &sign)) {
				dqr_set_err(err, errlen, "from switch "
					    "\"%s\", the cable from \"%s\" "
					    "to \"%s\" is no grid link",
					    sw_name(fd, s), sw_name(fd, v),
					    sw_name(fd, g->nbr[e]));
				return -1;
			}
		}
	return 0;
}

static int try_seed(struct find *fd, uint32_t s, char *err, size_t errlen)
{
	free(fd->owner);
	fd->owner = NULL;
	memset(fd->slot, 0xff, sizeof(*fd->slot) * fd->g->ns);
	if (seed_dims(fd, s, err, errlen))
		return -1;
	return place_all(fd, s, err, errlen);
}

/* ------------------------------------------------------------ result */

/* Cables the grid has between the switches present. */
static uint32_t expected_cables(const struct find *fd)
{
	uint32_t v, sl, n = 0;
	unsigned d;

	for (v = 0; v < fd->g->ns; v++)
		for (d = 0; d < fd->nd; d++) {
			sl = step(fd, fd->slot[v], d, 1);
			if (sl != DQR_NONE && fd->owner[sl] != DQR_NONE)
				n++;
		}
	return n;
}

#define FOLD_NONE 0xffu

/*
 * Which found dimensions make each dimension of the result: src[k][0]
 * alone, or src[k][0] and src[k][1] (both of size 2) folded into one ring
 * of 4.  A ring of 4 is cabled as two dimensions of size 2 (C4 = Q2), so
 * a torus with rings of 4 is found with too many dimensions (4x4x5 as
 * 2x2x2x2x5); pairs of size-2 dimensions fold back into rings of 4, only
 * as many as it takes to get down to DQR_GEN_MAX_DIMS: every ring more
 * is a layer bit more on a torus (vlayers.h), and an unfolded pair
 * routes as short.  The number of dimensions of the result.
 */
static unsigned fold_rings_of_4(const struct find *fd,
				uint8_t src[FIND_DIMS][2])
{
	unsigned d, k, n = 0, excess = 0, pending = FOLD_NONE;

	if (fd->nd > DQR_GEN_MAX_DIMS)
		excess = fd->nd - DQR_GEN_MAX_DIMS;
	for (d = 0; d < fd->nd; d++) {
		if (excess && fd->size[d] == 2 && pending != FOLD_NONE) {
			src[pending][1] = (uint8_t)d;
			pending = FOLD_NONE;
			excess--;
			continue;
		}
		src[n][0] = (uint8_t)d;
		src[n][1] = FOLD_NONE;
		if (excess && fd->size[d] == 2)
			pending = n;
		n++;
	}
	for (k = n; k < FIND_DIMS; k++)
		src[k][0] = src[k][1] = FOLD_NONE;
	return n;
}

/* A slot's coordinate in a dimension of the result: a ring of 4 in Gray
 * order, (0,0) (1,0) (1,1) (0,1), so that its cables join neighbours. */
static unsigned out_coord(const struct find *fd, uint32_t slot,
			  const uint8_t src[2])
{
	uint32_t a = coord_of(fd, slot, src[0]), b;

	if (src[1] == FOLD_NONE)
		return a;
	b = coord_of(fd, slot, src[1]);
	return b ? (a ? 2 : 3) : a;
}

/*
 * The grid found as gr: a hypercube when no dimension exceeds 2 (the slot
 * is then the label), else a mesh or torus after folding pairs of size 2
 * into rings of 4, with each switch's coordinates and position and the
 * switches and cables missing.  More than DQR_GEN_MAX_DIMS dimensions is
 * refused with their sizes.  0, or -1 with a message.
 */
static int fill_grid(const struct find *fd, struct dqr_grid *gr,
		     char *err, size_t errlen)
{
	uint8_t src[FIND_DIMS][2];
	uint32_t v, sl;
	unsigned d, nout, big = 0;

	if (!fd->nd) {
		dqr_set_err(err, errlen, "a single switch");
		return -1;
	}
	for (d = 0; d < fd->nd; d++)
		big += fd->size[d] > 2;
	gr->num_switches = fd->g->ns;
	gr->missing_switches = fd->nslots - fd->g->ns;
	gr->missing_cables = expected_cables(fd) - fd->g->edges;
	gr->spec.cas = 0;
	gr->spec.lmc = 0;
	if (!big) {
		gr->kind = DQR_GRID_HYPERCUBE;
		gr->ndims = fd->nd;
		gr->spec.kind = DQR_GEN_HYPERCUBE;
		gr->spec.ndims = fd->nd;
		for (v = 0; v < fd->g->ns; v++) {
			sl = fd->slot[v];
			/* stride d is 2^d: the slot is the label */
			gr->place[v].pos = sl;
		}
		return 0;
	}
	nout = fold_rings_of_4(fd, src);
	if (nout > DQR_GEN_MAX_DIMS) {
		char sizes[96];
		size_t used = 0;

		sizes[0] = 0;
		for (d = 0; d < fd->nd && used < sizeof(sizes); d++)
			used += (size_t)snprintf(sizes + used,
						 sizeof(sizes) - used, "%s%u",
						 d ? "x" : "", fd->size[d]);
		dqr_set_err(err, errlen, "a grid of %u dimensions (%s; a ring "
			    "of 4 counts as 2x2), more than %u", fd->nd,
			    sizes, DQR_GEN_MAX_DIMS);
		return -1;
	}
	gr->kind = DQR_GRID_MESH;
	gr->ndims = nout;
	gr->spec.ndims = nout;
	for (d = 0; d < nout; d++) {
		gr->dims[d] = src[d][1] == FOLD_NONE ? fd->size[src[d][0]] : 4;
		gr->spec.dims[d] = gr->dims[d];
		gr->wrap[d] = src[d][1] == FOLD_NONE ? fd->wrap[src[d][0]] : 1;
		if (gr->wrap[d])
			gr->kind = DQR_GRID_TORUS;
	}
	gr->spec.kind = gr->kind == DQR_GRID_TORUS ? DQR_GEN_TORUS :
			DQR_GEN_MESH;
	for (v = 0; v < fd->g->ns; v++) {
		uint32_t pos = 0;

		for (d = nout; d-- > 0;) {
			unsigned c = out_coord(fd, fd->slot[v], src[d]);

			gr->place[v].coord[d] = (uint16_t)c;
			pos = pos * gr->dims[d] + c;
		}
		gr->place[v].pos = pos;
	}
	return 0;
}

/*
 * Seed k: the first half switches of the highest degree (they see every
 * dimension), the second half any switch, both spread over the switches
 * in GUID order (rank: position -> switch) so that one missing cable or
 * switch spoils few of them.  GUID order, not index order: the plugin and
 * dqr-check, which number the switches differently, then place the grid
 * alike (the same coordinates, so the same layers of a torus).
 */
static uint32_t pick_seed(const struct sgraph *g, const uint32_t *rank,
			  unsigned k)
{
	uint32_t v, i, best = 0, start;

	if (g->ns <= MAX_SEEDS)
		return rank[k % g->ns];
	start = (uint32_t)((uint64_t)g->ns * (k % (MAX_SEEDS / 2)) /
			   (MAX_SEEDS / 2));
	if (k >= MAX_SEEDS / 2)
		return rank[(start + g->ns / MAX_SEEDS) % g->ns];
	for (v = 0; v < g->ns; v++)
		if (g->off[v + 1] - g->off[v] > best)
			best = g->off[v + 1] - g->off[v];
	for (i = 0; i < g->ns; i++) {
		v = rank[(start + i) % g->ns];
		if (g->off[v + 1] - g->off[v] == best)
			return v;
	}
	return rank[0];
}

struct guid_rank {
	uint64_t guid;
	uint32_t sw;
};

static int guid_cmp(const void *pa, const void *pb)
{
	const struct guid_rank *a = pa, *b = pb;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

/* The switches in GUID order, into rank (ns of them); -1: no memory. */
static int rank_by_guid(const struct dqr_fabric *f, uint32_t *rank,
			uint32_t ns)
{
	struct guid_rank *r = malloc(sizeof(*r) * (ns ? ns : 1));
	uint32_t i;

	if (!r)
		return -1;
	for (i = 0; i < ns; i++) {
		r[i].guid = f->nodes[f->switches[i]].guid;
		r[i].sw = i;
	}
	qsort(r, ns, sizeof(*r), guid_cmp);
	for (i = 0; i < ns; i++)
		rank[i] = r[i].sw;
	free(r);
	return 0;
}

static struct dqr_grid *grid_new(uint32_t ns)
{
	struct dqr_grid *gr = calloc(1, sizeof(*gr));

	if (gr)
		gr->place = calloc(ns, sizeof(*gr->place));
	if (gr && !gr->place) {
		free(gr);
		gr = NULL;
	}
	return gr;
}

/* a fits the cabling more tightly than b (b may be NULL) */
static int tighter(const struct dqr_grid *a, const struct dqr_grid *b)
{
	if (!b)
		return 1;
	if (a->missing_switches != b->missing_switches)
		return a->missing_switches < b->missing_switches;
	return a->missing_cables < b->missing_cables;
}

/*
 * After the first seed that places everything, a few more: with cables
 * missing a grid can also embed into a larger one with empty coordinates
 * (a 2x6 ladder less a rung into 2x7); the tightest is kept.
 */
#define MORE_SEEDS 8

int dqr_grid_detect(const struct dqr_fabric *f, struct dqr_grid **out,
		    char *err, size_t errlen)
{
	struct sgraph g;
	struct find fd = { 0 };
	struct dqr_grid *gr = NULL, *best = NULL;
	uint32_t seeds[MAX_SEEDS], s, *rank = NULL;
	unsigned k, j, n = 0, more = 0;
	char why[256] = "";

	*out = NULL;
	if (sgraph_build(f, &g, err, errlen))
		goto out;
	if (!g.ns) {
		dqr_set_err(err, errlen, "no switches");
		goto out;
	}
	fd.f = f;
	fd.g = &g;
	fd.slot = malloc(sizeof(*fd.slot) * g.ns);
	fd.queue = malloc(sizeof(*fd.queue) * g.ns);
	rank = malloc(sizeof(*rank) * g.ns);
	if (!fd.slot || !fd.queue || !rank ||
	    rank_by_guid(f, rank, g.ns)) {
		dqr_set_err(err, errlen, "out of memory");
		goto out;
	}
	if (!connected(&g, fd.slot, fd.queue)) {
		dqr_set_err(err, errlen, "the switches are not all connected");
		goto out;
	}
	for (k = 0; k < MAX_SEEDS && (!best || more++ < MORE_SEEDS); k++) {
		s = pick_seed(&g, rank, k);
		for (j = 0; j < n && seeds[j] != s; j++)
			;
		if (j < n)
			continue;
		seeds[n++] = s;
		if (try_seed(&fd, s, why, sizeof(why)))
			continue;
		if (fd.nslots - g.ns > g.ns / 2) {
			dqr_set_err(why, sizeof(why), "%u of %u coordinates "
				    "hold no switch", fd.nslots - g.ns,
				    fd.nslots);
			continue;
		}
		gr = grid_new(g.ns);
		if (!gr) {
			dqr_set_err(why, sizeof(why), "out of memory");
			break;
		}
		if (!fill_grid(&fd, gr, why, sizeof(why)) &&
		    tighter(gr, best)) {
			dqr_grid_free(best);
			best = gr;
			gr = NULL;
		}
		dqr_grid_free(gr);
		gr = NULL;
		if (best && !best->missing_switches && !best->missing_cables)
			break;
	}
	if (!best)
		dqr_set_err(err, errlen, "%s", why);
	*out = best;
out:
	sgraph_free(&g);
	DQR_FREE_ALL(fd.slot, fd.owner, fd.queue, rank);
	return *out ? 0 : -1;
}

void dqr_grid_free(struct dqr_grid *g)
{
	if (!g)
		return;
	free(g->place);
	free(g);
}

void dqr_grid_describe(const struct dqr_grid *g, char *buf, size_t len)
{
	size_t used;
	unsigned d;
	int mixed = 0;

	if (g->kind == DQR_GRID_HYPERCUBE) {
		used = (size_t)snprintf(buf, len, "%u-cube", g->ndims);
	} else {
		for (d = 0; d < g->ndims; d++)
			mixed |= g->kind == DQR_GRID_TORUS && !g->wrap[d] &&
				 g->dims[d] > 2;
		used = (size_t)snprintf(buf, len, "%uD %s ", g->ndims,
					g->kind == DQR_GRID_MESH ? "mesh" :
					mixed ? "mesh/torus" : "torus");
		for (d = 0; d < g->ndims && used < len; d++)
			used += (size_t)snprintf(buf + used, len - used,
						 "%s%u%s", d ? "x" : "",
						 g->dims[d],
						 mixed && g->wrap[d] ? "r" :
						 "");
	}
	if (used >= len || (!g->missing_switches && !g->missing_cables))
		return;
	if (!g->missing_cables)
		snprintf(buf + used, len - used, " (%u switch%s missing)",
			 g->missing_switches,
			 g->missing_switches == 1 ? "" : "es");
	else if (!g->missing_switches)
		snprintf(buf + used, len - used, " (%u cable%s missing)",
			 g->missing_cables, g->missing_cables == 1 ? "" : "s");
	else
		snprintf(buf + used, len - used, " (%u switch%s and %u "
			 "cable%s missing)", g->missing_switches,
			 g->missing_switches == 1 ? "" : "es",
			 g->missing_cables, g->missing_cables == 1 ? "" : "s");
}
