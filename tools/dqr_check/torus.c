/*
 * torus.c - dqr-check --torus-layers: the routes of a torus on e-cube's
 * virtual layers (vlayers.h), SL = VL = layer, judged per layer.
 *
 * The layers are built from the grid of the topology and the tables
 * judged, not from a plan: the SL of a route is a function of its source
 * and destination switches' coordinates, and the ties of even rings are
 * voted by the tables, so that tables read back after repairs (no longer
 * e-cube) are still judged on the layers their SLs were given by.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "util/timing.h"
#include "verify/verify_print.h"
#include "dqr_check.h"

/* The switch a LID's packets leave the fabric at, or DQR_NONE. */
static uint32_t lid_switch(const struct dqr_fabric *f, unsigned lid)
{
	uint32_t port = dqr_lid_owner(f, lid), node;

	if (port == DQR_NONE)
		return DQR_NONE;
	node = f->ports[port].node;
	if (dqr_is_switch(f, node))
		return f->nodes[node].sw_index;
	return dqr_peer_switch(f, port);
}

/* The switch a source port injects at (its own, or its cable's). */
static uint32_t port_switch(const struct dqr_fabric *f, uint32_t port)
{
	uint32_t node = f->ports[port].node;

	if (dqr_is_switch(f, node))
		return f->nodes[node].sw_index;
	return dqr_peer_switch(f, port);
}

/* The SLs every pair of switches that some LID leaves at may use. */
static uint32_t sl_mask(const struct dqr_fabric *f,
			const struct dqr_vlayers *tl)
{
	uint32_t s, d, mask = 0;
	unsigned lid;

	for (lid = 1; lid <= f->max_lid; lid++) {
		d = lid_switch(f, lid);
		for (s = 0; d != DQR_NONE && s < f->num_switches; s++)
			mask |= 1u << dqr_vlayers_sl(tl, s, d);
	}
	return mask;
}

/*
 * The layers of t on the torus of f, judged; NULL after a message (no
 * torus with a ring of 3 switches or more, out of memory).
 */
struct dqr_vlayers *torus_build(const struct dqr_fabric *f,
				const struct dqr_lfts *t,
				struct torus_stats *st)
{
	struct dqr_vlayers *tl = NULL;
	struct dqr_grid *g;
	char err[512];
	double t0 = dqr_now_ms();

	memset(st, 0, sizeof(*st));
	if (dqr_grid_detect(f, &g, err, sizeof(err))) {
		fprintf(stderr, "dqr-check: --torus-layers: not a torus: %s\n",
			err);
		return NULL;
	}
	dqr_grid_describe(g, st->grid, sizeof(st->grid));
	if (g->kind != DQR_GRID_TORUS)
		fprintf(stderr, "dqr-check: --torus-layers: not a torus with "
			"a ring of 3 switches or more: a %s\n", st->grid);
	else if (dqr_vlayers_judge_new(f, g, t, &tl, err, sizeof(err)))
		fprintf(stderr, "dqr-check: --torus-layers: %s: %s\n",
			st->grid, err);
	dqr_grid_free(g);
	if (!tl)
		return NULL;
	st->layers = dqr_vlayers_count(tl);
	st->sl_mask = sl_mask(f, tl);
	st->build_ms = dqr_now_ms() - t0;
	t0 = dqr_now_ms();
	if (dqr_vlayers_verify(tl, f, t, &st->v)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		dqr_vlayers_free(tl);
		return NULL;
	}
	st->verify_ms = dqr_now_ms() - t0;
	return tl;
}

/* What the plugin programs: SL l on VL l, never VL 15; every table. */
static int torus_sl2vl(const void *tl, uint32_t sw, unsigned in,
		       uint32_t out, uint8_t vl[DQR_VL_NUM_SL])
{
	unsigned s, layers = dqr_vlayers_count(tl);

	(void)sw;
	(void)in;
	(void)out;
	for (s = 0; s < DQR_VL_NUM_SL; s++)
		vl[s] = s < layers ? s : 0;
	return 1;
}

/* Every route that leaves the fabric at a switch, SL 0 included. */
static int torus_path_sl(const struct dqr_fabric *f, const void *tl,
			 uint32_t port, unsigned lid)
{
	uint32_t d = lid_switch(f, lid);

	if (d == DQR_NONE)
		return -1;
	return dqr_vlayers_sl(tl, port_switch(f, port), d);
}

static const struct layers_dump_ops torus_ops = {
	.listed = "Every route is listed, SL 0 included.",
	.sl2vl = torus_sl2vl,
	.path_sl = torus_path_sl,
};

void torus_dump_write(FILE *out, const struct dqr_fabric *f,
		      const void *tl, const char *topo, const char *lfts)
{
	fprintf(out,
		"# dqr-check --torus-layers --vl-dump: e-cube's %u virtual "
		"layers of a torus,\n# layer l on SL l and VL l\n"
		"# topology %s, tables %s\n", dqr_vlayers_count(tl), topo,
		lfts);
	layers_dump_lines(out, f, tl, &torus_ops);
}

static unsigned popcount(uint32_t x)
{
	unsigned n = 0;

	for (; x; x &= x - 1)
		n++;
	return n;
}

void print_torus_text(const struct dqr_verify_report *r,
		      const struct torus_stats *st)
{
	unsigned l;

	printf("torus layers: %s, %u layers, SL l on VL l\n", st->grid,
	       st->layers);
	printf("torus layers: SLs used %u (mask 0x%04x), VLs used %u\n",
	       popcount(st->sl_mask), st->sl_mask, popcount(st->sl_mask));
	printf("torus layers: pairs %" PRIu64 ", unreachable %" PRIu64
	       ", dependencies %" PRIu64 "\n", st->v.pairs,
	       st->v.unreachable, st->v.dependencies);
	for (l = 0; l < st->layers; l++)
		printf("vl %u: dependencies %" PRIu64 ", cycle: %s\n", l,
		       st->v.layer_deps[l],
		       st->v.cyclic_mask & 1u << l ? "yes" : "no");
	printf("one-layer dependency graph (every hop on one VL): %s\n",
	       !r->cycle_found ? "acyclic" :
	       "cyclic, not judged: the layers decide");
	printf("torus layers: deadlock free on %u VLs: %s\n", st->layers,
	       st->v.acyclic ? "yes" : "no");
	printf("torus layers time: build %.3f ms, verify %.3f ms\n",
	       st->build_ms, st->verify_ms);
}

/*
 * A member of the enclosing object: ,"torus_layers":{...}.  Its pairs
 * are not named "total": tests sum the report's totals.
 */
void print_torus_json(const struct dqr_verify_report *r,
		      const struct torus_stats *st)
{
	unsigned l;

	printf(",\"torus_layers\":{\"grid\":");
	dqr_json_string(stdout, st->grid);
	printf(",\"layers\":%u,\"sls_used\":%u,\"sl_mask\":%u,"
	       "\"vls_used\":%u,\"pairs\":%" PRIu64 ",\"unreachable\":%"
	       PRIu64 ",\"dependencies\":%" PRIu64 ",\"edges\":[",
	       st->layers, popcount(st->sl_mask), st->sl_mask,
	       popcount(st->sl_mask), st->v.pairs, st->v.unreachable,
	       st->v.dependencies);
	for (l = 0; l < st->layers; l++)
		printf("%s%" PRIu64, l ? "," : "", st->v.layer_deps[l]);
	printf("],\"acyclic\":[");
	for (l = 0; l < st->layers; l++)
		printf("%s%s", l ? "," : "",
		       st->v.cyclic_mask & 1u << l ? "false" : "true");
	printf("],\"deadlock_free\":%s,\"one_layer_acyclic\":%s,"
	       "\"ms\":{\"build\":%.3f,\"verify\":%.3f}}",
	       st->v.acyclic ? "true" : "false",
	       r->cycle_found ? "false" : "true", st->build_ms,
	       st->verify_ms);
}
