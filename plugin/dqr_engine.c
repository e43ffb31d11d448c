/*
 * dqr_engine.c - the routing engine 'dqr': a base engine's routing,
 * modelled and verified before OpenSM uploads it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_engine.h"
#include "route_walk.h"
#include "subnet_model.h"
#include "timing.h"

/* the cycle's ERROR line shows this many channels at most */
#define CYCLE_SHOW_MAX 16

struct dqr_ctx *dqr_ctx_new(osm_opensm_t *osm, const struct dqr_options *o)
{
	struct dqr_ctx *ctx = calloc(1, sizeof(*ctx));

	if (!ctx)
		return NULL;
	ctx->osm = osm;
	ctx->opts = *o;
	dqr_bases_init(&ctx->bases, osm);
	return ctx;
}

static void drop_last_pass(struct dqr_ctx *ctx)
{
	if (ctx->have_report)
		dqr_verify_report_free(&ctx->report);
	if (ctx->have_channel_list)
		dqr_channel_list_free(&ctx->cl);
	dqr_fabric_free(ctx->fabric);
	dqr_lfts_free(ctx->lfts);
	free(ctx->unrouted);
	ctx->have_report = 0;
	ctx->have_channel_list = 0;
	ctx->fabric = NULL;
	ctx->lfts = NULL;
	ctx->unrouted = NULL;
	ctx->num_unrouted = 0;
	ctx->unrouted_pairs = 0;
}

void dqr_ctx_free(struct dqr_ctx *ctx)
{
	if (!ctx)
		return;
	dqr_bases_destroy(&ctx->bases);
	drop_last_pass(ctx);
	free(ctx);
}

/* ------------------------------------------------------------------ */
/* disconnected flows */

static uint32_t find_root(uint32_t *parent, uint32_t v)
{
	while (parent[v] != v) {
		parent[v] = parent[parent[v]];
		v = parent[v];
	}
	return v;
}

int dqr_collect_unrouted(const struct dqr_fabric *f, const struct dqr_lfts *t,
			 struct dqr_unrouted **out, size_t *n,
			 uint64_t *pairs)
{
	uint32_t *ends = NULL, *comp = NULL, *stack = NULL, i, lid, sw;
	struct dqr_walk_state *st = NULL;
	struct dqr_unrouted *list = NULL, *grown;
	size_t len = 0, cap = 0;
	int ret = -1;

	*out = NULL;
	*n = 0;
	*pairs = 0;
	ends = calloc(f->num_switches + 1, sizeof(*ends));
	comp = malloc((f->num_nodes + 1) * sizeof(*comp));
	stack = malloc((f->num_switches + 1) * sizeof(*stack));
	st = malloc((f->num_switches + 1) * sizeof(*st));
	if (!ends || !comp || !stack || !st)
		goto out;

	/* sources per ingress switch, and the cable components */
	for (i = 0; i < f->num_nodes; i++)
		comp[i] = i;
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];
		uint32_t a, b;

		if (!p->num || p->remote == DQR_NONE)
			continue;
		a = find_root(comp, p->node);
		b = find_root(comp, f->ports[p->remote].node);
		if (a != b)
			comp[a] = b;
		if (dqr_is_switch(f, p->node))
			continue;
		sw = dqr_ingress_switch(f, i);
		if (sw != DQR_NONE)
			ends[sw]++;
	}

	for (lid = 1; lid <= f->max_lid; lid++) {
		uint32_t owner = dqr_lid_owner(f, lid), own_sw, dst_comp;
		int dst_is_sw;

		if (owner == DQR_NONE)
			continue;
		own_sw = dqr_ingress_switch(f, owner);
		dst_is_sw = dqr_is_switch(f, f->ports[owner].node);
		dst_comp = find_root(comp, f->ports[owner].node);
		dqr_walk_dlid(f, t, lid, st, stack);
		for (sw = 0; sw < f->num_switches; sw++) {
			uint64_t k = ends[sw];
			struct dqr_unrouted *u;

			if (st[sw].result == DQR_WALK_OK)
				continue;
			/* nobody sends to his own LIDs */
			if (sw == own_sw && !dst_is_sw)
				k--;
			if (!(sw == own_sw && dst_is_sw))
				k++;
			if (!k)
				continue;
			if (len == cap) {
				cap = cap ? cap * 2 : 256;
				grown = realloc(list, cap * sizeof(*list));
				if (!grown)
					goto out;
				list = grown;
			}
			u = &list[len++];
			u->sw = sw;
			u->dlid = lid;
			u->fail_sw = st[sw].fail_sw;
			u->pairs = (uint32_t)k;
			u->result = st[sw].result;
			u->connected = find_root(comp, f->switches[sw]) ==
				       dst_comp;
			*pairs += k;
		}
	}
	*out = list;
	*n = len;
	list = NULL;
	ret = 0;
out:
	free(list);
	free(ends);
	free(comp);
	free(stack);
	free(st);
	return ret;
}

/* ------------------------------------------------------------------ */
/* logging a pass */

static int fmt_channel(const struct dqr_fabric *f, uint32_t ch, char *buf,
		       size_t len)
{
	const struct dqr_port *p;

	if (ch >= f->num_ports)
		return snprintf(buf, len, "?%u", ch);
	p = &f->ports[ch];
	return snprintf(buf, len, "0x%016" PRIx64 "/%u", f->nodes[p->node].guid,
			p->num);
}

/*
 * lash, nue, dfsssp and torus-2QoS break the cycles of their routes by
 * putting them on different virtual lanes (that is what their path_sl
 * is for).  The graph dqr builds has one layer, so a cycle in it proves
 * no deadlock for them.
 */
static int base_is_layered(const struct dqr_ctx *ctx)
{
	return ctx->bases.ran && ctx->bases.ran->re.path_sl;
}

static void dqr_log_cycle(struct dqr_ctx *ctx)
{
	const struct dqr_cycle *c = &ctx->report.cycle;
	char line[1536], ch[40];
	size_t used = 0;
	uint32_t i, show;

	line[0] = '\0';
	show = c->len < CYCLE_SHOW_MAX ? c->len : CYCLE_SHOW_MAX;
	for (i = 0; i < show && used + 64 < sizeof(line); i++) {
		fmt_channel(ctx->fabric, c->channels[i], ch, sizeof(ch));
		used += snprintf(line + used, sizeof(line) - used, "%s%s",
				 i ? " -> " : "", ch);
	}
	if (i < c->len)
		used += snprintf(line + used, sizeof(line) - used,
				 " -> ... (%u more)", c->len - i);
	/* close the loop so that the reader sees it is one */
	if (c->len) {
		fmt_channel(ctx->fabric, c->channels[0], ch, sizeof(ch));
		snprintf(line + used, sizeof(line) - used, " -> %s", ch);
	}
	if (base_is_layered(ctx)) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: the tables of base '%s' close a cycle of %u "
			"channels in the one-layer channel dependency graph; "
			"'%s' spreads routes over virtual lanes by SL, which "
			"dqr does not check: %s\n",
			dqr_base_name(ctx->bases.ran), c->len,
			dqr_base_name(ctx->bases.ran), line);
		return;
	}
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR,
		"ERR DQ0D: dqr: deadlock possible: the tables of base '%s' "
		"close a cycle of %u channels in the channel dependency "
		"graph: %s\n",
		dqr_base_name(ctx->bases.ran), c->len, line);
}

/* A few unrouted pairs, for whoever raised the log level to see why. */
static void dqr_log_examples(struct dqr_ctx *ctx)
{
	const struct dqr_verify_report *r = &ctx->report;
	const struct dqr_fabric *f = ctx->fabric;
	char src[40];
	uint32_t i;

	for (i = 0; i < r->num_examples; i++) {
		const struct dqr_pair_example *x = &r->examples[i];
		const char *at = x->fail_sw < f->num_switches ?
				 dqr_node_name(f, f->switches[x->fail_sw]) :
				 "-";

		fmt_channel(f, x->src_port, src, sizeof(src));
		OSM_LOG(&ctx->osm->log, OSM_LOG_VERBOSE,
			"dqr: unrouted %s pair: %s -> LID %u: %s at '%s'\n",
			dqr_pair_kind_name(x->kind), src, x->dlid,
			dqr_walk_result_name(x->result), at);
	}
}

/* "ftree" or "updn (auto; ftree failed)" */
static void fmt_base(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	const struct dqr_bases *b = &ctx->bases;
	size_t used;
	int id, first = 1;

	used = snprintf(buf, len, "%s", dqr_base_name(b->ran));
	if (ctx->opts.base != DQR_BASE_AUTO || used >= len)
		return;
	used += snprintf(buf + used, len - used, " (auto");
	for (id = 0; id < DQR_BASE_NUM && used < len; id++) {
		if (!(b->failed & (1u << id)))
			continue;
		used += snprintf(buf + used, len - used, "%s%s",
				 first ? "; failed: " : ", ",
				 dqr_base_engine_name(id));
		first = 0;
	}
	if (used < len)
		snprintf(buf + used, len - used, ")");
}

static void dqr_log_pass(struct dqr_ctx *ctx, double ms_model,
			 double ms_verify)
{
	const struct dqr_verify_report *r = &ctx->report;
	uint64_t sw_inv, no_path = 0;
	char base[128];
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		no_path += r->disconnected[k];
	sw_inv = r->unreachable[DQR_PAIR_CA_SW] +
		 r->unreachable[DQR_PAIR_SW_CA] +
		 r->unreachable[DQR_PAIR_SW_SW];
	fmt_base(ctx, base, sizeof(base));
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
		"dqr: base %s: %u switches, %u CA ports, %u LIDs, "
		"%u channels, %" PRIu64 " dependencies, unrouted pairs %" PRIu64
		" (switch-involved %" PRIu64 ", no cable path %" PRIu64
		"), cycle %s, model %.2f ms, verify %.2f ms\n",
		base, r->switches, r->end_ports, r->lids, r->channels,
		r->dependencies,
		dqr_report_unreachable(r), sw_inv, no_path,
		!r->cycle_found ? "no" : base_is_layered(ctx) ?
		"yes (one layer; base uses SL layers)" : "yes",
		ms_model, ms_verify);
}

/* ------------------------------------------------------------------ */
/* verification of a pass */

static void dqr_verify_pass(struct dqr_ctx *ctx)
{
	osm_log_t *log = &ctx->osm->log;
	struct dqr_model_stats ms;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char err[256];
	double t0, ms_model, ms_verify;
	int ret;

	drop_last_pass(ctx);

	t0 = dqr_now_ms();
	if (dqr_subnet_model_build(&ctx->osm->subn, &f, &t, &ms, err,
				   sizeof(err))) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ09: dqr: cannot model "
			"the subnet "
			"(%s); the tables of base '%s' go out unverified\n",
			err, dqr_base_name(ctx->bases.ran));
		return;
	}
	ms_model = dqr_now_ms() - t0;
	if (ms.nodes_skipped || ms.links_down || ms.links_bad || ms.lids_bad)
		OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: model leaves out %u nodes, "
			"%u links down, %u inconsistent link ends, %u LID "
			"ranges\n", ms.nodes_skipped, ms.links_down,
			ms.links_bad, ms.lids_bad);
	ctx->fabric = f;
	ctx->lfts = t;

	t0 = dqr_now_ms();
	memset(&ctx->cl, 0, sizeof(ctx->cl));
	ret = dqr_verify(f, t, &ctx->report, &ctx->cl);
	if (ret) {
		dqr_verify_report_free(&ctx->report);
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0A: dqr: out of memory "
			"verifying "
			"%u switches x %u LIDs; the tables of base '%s' go "
			"out unverified\n", f->num_switches, f->max_lid,
			dqr_base_name(ctx->bases.ran));
		return;
	}
	ctx->have_report = 1;
	ctx->have_channel_list = !ctx->report.cycle_found;
	/* the walk is as long as verify's own: only pay it when needed */
	if (dqr_report_unreachable(&ctx->report) &&
	    dqr_collect_unrouted(f, t, &ctx->unrouted, &ctx->num_unrouted,
				 &ctx->unrouted_pairs))
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0B: dqr: out of memory "
			"listing the disconnected flows\n");
	ms_verify = dqr_now_ms() - t0;

	dqr_log_pass(ctx, ms_model, ms_verify);
	if (ctx->unrouted && ctx->unrouted_pairs !=
	    dqr_report_unreachable(&ctx->report))
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0C: dqr: %" PRIu64
			" unrouted pairs listed but %" PRIu64 " counted\n",
			ctx->unrouted_pairs,
			dqr_report_unreachable(&ctx->report));
	if (ctx->report.cycle_found)
		dqr_log_cycle(ctx);
	if (osm_log_is_active(log, OSM_LOG_VERBOSE))
		dqr_log_examples(ctx);
}

/* ------------------------------------------------------------------ */
/* the optional callbacks, forwarded to the base that ran */

static struct osm_routing_engine *ran_re(void *context)
{
	struct dqr_ctx *ctx = context;

	return ctx->bases.ran ? &ctx->bases.ran->re : NULL;
}

static void tr_dump_tables(void *context)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->ucast_dump_tables)
		re->ucast_dump_tables(re->context);
}

static void tr_update_sl2vl(void *context, osm_physp_t *port,
			    uint8_t in_port_num, uint8_t out_port_num,
			    ib_slvl_table_t *t)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->update_sl2vl)
		re->update_sl2vl(re->context, port, in_port_num, out_port_num,
				 t);
}

static void tr_update_vlarb(void *context, osm_physp_t *port,
			    uint8_t port_num, ib_vl_arb_table_t *block,
			    unsigned block_length, unsigned block_num)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->update_vlarb)
		re->update_vlarb(re->context, port, port_num, block,
				 block_length, block_num);
}

static uint8_t tr_path_sl(void *context, uint8_t path_sl_hint,
			  const ib_net16_t slid, const ib_net16_t dlid)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->path_sl)
		return re->path_sl(re->context, path_sl_hint, slid, dlid);
	return path_sl_hint;
}

static ib_api_status_t tr_mcast_build_stree(void *context,
					    osm_mgrp_box_t *mgb)
{
	struct osm_routing_engine *re = ran_re(context);

	if (re && re->mcast_build_stree)
		return re->mcast_build_stree(re->context, mgb);
	return IB_UNSUPPORTED;
}

/*
 * OpenSM reads these pointers from routing_engine_used (= our re) each
 * time it needs them, and uses its own default when one is NULL: offer a
 * trampoline exactly when the base that ran has the callback.
 */
static void forward_optional(struct dqr_ctx *ctx)
{
	struct osm_routing_engine *re = ctx->re, *base = ran_re(ctx);

	if (!re)
		return;
	re->ucast_dump_tables = base && base->ucast_dump_tables ?
				tr_dump_tables : NULL;
	re->update_sl2vl = base && base->update_sl2vl ? tr_update_sl2vl : NULL;
	re->update_vlarb = base && base->update_vlarb ? tr_update_vlarb : NULL;
	re->path_sl = base && base->path_sl ? tr_path_sl : NULL;
	re->mcast_build_stree = base && base->mcast_build_stree ?
				tr_mcast_build_stree : NULL;
	/*
	 * lash's path_sl answers the default SL unless the engine in use
	 * has lash's type; its SLs are what keep its routes deadlock free.
	 */
	if (base && ctx->bases.ran->id == DQR_BASE_LASH)
		re->type = OSM_ROUTING_ENGINE_TYPE_LASH;
	else
		re->type = ctx->own_type;
}

/* ------------------------------------------------------------------ */
/* the routing callbacks */

static int dqr_build_lid_matrices(void *context)
{
	struct dqr_ctx *ctx = context;

	return dqr_bases_lid_matrices(&ctx->bases, ctx->opts.base);
}

static int dqr_build_fwd_tables(void *context)
{
	struct dqr_ctx *ctx = context;
	int ret;

	ret = dqr_bases_fwd_tables(&ctx->bases, ctx->opts.base);
	forward_optional(ctx);
	if (ret < 0) {
		/* OpenSM's fallback decides the tables now, not our model */
		drop_last_pass(ctx);
		return ret;
	}
	ctx->passes++;
	if (!ctx->opts.verify) {
		char base[128];

		drop_last_pass(ctx);
		fmt_base(ctx, base, sizeof(base));
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: base %s: verify=off\n", base);
		return 0;
	}
	/* whatever the verdict, the base's tables stand */
	dqr_verify_pass(ctx);
	return 0;
}

static void dqr_destroy(void *context)
{
	struct dqr_ctx *ctx = context;

	/* OpenSM frees the re right after this: forget it */
	dqr_bases_destroy(&ctx->bases);
	ctx->re = NULL;
}

int dqr_engine_setup(struct osm_routing_engine *re, osm_opensm_t *osm)
{
	struct dqr_ctx *ctx = re->context;

	if (!ctx)
		return -1;
	if (ctx->re) {
		OSM_LOG(&osm->log, OSM_LOG_ERROR,
			"ERR DQ04: dqr: routing engine 'dqr' is listed twice "
			"in routing_engine; only the first one runs\n");
		return -1;
	}
	ctx->re = re;
	ctx->own_type = re->type;
	re->build_lid_matrices = dqr_build_lid_matrices;
	re->ucast_build_fwd_tables = dqr_build_fwd_tables;
	re->destroy = dqr_destroy;
	/* set after each pass, from the base that ran */
	re->ucast_dump_tables = NULL;
	re->update_sl2vl = NULL;
	re->update_vlarb = NULL;
	re->path_sl = NULL;
	re->mcast_build_stree = NULL;
	return 0;
}
