/*
 * union_check.c - the union check: is the union of two states of a
 * transition loop free and acyclic?  Separate because it is the hot path
 * that the planner, the replay and the one-shot judgement all drive
 * (through transition-internal.h), and none of them needs its inside.
 *
 * Only DLIDs with a changed entry differ between the states of a
 * transition, so the dependencies of every other DLID are collected once
 * (as turn bits, one per channel and out-port of the node it enters, the
 * technique of cdg.c); those of the state in force are collected once
 * per stage; and a whole check adds only the turns of the DLIDs in the
 * stage being judged: O(stage DLIDs x switches + channels x radix), never
 * O(all DLIDs x switches).
 */
#include <stdlib.h>
#include <string.h>

#include "routes/route_walk.h"
#include "transition/transition-internal.h"
#include "verify/verify_print.h"

struct dqr_lfts *tr_lfts_widen(const struct dqr_lfts *t, uint32_t lc)
{
	struct dqr_lfts *w = dqr_lfts_new(t->num_switches, lc);
	uint32_t sw, n = t->lid_count < lc ? t->lid_count : lc;

	if (!w)
		return NULL;
	for (sw = 0; sw < t->num_switches; sw++)
		memcpy(dqr_lft_row(w, sw), dqr_lft_row(t, sw), n);
	return w;
}

/* The checker's arrays, for uchk_init() to allocate and uchk_release(). */
#define UCHK_BUFS 17

/*
 * The table of the checker's arrays and their sizes, from which both
 * uchk_init() allocates and uchk_release() frees them, so the two cannot
 * disagree (mem.h).
 */
static void uchk_bufs(struct uchk *u, struct dqr_buf *b)
{
	size_t n1 = u->nv, ns = u->ns, lc = u->lc;
	const struct dqr_buf t[UCHK_BUFS] = {
		DQR_BUF(u->active, lc), DQR_BUF(u->act, lc),
		DQR_BUF(u->skip_loop, lc), DQR_BUF(u->rbase, n1),
		DQR_BUF(u->ends, n1), DQR_BUF(u->end_sw, n1),
		DQR_BUF(u->end_off, ns + 1), DQR_BUF(u->end_at, n1),
		DQR_BUF(u->sbase, n1), DQR_BUF(u->abase, n1),
		DQR_BUF(u->scnt, ns * PORT_SLOTS),
		DQR_BUF(u->cnt, ns * PORT_SLOTS),
		DQR_BUF(u->dyn, n1), DQR_BUF(u->tmark, n1),
		DQR_BUF(u->touched, n1), DQR_BUF(u->indeg, n1),
		DQR_BUF(u->queue, n1),
	};

	memcpy(b, t, sizeof(t));
}

void uchk_release(struct uchk *u)
{
	struct dqr_buf b[UCHK_BUFS];

	dqr_lfts_free(u->a);
	dqr_lfts_free(u->b);
	uchk_bufs(u, b);
	dqr_bufs_free(b, UCHK_BUFS);
	dqr_loop_search_release(&u->loops);
	memset(u, 0, sizeof(*u));
}

/* End ports and the switches they enter at, by switch (CSR). */
static void uchk_index_ends(struct uchk *u)
{
	const struct dqr_fabric *f = u->f;
	uint32_t i, sw, ns = u->ns;

	for (i = 0; i < u->nv; i++) {
		const struct dqr_port *p = &f->ports[i];

		u->rbase[i] = DQR_NONE;
		if (!p->num || dqr_peer_port(f, i) == DQR_NONE)
			continue;
		u->num_channels++;
		u->rbase[i] = f->nodes[dqr_peer_node(f, i)].port_base;
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
}

int uchk_init(struct uchk *u, const struct dqr_fabric *f,
	      const struct dqr_lfts *t, uint32_t lc)
{
	struct dqr_buf b[UCHK_BUFS];

	memset(u, 0, sizeof(*u));
	u->f = f;
	u->nv = f->num_ports;
	u->ns = f->num_switches;
	u->lc = lc;
	u->a = tr_lfts_widen(t, lc);
	u->b = tr_lfts_widen(t, lc);
	uchk_bufs(u, b);
	if (!u->a || !u->b || dqr_bufs_alloc(b, UCHK_BUFS) ||
	    dqr_loop_search_init(&u->loops, u->ns)) {
		uchk_release(u);
		return -1;
	}
	uchk_index_ends(u);
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

/* The stages of lid's changed entries into sw_stage (set 1) or out. */
static void time_order_fill(struct uchk *u, uint32_t lid, int set)
{
	uint32_t i, j;

	for (i = u->t_off[lid]; i < u->t_off[lid + 1]; i++) {
		j = u->t_idx[i];
		u->sw_stage[u->t_ent[j].sw] = set ? u->t_stage[j] : DQR_NONE;
	}
}

/*
 * 1 when sw forwards by its new entry (pp differs from a) into nx's old
 * one (qq differs from b), nx's entry changing in an earlier stage than
 * sw's: the packet leaves sw after sw changed, so it reaches nx after
 * nx changed, and never meets nx's old entry.
 */
static int turn_too_late(const struct uchk *u, uint32_t sw, uint8_t pp,
			 uint32_t nx, uint8_t qq, uint32_t lid)
{
	uint32_t s_sw = u->sw_stage[sw], s_nx = u->sw_stage[nx];

	return pp != ent(u->a, sw, lid) && qq != ent(u->b, nx, lid) &&
	       s_sw != DQR_NONE && s_nx != DQR_NONE && s_nx < s_sw;
}

/*
 * The turns towards one LID: the channel of every entry of a switch
 * (a's, and b's for TURNS_UNION) followed by every entry of the switch
 * it enters that the switch model lets a packet take from that channel
 * (fabric/relay.h: not the channel's own cable back).
 */
static void add_transit(struct uchk *u, uint32_t lid, int where)
{
	const struct dqr_fabric *f = u->f;
	const struct dqr_lfts *b = where == TURNS_UNION ? u->b : u->a;
	int timed = where == TURNS_UNION && u->t_off;
	uint32_t sw, c, nx;
	unsigned k, l, np, nq;
	uint8_t p[2], q[2];

	if (timed)
		time_order_fill(u, lid, 1);
	for (sw = 0; sw < u->ns; sw++) {
		np = uchk_ports(u, b, sw, lid, p);
		for (k = 0; k < np; k++) {
			c = out_ch(f, sw, p[k]);
			nx = dqr_peer_switch(f, c);
			if (nx == DQR_NONE)
				continue;
			nq = uchk_ports(u, b, nx, lid, q);
			for (l = 0; l < nq; l++) {
				/* nx sends nothing back the way it came */
				if (!dqr_relays(f, c, out_ch(f, nx, q[l])))
					continue;
				if (!timed || !turn_too_late(u, sw, p[k], nx,
							     q[l], lid))
					put_turn(u, where, c, q[l]);
			}
		}
	}
	if (timed)
		time_order_fill(u, lid, 0);
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
void uchk_add_injection(struct uchk *u)
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
			unsigned k, npp;

			if (lid >= u->lc || !lid_judged(f, lid))
				continue;
			npp = uchk_ports(u, u->b, sw, lid, pp);
			for (k = 0; k < npp; k++) {
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

void uchk_clear_dyn(struct uchk *u)
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
struct dqr_cdg *uchk_turns_to_cdg(struct uchk *u)
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
void uchk_rebase(struct uchk *u)
{
	uint32_t i;

	memcpy(u->abase, u->sbase, sizeof(struct turn_bits) * u->nv);
	memcpy(u->cnt, u->scnt, sizeof(uint32_t) * PORT_SLOTS * u->ns);
	for (i = 0; i < u->num_act; i++) {
		add_transit(u, u->act[i], TURNS_A);
		count_a(u, u->act[i], u->cnt);
	}
}

void uchk_set_both(struct uchk *u, const struct dqr_plan_entry *e,
		   uint32_t n, int to_new)
{
	ent_set_side(u->a, e, 0, n, to_new);
	ent_set_side(u->b, e, 0, n, to_new);
	uchk_rebase(u);
}

/* Turns of the inactive LIDs, once: they are the same in every state. */
void uchk_seal(struct uchk *u)
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
	uchk_add_injection(u);
	for (i = 0; i < n; i++)
		if (lid_judged(u->f, lids[i]))
			count_b(u, lids[i], -1);
	ret = !turns_acyclic(u);
	if (ret && cycle) {
		g = uchk_turns_to_cdg(u);
		if (!g || dqr_channel_list_build(u->f, g, &cl, cycle) != 1)
			ret = -1;
		dqr_cdg_free(g);
	}
	uchk_clear_dyn(u);
	return ret;
}

/* union_loops.h's view of the union: a's entry and b's where it differs */
static unsigned union_entries(const void *ctx, uint32_t sw, uint32_t lid,
			      uint8_t q[2])
{
	const struct uchk *u = ctx;

	return uchk_ports(u, u->b, sw, lid, q);
}

/*
 * 1 when the union loops towards lid, as the switch model lets a packet
 * go (routes/union_loops.h).  The loop found is recorded in v when v is
 * not NULL.
 */
int uchk_loops(struct uchk *u, uint32_t lid, struct dqr_union_verdict *v)
{
	uint32_t s, len;

	dqr_loop_search_begin(&u->loops);
	for (s = 0; s < u->ns; s++)
		if (dqr_union_loop_from(&u->loops, u->f, union_entries, u, lid,
					s, v ? v->loop_sw : NULL,
					DQR_LOOP_SHOWN, &len)) {
			if (v)
				v->loop_len = len;
			return 1;
		}
	return 0;
}

/*
 * Judges the union of a and b.  dlids holds every DLID whose entries
 * differ between a and b; loops are searched towards those of lids only
 * (the others are single valued or known: the caller's business).
 * Without JUDGE_ALL the first failure ends the check.  Returns 1 when
 * the union holds, 0 when not, -1 when out of memory.
 */
int uchk_judge(struct uchk *u, const uint32_t *lids, uint32_t n,
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
