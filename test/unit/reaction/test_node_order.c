/*
 * test_node_order.c - the reactor answers a fault alike whatever order
 * the model lists the nodes in.  The plugin builds its model from
 * OpenSM's tables and dqr-sim from ibnetdiscover's output, so the same
 * fabric comes with other node indices; where DQR broke ties by index
 * (the reroute's root and up direction, the order the mesh plug-in
 * bypasses dead links in) the two repaired the same fault differently.
 *
 * Each fabric is routed as the plugin routes it, then copied with its
 * nodes renumbered (reversed, shuffled) and the tables with them; every
 * switch-to-switch cable and every switch fails alone in both, and the
 * changed entries (by switch GUID) and the stages of the plan must be
 * the same.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "reaction/base_choice.h"
#include "reaction/reaction.h"
#include "small_fabrics.h"
#include "unit.h"

/*
 * f with node i at index to[i]: the same GUIDs, names, cables, LIDs.  The
 * nodes go in by their new index, so the switch indices follow too.
 */
static struct dqr_fabric *renumbered(const struct dqr_fabric *f,
				     const uint32_t *to)
{
	struct dqr_fabric *r = dqr_fabric_new();
	uint32_t n = f->num_nodes, i, p, q, *from = malloc(sizeof(*from) * n);
	char err[128];

	REQUIRE(r && from);
	for (i = 0; i < n; i++)
		from[to[i]] = i;
	for (i = 0; i < n; i++) {
		const struct dqr_node *x = &f->nodes[from[i]];

		REQUIRE(dqr_fabric_add_node(r, (enum dqr_node_type)x->type,
					    x->num_ports, x->guid,
					    dqr_node_name(f, from[i])) == i);
	}
	for (p = 0; p < f->num_ports; p++) {
		const struct dqr_port *a = &f->ports[p];

		if (a->base_lid)
			REQUIRE(dqr_fabric_set_lid(r, to[a->node], a->num,
						   a->base_lid, a->lmc) == 0);
		if (a->guid)
			dqr_fabric_set_port_guid(r, to[a->node], a->num,
						 a->guid);
		q = a->remote;
		if (q == DQR_NONE || q < p)
			continue;
		REQUIRE(dqr_fabric_link(r, to[a->node], a->num,
					to[f->ports[q].node],
					f->ports[q].num) == 0);
	}
	REQUIRE(dqr_fabric_finish(r, err, sizeof(err)) == 0);
	free(from);
	return r;
}

/* t of f as tables of r = renumbered(f, to). */
static struct dqr_lfts *renumbered_tables(const struct dqr_fabric *f,
					  const struct dqr_fabric *r,
					  const uint32_t *to,
					  const struct dqr_lfts *t)
{
	struct dqr_lfts *u = dqr_lfts_new(t->num_switches, t->lid_count);
	uint32_t sw, lid;

	REQUIRE(u);
	for (sw = 0; sw < t->num_switches; sw++)
		for (lid = 0; lid < t->lid_count; lid++)
			dqr_lft_set(u, r->nodes[to[f->switches[sw]]].sw_index,
				    lid, dqr_lft_get(t, sw, lid));
	return u;
}

/* What one fault changed: every entry by switch GUID, and the plan. */
struct answer {
	uint64_t *entries;	/* guid ^ lid << 48 ^ port << 40, sorted */
	uint32_t num_entries;
	uint32_t stages, drains;
	uint32_t stage_size[16];
};

static int u64_cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static struct dqr_options options(void)
{
	struct dqr_options o;

	dqr_options_init(&o);
	return o;
}

/* The reactor of f as the plugin sets it up (qos: on 8 VLs), on t. */
static void react_start(struct dqr_reactor *x, const struct dqr_fabric *f,
			int qos, const struct dqr_lfts *t)
{
	struct dqr_options o = options();
	struct dqr_lfts *own = NULL, *start;
	struct dqr_start st;

	dqr_reactor_init(x, &o);
	x->caps.qos = qos;
	x->caps.max_op_vls = qos ? 4 : 1;
	x->caps.vls = qos ? 8 : 1;
	/*
	 * Sets the topology.  On layers they are those of its own routing
	 * of f, which must be t; on one layer the routing is the input's
	 * (up*\/down* breaks ties by switch index: not what is tested).
	 */
	REQUIRE(dqr_choose_grid(x, f, &own) == 0);
	CHECK(!qos || !memcmp(own->port, t->port,
			      (size_t)t->num_switches * t->lid_count));
	start = dqr_lfts_clone(t);
	REQUIRE(start);
	REQUIRE(dqr_react_start(x, f, &start, "grid", &st) == 0);
	dqr_lfts_free(start);
	dqr_lfts_free(own);
}

/* The fault of ports (of f) answered by the reactor on f, tables t. */
static void answer(const struct dqr_fabric *f, int qos,
		   const struct dqr_lfts *t, const uint32_t *ports,
		   uint32_t n, struct answer *a)
{
	static const struct dqr_in_flight settled;
	struct dqr_reactor x;
	struct dqr_topo_diff d;
	struct dqr_fabric *proj;
	struct dqr_lfts *held;
	struct dqr_reaction r;
	struct dqr_plan p;
	struct dqr_plan_report rep;
	enum dqr_planner used;
	uint32_t sw, lid, k;

	memset(a, 0, sizeof(*a));
	memset(&d, 0, sizeof(d));
	react_start(&x, f, qos, t);
	proj = dqr_fabric_clone(x.recon.ref);
	held = dqr_lfts_clone(x.recon.cur);
	REQUIRE(proj && held);
	REQUIRE(dqr_fabric_project_cut(proj, x.recon.ref, ports, n, &d) == 0);
	REQUIRE(dqr_react_update(&x, proj, &d, NULL, &r) == 0);
	REQUIRE(r.target);
	a->entries = malloc(sizeof(uint64_t) *
			    ((size_t)held->num_switches * held->lid_count + 1));
	REQUIRE(a->entries);
	for (sw = 0; sw < held->num_switches; sw++)
		for (lid = 1; lid < held->lid_count; lid++)
			if (dqr_lft_get(held, sw, lid) !=
			    dqr_lft_get(r.target, sw, lid))
				a->entries[a->num_entries++] =
					f->nodes[f->switches[sw]].guid ^
					(uint64_t)lid << 48 ^
					(uint64_t)dqr_lft_get(r.target, sw,
							      lid) << 40;
	qsort(a->entries, a->num_entries, sizeof(uint64_t), u64_cmp);
	dqr_plan_init(&p);
	if (a->num_entries) {
		REQUIRE(dqr_react_plan(&x, proj, held, r.target,
				       dqr_react_held_list(&x, &r, &settled),
				       &settled, &p, &rep, &used) == 0);
		a->stages = p.num_stages;
		a->drains = dqr_plan_drains(&p);
		for (k = 0; k < p.num_stages && k < 16; k++)
			a->stage_size[k] = p.stage_off[k + 1] - p.stage_off[k];
	}
	dqr_plan_release(&p);
	dqr_topo_diff_release(&d);
	dqr_fabric_free(proj);
	dqr_lfts_free(held);
	dqr_reactor_release(&x);
}

/* The ports of f's fault as ports of r = renumbered(f, to). */
static void renumbered_ports(const struct dqr_fabric *f,
			     const struct dqr_fabric *r, const uint32_t *to,
			     const uint32_t *ports, uint32_t n, uint32_t *out)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		out[i] = dqr_port_index(r, to[f->ports[ports[i]].node],
					f->ports[ports[i]].num);
}

/* to[]: reversed (seed 0), or shuffled by seed. */
static uint32_t *order(uint32_t n, unsigned seed)
{
	uint32_t *to = malloc(sizeof(*to) * (n ? n : 1)), i, j, x;
	uint64_t h = seed;

	REQUIRE(to);
	for (i = 0; i < n; i++)
		to[i] = n - 1 - i;
	for (i = n; seed && i > 1; i--) {
		h = h * 6364136223846793005ull + 1442695040888963407ull;
		j = (uint32_t)(h >> 33) % i;
		x = to[i - 1];
		to[i - 1] = to[j];
		to[j] = x;
	}
	return to;
}

static int same(const struct answer *a, const struct answer *b)
{
	return a->num_entries == b->num_entries && a->stages == b->stages &&
	       a->drains == b->drains &&
	       !memcmp(a->entries, b->entries,
		       sizeof(uint64_t) * a->num_entries) &&
	       !memcmp(a->stage_size, b->stage_size, sizeof(a->stage_size));
}

/*
 * Every switch-to-switch cable and every switch of spec failing alone,
 * answered alike in the generator's node order and in order seed; the
 * number of faults.
 */
static unsigned same_answers(const char *spec, int qos, unsigned seed)
{
	struct dqr_gen_place *places = NULL;
	struct dqr_gen_spec s;
	struct dqr_reactor x;
	struct dqr_options o = options();
	struct dqr_fabric *f = gen_fabric(spec, &s, &places), *r;
	struct dqr_lfts *t = NULL, *u;
	uint32_t *links, nl, i, ports[8], rports[8], n, node, *to;
	unsigned pn, agree = 0, faults = 0;
	struct answer a, b;

	REQUIRE(f);
	free(places);
	dqr_reactor_init(&x, &o);
	x.caps.qos = qos;
	x.caps.max_op_vls = qos ? 4 : 1;
	x.caps.vls = qos ? 8 : 1;
	REQUIRE(dqr_choose_grid(&x, f, &t) == 0);
	dqr_reactor_release(&x);
	to = order(f->num_nodes, seed);
	r = renumbered(f, to);
	u = renumbered_tables(f, r, to, t);
	nl = switch_links(f, &links);
	REQUIRE(links);
	for (i = 0; i < nl + f->num_switches; i++) {
		n = 0;
		if (i < nl) {
			ports[n++] = links[i];
		} else {
			node = f->switches[i - nl];
			dqr_for_each_linked_port(f, node, pn)
				if (n < 8)
					ports[n++] = dqr_port_index(f, node,
								    pn);
		}
		renumbered_ports(f, r, to, ports, n, rports);
		answer(f, qos, t, ports, n, &a);
		answer(r, qos, u, rports, n, &b);
		faults++;
		if (same(&a, &b))
			agree++;
		else
			fprintf(stderr, "%s%s, order %u: fault %u (%s%s): %u "
				"entries in %u stages, renumbered %u in %u\n",
				spec, qos ? " qos" : "", seed, i,
				i < nl ? "cable at " : "switch ",
				dqr_node_name(f, f->ports[ports[0]].node),
				a.num_entries, a.stages, b.num_entries,
				b.stages);
		free(a.entries);
		free(b.entries);
	}
	free(links);
	free(to);
	dqr_lfts_free(t);
	dqr_lfts_free(u);
	dqr_fabric_free(r);
	dqr_fabric_free(f);
	CHECK_EQ(agree, faults);
	return faults;
}

int main(void)
{
	unsigned seed;

	for (seed = 0; seed < 3; seed++) {
		/* one VL: up*\/down* from the corner, the mesh plug-in and
		 * DQR's search (its root, up direction and ties) */
		CHECK_EQ(same_answers("mesh:5x5", 0, seed), 40 + 25);
		CHECK_EQ(same_answers("torus:5x3", 0, seed), 30 + 15);
		/* qos: e-cube on virtual layers; a lost switch's links are
		 * bypassed one after the other */
		CHECK_EQ(same_answers("torus:5x5", 1, seed), 50 + 25);
	}
	return unit_finish();
}
