/*
 * verify.c - reachability, loops, dead ports, hops and deadlock freedom of
 * a set of forwarding tables.
 *
 * Pairs are (source port, destination LID).  Sources that enter the
 * fabric at the same switch share that switch's outcome for a DLID, so
 * each DLID costs one walk over the switches plus one pass over them to
 * weigh each outcome by the sources behind it.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "util/timing.h"
#include "util/union_find.h"
#include "verify/verify.h"

static const char *const kind_names[DQR_PAIR_NUM_KINDS] = {
	DQR_PAIR_KINDS(DQR_ENUM_NAME)
};

const char *dqr_pair_kind_name(enum dqr_pair_kind k)
{
	return dqr_name_of(kind_names, DQR_PAIR_NUM_KINDS, k);
}

/* Per switch: the end ports that inject there. */
struct sources {
	uint32_t *count;	/* end ports entering at each switch */
	uint32_t *first;	/* one of them, for examples */
	uint32_t *comp;		/* connected component of each node */
};

/*
 * Per switch, how many end ports inject there (and one of them for the
 * examples), and every node's connected component: a DLID's walk is then
 * weighed by its sources in O(switches), and a pair no cable joins is told
 * from one the tables fail.  0, or -1 when out of memory.
 */
static int sources_build(const struct dqr_fabric *f, struct sources *s)
{
	uint32_t i, sw;

	s->count = calloc(f->num_switches + 1, sizeof(uint32_t));
	s->first = malloc((f->num_switches + 1) * sizeof(uint32_t));
	s->comp = malloc((f->num_nodes + 1) * sizeof(uint32_t));
	if (!s->count || !s->first || !s->comp)
		return -1;
	for (i = 0; i < f->num_nodes; i++)
		s->comp[i] = i;
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];
		uint32_t a, b = dqr_peer_node(f, i);

		if (!p->num || b == DQR_NONE)
			continue;
		a = dqr_uf_root(s->comp, p->node);
		b = dqr_uf_root(s->comp, b);
		if (a != b)
			s->comp[a] = b;
		if (dqr_is_switch(f, p->node))
			continue;
		sw = dqr_peer_switch(f, i);
		if (sw == DQR_NONE)
			continue;
		if (!s->count[sw]++)
			s->first[sw] = i;
	}
	for (i = 0; i < f->num_nodes; i++)
		s->comp[i] = dqr_uf_root(s->comp, i);
	return 0;
}

static void sources_free(struct sources *s)
{
	free(s->count);
	free(s->first);
	free(s->comp);
}

static void add_example(struct dqr_verify_report *r, uint32_t src_port,
			uint32_t dlid, const struct dqr_walk_state *w,
			enum dqr_pair_kind kind)
{
	struct dqr_pair_example *x;

	if (r->num_examples >= sizeof(r->examples) / sizeof(r->examples[0]))
		return;
	x = &r->examples[r->num_examples++];
	x->src_port = src_port;
	x->dlid = dlid;
	x->fail_sw = w->fail_sw;
	x->result = w->result;
	x->kind = (uint8_t)kind;
}

/* Weighs one outcome by n sources of one kind. */
static void count_pairs(struct dqr_verify_report *r, enum dqr_pair_kind kind,
			uint64_t n, const struct dqr_walk_state *w,
			unsigned extra_hops, int connected)
{
	unsigned hops;

	if (!n)
		return;
	r->pairs[kind] += n;
	if (w->result != DQR_WALK_OK) {
		r->unreachable[kind] += n;
		r->by_result[w->result] += n;
		if (!connected)
			r->disconnected[kind] += n;
		return;
	}
	hops = w->hops + extra_hops;
	if (hops > DQR_MAX_HOPS)
		hops = DQR_MAX_HOPS;
	r->hop_hist[hops] += n;
}

/*
 * Weighs lid's walk (st) by the sources at every switch: each end port
 * that injects there (not the owner itself) and the switch as a source,
 * pairs counted by kind and outcome, loop entries and entries into dead
 * ports noted, the first failures kept as examples.  O(switches).
 */
static void judge_dlid(const struct dqr_fabric *f, const struct dqr_lfts *t,
		       uint32_t lid, const struct dqr_walk_state *st,
		       const struct sources *s, struct dqr_verify_report *r)
{
	uint32_t owner = dqr_lid_owner(f, lid), sw, sw_node;
	uint32_t own_sw = dqr_ingress_switch(f, owner);
	int dst_sw = dqr_is_switch(f, f->ports[owner].node);
	uint32_t dst_comp = s->comp[f->ports[owner].node];
	uint8_t p;

	for (sw = 0; sw < f->num_switches; sw++) {
		const struct dqr_walk_state *w = &st[sw];
		uint64_t ends = s->count[sw];
		int conn;

		sw_node = f->switches[sw];
		conn = s->comp[sw_node] == dst_comp;
		/* an end port does not send to its own LIDs */
		if (!dst_sw && sw == own_sw)
			ends--;
		if (w->on_loop)
			r->loop_entries++;
		p = dqr_lft_get(t, sw, lid);
		/* towards an unreachable island any entry is as good */
		if (conn && p != DQR_NO_PATH && p != 0 &&
		    dqr_next_channel(f, t, sw, lid) == DQR_NONE)
			r->dead_port_entries++;

		count_pairs(r, dst_sw ? DQR_PAIR_CA_SW : DQR_PAIR_CA_CA, ends,
			    w, 1, conn);
		if (!(dst_sw && sw == own_sw))
			count_pairs(r, dst_sw ? DQR_PAIR_SW_SW :
				    DQR_PAIR_SW_CA, 1, w, 0, conn);
		if (w->result == DQR_WALK_OK)
			continue;
		if (ends && s->first[sw] != owner)
			add_example(r, s->first[sw], lid, w,
				    dst_sw ? DQR_PAIR_CA_SW : DQR_PAIR_CA_CA);
		else if (!(dst_sw && sw == own_sw))
			add_example(r, dqr_port_index(f, sw_node, 0), lid, w,
				    dst_sw ? DQR_PAIR_SW_SW : DQR_PAIR_SW_CA);
	}
}

/*
 * Minimum, maximum and mean route length from the histogram, so that the
 * walks only count and the report derives.
 */
static void hop_stats(struct dqr_verify_report *r)
{
	uint64_t n = 0, sum = 0;
	unsigned h;

	r->hops_min = 0;
	r->hops_max = 0;
	for (h = 0; h <= DQR_MAX_HOPS; h++) {
		if (!r->hop_hist[h])
			continue;
		if (!n)
			r->hops_min = h;
		r->hops_max = h;
		n += r->hop_hist[h];
		sum += r->hop_hist[h] * h;
	}
	r->hops_mean = n ? (double)sum / n : 0.0;
}

/*
 * Walks every DLID with an owner once (route_walk.h) and weighs it by its
 * sources: every (source port, DLID) pair judged in O(switches x LIDs),
 * never pair by pair.  0, or -1 when out of memory.
 */
static int walk_all(const struct dqr_fabric *f, const struct dqr_lfts *t,
		    struct dqr_verify_report *r)
{
	struct dqr_walk_state *st;
	struct sources s = { 0 };
	uint32_t *stack, lid;
	int ret = -1;

	st = malloc(sizeof(*st) * (f->num_switches + 1));
	stack = malloc(sizeof(*stack) * (f->num_switches + 1));
	if (!st || !stack || sources_build(f, &s))
		goto out;
	for (lid = 1; lid <= f->max_lid; lid++) {
		if (dqr_lid_owner(f, lid) == DQR_NONE)
			continue;
		r->lids++;
		dqr_walk_dlid(f, t, lid, st, stack);
		judge_dlid(f, t, lid, st, &s, r);
	}
	hop_stats(r);
	ret = 0;
out:
	sources_free(&s);
	free(st);
	free(stack);
	return ret;
}

int dqr_verify(const struct dqr_fabric *f, const struct dqr_lfts *t,
	       struct dqr_verify_report *r, struct dqr_channel_list *cl)
{
	struct dqr_channel_list local;
	struct dqr_cdg *g;
	double t0;
	int ret;

	memset(r, 0, sizeof(*r));
	r->switches = f->num_switches;
	r->end_ports = dqr_fabric_count_end_ports(f);

	t0 = dqr_now_ms();
	if (walk_all(f, t, r))
		return -1;
	r->ms_walk = dqr_now_ms() - t0;

	t0 = dqr_now_ms();
	g = dqr_cdg_build(f, t);
	if (!g)
		return -1;
	r->channels = g->num_channels;
	r->dependencies = g->num_edges;
	r->ms_cdg = dqr_now_ms() - t0;

	t0 = dqr_now_ms();
	ret = dqr_channel_list_build(f, g, cl ? cl : &local, &r->cycle);
	r->ms_channel_list = dqr_now_ms() - t0;
	dqr_cdg_free(g);
	if (ret < 0)
		return -1;
	r->cycle_found = ret == 1;
	if (!ret && !cl)
		dqr_channel_list_free(&local);
	return 0;
}

void dqr_verify_report_free(struct dqr_verify_report *r)
{
	dqr_cycle_free(&r->cycle);
}

int dqr_verify_ok(const struct dqr_verify_report *r, unsigned kinds)
{
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		if ((kinds & (1u << k)) &&
		    r->unreachable[k] != r->disconnected[k])
			return 0;
	return !r->loop_entries && !r->dead_port_entries && !r->cycle_found;
}
