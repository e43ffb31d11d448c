/*
 * vl_replay.c - dqr-check --replay with --vls: every stage's union judged
 * per (channel, VL) with the path SLs and SL2VL tables of a file
 * (io/vl_read.h) instead of on one VL.
 *
 * A packet from source S to DLID d carries the SL of path (S, d); each
 * hop leaves switch X on VL SL2VL[X][in][out][SL] (a CA injects on its
 * port's SL2VL[SL]).  In the union of a stage any switch may forward d by
 * its entry before or after the stage, so the packets towards d reach
 * every (channel, VL) that some mix of the two allows, and a dependency
 * (a, VL a) -> (b, VL b) exists when a packet holding a on VL a may next
 * request b on VL b.  The stage is deadlock free when that graph over
 * channels x 16 VLs is acyclic.  VL 15 is the management VL: data sent
 * to it is dropped and holds nothing after; so is a packet an entry
 * would send back out of the port it came in on (fabric/relay.h).
 *
 * Only the stage's DLIDs change between its union and the states around
 * it, so each DLID's dependencies are kept and only those DLIDs walked
 * again: O(stage DLIDs x SLs x reached (channel, VL)) per stage, plus
 * sorting and Kahn's algorithm over all dependencies kept.  Without
 * --vls (every SL on VL 0) the dependencies are exactly those of the
 * channel dependency graph (deps/cdg.h) of the union.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/edge_list.h"
#include "fabric/relay.h"
#include "verify/verify_print.h"
#include "dqr_check.h"

#define NVL DQR_VLS_NUM_SL
#define VL_DROP DQR_VLS_VL_MAX

struct vl_src {
	uint32_t port;		/* a switch's port 0 or a linked end port */
	uint32_t slid;
};

struct vl_judge {
	const struct dqr_fabric *f;
	const struct dqr_vls *v;
	const struct dqr_vls *after;	/* or NULL */
	uint64_t left_out;		/* (source, DLID) pairs left out */
	struct dqr_lfts *a, *b;		/* before and after the stage */
	uint32_t lc;
	struct vl_src *src;
	uint32_t num_src;
	uint64_t **edges;		/* per DLID: (from << 32 | to) */
	uint32_t *num_edges;
	uint64_t *buf;			/* one DLID's edges while walked */
	size_t num_buf, cap_buf;
	uint32_t *seen, epoch;		/* per (port, VL): walked already */
	uint32_t *stack;
	uint64_t total;			/* edges kept, all DLIDs */
};

static int buf_add(struct vl_judge *j, uint32_t from, uint32_t to)
{
	if (j->num_buf == j->cap_buf) {
		size_t cap = j->cap_buf ? j->cap_buf * 2 : 1024;
		uint64_t *n = realloc(j->buf, sizeof(*n) * cap);

		if (!n)
			return -1;
		j->buf = n;
		j->cap_buf = cap;
	}
	j->buf[j->num_buf++] = (uint64_t)from << 32 | to;
	return 0;
}

/*
 * From the state "arrived at the switch of port q on VL vl" (a = the
 * vertex it came by, or DQR_NONE for the switch itself): the hops out by
 * either table, their dependencies, and the next states on the stack.
 */
static int hop(struct vl_judge *j, uint32_t lid, uint8_t sl, uint32_t q,
	       uint32_t a, uint32_t *sp)
{
	const struct dqr_fabric *f = j->f;
	uint32_t n = f->ports[q].node, sw = f->nodes[n].sw_index, k;
	uint32_t came = a == DQR_NONE ? DQR_NONE : f->ports[q].remote;
	uint8_t in = f->ports[q].num, outs[2];

	outs[0] = dqr_lft_get(j->a, sw, lid);
	outs[1] = dqr_lft_get(j->b, sw, lid);
	for (k = 0; k < 2; k++) {
		uint8_t o = outs[k], vb;
		uint32_t b, peer;

		if ((k && o == outs[0]) || !o || o > f->nodes[n].num_ports)
			continue;
		b = f->nodes[n].port_base + o;
		peer = f->ports[b].remote;
		vb = dqr_vls_vl(j->v, n, in, o, sl);
		if (peer == DQR_NONE || !dqr_relays(f, came, b) ||
		    vb == VL_DROP)
			continue;
		if (a != DQR_NONE && buf_add(j, a, b * NVL + vb))
			return -1;
		if (!dqr_is_switch(f, f->ports[peer].node) ||
		    j->seen[peer * NVL + vb] == j->epoch)
			continue;
		j->seen[peer * NVL + vb] = j->epoch;
		j->stack[(*sp)++] = peer * NVL + vb;
	}
	return 0;
}

/* Every (channel, VL) the packets of SL sl towards lid reach. */
static int walk_sl(struct vl_judge *j, uint32_t lid, uint8_t sl,
		   const uint8_t *src_sl)
{
	const struct dqr_fabric *f = j->f;
	uint32_t i, sp = 0, x, q, owner = dqr_lid_owner(f, lid);

	j->epoch++;
	for (i = 0; i < j->num_src; i++) {
		const struct vl_src *s = &j->src[i];
		uint32_t n = f->ports[s->port].node, peer;
		uint8_t vl;

		if (src_sl[i] != sl || s->port == owner)
			continue;
		if (dqr_is_switch(f, n)) {
			if (hop(j, lid, sl, s->port, DQR_NONE, &sp))
				return -1;
			continue;
		}
		vl = dqr_vls_vl(j->v, n, 0, f->ports[s->port].num, sl);
		peer = f->ports[s->port].remote;
		if (vl == VL_DROP || !dqr_is_switch(f, f->ports[peer].node) ||
		    j->seen[peer * NVL + vl] == j->epoch)
			continue;
		j->seen[peer * NVL + vl] = j->epoch;
		j->stack[sp++] = peer * NVL + vl;
	}
	while (sp) {
		x = j->stack[--sp];
		q = x / NVL;
		/* it came over the channel of q's peer, on VL x % NVL */
		if (hop(j, lid, sl, q, f->ports[q].remote * NVL + x % NVL,
			&sp))
			return -1;
	}
	return 0;
}

static int cmp_u64(const void *pa, const void *pb)
{
	uint64_t a = *(const uint64_t *)pa, b = *(const uint64_t *)pb;

	return a < b ? -1 : a > b;
}

/* The dependencies of lid in the union of a and b, kept in edges[lid]. */
static int walk_lid(struct vl_judge *j, uint32_t lid, uint8_t *src_sl)
{
	uint32_t i, mask = 0, n = 0;
	uint64_t *e;
	uint8_t sl;

	j->total -= j->num_edges[lid];
	free(j->edges[lid]);
	j->edges[lid] = NULL;
	j->num_edges[lid] = 0;
	if (dqr_lid_owner(j->f, lid) == DQR_NONE)
		return 0;
	for (i = 0; i < j->num_src; i++) {
		src_sl[i] = dqr_vls_sl(j->v, j->src[i].slid, lid);
		/* a moved pair: its packets meet no judged state */
		if (j->after && dqr_vls_sl(j->after, j->src[i].slid, lid) !=
				src_sl[i]) {
			src_sl[i] = NVL;
			j->left_out++;
			continue;
		}
		mask |= 1u << src_sl[i];
	}
	j->num_buf = 0;
	for (sl = 0; sl < NVL; sl++)
		if ((mask >> sl & 1) && walk_sl(j, lid, sl, src_sl))
			return -1;
	if (!j->num_buf)
		return 0;
	qsort(j->buf, j->num_buf, sizeof(*j->buf), cmp_u64);
	for (i = 0; i < j->num_buf; i++)
		if (!n || j->buf[i] != j->buf[n - 1])
			j->buf[n++] = j->buf[i];
	e = malloc(sizeof(*e) * n);
	if (!e)
		return -1;
	memcpy(e, j->buf, sizeof(*e) * n);
	j->edges[lid] = e;
	j->num_edges[lid] = n;
	j->total += n;
	return 0;
}

static void judge_free(struct vl_judge *j)
{
	uint32_t lid;

	for (lid = 0; j->edges && lid < j->lc; lid++)
		free(j->edges[lid]);
	free(j->edges);
	free(j->num_edges);
	free(j->src);
	free(j->buf);
	free(j->seen);
	free(j->stack);
	dqr_lfts_free(j->a);
	dqr_lfts_free(j->b);
}

/* start widened to lc LIDs; NULL when out of memory. */
static struct dqr_lfts *widen(const struct dqr_lfts *t, uint32_t lc)
{
	struct dqr_lfts *w = dqr_lfts_new(t->num_switches, lc);
	uint32_t sw;

	if (!w)
		return NULL;
	for (sw = 0; sw < t->num_switches; sw++)
		memcpy(dqr_lft_row(w, sw), dqr_lft_row(t, sw), t->lid_count);
	return w;
}

/* The sources: switches (port 0) and linked end ports, with a LID. */
static int judge_sources(struct vl_judge *j)
{
	const struct dqr_fabric *f = j->f;
	uint32_t p;

	j->src = malloc(sizeof(*j->src) * (f->num_ports ? f->num_ports : 1));
	if (!j->src)
		return -1;
	for (p = 0; p < f->num_ports; p++) {
		const struct dqr_port *pt = &f->ports[p];
		int sw = dqr_is_switch(f, pt->node);

		if (!pt->base_lid || (sw && pt->num) ||
		    (!sw && (!pt->num || pt->remote == DQR_NONE)))
			continue;
		j->src[j->num_src].port = p;
		j->src[j->num_src++].slid = pt->base_lid;
	}
	return 0;
}

static int judge_init(struct vl_judge *j, const struct dqr_fabric *f,
		      const struct dqr_vls *v, const struct dqr_vls *after,
		      const struct dqr_lfts *start, const struct dqr_plan *p,
		      uint8_t **src_sl)
{
	uint32_t i, lid;

	memset(j, 0, sizeof(*j));
	j->f = f;
	j->v = v;
	j->after = after;
	j->lc = start->lid_count > f->max_lid ? start->lid_count :
		f->max_lid + 1;
	for (i = 0; i < p->num_entries; i++)
		if (p->entries[i].lid >= j->lc)
			j->lc = p->entries[i].lid + 1;
	j->a = widen(start, j->lc);
	j->b = widen(start, j->lc);
	j->edges = calloc(j->lc, sizeof(*j->edges));
	j->num_edges = calloc(j->lc, sizeof(*j->num_edges));
	j->seen = calloc((size_t)f->num_ports * NVL, sizeof(*j->seen));
	j->stack = malloc(sizeof(*j->stack) * ((size_t)f->num_ports * NVL +
					       1));
	if (!j->a || !j->b || !j->edges || !j->num_edges || !j->seen ||
	    !j->stack || judge_sources(j))
		return -1;
	*src_sl = malloc(j->num_src ? j->num_src : 1);
	if (!*src_sl)
		return -1;
	for (lid = 1; lid < j->lc; lid++)
		if (walk_lid(j, lid, *src_sl))
			return -1;
	return 0;
}

/* One cycle among the vertices Kahn's algorithm left (pos DQR_NONE). */
static int find_cycle(const struct dqr_cdg *g,
		      const struct dqr_channel_list *cl, struct vl_stage *st)
{
	uint32_t n = g->num_vertices, v, i, len = 0, *mark, *path;
	uint64_t k;

	mark = calloc(n, sizeof(*mark));
	path = malloc(sizeof(*path) * (n ? n : 1));
	if (!mark || !path) {
		free(mark);
		free(path);
		return -1;
	}
	for (v = 0; v < n && cl->pos[v] != DQR_NONE; v++)
		;
	/* each left vertex has a left predecessor: walk back to a repeat */
	while (v < n && !mark[v]) {
		mark[v] = ++len;
		path[len - 1] = v;
		for (k = g->pred_off[v]; k < g->pred_off[v + 1]; k++)
			if (cl->pos[g->pred[k]] == DQR_NONE)
				break;
		v = g->pred[k];
	}
	/* path[mark[v] - 1 ..] runs backwards round the cycle */
	st->len = len - (mark[v] - 1);
	st->cycle = malloc(sizeof(*st->cycle) * st->len);
	if (st->cycle)
		for (i = 0; i < st->len; i++)
			st->cycle[i] = path[len - 1 - i];
	free(mark);
	free(path);
	return st->cycle ? 0 : -1;
}

static uint32_t pick_first(void *ctx, uint32_t r)
{
	(void)ctx;
	(void)r;
	return 0;
}

/*
 * Kahn's algorithm over the dependencies of every DLID, each counted once
 * (a dependency is a pair of (channel, VL), whichever DLIDs cause it).
 */
static int judge_graph(struct vl_judge *j, struct vl_stage *st)
{
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	uint64_t *all;
	uint32_t *e, lid, i, m = 0, n = 0;
	int r;

	if (j->total > UINT32_MAX / 2)
		return -1;
	all = malloc(sizeof(*all) * (j->total ? j->total : 1));
	e = malloc(sizeof(*e) * 2 * (j->total ? j->total : 1));
	if (!all || !e) {
		free(all);
		free(e);
		return -1;
	}
	for (lid = 0; lid < j->lc; lid++)
		for (i = 0; i < j->num_edges[lid]; i++)
			all[m++] = j->edges[lid][i];
	if (m)
		qsort(all, m, sizeof(*all), cmp_u64);
	for (i = 0; i < m; i++) {
		if (n && all[i] == all[i - 1])
			continue;
		e[2 * n] = (uint32_t)(all[i] >> 32);
		e[2 * n + 1] = (uint32_t)all[i];
		st->vl_mask |= 1u << (e[2 * n] % NVL) |
			       1u << (e[2 * n + 1] % NVL);
		n++;
	}
	free(all);
	st->edges = n;
	g = dqr_cdg_of_edges(j->f->num_ports * NVL, e, n);
	free(e);
	if (!g)
		return -1;
	r = dqr_topo_order(g, pick_first, NULL, &cl);
	if (r == 1) {
		st->cyclic = 1;
		r = find_cycle(g, &cl, st);
	}
	if (r >= 0)
		dqr_channel_list_free(&cl);
	dqr_cdg_free(g);
	return r < 0 ? -1 : 0;
}

/*
 * Walks the stage's DLIDs again (each once: mark[lid] == tag when done)
 * with the tables as they are now.
 */
static int rewalk(struct vl_judge *j, const struct dqr_plan *p, uint32_t s,
		  uint32_t tag, uint8_t *src_sl, uint32_t *mark)
{
	uint32_t i, lid;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
		lid = p->entries[i].lid;
		if (mark[lid] == tag)
			continue;
		mark[lid] = tag;
		if (walk_lid(j, lid, src_sl))
			return -1;
	}
	return 0;
}

/* Sets the stage's entries to their new ports in t. */
static void apply(struct dqr_lfts *t, const struct dqr_plan *p, uint32_t s)
{
	uint32_t i;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++)
		dqr_lft_set(t, p->entries[i].sw, p->entries[i].lid,
			    p->entries[i].new_port);
}

int vl_replay_judge(const struct dqr_fabric *f, const struct dqr_vls *v,
		    const struct dqr_vls *after,
		    const struct dqr_lfts *start, const struct dqr_plan *p,
		    struct vl_stage *out, uint64_t *left_out)
{
	struct vl_judge j;
	uint8_t *src_sl = NULL;
	uint32_t *mark = NULL, s;
	int ret = -1;

	memset(out, 0, sizeof(*out) * p->num_stages);
	if (judge_init(&j, f, v, after, start, p, &src_sl))
		goto out;
	/* each pair counted once: the first walk of every DLID */
	*left_out = j.left_out;
	mark = calloc(j.lc, sizeof(*mark));
	if (!mark)
		goto out;
	for (s = 0; s < p->num_stages; s++) {
		/* the union: a before the stage, b after it */
		apply(j.b, p, s);
		if (rewalk(&j, p, s, 2 * s + 1, src_sl, mark) ||
		    judge_graph(&j, &out[s]))
			goto out;
		/* the state after it, where the next union starts */
		apply(j.a, p, s);
		if (rewalk(&j, p, s, 2 * s + 2, src_sl, mark))
			goto out;
	}
	ret = 0;
out:
	free(mark);
	free(src_sl);
	judge_free(&j);
	if (ret)
		vl_stages_release(out, p->num_stages);
	return ret;
}

void vl_stages_release(struct vl_stage *st, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		free(st[i].cycle);
		st[i].cycle = NULL;
		st[i].len = 0;
	}
}

/* "0x<guid>[<port>] (<name>) VL <vl>" of a (channel, VL) vertex */
const char *vl_vertex(const struct dqr_fabric *f, uint32_t x, char *buf,
		      size_t len)
{
	char ch[300];
	size_t n;

	dqr_format_channel(f, x / NVL, ch, sizeof(ch));
	n = strlen(ch);
	snprintf(buf, len, "%.*s VL %u", (int)n, ch, x % NVL);
	return buf;
}
