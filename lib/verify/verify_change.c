/*
 * verify_change.c - judging a change of the tables by the routes it
 * touches (verify.h: dqr_verify_change).
 *
 * Per DLID: the seeds are the switches whose entry changed or sends
 * through a cut port; the region is the seeds and every switch whose
 * route in the new tables leads into one (found backwards: a neighbour
 * whose entry points at a region switch).  Only region switches can
 * route differently than before, so only their routes are walked,
 * memoised, downstream until the DLID or a failure.  Marks carry an
 * epoch, so nothing sized by the fabric is cleared per DLID.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/mem.h"
#include "util/union_find.h"
#include "verify/verify.h"

enum {
	W_NONE = 0,	/* not reached for this DLID */
	W_REGION,	/* in the region, not walked yet */
	W_WALKING,	/* on the route being followed */
	W_OK,
	W_FAIL,		/* no path, dead port, wrong end */
	W_LOOP,		/* reaches a loop */
};

/* a seed: kind 1 is a changed entry, 0 an entry through a cut port */
struct seed {
	uint32_t lid, sw, changed;
};

struct dqr_change_check {
	uint32_t num_switches, num_nodes;
	uint32_t *mark, epoch;		/* per switch: state valid */
	uint8_t *state;
	uint8_t *on_loop;
	uint32_t *ends;			/* end ports cabled to each switch */
	uint32_t *queue, *stack;
	uint32_t *umark, uepoch;	/* union search: grey/black */
	uint8_t *ucolor;
	uint32_t *ustack;
	uint8_t *uedge;
	uint32_t *comp;			/* node components, lazily */
	int comp_ok;
	struct seed *seeds;
	uint32_t num_seeds, cap_seeds;
};

struct dqr_change_check *dqr_change_check_new(const struct dqr_fabric *f)
{
	struct dqr_change_check *w = calloc(1, sizeof(*w));
	uint32_t s = f->num_switches + 1, i;

	if (!w)
		return NULL;
	w->num_switches = f->num_switches;
	w->num_nodes = f->num_nodes;
	w->mark = calloc(s, sizeof(uint32_t));
	w->state = calloc(s, 1);
	w->on_loop = calloc(s, 1);
	w->ends = calloc(s, sizeof(uint32_t));
	w->queue = malloc(sizeof(uint32_t) * s);
	w->stack = malloc(sizeof(uint32_t) * s);
	w->umark = calloc(s, sizeof(uint32_t));
	w->ucolor = calloc(s, 1);
	w->ustack = malloc(sizeof(uint32_t) * s);
	w->uedge = malloc(s);
	w->comp = malloc(sizeof(uint32_t) * (f->num_nodes + 1));
	if (!w->mark || !w->state || !w->on_loop || !w->ends || !w->queue ||
	    !w->stack || !w->umark || !w->ucolor || !w->ustack || !w->uedge ||
	    !w->comp) {
		dqr_change_check_free(w);
		return NULL;
	}
	for (i = 0; i < f->num_switches; i++) {
		unsigned p;

		dqr_for_each_end_port(f, f->switches[i], p)
			w->ends[i]++;
	}
	return w;
}

void dqr_change_check_free(struct dqr_change_check *w)
{
	if (!w)
		return;
	DQR_FREE_ALL(w->mark, w->state, w->on_loop, w->ends, w->queue,
		     w->stack, w->umark, w->ucolor, w->ustack, w->uedge,
		     w->comp, w->seeds, w);
}

static void next_epoch(uint32_t *epoch, uint32_t *mark, uint32_t n)
{
	if (++*epoch == 0) {
		memset(mark, 0, sizeof(uint32_t) * n);
		*epoch = 1;
	}
}

static int get(const struct dqr_change_check *w, uint32_t sw)
{
	return w->mark[sw] == w->epoch ? w->state[sw] : W_NONE;
}

static void put(struct dqr_change_check *w, uint32_t sw, int state)
{
	if (w->mark[sw] != w->epoch)
		w->on_loop[sw] = 0;
	w->mark[sw] = w->epoch;
	w->state[sw] = (uint8_t)state;
}

static void fail(struct dqr_change_report *r, const char *what)
{
	if (!r->reason[0])
		snprintf(r->reason, sizeof(r->reason), "%s", what);
}

/* The components of the nodes over the cables of f, once per call. */
static void components(struct dqr_change_check *w, const struct dqr_fabric *f)
{
	uint32_t i, a, b;

	if (w->comp_ok)
		return;
	w->comp_ok = 1;
	for (i = 0; i < f->num_nodes; i++)
		w->comp[i] = i;
	for (i = 0; i < f->num_ports; i++) {
		b = dqr_peer_node(f, i);
		if (!f->ports[i].num || b == DQR_NONE)
			continue;
		a = dqr_uf_root(w->comp, f->ports[i].node);
		b = dqr_uf_root(w->comp, b);
		if (a != b)
			w->comp[a] = b;
	}
	for (i = 0; i < f->num_nodes; i++)
		w->comp[i] = dqr_uf_root(w->comp, i);
}

/* Adds the switches whose entry for lid leads into sw to the region. */
static uint32_t grow_region(struct dqr_change_check *w,
			    const struct dqr_fabric *f,
			    const struct dqr_lfts *t, uint32_t lid,
			    uint32_t sw, uint32_t tail)
{
	uint32_t node = f->switches[sw], ch, peer, nb;
	unsigned p;

	dqr_for_each_linked_port(f, node, p) {
		ch = dqr_port_index(f, node, p);
		nb = dqr_peer_switch(f, ch);
		if (nb == DQR_NONE || get(w, nb) != W_NONE)
			continue;
		peer = dqr_peer_port(f, ch);
		if (dqr_lft_get(t, nb, lid) != f->ports[peer].num)
			continue;
		put(w, nb, W_REGION);
		w->queue[tail++] = nb;
	}
	return tail;
}

/*
 * Follows sw's route for lid, memoised: the state it ends in.  Every
 * switch on the way gets the outcome; those on a loop are marked.
 */
static int walk(struct dqr_change_check *w, const struct dqr_fabric *f,
		const struct dqr_lfts *t, uint32_t lid, uint32_t owner,
		uint32_t sw, struct dqr_change_report *r)
{
	uint32_t top = 0, cur = sw, ch, nb, i;
	int st, end = W_FAIL;

	for (;;) {
		st = get(w, cur);
		if (st == W_OK || st == W_FAIL || st == W_LOOP) {
			end = st;
			break;
		}
		if (st == W_WALKING) {
			/* the loop: from cur's place on the stack to the top */
			for (i = top; i-- > 0; ) {
				w->on_loop[w->stack[i]] = 1;
				r->loop_entries++;
				if (w->stack[i] == cur)
					break;
			}
			end = W_LOOP;
			break;
		}
		put(w, cur, W_WALKING);
		w->stack[top++] = cur;
		if (dqr_lft_get(t, cur, lid) == 0) {
			end = owner == dqr_port_index(f, f->switches[cur], 0) ?
			      W_OK : W_FAIL;
			break;
		}
		ch = dqr_next_channel(f, t, cur, lid);
		if (ch == DQR_NONE)
			break;
		nb = dqr_peer_switch(f, ch);
		if (nb == DQR_NONE) {
			end = dqr_peer_port(f, ch) == owner ? W_OK : W_FAIL;
			break;
		}
		cur = nb;
	}
	while (top)
		put(w, w->stack[--top], end);
	return end;
}

/* Judges one region switch's outcome, weighed by the sources there. */
static void judge(struct dqr_change_check *w, const struct dqr_fabric *f,
		  const struct dqr_lfts *t, uint32_t lid, uint32_t owner,
		  uint32_t sw, int st, struct dqr_change_report *r)
{
	uint32_t node = f->switches[sw], own_node = f->ports[owner].node;
	uint64_t n = w->ends[sw] + 1;
	uint8_t p = dqr_lft_get(t, sw, lid);
	int conn;

	/* the switch itself, or its own end port, does not send to it */
	if (own_node == node || dqr_peer_node(f, owner) == node)
		n--;
	r->routes++;
	r->pairs += n;
	if (w->on_loop[sw])
		fail(r, "an entry lies on a forwarding loop");	/* counted */
	if (st == W_OK)
		return;
	components(w, f);
	conn = w->comp[node] == w->comp[own_node];
	if (!conn) {
		r->cut_off += n;
		return;
	}
	r->unreachable += n;
	fail(r, "a route joined to its DLID by cables does not reach it");
	if (p != DQR_NO_PATH && p != 0 &&
	    dqr_next_channel(f, t, sw, lid) == DQR_NONE) {
		r->dead_port_entries++;
		fail(r, "an entry names a port without a cable");
	}
}

static void dep(const struct dqr_change_set *c, uint32_t a, uint32_t b,
		struct dqr_change_report *r)
{
	r->deps++;
	if (a < c->num_pos && b < c->num_pos && c->pos[a] != DQR_NONE &&
	    c->pos[b] != DQR_NONE && c->pos[a] < c->pos[b])
		return;
	r->deps_down++;
	fail(r, "a new dependency points down in the channel list");
}

/* The dependencies switch sw's new entry for lid takes part in. */
static void judge_deps(const struct dqr_fabric *f,
		       const struct dqr_change_set *c, uint32_t sw,
		       uint32_t lid, uint32_t owner,
		       struct dqr_change_report *r)
{
	const struct dqr_lfts *t = c->to;
	uint32_t ch = dqr_next_channel(f, t, sw, lid), node, in, nb, next;
	unsigned p;

	if (ch == DQR_NONE)
		return;
	nb = dqr_peer_switch(f, ch);
	if (nb != DQR_NONE &&
	    (next = dqr_next_channel(f, t, nb, lid)) != DQR_NONE)
		dep(c, ch, next, r);
	node = f->switches[sw];
	dqr_for_each_linked_port(f, node, p) {
		in = dqr_peer_port(f, dqr_port_index(f, node, p));
		nb = dqr_peer_switch(f, dqr_port_index(f, node, p));
		if (nb == DQR_NONE) {
			/* an end port injects to every LID but its own */
			if (in != owner)
				dep(c, in, ch, r);
			continue;
		}
		if (dqr_lft_get(t, nb, lid) == f->ports[in].num)
			dep(c, in, ch, r);
	}
}

/* The switch one entry for lid leads to, or DQR_NONE. */
static uint32_t hop(const struct dqr_fabric *f, const struct dqr_lfts *t,
		    uint32_t sw, uint32_t lid)
{
	uint32_t ch;

	if (lid >= t->lid_count)
		return DQR_NONE;
	ch = dqr_next_channel(f, t, sw, lid);
	return ch == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, ch);
}

/*
 * 1 when, from the changed switches s[0 .. n), the graph where every
 * switch forwards by its old or its new entry for lid reaches a loop.
 * Depth first, grey/black by epoch.  Unchanged switches have one edge.
 */
static int union_loops(struct dqr_change_check *w,
		       const struct dqr_fabric *f,
		       const struct dqr_change_set *c, uint32_t lid,
		       const struct seed *s, uint32_t n)
{
	uint32_t i, top, v, nx;

	next_epoch(&w->uepoch, w->umark, w->num_switches);
	for (i = 0; i < n; i++) {
		if (!s[i].changed || w->umark[s[i].sw] == w->uepoch)
			continue;
		top = 0;
		w->ustack[top] = s[i].sw;
		w->uedge[top++] = 0;
		w->umark[s[i].sw] = w->uepoch;
		w->ucolor[s[i].sw] = 1;
		while (top) {
			v = w->ustack[top - 1];
			if (w->uedge[top - 1] == 2) {
				w->ucolor[v] = 2;
				top--;
				continue;
			}
			nx = hop(f, w->uedge[top - 1]++ ? c->from : c->to, v,
				 lid);
			if (nx == DQR_NONE)
				continue;
			if (w->umark[nx] != w->uepoch) {
				w->umark[nx] = w->uepoch;
				w->ucolor[nx] = 1;
				w->ustack[top] = nx;
				w->uedge[top++] = 0;
			} else if (w->ucolor[nx] == 1) {
				return 1;
			}
		}
	}
	return 0;
}

static int seed_cmp(const void *a, const void *b)
{
	const struct seed *x = a, *y = b;

	if (x->lid != y->lid)
		return x->lid < y->lid ? -1 : 1;
	if (x->sw != y->sw)
		return x->sw < y->sw ? -1 : 1;
	return (int)y->changed - (int)x->changed;
}

static int add_seed(struct dqr_change_check *w, uint32_t lid, uint32_t sw,
		    uint32_t changed)
{
	struct seed *s;

	if (dqr_grow((void **)&w->seeds, &w->cap_seeds, w->num_seeds + 1,
		     sizeof(*w->seeds), 256))
		return -1;
	s = &w->seeds[w->num_seeds++];
	s->lid = lid;
	s->sw = sw;
	s->changed = changed;
	return 0;
}

/* The changed entries and the entries through cut ports, by DLID. */
static int gather(struct dqr_change_check *w, const struct dqr_fabric *f,
		  const struct dqr_change_set *c)
{
	const struct dqr_lfts *t = c->to;
	uint32_t i, lid, sw;

	w->num_seeds = 0;
	for (i = 0; i < c->num_entries; i++)
		if (c->entries[i].sw < f->num_switches &&
		    add_seed(w, c->entries[i].lid, c->entries[i].sw, 1))
			return -1;
	for (i = 0; i < c->num_cut; i++) {
		const struct dqr_port *p = &f->ports[c->cut[i]];
		const uint8_t *row;

		sw = f->nodes[p->node].sw_index;
		if (sw == DQR_NONE || !p->num)
			continue;
		row = dqr_lft_row(t, sw);
		for (lid = 1; lid < t->lid_count; lid++)
			if (row[lid] == p->num && add_seed(w, lid, sw, 0))
				return -1;
	}
	/* qsort() of NULL is undefined even for no elements */
	if (w->num_seeds)
		qsort(w->seeds, w->num_seeds, sizeof(*w->seeds), seed_cmp);
	return 0;
}

/*
 * Judges one DLID of a change from its seeds (the switches whose entry
 * changed or leads into a cut port, sorted): the region upstream of them
 * is walked, every changed entry's dependencies judged against the
 * channel list, and with c->from the union of old and new searched for a
 * loop.  The rest of the destination tree did not change, so it is not
 * looked at.
 */
static void judge_dlid(struct dqr_change_check *w,
		       const struct dqr_fabric *f,
		       const struct dqr_change_set *c, const struct seed *s,
		       uint32_t n, struct dqr_change_report *r)
{
	uint32_t lid = s[0].lid, owner = dqr_lid_owner(f, lid);
	uint32_t i, head = 0, tail = 0, sw;

	if (owner == DQR_NONE || lid >= c->to->lid_count)
		return;
	r->dlids++;
	next_epoch(&w->epoch, w->mark, w->num_switches);
	for (i = 0; i < n; i++) {
		if (s[i].changed && !(i && s[i - 1].sw == s[i].sw))
			r->entries++;
		if (get(w, s[i].sw) != W_NONE)
			continue;
		put(w, s[i].sw, W_REGION);
		w->queue[tail++] = s[i].sw;
	}
	while (head < tail)
		tail = grow_region(w, f, c->to, lid, w->queue[head++], tail);
	/* walked states overwrite the region marks; the queue keeps it */
	for (i = 0; i < tail; i++) {
		sw = w->queue[i];
		judge(w, f, c->to, lid, owner, sw,
		      walk(w, f, c->to, lid, owner, sw, r), r);
	}
	for (i = 0; i < n; i++)
		if (s[i].changed && !(i && s[i - 1].sw == s[i].sw))
			judge_deps(f, c, s[i].sw, lid, owner, r);
	if (c->from && union_loops(w, f, c, lid, s, n))
		r->union_loop_dlids++;
}

int dqr_verify_change(struct dqr_change_check *w, const struct dqr_fabric *f,
		      const struct dqr_change_set *c,
		      struct dqr_change_report *r)
{
	uint32_t i, j;

	memset(r, 0, sizeof(*r));
	w->comp_ok = 0;
	if (gather(w, f, c))
		return -1;
	for (i = 0; i < w->num_seeds; i = j) {
		for (j = i + 1; j < w->num_seeds &&
		     w->seeds[j].lid == w->seeds[i].lid; j++)
			;
		judge_dlid(w, f, c, &w->seeds[i], j - i, r);
	}
	r->ok = !r->unreachable && !r->loop_entries &&
		!r->dead_port_entries && !r->deps_down;
	return 0;
}
