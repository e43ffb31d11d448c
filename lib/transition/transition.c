/*
 * transition.c - staged LFT transitions: the union check, the planner,
 * plan records, replay and the judgement of a one-shot upload.
 *
 * The union check is the hot path.  Only DLIDs with a changed entry
 * differ between the states of a transition, so the dependencies of
 * every other DLID are collected once (as turn bits, one per channel and
 * out-port of the node it enters, the technique of cdg.c); those of the
 * state in force are collected once per stage; and a whole check adds
 * only the turns of the DLIDs in the stage being judged: O(stage DLIDs x
 * switches + channels x radix), never O(all DLIDs x switches).  The
 * planner goes further: per stage it keeps the state in force as a
 * dynamic channel order (dyn_order.c) and adds a candidate's few new
 * dependencies to it, taking them back when one would close a cycle.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/dyn_order.h"
#include "transition/transition.h"
#include "util/text_input.h"
#include "util/timing.h"
#include "verify/verify_print.h"

#define TURN_WORDS 4		/* 256 bits: every port number */
#define PORT_SLOTS 256		/* counters per switch: one per port */

struct turn_bits {
	uint64_t w[TURN_WORDS];
};

/*
 * A union state: every entry is a's or b's.  Where they agree it is
 * single valued.  DLIDs flagged active may differ at some point of the
 * checker's life; the others must stay as they were when it was sealed.
 * What a holds is cached (uchk_rebase() after changing a), so that a
 * check only adds the turns of the DLIDs where b differs from a.
 */
struct uchk {
	const struct dqr_fabric *f;
	uint32_t nv;			/* vertices: f->num_ports */
	uint32_t ns;			/* switches */
	uint32_t lc;			/* lid_count of a and b */
	uint32_t num_channels;
	struct dqr_lfts *a, *b;		/* owned */

	uint8_t *active;		/* per LID */
	uint32_t *act, num_act;		/* active judged LIDs */
	uint8_t *skip_loop;		/* per LID: loops not judged */
	int no_cdg;			/* dependencies not judged */

	/* per channel: port_base of the node it enters, DQR_NONE if idle */
	uint32_t *rbase;
	uint32_t *ends, *end_sw, num_ends;	/* end ports and switches */
	uint32_t *end_off, *end_at;	/* end ports by switch (CSR) */

	/* the inactive LIDs' turns and port counts: the same in every state */
	struct turn_bits *sbase;
	uint32_t *scnt;			/* [sw * PORT_SLOTS + port] */
	/* the same plus the active LIDs as a holds them */
	struct turn_bits *abase;
	uint32_t *cnt;
	struct turn_bits *dyn;		/* turns of this check */
	uint8_t *tmark;
	uint32_t *touched, num_touched;
	uint32_t *indeg, *queue;

	uint8_t *colour, *side;		/* loop search */
	uint32_t *stack;

	uint64_t checks;
};

static int lid_judged(const struct dqr_fabric *f, uint32_t lid)
{
	return dqr_lid_owner(f, lid) != DQR_NONE;
}

/* The channel of a switch's port, DQR_NONE for port 0, none or unlinked. */
static uint32_t out_ch(const struct dqr_fabric *f, uint32_t sw, uint8_t p)
{
	const struct dqr_node *n = &f->nodes[f->switches[sw]];

	if (p == 0 || p > n->num_ports)
		return DQR_NONE;
	if (f->ports[n->port_base + p].remote == DQR_NONE)
		return DQR_NONE;
	return n->port_base + p;
}

/* The switch a channel enters, DQR_NONE for an end port. */
static uint32_t ch_next_sw(const struct dqr_fabric *f, uint32_t c)
{
	uint32_t node = f->ports[f->ports[c].remote].node;

	return dqr_is_switch(f, node) ? f->nodes[node].sw_index : DQR_NONE;
}

static inline uint8_t ent(const struct dqr_lfts *t, uint32_t sw, uint32_t lid)
{
	return t->port[(size_t)sw * t->lid_count + lid];
}

static inline void ent_set(struct dqr_lfts *t, uint32_t sw, uint32_t lid,
			   uint8_t p)
{
	t->port[(size_t)sw * t->lid_count + lid] = p;
}

/* A copy of t with lid_count entries per row (NO_PATH beyond t's end). */
static struct dqr_lfts *lfts_widen(const struct dqr_lfts *t, uint32_t lc)
{
	struct dqr_lfts *w = dqr_lfts_new(t->num_switches, lc);
	uint32_t sw, n = t->lid_count < lc ? t->lid_count : lc;

	if (!w)
		return NULL;
	for (sw = 0; sw < t->num_switches; sw++)
		memcpy(dqr_lft_row(w, sw), dqr_lft_row(t, sw), n);
	return w;
}

static void uchk_release(struct uchk *u)
{
	dqr_lfts_free(u->a);
	dqr_lfts_free(u->b);
	free(u->active);
	free(u->act);
	free(u->skip_loop);
	free(u->rbase);
	free(u->ends);
	free(u->end_sw);
	free(u->end_off);
	free(u->end_at);
	free(u->sbase);
	free(u->scnt);
	free(u->abase);
	free(u->cnt);
	free(u->dyn);
	free(u->tmark);
	free(u->touched);
	free(u->indeg);
	free(u->queue);
	free(u->colour);
	free(u->side);
	free(u->stack);
	memset(u, 0, sizeof(*u));
}

/*
 * A checker whose a and b both start as t widened to lc LIDs.  Mark the
 * active LIDs in u->active, then call uchk_seal().
 */
static int uchk_init(struct uchk *u, const struct dqr_fabric *f,
		     const struct dqr_lfts *t, uint32_t lc)
{
	uint32_t nv = f->num_ports, ns = f->num_switches, i, n1;

	memset(u, 0, sizeof(*u));
	u->f = f;
	u->nv = nv;
	u->ns = ns;
	u->lc = lc;
	n1 = nv ? nv : 1;
	u->a = lfts_widen(t, lc);
	u->b = lfts_widen(t, lc);
	u->active = calloc(lc ? lc : 1, 1);
	u->act = malloc(sizeof(uint32_t) * (lc ? lc : 1));
	u->skip_loop = calloc(lc ? lc : 1, 1);
	u->rbase = malloc(sizeof(uint32_t) * n1);
	u->ends = malloc(sizeof(uint32_t) * n1);
	u->end_sw = malloc(sizeof(uint32_t) * n1);
	u->end_off = calloc((size_t)ns + 1, sizeof(uint32_t));
	u->end_at = malloc(sizeof(uint32_t) * n1);
	u->sbase = calloc(n1, sizeof(struct turn_bits));
	u->abase = calloc(n1, sizeof(struct turn_bits));
	u->scnt = calloc((size_t)(ns ? ns : 1) * PORT_SLOTS, sizeof(uint32_t));
	u->cnt = calloc((size_t)(ns ? ns : 1) * PORT_SLOTS, sizeof(uint32_t));
	u->dyn = calloc(n1, sizeof(struct turn_bits));
	u->tmark = calloc(n1, 1);
	u->touched = malloc(sizeof(uint32_t) * n1);
	u->indeg = malloc(sizeof(uint32_t) * n1);
	u->queue = malloc(sizeof(uint32_t) * n1);
	u->colour = malloc(ns ? ns : 1);
	u->side = malloc(ns ? ns : 1);
	u->stack = malloc(sizeof(uint32_t) * (ns ? ns : 1));
	if (!u->a || !u->b || !u->active || !u->act || !u->skip_loop ||
	    !u->rbase || !u->ends || !u->end_sw || !u->end_off ||
	    !u->end_at || !u->sbase || !u->abase ||
	    !u->scnt || !u->cnt ||
	    !u->dyn || !u->tmark || !u->touched || !u->indeg || !u->queue ||
	    !u->colour || !u->side || !u->stack) {
		uchk_release(u);
		return -1;
	}
	for (i = 0; i < nv; i++) {
		const struct dqr_port *p = &f->ports[i];
		uint32_t sw;

		u->rbase[i] = DQR_NONE;
		if (!p->num || p->remote == DQR_NONE)
			continue;
		u->num_channels++;
		u->rbase[i] = f->nodes[f->ports[p->remote].node].port_base;
		if (dqr_is_switch(f, p->node))
			continue;
		sw = dqr_ingress_switch(f, i);
		if (sw == DQR_NONE)
			continue;
		u->ends[u->num_ends] = i;
		u->end_sw[u->num_ends++] = sw;
		u->end_off[sw + 1]++;
	}
	for (i = 0; i < ns; i++)
		u->end_off[i + 1] += u->end_off[i];
	for (i = 0; i < u->num_ends; i++)
		u->end_at[u->end_off[u->end_sw[i]]++] = u->ends[i];
	for (i = ns; i > 0; i--)
		u->end_off[i] = u->end_off[i - 1];
	u->end_off[0] = 0;
	return 0;
}

static void set_turn(struct turn_bits *b, unsigned port)
{
	b->w[port >> 6] |= 1ull << (port & 63);
}

static void set_dyn(struct uchk *u, uint32_t c, unsigned port)
{
	if (!u->tmark[c]) {
		u->tmark[c] = 1;
		u->touched[u->num_touched++] = c;
	}
	set_turn(&u->dyn[c], port);
}

enum {
	TURNS_STATIC,		/* a's turns into sbase */
	TURNS_A,		/* a's turns into abase */
	TURNS_UNION,		/* every combination of a and b into dyn */
};

static void put_turn(struct uchk *u, int where, uint32_t c, unsigned port)
{
	if (where == TURNS_UNION)
		set_dyn(u, c, port);
	else
		set_turn(where == TURNS_A ? &u->abase[c] : &u->sbase[c], port);
}

/*
 * The turns towards one LID: the channel of every entry of a switch
 * (a's, and b's for TURNS_UNION) followed by every entry of the switch
 * it enters.
 */
static void add_transit(struct uchk *u, uint32_t lid, int where)
{
	const struct dqr_fabric *f = u->f;
	const struct dqr_lfts *b = where == TURNS_UNION ? u->b : u->a;
	uint32_t sw, c, nx, k;
	uint8_t p[2], q[2];

	for (sw = 0; sw < u->ns; sw++) {
		p[0] = ent(u->a, sw, lid);
		p[1] = ent(b, sw, lid);
		for (k = 0; k < 2; k++) {
			if (k && p[1] == p[0])
				break;
			c = out_ch(f, sw, p[k]);
			if (c == DQR_NONE)
				continue;
			nx = ch_next_sw(f, c);
			if (nx == DQR_NONE)
				continue;
			q[0] = ent(u->a, nx, lid);
			q[1] = ent(b, nx, lid);
			if (out_ch(f, nx, q[0]) != DQR_NONE)
				put_turn(u, where, c, q[0]);
			if (q[1] != q[0] && out_ch(f, nx, q[1]) != DQR_NONE)
				put_turn(u, where, c, q[1]);
		}
	}
}

/* Counts the LID at every port a uses, into cnt (scnt or u->cnt). */
static void count_a(struct uchk *u, uint32_t lid, uint32_t *cnt)
{
	uint32_t sw;
	uint8_t pa;

	for (sw = 0; sw < u->ns; sw++) {
		pa = ent(u->a, sw, lid);
		if (out_ch(u->f, sw, pa) != DQR_NONE)
			cnt[(size_t)sw * PORT_SLOTS + pa]++;
	}
}

/* Adds (delta 1) or takes back (-1) the ports b uses besides a's. */
static void count_b(struct uchk *u, uint32_t lid, int delta)
{
	uint32_t sw;
	uint8_t pa, pb;

	for (sw = 0; sw < u->ns; sw++) {
		pa = ent(u->a, sw, lid);
		pb = ent(u->b, sw, lid);
		if (pb != pa && out_ch(u->f, sw, pb) != DQR_NONE)
			u->cnt[(size_t)sw * PORT_SLOTS + pb] += (uint32_t)delta;
	}
}

/*
 * Injection turns: an end port injects towards every LID but its own, so
 * it depends on every port its switch uses for some other LID.
 */
static void add_injection(struct uchk *u)
{
	const struct dqr_fabric *f = u->f;
	uint32_t e, q, i, np, sw, *row;
	uint8_t own_q[PORT_SLOTS];
	uint32_t own_n[PORT_SLOTS], nown;

	for (e = 0; e < u->num_ends; e++) {
		const struct dqr_port *p = &f->ports[u->ends[e]];
		unsigned l, nl = p->base_lid ? 1u << p->lmc : 0;

		sw = u->end_sw[e];
		row = u->cnt + (size_t)sw * PORT_SLOTS;
		np = f->nodes[f->switches[sw]].num_ports;
		/* the port's own LIDs are not destinations it injects to */
		nown = 0;
		for (l = 0; l < nl; l++) {
			uint32_t lid = p->base_lid + l;
			uint8_t pp[2];
			unsigned k;

			if (lid >= u->lc || !lid_judged(f, lid))
				continue;
			pp[0] = ent(u->a, sw, lid);
			pp[1] = ent(u->b, sw, lid);
			for (k = 0; k < 2; k++) {
				if (k && pp[1] == pp[0])
					break;
				if (out_ch(f, sw, pp[k]) == DQR_NONE)
					continue;
				for (i = 0; i < nown && own_q[i] != pp[k]; i++)
					;
				if (i == nown) {
					own_q[nown] = pp[k];
					own_n[nown++] = 0;
				}
				own_n[i]++;
			}
		}
		for (q = 1; q <= np; q++) {
			if (!row[q])
				continue;
			for (i = 0; i < nown && own_q[i] != q; i++)
				;
			if (i < nown && row[q] <= own_n[i])
				continue;
			set_dyn(u, u->ends[e], q);
		}
	}
}

static void clear_dyn(struct uchk *u)
{
	uint32_t i, c;

	for (i = 0; i < u->num_touched; i++) {
		c = u->touched[i];
		memset(&u->dyn[c], 0, sizeof(u->dyn[c]));
		u->tmark[c] = 0;
	}
	u->num_touched = 0;
}

/* Runs body with w set to every successor of v in abase | dyn. */
#define FOR_EACH_SUCC(u, v, w, body) do { \
	uint32_t k_; \
	for (k_ = 0; k_ < TURN_WORDS; k_++) { \
		uint64_t m_ = (u)->abase[v].w[k_] | (u)->dyn[v].w[k_]; \
		while (m_) { \
			unsigned q_ = (unsigned)__builtin_ctzll(m_); \
			m_ &= m_ - 1; \
			(w) = (u)->rbase[v] + k_ * 64 + q_; \
			body; \
		} \
	} \
} while (0)

/* Kahn's algorithm over abase | dyn: 1 when every channel is ordered. */
static int turns_acyclic(struct uchk *u)
{
	uint32_t v, w, head = 0, tail = 0;

	memset(u->indeg, 0, sizeof(uint32_t) * u->nv);
	for (v = 0; v < u->nv; v++)
		if (u->rbase[v] != DQR_NONE)
			FOR_EACH_SUCC(u, v, w, u->indeg[w]++);
	for (v = 0; v < u->nv; v++)
		if (u->rbase[v] != DQR_NONE && !u->indeg[v])
			u->queue[tail++] = v;
	while (head < tail) {
		v = u->queue[head++];
		FOR_EACH_SUCC(u, v, w, if (!--u->indeg[w])
					       u->queue[tail++] = w);
	}
	return tail == u->num_channels;
}

/* abase | dyn as a CSR graph, so that channel_list.c can name a cycle. */
static struct dqr_cdg *turns_to_cdg(struct uchk *u)
{
	struct dqr_cdg *g = calloc(1, sizeof(*g));
	uint32_t v, w, n = u->nv;
	uint64_t e = 0;

	if (!g)
		return NULL;
	g->num_vertices = n;
	g->num_channels = u->num_channels;
	g->succ_off = calloc((size_t)n + 1, sizeof(uint64_t));
	if (!g->succ_off)
		goto fail;
	for (v = 0; v < n; v++) {
		g->succ_off[v] = e;
		if (u->rbase[v] != DQR_NONE)
			FOR_EACH_SUCC(u, v, w, e++);
	}
	g->succ_off[n] = e;
	g->num_edges = e;
	g->succ = malloc(sizeof(uint32_t) * (e ? e : 1));
	if (!g->succ)
		goto fail;
	for (v = 0, e = 0; v < n; v++)
		if (u->rbase[v] != DQR_NONE)
			FOR_EACH_SUCC(u, v, w, g->succ[e++] = w);
	if (!dqr_cdg_index_preds(g))
		return g;
fail:
	dqr_cdg_free(g);
	return NULL;
}

/* What a holds now: the inactive LIDs' part plus the active ones. */
static void uchk_rebase(struct uchk *u)
{
	uint32_t i;

	memcpy(u->abase, u->sbase, sizeof(struct turn_bits) * u->nv);
	memcpy(u->cnt, u->scnt, sizeof(uint32_t) * PORT_SLOTS * u->ns);
	for (i = 0; i < u->num_act; i++) {
		add_transit(u, u->act[i], TURNS_A);
		count_a(u, u->act[i], u->cnt);
	}
}

/* Turns of the inactive LIDs, once: they are the same in every state. */
static void uchk_seal(struct uchk *u)
{
	uint32_t lid;

	u->num_act = 0;
	for (lid = 1; lid < u->lc; lid++) {
		if (!lid_judged(u->f, lid))
			continue;
		if (u->active[lid]) {
			u->act[u->num_act++] = lid;
			continue;
		}
		add_transit(u, lid, TURNS_STATIC);
		count_a(u, lid, u->scnt);
	}
	uchk_rebase(u);
}

/*
 * 0 when the union's dependencies are acyclic, 1 when not (with one
 * cycle in *cycle when not NULL), -1 when out of memory.  Outside lids,
 * a and b must agree.
 */
static int uchk_cdg(struct uchk *u, const uint32_t *lids, uint32_t n,
		    struct dqr_cycle *cycle)
{
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	uint32_t i;
	int ret;

	for (i = 0; i < n; i++) {
		if (!lid_judged(u->f, lids[i]))
			continue;
		add_transit(u, lids[i], TURNS_UNION);
		count_b(u, lids[i], 1);
	}
	add_injection(u);
	for (i = 0; i < n; i++)
		if (lid_judged(u->f, lids[i]))
			count_b(u, lids[i], -1);
	ret = !turns_acyclic(u);
	if (ret && cycle) {
		g = turns_to_cdg(u);
		if (!g || dqr_channel_list_build(u->f, g, &cl, cycle) != 1)
			ret = -1;
		dqr_cdg_free(g);
	}
	clear_dyn(u);
	return ret;
}

/*
 * 1 when the union loops towards lid: an iterative depth-first search
 * over the switches, each with its a and b out-edge.  The loop found is
 * recorded in v when v is not NULL.
 */
static int uchk_loops(struct uchk *u, uint32_t lid,
		      struct dqr_union_verdict *v)
{
	const struct dqr_fabric *f = u->f;
	uint32_t s, x, y, c, top, j, k;
	uint8_t p;

	memset(u->colour, 0, u->ns);
	for (s = 0; s < u->ns; s++) {
		if (u->colour[s])
			continue;
		top = 0;
		u->stack[top++] = s;
		u->colour[s] = 1;
		u->side[s] = 0;
		while (top) {
			x = u->stack[top - 1];
			if (u->side[x] >= 2) {
				u->colour[x] = 2;
				top--;
				continue;
			}
			p = ent(u->side[x]++ ? u->b : u->a, x, lid);
			if (u->side[x] == 2 && p == ent(u->a, x, lid))
				continue;
			c = out_ch(f, x, p);
			if (c == DQR_NONE)
				continue;
			y = ch_next_sw(f, c);
			if (y == DQR_NONE || u->colour[y] == 2)
				continue;
			if (u->colour[y] == 0) {
				u->colour[y] = 1;
				u->side[y] = 0;
				u->stack[top++] = y;
				continue;
			}
			/* y is on the stack: the loop runs y .. x -> y */
			if (!v)
				return 1;
			for (j = 0; u->stack[j] != y; j++)
				;
			v->loop_len = top - j;
			for (k = 0; j + k < top && k < DQR_LOOP_SHOWN; k++)
				v->loop_sw[k] = u->stack[j + k];
			return 1;
		}
	}
	return 0;
}

#define JUDGE_ALL	1u	/* count every looping DLID, judge both */
#define JUDGE_CYCLE	2u	/* name a cycle when there is one */

/*
 * Judges the union of a and b.  dlids holds every DLID whose entries
 * differ between a and b; loops are searched towards those of lids only
 * (the others are single valued or known: the caller's business).
 * Without JUDGE_ALL the first failure ends the check.  Returns 1 when
 * the union holds, 0 when not, -1 when out of memory.
 */
static int uchk_judge(struct uchk *u, const uint32_t *lids, uint32_t n,
		      const uint32_t *dlids, uint32_t nd, unsigned mode,
		      struct dqr_union_verdict *v)
{
	uint32_t i;
	int r;

	memset(v, 0, sizeof(*v));
	u->checks++;
	for (i = 0; i < n; i++) {
		if (u->skip_loop[lids[i]] || !lid_judged(u->f, lids[i]))
			continue;
		if (!uchk_loops(u, lids[i], v->loop_dlids ? NULL : v))
			continue;
		if (!v->loop_dlids++)
			v->loop_lid = lids[i];
		if (!(mode & JUDGE_ALL))
			return 0;
	}
	if (!u->no_cdg) {
		r = uchk_cdg(u, dlids, nd, mode & JUDGE_CYCLE ? &v->cycle :
			     NULL);
		if (r < 0)
			return -1;
		v->cyclic = r;
	}
	return dqr_union_ok(v);
}

void dqr_union_verdict_release(struct dqr_union_verdict *v)
{
	dqr_cycle_free(&v->cycle);
}

void dqr_format_verdict(const struct dqr_fabric *f,
			const struct dqr_union_verdict *v, char *buf,
			size_t len)
{
	size_t used = 0;
	uint32_t i;
	int n;

	if (!len)
		return;
	buf[0] = '\0';
#define APPEND(...) do { \
	n = snprintf(buf + used, len - used, __VA_ARGS__); \
	if (n < 0 || (size_t)n >= len - used) \
		return; \
	used += (size_t)n; \
} while (0)
	if (v->loop_dlids) {
		APPEND("forwarding loop towards %u DLID%s, DLID %u: ",
		       v->loop_dlids, v->loop_dlids == 1 ? "" : "s",
		       v->loop_lid);
		for (i = 0; i < v->loop_len && i < DQR_LOOP_SHOWN; i++)
			APPEND("%s -> ", dqr_node_name(f,
				f->switches[v->loop_sw[i]]));
		if (v->loop_len > DQR_LOOP_SHOWN)
			APPEND("... -> ");
		if (v->loop_len)
			APPEND("%s", dqr_node_name(f,
				f->switches[v->loop_sw[0]]));
	}
	if (v->cyclic) {
		APPEND("%sdependency cycle", v->loop_dlids ? "; " : "");
		if (v->cycle.len) {
			APPEND(" of %u channels: ", v->cycle.len);
			dqr_format_cycle(f, &v->cycle, buf + used,
					 len - used);
		}
	}
#undef APPEND
}

/* ---------------------------------------------------------------- plans */

void dqr_plan_init(struct dqr_plan *p)
{
	memset(p, 0, sizeof(*p));
}

void dqr_plan_release(struct dqr_plan *p)
{
	free(p->entries);
	free(p->stage_off);
	free(p->stage_reconf);
	free(p->stage_num);
	dqr_plan_init(p);
}

int dqr_plan_alloc(struct dqr_plan *p, uint32_t n)
{
	dqr_plan_release(p);
	p->entries = malloc(sizeof(*p->entries) * (n ? n : 1));
	p->stage_off = calloc((size_t)n + 2, sizeof(uint32_t));
	p->stage_reconf = calloc((size_t)n + 1, sizeof(uint64_t));
	p->stage_num = calloc((size_t)n + 1, sizeof(uint32_t));
	if (!p->entries || !p->stage_off || !p->stage_reconf ||
	    !p->stage_num) {
		dqr_plan_release(p);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- planner */

struct grp {
	uint32_t lo, hi;	/* a run of candidates: one destination */
};

enum {
	ENT_PENDING = 0,
	ENT_STAGED,		/* in the open stage */
	ENT_DONE,		/* in force */
};

struct planner {
	const struct dqr_fabric *f;
	const struct dqr_lfts *from, *to;
	struct uchk u;
	struct dqr_plan_entry *e;	/* changed entries, LID-major */
	uint32_t n;
	uint32_t *lid_off;		/* e[lid_off[l] .. lid_off[l + 1]) */
	uint32_t *level;		/* depth in its destination's order */
	uint32_t num_levels;
	/* the order per destination: e[i] after its predecessors */
	uint32_t *succ_off, *succ;
	uint32_t *pleft;		/* predecessors not staged or done */
	uint8_t *state;
	uint8_t *failed;		/* fails with the open stage: skip */

	uint32_t *s_ent, s_n;		/* the open stage, as added */
	uint32_t *cand;			/* candidates of one wave */
	uint32_t *clids, nclids;	/* DLIDs of the chunk being tried */
	uint32_t *slids, nslids;	/* DLIDs of the open stage */
	uint32_t *lmark, *smark, epoch;
	struct grp *grp;
	uint32_t *key;			/* old channel order, per entry */
	int keys_done;

	/*
	 * The committed state's dependencies as a channel order that takes
	 * new dependencies one at a time (Pearce-Kelly, dyn_order.c): a
	 * candidate costs its own dependencies, not a whole graph.  Built
	 * when a stage opens; NULL when that state is cyclic or dependencies
	 * are not judged (then every check is a whole one).
	 */
	struct dqr_dyn_order *dord;
	int no_cdg;			/* old or new tables are cyclic */
	int loops_only;			/* the state in force: cyclic */

	uint64_t budget;

	struct dqr_plan *plan;
	struct dqr_plan_report *rep;
};

/* The switch an entry of t leads to, DQR_NONE when none. */
static uint32_t next_sw(const struct dqr_fabric *f, const struct dqr_lfts *t,
			uint32_t sw, uint32_t lid)
{
	uint32_t c = out_ch(f, sw, dqr_lft_get(t, sw, lid));

	return c == DQR_NONE ? DQR_NONE : ch_next_sw(f, c);
}

static void reason_add(struct dqr_plan_report *rep, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void reason_add(struct dqr_plan_report *rep, const char *fmt, ...)
{
	size_t used = strlen(rep->reason);
	va_list ap;

	if (used + 3 >= sizeof(rep->reason))
		return;
	if (used) {
		strcpy(rep->reason + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(rep->reason + used, sizeof(rep->reason) - used, fmt, ap);
	va_end(ap);
}

/*
 * Longest-path layering of a small DAG (Kahn).  Returns the nodes
 * layered; fewer than m means a cycle among the rest (lv[] = DQR_NONE).
 */
static uint32_t layer(uint32_t m, const uint32_t *ef, const uint32_t *et,
		      uint32_t ne, uint32_t *lv, uint32_t *indeg,
		      uint32_t *queue, uint32_t *off, uint32_t *adj)
{
	uint32_t i, v, head = 0, tail = 0;

	memset(indeg, 0, sizeof(uint32_t) * m);
	memset(off, 0, sizeof(uint32_t) * (m + 1));
	for (i = 0; i < ne; i++) {
		indeg[et[i]]++;
		off[ef[i] + 1]++;
	}
	for (v = 0; v < m; v++)
		off[v + 1] += off[v];
	for (i = 0; i < ne; i++)
		adj[off[ef[i]]++] = et[i];
	for (v = m; v > 0; v--)
		off[v] = off[v - 1];
	off[0] = 0;
	for (v = 0; v < m; v++) {
		lv[v] = indeg[v] ? DQR_NONE : 0;
		if (!indeg[v])
			queue[tail++] = v;
	}
	while (head < tail) {
		v = queue[head++];
		for (i = off[v]; i < off[v + 1]; i++) {
			uint32_t w = adj[i];

			if (lv[w] == DQR_NONE || lv[w] < lv[v] + 1)
				lv[w] = lv[v] + 1;
			if (!--indeg[w])
				queue[tail++] = w;
		}
	}
	for (v = 0; v < m; v++)
		if (indeg[v])
			lv[v] = DQR_NONE;
	return tail;
}

/* 1 when w lies on the new route from x towards lid. */
static int on_new_route(const struct planner *pl, uint32_t x, uint32_t w,
			uint32_t lid)
{
	uint32_t y = next_sw(pl->f, pl->to, x, lid), steps = 0;

	while (y != DQR_NONE && y != x && steps++ < pl->f->num_switches) {
		if (y == w)
			return 1;
		y = next_sw(pl->f, pl->to, y, lid);
	}
	return 0;
}

/* Scratch of compute_order(): per destination, at most one entry a switch. */
struct order_scratch {
	uint32_t *loc, *ef, *et, *kind, *lv, *indeg, *queue, *off, *adj;
};

/*
 * The order of one destination's changed switches: after every changed
 * switch downstream on its new route (rule 1), before its old next hop
 * when that changes too and is not on its new route (rule 2).  Rule 2
 * edges that close a cycle with rule 1 are dropped: rule 1 is what keeps
 * the routes loop free.  Returns the edges kept, as local indices.
 */
static uint32_t order_one(struct planner *pl, struct order_scratch *o,
			  uint32_t lid, uint32_t lo, uint32_t m)
{
	const struct dqr_fabric *f = pl->f;
	uint32_t ns = f->num_switches, j, i, x, y, w, ne = 0, k;

	for (j = 0; j < m; j++)
		o->loc[pl->e[lo + j].sw] = j;
	for (j = 0; j < m; j++) {
		x = pl->e[lo + j].sw;
		y = next_sw(f, pl->to, x, lid);
		for (i = 0; y != DQR_NONE && o->loc[y] == DQR_NONE && i < ns;
		     i++)
			y = next_sw(f, pl->to, y, lid);
		if (y != DQR_NONE && o->loc[y] != DQR_NONE && y != x) {
			o->ef[ne] = o->loc[y];
			o->et[ne] = j;
			o->kind[ne++] = 1;
		}
		w = next_sw(f, pl->from, x, lid);
		if (w != DQR_NONE && o->loc[w] != DQR_NONE && w != x &&
		    !on_new_route(pl, x, w, lid)) {
			o->ef[ne] = j;
			o->et[ne] = o->loc[w];
			o->kind[ne++] = 2;
		}
	}
	if (layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue, o->off,
		  o->adj) < m) {
		for (i = 0, k = 0; i < ne; i++)
			if (o->kind[i] == 1 || o->lv[o->ef[i]] != DQR_NONE ||
			    o->lv[o->et[i]] != DQR_NONE) {
				o->ef[k] = o->ef[i];
				o->et[k] = o->et[i];
				o->kind[k++] = o->kind[i];
			}
		ne = k;
		/* a new route that loops can still leave a rule 1 cycle */
		if (layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue,
			  o->off, o->adj) < m) {
			for (i = 0, k = 0; i < ne; i++)
				if (o->lv[o->ef[i]] != DQR_NONE ||
				    o->lv[o->et[i]] != DQR_NONE) {
					o->ef[k] = o->ef[i];
					o->et[k++] = o->et[i];
				}
			ne = k;
			layer(m, o->ef, o->et, ne, o->lv, o->indeg, o->queue,
			      o->off, o->adj);
		}
	}
	for (j = 0; j < m; j++)
		o->loc[pl->e[lo + j].sw] = DQR_NONE;
	return ne;
}

/* Every destination's order, as one DAG over the changed entries. */
static int compute_order(struct planner *pl)
{
	uint32_t ns = pl->f->num_switches, lid, lo, m, j, ne, i, max = 0;
	uint32_t *ef = NULL, *et = NULL, cap = 0, total = 0;
	struct order_scratch o;
	int ret = -1;

	o.loc = malloc(sizeof(uint32_t) * (ns + 1));
	o.ef = malloc(sizeof(uint32_t) * (2 * ns + 1));
	o.et = malloc(sizeof(uint32_t) * (2 * ns + 1));
	o.kind = malloc(sizeof(uint32_t) * (2 * ns + 1));
	o.lv = malloc(sizeof(uint32_t) * (ns + 1));
	o.indeg = malloc(sizeof(uint32_t) * (ns + 1));
	o.queue = malloc(sizeof(uint32_t) * (ns + 1));
	o.off = malloc(sizeof(uint32_t) * (ns + 2));
	o.adj = malloc(sizeof(uint32_t) * (2 * ns + 1));
	pl->succ_off = calloc((size_t)pl->n + 1, sizeof(uint32_t));
	if (!o.loc || !o.ef || !o.et || !o.kind || !o.lv || !o.indeg ||
	    !o.queue || !o.off || !o.adj || !pl->succ_off)
		goto out;
	for (j = 0; j < ns; j++)
		o.loc[j] = DQR_NONE;
	for (lid = 0; lid < pl->u.lc; lid++) {
		lo = pl->lid_off[lid];
		m = pl->lid_off[lid + 1] - lo;
		if (!m)
			continue;
		ne = order_one(pl, &o, lid, lo, m);
		if (total + ne > cap) {
			uint32_t *nf, *nt;

			cap = 2 * (total + ne) + 64;
			nf = realloc(ef, sizeof(uint32_t) * cap);
			if (nf)
				ef = nf;
			nt = realloc(et, sizeof(uint32_t) * cap);
			if (nt)
				et = nt;
			if (!nf || !nt)
				goto out;
		}
		for (i = 0; i < ne; i++) {
			ef[total] = lo + o.ef[i];
			et[total++] = lo + o.et[i];
		}
		for (j = 0; j < m; j++) {
			pl->level[lo + j] = o.lv[j] == DQR_NONE ? 0 : o.lv[j];
			if (pl->level[lo + j] > max)
				max = pl->level[lo + j];
		}
	}
	pl->num_levels = max + 1;
	pl->succ = malloc(sizeof(uint32_t) * (total ? total : 1));
	if (!pl->succ)
		goto out;
	for (i = 0; i < total; i++) {
		pl->succ_off[ef[i] + 1]++;
		pl->pleft[et[i]]++;
	}
	for (j = 0; j < pl->n; j++)
		pl->succ_off[j + 1] += pl->succ_off[j];
	/* the layering's scratch is no longer needed: a fill pointer */
	free(o.adj);
	o.adj = calloc((size_t)pl->n + 1, sizeof(uint32_t));
	if (!o.adj)
		goto out;
	for (i = 0; i < total; i++)
		pl->succ[pl->succ_off[ef[i]] + o.adj[ef[i]]++] = et[i];
	ret = 0;
out:
	free(ef);
	free(et);
	free(o.loc);
	free(o.ef);
	free(o.et);
	free(o.kind);
	free(o.lv);
	free(o.indeg);
	free(o.queue);
	free(o.off);
	free(o.adj);
	return ret;
}

/* The changed entries, LID-major, and the order among them. */
static int collect_changes(struct planner *pl)
{
	uint32_t sw, lid, lc = pl->u.lc, ns = pl->f->num_switches, i, n1;
	uint32_t *fill;
	uint8_t o, nw;

	pl->lid_off = calloc((size_t)lc + 1, sizeof(uint32_t));
	if (!pl->lid_off)
		return -1;
	for (sw = 0; sw < ns; sw++)
		for (lid = 0; lid < lc; lid++)
			if (dqr_lft_get(pl->from, sw, lid) !=
			    dqr_lft_get(pl->to, sw, lid))
				pl->lid_off[lid + 1]++;
	for (lid = 0; lid < lc; lid++)
		pl->lid_off[lid + 1] += pl->lid_off[lid];
	pl->n = pl->lid_off[lc];
	n1 = pl->n ? pl->n : 1;
	pl->e = malloc(sizeof(*pl->e) * n1);
	pl->level = malloc(sizeof(uint32_t) * n1);
	pl->pleft = calloc(n1, sizeof(uint32_t));
	pl->state = calloc(n1, 1);
	pl->failed = calloc(n1, 1);
	pl->s_ent = malloc(sizeof(uint32_t) * n1);
	pl->cand = malloc(sizeof(uint32_t) * n1);
	pl->clids = malloc(sizeof(uint32_t) * n1);
	pl->slids = malloc(sizeof(uint32_t) * n1);
	pl->smark = calloc(lc ? lc : 1, sizeof(uint32_t));
	pl->grp = malloc(sizeof(struct grp) * n1);
	pl->key = malloc(sizeof(uint32_t) * n1);
	pl->lmark = calloc(lc ? lc : 1, sizeof(uint32_t));
	fill = malloc(sizeof(uint32_t) * (lc ? lc : 1));
	if (!pl->e || !pl->level || !pl->pleft || !pl->state || !pl->failed ||
	    !pl->s_ent || !pl->cand || !pl->clids || !pl->grp || !pl->key ||
	    !pl->lmark || !pl->slids || !pl->smark || !fill) {
		free(fill);
		return -1;
	}
	memcpy(fill, pl->lid_off, sizeof(uint32_t) * lc);
	for (sw = 0; sw < ns; sw++)
		for (lid = 0; lid < lc; lid++) {
			o = dqr_lft_get(pl->from, sw, lid);
			nw = dqr_lft_get(pl->to, sw, lid);
			if (o == nw)
				continue;
			i = fill[lid]++;
			pl->e[i].sw = sw;
			pl->e[i].lid = lid;
			pl->e[i].line = 0;
			pl->e[i].old_port = o;
			pl->e[i].new_port = nw;
			pl->u.active[lid] = 1;
		}
	free(fill);
	return compute_order(pl);
}

/* Every changed entry on its new (or old) side, both states alike. */
static void set_all(struct planner *pl, int new_side)
{
	struct uchk *u = &pl->u;
	uint32_t i;
	uint8_t p;

	for (i = 0; i < pl->n; i++) {
		p = new_side ? pl->e[i].new_port : pl->e[i].old_port;
		ent_set(u->a, pl->e[i].sw, pl->e[i].lid, p);
		ent_set(u->b, pl->e[i].sw, pl->e[i].lid, p);
	}
	uchk_rebase(u);
}

/* Whether the tables as they stand are cyclic; the reason names which. */
static int tables_cyclic(struct planner *pl, const char *which)
{
	struct dqr_union_verdict v;
	char buf[1500];
	int cyclic;

	if (uchk_judge(&pl->u, NULL, 0, NULL, 0, JUDGE_ALL | JUDGE_CYCLE,
		       &v) < 0)
		return -1;
	cyclic = v.cyclic;
	if (cyclic) {
		dqr_format_verdict(pl->f, &v, buf, sizeof(buf));
		reason_add(pl->rep, "the %s tables have a %s", which, buf);
	}
	dqr_union_verdict_release(&v);
	return cyclic;
}

/*
 * Loops and dependency cycles of the old and the new tables alone.  What
 * they already hold no order can remove: DLIDs that loop in either are
 * not judged for loops, and when either is cyclic dependencies are not
 * judged at all (the plan is then unsafe, but still loop free).
 */
static int check_ends(struct planner *pl)
{
	struct uchk *u = &pl->u;
	uint32_t lid, old_loops = 0, new_loops = 0, first_old = 0;
	uint32_t first_new = 0;
	uint8_t *lp;
	int old_cyc, new_cyc;

	lp = calloc(u->lc ? u->lc : 1, 1);
	if (!lp)
		return -1;
	for (lid = 1; lid < u->lc; lid++)
		if (lid_judged(pl->f, lid) && uchk_loops(u, lid, NULL)) {
			lp[lid] = 1;
			if (!old_loops++)
				first_old = lid;
		}
	old_cyc = tables_cyclic(pl, "old");
	if (old_cyc < 0)
		goto nomem;

	set_all(pl, 1);
	for (lid = 1; lid < u->lc; lid++) {
		if (!lid_judged(pl->f, lid))
			continue;
		if (u->active[lid] ? uchk_loops(u, lid, NULL) : lp[lid]) {
			lp[lid] |= 2;
			if (!new_loops++)
				first_new = lid;
		}
	}
	new_cyc = tables_cyclic(pl, "new");
	if (new_cyc < 0) {
		set_all(pl, 0);
		goto nomem;
	}
	set_all(pl, 0);

	if (old_loops)
		reason_add(pl->rep, "the old tables loop towards %u DLIDs "
			   "(DLID %u first)", old_loops, first_old);
	if (new_loops)
		reason_add(pl->rep, "the new tables loop towards %u DLIDs "
			   "(DLID %u first)", new_loops, first_new);
	for (lid = 0; lid < u->lc; lid++)
		u->skip_loop[lid] = lp[lid] != 0;
	u->no_cdg = old_cyc || new_cyc;
	pl->rep->old_ok = !old_loops && !old_cyc;
	pl->rep->new_ok = !new_loops && !new_cyc;
	free(lp);
	return 0;
nomem:
	free(lp);
	return -1;
}

/* Puts one entry on the open stage's new side. */
static void stage_put(struct planner *pl, uint32_t i)
{
	const struct dqr_plan_entry *e = &pl->e[i];
	uint32_t k;

	ent_set(pl->u.b, e->sw, e->lid, e->new_port);
	pl->s_ent[pl->s_n++] = i;
	pl->state[i] = ENT_STAGED;
	for (k = pl->succ_off[i]; k < pl->succ_off[i + 1]; k++)
		pl->pleft[pl->succ[k]]--;
	if (pl->lmark[e->lid] != pl->epoch) {
		pl->lmark[e->lid] = pl->epoch;
		pl->clids[pl->nclids++] = e->lid;
	}
}

/* Takes back the last n entries put into the open stage. */
static void stage_drop(struct planner *pl, uint32_t n)
{
	uint32_t i, k;

	while (n--) {
		i = pl->s_ent[--pl->s_n];
		ent_set(pl->u.b, pl->e[i].sw, pl->e[i].lid,
			pl->e[i].old_port);
		pl->state[i] = ENT_PENDING;
		for (k = pl->succ_off[i]; k < pl->succ_off[i + 1]; k++)
			pl->pleft[pl->succ[k]]++;
	}
}

/* The DLIDs of the open stage: where a and b differ. */
static void stage_lids(struct planner *pl)
{
	uint32_t i, lid;

	pl->nslids = 0;
	for (i = 0; i < pl->s_n; i++) {
		lid = pl->e[pl->s_ent[i]].lid;
		if (pl->smark[lid] != pl->epoch) {
			pl->smark[lid] = pl->epoch;
			pl->slids[pl->nslids++] = lid;
		}
	}
}

/*
 * Tries candidates [lo, hi) in the open stage.  Only their DLIDs can
 * have a new loop; the dependencies are judged whole.  1 kept, 0 taken
 * back, -1 out of memory.
 */
static int try_add(struct planner *pl, uint32_t lo, uint32_t hi)
{
	struct dqr_union_verdict v;
	uint32_t before = pl->s_n, i;
	int r;

	pl->nclids = 0;
	pl->epoch++;
	for (i = lo; i < hi; i++)
		stage_put(pl, pl->cand[i]);
	stage_lids(pl);
	r = uchk_judge(&pl->u, pl->clids, pl->nclids, pl->slids, pl->nslids,
		       0, &v);
	dqr_union_verdict_release(&v);
	if (r <= 0)
		stage_drop(pl, pl->s_n - before);
	return r;
}

/* Closes the open stage: its entries are in force from now on. */
static void commit_stage(struct planner *pl)
{
	struct dqr_plan *p = pl->plan;
	uint32_t i, k, n = pl->s_n;

	memset(pl->failed, 0, pl->n);
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		const struct dqr_plan_entry *x = &pl->e[pl->s_ent[i]];

		ent_set(pl->u.a, x->sw, x->lid, x->new_port);
		pl->state[pl->s_ent[i]] = ENT_DONE;
		p->entries[p->stage_off[p->num_stages] + i] = *x;
	}
	k = p->num_stages++;
	p->stage_off[k + 1] = p->stage_off[k] + n;
	p->stage_num[k] = k + 1;
	p->stage_reconf[k] = 0;
	p->num_entries += n;
	if (n > pl->rep->max_stage)
		pl->rep->max_stage = n;
	pl->s_n = 0;
	uchk_rebase(&pl->u);
	dqr_dyn_free(pl->dord);
	pl->dord = NULL;
}

/* The old tables' channel list: where OSR's tokens would pass first. */
static int old_keys(struct planner *pl)
{
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	uint32_t i, c, *pos = NULL;
	int r;

	pl->keys_done = 1;
	if (!pl->u.no_cdg) {
		g = dqr_cdg_build(pl->f, pl->from);
		if (!g)
			return -1;
		r = dqr_channel_list_build(pl->f, g, &cl, NULL);
		dqr_cdg_free(g);
		if (r < 0)
			return -1;
		if (r == 0) {
			pos = cl.pos;
			free(cl.order);
		}
	}
	/* no old channel, no old traffic: such an entry may go first */
	for (i = 0; i < pl->n; i++) {
		c = out_ch(pl->f, pl->e[i].sw, pl->e[i].old_port);
		pl->key[i] = c == DQR_NONE || !pos ? 0 : pos[c] + 1;
	}
	free(pos);
	return 0;
}

struct sort_key {
	uint32_t gkey, level, lid, key, idx;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct sort_key *a = pa, *b = pb;

	if (a->gkey != b->gkey)
		return a->gkey < b->gkey ? -1 : 1;
	if (a->lid != b->lid)
		return a->lid < b->lid ? -1 : 1;
	if (a->level != b->level)
		return a->level < b->level ? -1 : 1;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/*
 * Orders candidates as OSR's tokens would switch them: by the old
 * channel-dependency order of their old out-channel, upstream first;
 * destinations by their most upstream entry, kept together.  cand[] is
 * LID-major on entry.
 */
static int sort_cand(struct planner *pl, uint32_t n)
{
	struct sort_key *k;
	uint32_t i, j, min;

	if (!pl->keys_done && old_keys(pl))
		return -1;
	k = malloc(sizeof(*k) * (n ? n : 1));
	if (!k)
		return -1;
	for (i = 0; i < n; i++) {
		k[i].idx = pl->cand[i];
		k[i].key = pl->key[pl->cand[i]];
		k[i].lid = pl->e[pl->cand[i]].lid;
		k[i].level = pl->level[pl->cand[i]];
	}
	for (i = 0; i < n; i = j) {
		min = k[i].key;
		for (j = i; j < n && k[j].lid == k[i].lid; j++)
			if (k[j].key < min)
				min = k[j].key;
		while (i < j)
			k[i++].gkey = min;
	}
	qsort(k, n, sizeof(*k), cmp_key);
	for (i = 0; i < n; i++)
		pl->cand[i] = k[i].idx;
	free(k);
	return 0;
}

/*
 * Pending entries whose predecessors are staged or done (all, when
 * any_order), that have not failed with the open stage; LID-major.
 */
static uint32_t collect_cand(struct planner *pl, int any_order)
{
	uint32_t i, n = 0;

	for (i = 0; i < pl->n; i++)
		if (pl->state[i] == ENT_PENDING && !pl->failed[i] &&
		    (any_order || !pl->pleft[i]))
			pl->cand[n++] = i;
	return n;
}

/* Runs of equal DLID among the candidates: one group per destination. */
static uint32_t make_groups(struct planner *pl, uint32_t n)
{
	uint32_t i, ng = 0;

	for (i = 0; i < n; i++) {
		if (ng && pl->e[pl->cand[i]].lid ==
			  pl->e[pl->cand[pl->grp[ng - 1].lo]].lid) {
			pl->grp[ng - 1].hi = i + 1;
			continue;
		}
		pl->grp[ng].lo = i;
		pl->grp[ng++].hi = i + 1;
	}
	return ng;
}

/*
 * Opens a stage: the dependency order of the state in force (a; the
 * stage is empty).  When that state is cyclic, which only a forced
 * stage leaves behind, no union can be acyclic until enough of the
 * change is in: stages are then judged for loops only, and count as
 * forced, so that the unsafe stretch lasts as few stages as it can.
 */
static int open_stage(struct planner *pl)
{
	struct uchk *u = &pl->u;
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	int r;

	u->no_cdg = pl->no_cdg;
	pl->loops_only = 0;
	if (pl->no_cdg)
		return 0;
	add_injection(u);
	g = turns_to_cdg(u);
	clear_dyn(u);
	if (!g)
		return -1;
	r = dqr_channel_list_build(pl->f, g, &cl, NULL);
	if (r == 0) {
		pl->dord = dqr_dyn_new(g, &cl);
		dqr_channel_list_free(&cl);
		if (!pl->dord)
			r = -1;
	}
	dqr_cdg_free(g);
	if (r == 1) {
		u->no_cdg = 1;
		pl->loops_only = 1;
	}
	return r < 0 ? -1 : 0;
}

/* 0 added or present, 1 it would close a cycle, -1 out of memory. */
static int order_add(struct planner *pl, uint32_t v, uint32_t w)
{
	int r = dqr_dyn_add(pl->dord, v, w);

	if (r == DQR_DYN_ENOMEM)
		return -1;
	return r == DQR_DYN_CYCLE || r == DQR_DYN_EINVAL;
}

/*
 * The dependencies the union gains when entry i (already on the open
 * stage's b side) may forward by its new port q at X: every channel that
 * carries the DLID into X (by a or b), and every end port at X that does
 * not own it, now depends on X->q; X->q depends on what the next switch
 * does by a or b.  A dependency between two staged entries is added when
 * the later of them is, since each looks at the other's b side.
 */
static int entry_deps(struct planner *pl, uint32_t i)
{
	const struct dqr_fabric *f = pl->f;
	const struct dqr_plan_entry *e = &pl->e[i];
	struct uchk *u = &pl->u;
	const struct dqr_node *n;
	uint32_t cq, r, w, y, k, lid = e->lid;
	unsigned p;
	uint8_t yp[2];
	int ret;

	cq = out_ch(f, e->sw, e->new_port);
	if (cq == DQR_NONE || !lid_judged(f, lid))
		return 0;
	n = &f->nodes[f->switches[e->sw]];
	for (p = 1; p <= n->num_ports; p++) {
		r = f->ports[n->port_base + p].remote;
		if (r == DQR_NONE || !dqr_is_switch(f, f->ports[r].node))
			continue;
		w = f->nodes[f->ports[r].node].sw_index;
		if (ent(u->a, w, lid) != f->ports[r].num &&
		    ent(u->b, w, lid) != f->ports[r].num)
			continue;
		ret = order_add(pl, r, cq);
		if (ret)
			return ret;
	}
	for (k = u->end_off[e->sw]; k < u->end_off[e->sw + 1]; k++) {
		const struct dqr_port *ep = &f->ports[u->end_at[k]];

		if (ep->base_lid && lid >= ep->base_lid &&
		    lid < ep->base_lid + (1u << ep->lmc))
			continue;
		ret = order_add(pl, u->end_at[k], cq);
		if (ret)
			return ret;
	}
	y = ch_next_sw(f, cq);
	if (y == DQR_NONE)
		return 0;
	yp[0] = ent(u->a, y, lid);
	yp[1] = ent(u->b, y, lid);
	for (k = 0; k < 2; k++) {
		if (k && yp[1] == yp[0])
			break;
		w = out_ch(f, y, yp[k]);
		if (w == DQR_NONE)
			continue;
		ret = order_add(pl, cq, w);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * try_add() on the dependency order: candidates [lo, hi) go in one by
 * one, with their dependencies; the first refusal takes them all back.
 */
static int try_add_inc(struct planner *pl, uint32_t lo, uint32_t hi)
{
	size_t mark = dqr_dyn_mark(pl->dord);
	uint32_t before = pl->s_n, i, k;
	int r = 0;

	pl->u.checks++;
	pl->nclids = 0;
	pl->epoch++;
	for (i = lo; i < hi && !r; i++) {
		stage_put(pl, pl->cand[i]);
		r = entry_deps(pl, pl->cand[i]);
	}
	for (k = 0; k < pl->nclids && !r; k++)
		if (!pl->u.skip_loop[pl->clids[k]] &&
		    lid_judged(pl->f, pl->clids[k]) &&
		    uchk_loops(&pl->u, pl->clids[k], NULL))
			r = 1;
	if (!r)
		return 1;
	dqr_dyn_rollback(pl->dord, mark);
	stage_drop(pl, pl->s_n - before);
	return r < 0 ? -1 : 0;
}

/*
 * First fit on the dependency order: destination by destination, an
 * entry at a time for a destination that does not fit whole.  Tried in
 * DLID order first; at the first refusal everything is taken back and
 * tried again in OSR order, so that the outcome is the one of fit().
 */
static int fit_inc(struct planner *pl, uint32_t n, uint32_t *added)
{
	uint32_t ng, i, k, s, before = pl->s_n;
	size_t mark = dqr_dyn_mark(pl->dord);
	int r, sorted = 0;

	*added = 0;
	ng = make_groups(pl, n);
	for (i = 0; i < ng; i++) {
		if (pl->u.checks >= pl->budget)
			break;
		r = try_add_inc(pl, pl->grp[i].lo, pl->grp[i].hi);
		if (r < 0)
			return -1;
		if (r)
			continue;
		if (!sorted) {
			sorted = 1;
			pl->rep->splits++;
			dqr_dyn_rollback(pl->dord, mark);
			stage_drop(pl, pl->s_n - before);
			if (sort_cand(pl, n))
				return -1;
			ng = make_groups(pl, n);
			i = (uint32_t)-1;
			continue;
		}
		k = pl->grp[i].hi - pl->grp[i].lo;
		if (k > 1) {
			uint32_t lo = pl->grp[i].lo;

			memmove(pl->grp + i + k, pl->grp + i + 1,
				sizeof(*pl->grp) * (ng - i - 1));
			for (s = 0; s < k; s++) {
				pl->grp[i + s].lo = lo + s;
				pl->grp[i + s].hi = lo + s + 1;
			}
			ng += k - 1;
			i--;
			continue;
		}
		pl->failed[pl->cand[pl->grp[i].lo]] = 1;
	}
	*added = pl->s_n - before;
	return 0;
}

/*
 * First fit of n candidates into the open stage: everything at once (the
 * usual case), else in OSR order, runs of destinations that double
 * while they fit and halve when they do not.  A destination that does
 * not fit is split into its entries; an entry that does not fit is
 * marked failed for this stage (a stage only grows, so it never fits
 * later).  *added counts what went in.
 */
static int fit(struct planner *pl, uint32_t n, uint32_t *added)
{
	uint32_t ng, i, c, chunk, k, before = pl->s_n;
	int r;

	*added = 0;
	if (pl->dord)
		return fit_inc(pl, n, added);
	r = try_add(pl, 0, n);
	if (r) {
		*added = r > 0 ? n : 0;
		return r < 0 ? -1 : 0;
	}
	pl->rep->splits++;
	if (sort_cand(pl, n))
		return -1;
	ng = make_groups(pl, n);
	chunk = ng > 1 ? ng / 2 : 1;
	i = 0;
	while (i < ng) {
		if (pl->u.checks >= pl->budget)
			break;
		c = chunk < ng - i ? chunk : ng - i;
		r = try_add(pl, pl->grp[i].lo, pl->grp[i + c - 1].hi);
		if (r < 0)
			return -1;
		if (r) {
			i += c;
			chunk = 2 * c;
			continue;
		}
		if (c > 1) {
			chunk = c / 2;
			continue;
		}
		k = pl->grp[i].hi - pl->grp[i].lo;
		if (k > 1) {
			uint32_t lo = pl->grp[i].lo, s;

			memmove(pl->grp + i + k, pl->grp + i + 1,
				sizeof(*pl->grp) * (ng - i - 1));
			for (s = 0; s < k; s++) {
				pl->grp[i + s].lo = lo + s;
				pl->grp[i + s].hi = lo + s + 1;
			}
			ng += k - 1;
			chunk = 1;
			continue;
		}
		pl->failed[pl->cand[pl->grp[i].lo]] = 1;
		i++;
		chunk = 1;
	}
	*added = pl->s_n - before;
	return 0;
}

/*
 * Stages the first candidate although its union fails: nothing that may
 * go now fits even alone, so no order can bridge it from here.  It goes
 * alone, the least that can be at risk, and the reason is kept.
 */
static int force_first(struct planner *pl)
{
	const struct dqr_fabric *f = pl->f;
	const struct dqr_plan_entry *e;
	struct dqr_union_verdict v;
	uint32_t n;
	char buf[1500];
	int r;

	memset(pl->failed, 0, pl->n);
	n = collect_cand(pl, 0);
	if (!n)
		n = collect_cand(pl, 1);
	if (sort_cand(pl, n))
		return -1;
	e = &pl->e[pl->cand[0]];
	pl->nclids = 0;
	pl->epoch++;
	stage_put(pl, pl->cand[0]);
	stage_lids(pl);
	r = uchk_judge(&pl->u, pl->clids, pl->nclids, pl->slids, pl->nslids,
		       JUDGE_ALL | JUDGE_CYCLE, &v);
	if (r < 0)
		return -1;
	pl->rep->safe = 0;
	if (!pl->rep->forced++) {
		dqr_format_verdict(f, &v, buf, sizeof(buf));
		reason_add(pl->rep, "no safe order: switch 0x%016" PRIx64
			   " (%s) DLID %u port %u -> %u fails whatever goes "
			   "before it: %s",
			   f->nodes[f->switches[e->sw]].guid,
			   dqr_node_name(f, f->switches[e->sw]), e->lid,
			   e->old_port, e->new_port, buf);
	}
	dqr_union_verdict_release(&v);
	return 0;
}

/* Past the check budget: what is left goes level by level, unchecked. */
static void place_unchecked(struct planner *pl)
{
	uint32_t lv, i;

	reason_add(pl->rep, "check budget of %" PRIu64 " union checks "
		   "exhausted: the rest is staged by its order, unchecked",
		   pl->budget);
	pl->rep->safe = 0;
	if (pl->loops_only)
		pl->rep->forced += pl->s_n;
	commit_stage(pl);
	for (lv = 0; lv < pl->num_levels; lv++) {
		for (i = 0; i < pl->n; i++)
			if (pl->state[i] == ENT_PENDING && pl->level[i] == lv) {
				pl->nclids = 0;
				stage_put(pl, i);
				pl->rep->forced++;
			}
		commit_stage(pl);
	}
}

/*
 * List scheduling: a stage takes, wave after wave, every entry whose
 * predecessors in its destination's order are staged or done and whose
 * addition keeps the union check.  When nothing fits even alone, the
 * order is relaxed (any pending entry that fits alone), and only then is
 * an entry forced.
 */
static int plan_stages(struct planner *pl)
{
	uint32_t left = pl->n, n, added;
	int relaxed, forced;

	while (left) {
		relaxed = 0;
		forced = 0;
		if (open_stage(pl))
			return -1;
		for (;;) {
			if (pl->u.checks >= pl->budget) {
				place_unchecked(pl);
				return 0;
			}
			n = collect_cand(pl, relaxed);
			added = 0;
			if (n && fit(pl, n, &added))
				return -1;
			if (added) {
				relaxed = 0;
				continue;
			}
			if (pl->s_n)
				break;
			if (!relaxed) {
				relaxed = 1;
				continue;
			}
			if (force_first(pl))
				return -1;
			forced = 1;
			break;
		}
		if (pl->loops_only) {
			if (!pl->rep->stages_cyclic++)
				reason_add(pl->rep, "the state after a forced "
					   "stage is cyclic: later stages are "
					   "judged for loops only while it "
					   "is");
			pl->rep->forced += pl->s_n - forced;
			pl->rep->safe = 0;
		}
		left -= pl->s_n;
		commit_stage(pl);
	}
	pl->u.no_cdg = pl->no_cdg;
	return 0;
}

static void planner_release(struct planner *pl)
{
	dqr_dyn_free(pl->dord);
	uchk_release(&pl->u);
	free(pl->e);
	free(pl->lid_off);
	free(pl->level);
	free(pl->succ_off);
	free(pl->succ);
	free(pl->pleft);
	free(pl->state);
	free(pl->failed);
	free(pl->s_ent);
	free(pl->cand);
	free(pl->clids);
	free(pl->slids);
	free(pl->smark);
	free(pl->lmark);
	free(pl->grp);
	free(pl->key);
}

int dqr_plan_build(const struct dqr_fabric *f, const struct dqr_lfts *from,
		   const struct dqr_lfts *to, struct dqr_plan *plan,
		   struct dqr_plan_report *rep)
{
	struct planner pl;
	uint32_t lc, lid, i;
	uint8_t *seen;
	double t0 = dqr_now_ms();
	int ret = -1;

	memset(rep, 0, sizeof(*rep));
	memset(&pl, 0, sizeof(pl));
	rep->safe = 1;
	lc = from->lid_count > to->lid_count ? from->lid_count : to->lid_count;
	pl.f = f;
	pl.from = from;
	pl.to = to;
	pl.plan = plan;
	pl.rep = rep;
	if (uchk_init(&pl.u, f, from, lc))
		goto out;
	if (collect_changes(&pl) || dqr_plan_alloc(plan, pl.n))
		goto out;
	uchk_seal(&pl.u);
	rep->entries = pl.n;
	rep->levels = pl.n ? pl.num_levels : 0;
	for (lid = 0; lid < lc; lid++)
		rep->dlids += pl.lid_off[lid + 1] > pl.lid_off[lid];
	seen = calloc(f->num_switches ? f->num_switches : 1, 1);
	if (!seen)
		goto out;
	for (i = 0; i < pl.n; i++)
		seen[pl.e[i].sw] = 1;
	for (i = 0; i < f->num_switches; i++)
		rep->switches += seen[i];
	free(seen);
	if (check_ends(&pl))
		goto out;
	if (!rep->old_ok || !rep->new_ok)
		rep->safe = 0;
	/* a guard only: each entry is tried a few times at most */
	pl.budget = 20000 + 16 * (uint64_t)pl.n;
	pl.no_cdg = pl.u.no_cdg;
	if (plan_stages(&pl))
		goto out;
	if (rep->forced > 1)
		reason_add(rep, "%u entries staged although their union "
			   "fails", rep->forced);
	rep->stages = plan->num_stages;
	ret = 0;
out:
	rep->checks = pl.u.checks;
	planner_release(&pl);
	if (ret)
		dqr_plan_release(plan);
	rep->ms = dqr_now_ms() - t0;
	return ret;
}

/* ---------------------------------------------------------------- records */

int dqr_plan_write_stage(FILE *out, const struct dqr_fabric *f,
			 const struct dqr_plan *p, uint32_t s,
			 uint64_t reconf_id)
{
	uint32_t i;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
		const struct dqr_plan_entry *e = &p->entries[i];

		fprintf(out, "%" PRIu64 " %u 0x%016" PRIx64 " %u %u %u\n",
			reconf_id, s + 1, f->nodes[f->switches[e->sw]].guid,
			e->lid, e->old_port, e->new_port);
	}
	return ferror(out) ? -1 : 0;
}

int dqr_plan_write(FILE *out, const struct dqr_fabric *f,
		   const struct dqr_plan *p, uint64_t reconf_id)
{
	uint32_t s;

	fprintf(out, "# reconfiguration %" PRIu64 ": %u stages, %u entries\n",
		reconf_id, p->num_stages, p->num_entries);
	for (s = 0; s < p->num_stages; s++)
		if (dqr_plan_write_stage(out, f, p, s, reconf_id))
			return -1;
	return 0;
}

void dqr_plan_file_release(struct dqr_plan_file *pf)
{
	free(pf->fname);
	free(pf->rec);
	free(pf->ids);
	free(pf->id_of);
	memset(pf, 0, sizeof(*pf));
}

struct guid_sw {
	uint64_t guid;
	uint32_t sw;
};

static int cmp_guid(const void *pa, const void *pb)
{
	const struct guid_sw *a = pa, *b = pb;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static uint32_t find_switch(const struct guid_sw *idx, uint32_t n,
			    uint64_t guid)
{
	uint32_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx[mid].guid == guid)
			return idx[mid].sw;
		if (idx[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return DQR_NONE;
}

/* The index of id in pf->ids, added when new; DQR_NONE when no memory. */
static uint32_t id_index(struct dqr_plan_file *pf, uint64_t id)
{
	uint64_t *ids;
	uint32_t i;

	/* records of one reconfiguration come in runs: try the last first */
	if (pf->num_ids && pf->ids[pf->num_ids - 1] == id)
		return pf->num_ids - 1;
	for (i = 0; i < pf->num_ids; i++)
		if (pf->ids[i] == id)
			return i;
	ids = realloc(pf->ids, sizeof(*ids) * (pf->num_ids + 1));
	if (!ids)
		return DQR_NONE;
	pf->ids = ids;
	pf->ids[pf->num_ids] = id;
	return pf->num_ids++;
}

static const char *const field_names[6] = {
	"reconfiguration id", "stage", "switch GUID", "DLID", "old port",
	"new port",
};

/* Parses one record line (comment already cut) into *r; -1 with err. */
static int parse_record(const struct dqr_fabric *f,
			const struct dqr_text_input *in,
			const struct guid_sw *idx, uint32_t nidx,
			const char *s, struct dqr_plan_record *r,
			uint64_t *id, char *err, size_t errlen)
{
	const char *tok[7];
	size_t len[7];
	uint64_t v[6], max;
	unsigned k, np;
	uint32_t node;

	for (k = 0; k < 7; k++) {
		s = dqr_skip_blanks(s);
		if (!*s)
			break;
		tok[k] = s;
		len[k] = dqr_token_len(s);
		s += len[k];
	}
	if (k != 6) {
		dqr_text_error(in, err, errlen, "%s fields: expected "
			       "<reconfiguration-id> <stage> 0x<switch-guid> "
			       "<dlid> <old-port> <new-port>",
			       k < 6 ? "too few" : "too many");
		return -1;
	}
	for (k = 0; k < 6; k++) {
		const char *t = tok[k];
		size_t l = len[k];
		unsigned base = 10;

		max = k == 0 ? UINT64_MAX : k == 1 ? UINT32_MAX - 1 :
		      k == 2 ? UINT64_MAX : k == 3 ? DQR_MAX_LID : 255;
		if (k == 2) {
			if (l < 3 || t[0] != '0' || (t[1] != 'x' &&
						     t[1] != 'X')) {
				dqr_text_error(in, err, errlen, "switch GUID "
					       "'%.*s' is not 0x<hex>",
					       (int)l, t);
				return -1;
			}
			t += 2;
			l -= 2;
			base = 16;
		}
		if (dqr_parse_uint(t, l, base, max, &v[k])) {
			dqr_text_error(in, err, errlen, "bad %s '%.*s'%s",
				       field_names[k], (int)len[k], tok[k],
				       k == 3 ? " (0 .. 49151)" :
				       k >= 4 ? " (0 .. 255)" : "");
			return -1;
		}
	}
	r->sw = find_switch(idx, nidx, v[2]);
	if (r->sw == DQR_NONE) {
		node = dqr_fabric_find_guid(f, v[2]);
		dqr_text_error(in, err, errlen, node == DQR_NONE ?
			       "no node with GUID 0x%016" PRIx64 " in the "
			       "topology" : "node GUID 0x%016" PRIx64 " is "
			       "not a switch", v[2]);
		return -1;
	}
	np = f->nodes[f->switches[r->sw]].num_ports;
	for (k = 4; k < 6; k++)
		if (v[k] > np && v[k] != DQR_NO_PATH) {
			dqr_text_error(in, err, errlen, "%s %" PRIu64 " is "
				       "beyond the %u ports of switch 0x%016"
				       PRIx64, field_names[k], v[k], np, v[2]);
			return -1;
		}
	*id = v[0];
	r->reconf_id = v[0];
	r->stage = (uint32_t)v[1];
	r->lid = (uint32_t)v[3];
	r->line = (uint32_t)in->lineno;
	r->old_port = (uint8_t)v[4];
	r->new_port = (uint8_t)v[5];
	return 0;
}

int dqr_plan_parse(const struct dqr_fabric *f, FILE *fp, const char *fname,
		   struct dqr_plan_file *pf, char *err, size_t errlen)
{
	struct dqr_text_input in;
	struct guid_sw *idx;
	struct dqr_plan_record r;
	uint32_t cap = 0, i, *io;
	uint64_t id;
	char *hash;
	const char *s;
	int ret;

	memset(pf, 0, sizeof(*pf));
	pf->f = f;
	idx = malloc(sizeof(*idx) * (f->num_switches ? f->num_switches : 1));
	pf->fname = strdup(fname);
	if (!idx || !pf->fname) {
		free(idx);
		dqr_plan_file_release(pf);
		snprintf(err, errlen, "%s: out of memory", fname);
		return -1;
	}
	for (i = 0; i < f->num_switches; i++) {
		idx[i].guid = f->nodes[f->switches[i]].guid;
		idx[i].sw = i;
	}
	qsort(idx, f->num_switches, sizeof(*idx), cmp_guid);
	dqr_text_input_init(&in, fp, fname);
	while ((ret = dqr_text_input_next(&in, err, errlen)) == 1) {
		hash = strchr(in.line, '#');
		if (hash)
			*hash = '\0';
		s = dqr_skip_blanks(in.line);
		if (!*s)
			continue;
		if (parse_record(f, &in, idx, f->num_switches, s, &r, &id,
				 err, errlen)) {
			ret = -1;
			break;
		}
		if (pf->num == cap) {
			struct dqr_plan_record *nr;

			cap = cap ? 2 * cap : 256;
			nr = realloc(pf->rec, sizeof(*nr) * cap);
			io = realloc(pf->id_of, sizeof(*io) * cap);
			if (nr)
				pf->rec = nr;
			if (io)
				pf->id_of = io;
			if (!nr || !io) {
				dqr_text_error(&in, err, errlen,
					       "out of memory");
				ret = -1;
				break;
			}
		}
		pf->id_of[pf->num] = id_index(pf, id);
		if (pf->id_of[pf->num] == DQR_NONE) {
			dqr_text_error(&in, err, errlen, "out of memory");
			ret = -1;
			break;
		}
		pf->rec[pf->num++] = r;
	}
	dqr_text_input_release(&in);
	free(idx);
	if (ret < 0) {
		dqr_plan_file_release(pf);
		return -1;
	}
	return 0;
}

int dqr_plan_read(const struct dqr_fabric *f, const char *path,
		  struct dqr_plan_file *pf, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	int ret;

	if (!fp) {
		memset(pf, 0, sizeof(*pf));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = dqr_plan_parse(f, fp, path, pf, err, errlen);
	fclose(fp);
	return ret;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct dqr_plan_entry *a = pa, *b = pb;

	if (a->sw != b->sw)
		return a->sw < b->sw ? -1 : 1;
	if (a->lid != b->lid)
		return a->lid < b->lid ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* One stage must not change an entry twice: its union would be vague. */
static int stage_twice(const struct dqr_plan_file *pf,
		       const struct dqr_plan *p, uint32_t s,
		       struct dqr_plan_entry *tmp, char *err, size_t errlen)
{
	const struct dqr_fabric *f = pf->f;
	uint32_t lo = p->stage_off[s], n = p->stage_off[s + 1] - lo, i;

	memcpy(tmp, p->entries + lo, sizeof(*tmp) * n);
	qsort(tmp, n, sizeof(*tmp), cmp_entry);
	for (i = 1; i < n; i++)
		if (tmp[i].sw == tmp[i - 1].sw &&
		    tmp[i].lid == tmp[i - 1].lid) {
			dqr_text_error_at(pf->fname, tmp[i].line, err, errlen,
					  "switch 0x%016" PRIx64 " DLID %u is "
					  "changed twice in stage %u (line %u "
					  "too)",
					  f->nodes[f->switches[tmp[i].sw]].guid,
					  tmp[i].lid, p->stage_num[s],
					  tmp[i - 1].line);
			return -1;
		}
	return 0;
}

int dqr_plan_select(const struct dqr_plan_file *pf, const uint64_t *id,
		    struct dqr_plan *p, char *err, size_t errlen)
{
	struct dqr_plan_entry *tmp = NULL;
	uint32_t i, n = 0, s, *last = NULL, prev = DQR_NONE, ns;

	for (i = 0; i < pf->num; i++)
		n += !id || pf->rec[i].reconf_id == *id;
	if (id && !n) {
		snprintf(err, errlen, "%s: no records of reconfiguration %"
			 PRIu64, pf->fname, *id);
		return -1;
	}
	last = malloc(sizeof(uint32_t) * (pf->num_ids ? pf->num_ids : 1));
	tmp = malloc(sizeof(*tmp) * (n ? n : 1));
	if (!last || !tmp || dqr_plan_alloc(p, n)) {
		snprintf(err, errlen, "%s: out of memory", pf->fname);
		goto fail;
	}
	for (i = 0; i < pf->num_ids; i++)
		last[i] = DQR_NONE;
	for (i = 0; i < pf->num; i++) {
		const struct dqr_plan_record *r = &pf->rec[i];
		struct dqr_plan_entry *e;
		uint32_t k = pf->id_of[i];

		if (id && r->reconf_id != *id)
			continue;
		if (prev == DQR_NONE ||
		    r->reconf_id != pf->rec[prev].reconf_id ||
		    r->stage != pf->rec[prev].stage) {
			/* a new stage: it must come after its id's last one */
			if (last[k] != DQR_NONE && r->stage <= last[k]) {
				dqr_text_error_at(pf->fname, r->line, err,
						  errlen, "stage %u of "
						  "reconfiguration %" PRIu64
						  " after its stage %u",
						  r->stage, r->reconf_id,
						  last[k]);
				goto fail;
			}
			last[k] = r->stage;
			ns = p->num_stages++;
			p->stage_off[ns + 1] = p->stage_off[ns];
			p->stage_reconf[ns] = r->reconf_id;
			p->stage_num[ns] = r->stage;
		}
		prev = i;
		e = &p->entries[p->num_entries++];
		e->sw = r->sw;
		e->lid = r->lid;
		e->line = r->line;
		e->old_port = r->old_port;
		e->new_port = r->new_port;
		p->stage_off[p->num_stages]++;
	}
	for (s = 0; s < p->num_stages; s++)
		if (stage_twice(pf, p, s, tmp, err, errlen))
			goto fail;
	free(last);
	free(tmp);
	return 0;
fail:
	free(last);
	free(tmp);
	dqr_plan_release(p);
	return -1;
}

/* ---------------------------------------------------------------- replay */

void dqr_replay_report_release(struct dqr_replay_report *r)
{
	uint32_t s;

	for (s = 0; s < r->num_stages; s++)
		dqr_union_verdict_release(&r->stages[s].v);
	free(r->stages);
	memset(r, 0, sizeof(*r));
}

/*
 * Loops of the DLIDs a stage does not touch: they are those of the state
 * before it.  flag[] marks the DLIDs that loop there (count of them),
 * mark[] == epoch the stage's DLIDs.
 */
static void add_other_loops(struct uchk *u, const uint8_t *flag,
			    uint32_t count, const uint32_t *lids, uint32_t n,
			    struct dqr_union_verdict *v)
{
	uint32_t i, lid, in_stage = 0;

	for (i = 0; i < n; i++)
		in_stage += flag[lids[i]] != 0;
	if (count == in_stage)
		return;
	v->loop_dlids += count - in_stage;
	if (v->loop_lid)
		return;
	for (lid = 1; lid < u->lc; lid++) {
		if (!flag[lid])
			continue;
		for (i = 0; i < n && lids[i] != lid; i++)
			;
		if (i < n)
			continue;
		v->loop_lid = lid;
		uchk_loops(u, lid, v);
		return;
	}
}

/* The distinct DLIDs of entries [lo, hi). */
static uint32_t stage_lids_e(const struct dqr_plan_entry *e, uint32_t lo,
			     uint32_t hi, uint32_t *mark, uint32_t epoch,
			     uint32_t *lids)
{
	uint32_t i, n = 0, lid;

	for (i = lo; i < hi; i++) {
		lid = e[i].lid;
		if (mark[lid] != epoch) {
			mark[lid] = epoch;
			lids[n++] = lid;
		}
	}
	return n;
}

int dqr_plan_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
		    const struct dqr_plan *p, struct dqr_lfts **end_out,
		    struct dqr_replay_report *r)
{
	struct uchk u;
	uint32_t lc = start->lid_count, i, s, lid, n, nloop = 0;
	uint32_t *mark = NULL, *lids = NULL;
	uint8_t *lp = NULL;
	double t0 = dqr_now_ms();
	int ret = -1, jr;

	memset(r, 0, sizeof(*r));
	if (end_out)
		*end_out = NULL;
	for (i = 0; i < p->num_entries; i++)
		if (p->entries[i].lid >= lc)
			lc = p->entries[i].lid + 1;
	if (uchk_init(&u, f, start, lc))
		return -1;
	mark = calloc(lc, sizeof(uint32_t));
	lids = malloc(sizeof(uint32_t) * (p->num_entries + 1));
	lp = calloc(lc, 1);
	r->stages = calloc(p->num_stages + 1, sizeof(*r->stages));
	if (!mark || !lids || !lp || !r->stages)
		goto out;
	for (i = 0; i < p->num_entries; i++)
		u.active[p->entries[i].lid] = 1;
	uchk_seal(&u);
	for (lid = 1; lid < lc; lid++)
		if (lid_judged(f, lid) && uchk_loops(&u, lid, NULL)) {
			lp[lid] = 1;
			nloop++;
		}
	for (s = 0; s < p->num_stages; s++) {
		struct dqr_stage_result *sr = &r->stages[s];
		uint32_t lo = p->stage_off[s], hi = p->stage_off[s + 1];

		r->num_stages++;
		sr->reconf_id = p->stage_reconf[s];
		sr->stage = p->stage_num[s];
		sr->entries = hi - lo;
		sr->first_mismatch = DQR_NONE;
		for (i = lo; i < hi; i++) {
			const struct dqr_plan_entry *e = &p->entries[i];
			uint8_t cur = ent(u.a, e->sw, e->lid);

			if (cur != e->old_port && !sr->mismatches++) {
				sr->first_mismatch = i;
				sr->found_port = cur;
			}
			ent_set(u.b, e->sw, e->lid, e->new_port);
		}
		n = stage_lids_e(p->entries, lo, hi, mark, s + 1, lids);
		jr = uchk_judge(&u, lids, n, lids, n, JUDGE_ALL | JUDGE_CYCLE,
				&sr->v);
		if (jr < 0)
			goto out;
		add_other_loops(&u, lp, nloop, lids, n, &sr->v);
		r->bad_stages += !dqr_union_ok(&sr->v);
		r->mismatches += sr->mismatches;
		for (i = lo; i < hi; i++)
			ent_set(u.a, p->entries[i].sw, p->entries[i].lid,
				p->entries[i].new_port);
		uchk_rebase(&u);
		for (i = 0; i < n; i++) {
			if (!lid_judged(f, lids[i]))
				continue;
			nloop -= lp[lids[i]];
			lp[lids[i]] = (uint8_t)uchk_loops(&u, lids[i], NULL);
			nloop += lp[lids[i]];
		}
	}
	if (end_out) {
		*end_out = lfts_widen(u.a, lc);
		if (!*end_out)
			goto out;
	}
	ret = 0;
out:
	free(mark);
	free(lids);
	free(lp);
	uchk_release(&u);
	if (ret)
		dqr_replay_report_release(r);
	r->ms = dqr_now_ms() - t0;
	return ret;
}

/* ---------------------------------------------------------------- one shot */

void dqr_one_shot_report_release(struct dqr_one_shot_report *r)
{
	dqr_union_verdict_release(&r->whole);
	memset(r, 0, sizeof(*r));
}

/* Sets side (a or b) of entries [lo, hi) to the old or the new port. */
static void set_side(struct dqr_lfts *t, const struct dqr_plan_entry *e,
		     uint32_t lo, uint32_t hi, int to_new)
{
	uint32_t i;

	for (i = lo; i < hi; i++)
		ent_set(t, e[i].sw, e[i].lid,
			to_new ? e[i].new_port : e[i].old_port);
}

/* Judges one per-switch state; counts it as looping, cyclic, bad. */
static int judge_state(struct uchk *u, const uint32_t *lids, uint32_t n,
		       const uint8_t *flag, uint32_t count, uint32_t *loop,
		       uint32_t *cyclic, uint32_t *bad)
{
	struct dqr_union_verdict v;
	int r = uchk_judge(u, lids, n, lids, n, JUDGE_ALL, &v);

	if (r < 0)
		return -1;
	add_other_loops(u, flag, count, lids, n, &v);
	*loop += v.loop_dlids != 0;
	*cyclic += v.cyclic != 0;
	*bad += !dqr_union_ok(&v);
	r = dqr_union_ok(&v);
	dqr_union_verdict_release(&v);
	return r;
}

int dqr_one_shot_judge(const struct dqr_fabric *f, const struct dqr_lfts *old,
		       const struct dqr_lfts *new_t,
		       struct dqr_one_shot_report *r)
{
	struct dqr_union_verdict v;
	struct dqr_plan_entry *e = NULL;
	struct uchk u;
	uint32_t lc, sw, lid, n = 0, i, lo, hi, nl, *lids = NULL;
	uint32_t *mark = NULL, epoch = 0;
	uint8_t *lpo = NULL, *lpn = NULL, o, nw;
	double t0 = dqr_now_ms();
	int ret = -1, jr;

	memset(r, 0, sizeof(*r));
	r->first_bad_sw = r->last_bad_sw = DQR_NONE;
	lc = old->lid_count > new_t->lid_count ? old->lid_count :
	     new_t->lid_count;
	if (uchk_init(&u, f, old, lc))
		return -1;
	for (sw = 0; sw < f->num_switches; sw++)
		for (lid = 0; lid < lc; lid++)
			n += dqr_lft_get(old, sw, lid) !=
			     dqr_lft_get(new_t, sw, lid);
	e = malloc(sizeof(*e) * (n ? n : 1));
	lids = malloc(sizeof(uint32_t) * (lc ? lc : 1));
	mark = calloc(lc ? lc : 1, sizeof(uint32_t));
	lpo = calloc(lc ? lc : 1, 1);
	lpn = calloc(lc ? lc : 1, 1);
	if (!e || !lids || !mark || !lpo || !lpn)
		goto out;
	/* switch-major: each switch's entries are one run */
	n = 0;
	for (sw = 0; sw < f->num_switches; sw++) {
		int any = 0;

		for (lid = 0; lid < lc; lid++) {
			o = dqr_lft_get(old, sw, lid);
			nw = dqr_lft_get(new_t, sw, lid);
			if (o == nw)
				continue;
			e[n].sw = sw;
			e[n].lid = lid;
			e[n].line = 0;
			e[n].old_port = o;
			e[n++].new_port = nw;
			u.active[lid] = 1;
			any = 1;
		}
		r->switches += any;
	}
	r->entries = n;
	uchk_seal(&u);
	for (i = 0; i < u.num_act; i++)
		r->dlids++;

	/* the old tables alone */
	for (lid = 1; lid < lc; lid++)
		if (lid_judged(f, lid) && uchk_loops(&u, lid, NULL)) {
			lpo[lid] = 1;
			r->old_loop_dlids++;
		}
	jr = uchk_judge(&u, NULL, 0, NULL, 0, JUDGE_ALL, &v);
	if (jr < 0)
		goto out;
	r->old_cyclic = v.cyclic;
	/* the new tables alone */
	set_side(u.a, e, 0, n, 1);
	set_side(u.b, e, 0, n, 1);
	uchk_rebase(&u);
	for (lid = 1; lid < lc; lid++) {
		if (!lid_judged(f, lid))
			continue;
		lpn[lid] = u.active[lid] ? (uint8_t)uchk_loops(&u, lid, NULL) :
			   lpo[lid];
		r->new_loop_dlids += lpn[lid];
	}
	jr = uchk_judge(&u, NULL, 0, NULL, 0, JUDGE_ALL, &v);
	if (jr < 0)
		goto out;
	r->new_cyclic = v.cyclic;
	/* every switch by either table */
	set_side(u.a, e, 0, n, 0);
	uchk_rebase(&u);
	jr = uchk_judge(&u, u.act, u.num_act, u.act, u.num_act,
			JUDGE_ALL | JUDGE_CYCLE, &r->whole);
	if (jr < 0)
		goto out;
	/* the DLIDs it does not judge are the same in old and new */
	for (lid = 1; lid < lc; lid++)
		if (!u.active[lid] && lpo[lid] && !r->whole.loop_dlids++)
			r->whole.loop_lid = lid;

	/* only s has switched: a old, b old but s new */
	set_side(u.b, e, 0, n, 0);
	for (lo = 0; lo < n; lo = hi) {
		for (hi = lo; hi < n && e[hi].sw == e[lo].sw; hi++)
			;
		nl = stage_lids_e(e, lo, hi, mark, ++epoch, lids);
		set_side(u.b, e, lo, hi, 1);
		jr = judge_state(&u, lids, nl, lpo, r->old_loop_dlids,
				 &r->first_loop, &r->first_cyclic,
				 &r->first_bad);
		set_side(u.b, e, lo, hi, 0);
		if (jr < 0)
			goto out;
		if (!jr && r->first_bad_sw == DQR_NONE)
			r->first_bad_sw = e[lo].sw;
		r->states++;
	}
	/* every switch but s has switched: a new, b new but s old */
	set_side(u.a, e, 0, n, 1);
	set_side(u.b, e, 0, n, 1);
	uchk_rebase(&u);
	for (lo = 0; lo < n; lo = hi) {
		for (hi = lo; hi < n && e[hi].sw == e[lo].sw; hi++)
			;
		nl = stage_lids_e(e, lo, hi, mark, ++epoch, lids);
		set_side(u.b, e, lo, hi, 0);
		jr = judge_state(&u, lids, nl, lpn, r->new_loop_dlids,
				 &r->last_loop, &r->last_cyclic,
				 &r->last_bad);
		set_side(u.b, e, lo, hi, 1);
		if (jr < 0)
			goto out;
		if (!jr && r->last_bad_sw == DQR_NONE)
			r->last_bad_sw = e[lo].sw;
		r->states++;
	}
	ret = 0;
out:
	free(e);
	free(lids);
	free(mark);
	free(lpo);
	free(lpn);
	uchk_release(&u);
	if (ret)
		dqr_one_shot_report_release(r);
	r->ms = dqr_now_ms() - t0;
	return ret;
}
