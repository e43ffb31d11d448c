/*
 * vl.c - dqr-check --vl-layers and --vl-dump: the routes of a fat tree on
 * the FT paper's two layers (ml_vls.h), judged on two VLs.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shape/ftree_shape.h"
#include "verify/verify_print.h"
#include "dqr_check.h"

/* The layers of t on the fat tree of f; NULL after a message. */
struct dqr_ml_vls *vl_build(const struct dqr_fabric *f,
			    const struct dqr_lfts *t,
			    struct dqr_vl_stats *st)
{
	struct dqr_ml_vls *v = NULL;
	struct dqr_ftree *ft;
	char err[512];

	if (dqr_ftree_detect(f, &ft, err, sizeof(err))) {
		/* its shape errors say so already, the others do not */
		fprintf(stderr, "dqr-check: %s%s\n",
			strncmp(err, "not a fat tree", 14) &&
			strcmp(err, "out of memory") ? "not a fat tree: " : "",
			err);
		return NULL;
	}
	if (dqr_ml_vls_build(f, t, ft, &v, st, err, sizeof(err)))
		fprintf(stderr, "dqr-check: %s\n", err);
	dqr_ftree_free(ft);
	return v;
}

/* Whether an SL2VL table maps some SL to a VL other than 0. */
static int vl_any(const uint8_t vl[DQR_VL_NUM_SL])
{
	unsigned s;

	for (s = 0; s < DQR_VL_NUM_SL; s++)
		if (vl[s])
			return 1;
	return 0;
}

static void vl_put(FILE *out, const uint8_t vl[DQR_VL_NUM_SL])
{
	unsigned s;

	for (s = 0; s < DQR_VL_NUM_SL; s++)
		fprintf(out, " %u", vl[s]);
	putc('\n', out);
}

/*
 * The sources ml_vls.h routes from, as OpenSM's path_sl sees them:
 * a switch's port 0 or a cabled end port, by its base LID (0: none).
 */
unsigned vl_source_lid(const struct dqr_fabric *f, uint32_t port)
{
	const struct dqr_port *p = &f->ports[port];

	if (dqr_is_switch(f, p->node))
		return p->num ? 0 : p->base_lid;
	if (!p->num || dqr_peer_switch(f, port) == DQR_NONE)
		return 0;
	return p->base_lid;
}

void layers_dump_lines(FILE *out, const struct dqr_fabric *f,
		       const void *layers, const struct layers_dump_ops *ops)
{
	uint8_t vl[DQR_VL_NUM_SL];
	uint32_t sw, n, port, lid;
	unsigned in, q, slid;
	int sl;

	fprintf(out,
		"# sl2vl 0x<switch node GUID> <in port> <out port> <VL of SL "
		"0> .. <VL of SL 15>\n"
		"#   in port 0: what the switch sends itself\n"
		"# ca_sl2vl 0x<node GUID> <port> <VL of SL 0> .. <VL of SL "
		"15>\n"
		"# path_sl <SLID> <DLID> <SL>   (LIDs decimal; SLID the "
		"source's base LID)\n"
		"# %s\n", ops->listed);
	for (sw = 0; sw < f->num_switches; sw++) {
		const struct dqr_node *nd = &f->nodes[f->switches[sw]];

		for (in = 0; in <= nd->num_ports; in++)
			for (q = 1; q <= nd->num_ports; q++) {
				if (q == in ||
				    !ops->sl2vl(layers, sw, in, q, vl))
					continue;
				fprintf(out, "sl2vl 0x%016" PRIx64 " %u %u",
					nd->guid, in, q);
				vl_put(out, vl);
			}
	}
	for (n = 0; n < f->num_nodes; n++) {
		const struct dqr_node *nd = &f->nodes[n];

		for (q = 1; !dqr_is_switch(f, n) && q <= nd->num_ports; q++) {
			if (!ops->sl2vl(layers, DQR_NONE, 0, nd->port_base + q,
					vl))
				continue;
			fprintf(out, "ca_sl2vl 0x%016" PRIx64 " %u", nd->guid,
				q);
			vl_put(out, vl);
		}
	}
	for (port = 0; port < f->num_ports; port++) {
		slid = vl_source_lid(f, port);
		for (lid = 1; slid && lid <= f->max_lid; lid++) {
			n = dqr_lid_owner(f, lid);
			if (n == DQR_NONE || n == port)
				continue;
			sl = ops->path_sl(f, layers, port, lid);
			if (sl >= 0)
				fprintf(out, "path_sl %u %u %d\n", slid, lid,
					sl);
		}
	}
}

/* The FT paper's layers list the tables with a VL other than 0. */
static int vl_sl2vl(const void *layers, uint32_t sw, unsigned in,
		    uint32_t out, uint8_t vl[DQR_VL_NUM_SL])
{
	if (sw == DQR_NONE)
		dqr_vl_ca_sl2vl_table(layers, out, vl);
	else
		dqr_vl_sl2vl_table(layers, sw, in, out, vl);
	return vl_any(vl);
}

/* ... and the routes with an SL other than 0. */
static int vl_path_sl(const struct dqr_fabric *f, const void *layers,
		      uint32_t port, unsigned lid)
{
	unsigned sl = dqr_vl_path_sl(layers, port, lid);

	(void)f;
	return sl ? (int)sl : -1;
}

static const struct layers_dump_ops vl_ops = {
	.listed = "Only tables with a VL other than 0 and routes with an SL "
		  "other than 0\n# are listed: everything else is SL 0 and "
		  "VL 0.",
	.sl2vl = vl_sl2vl,
	.path_sl = vl_path_sl,
};

void vl_dump_write(FILE *out, const struct dqr_fabric *f, const void *layers,
		   const char *topo, const char *lfts)
{
	fprintf(out,
		"# dqr-check --vl-dump: the FT paper's two layers on VL 0 and "
		"VL 1\n# topology %s, tables %s\n", topo, lfts);
	layers_dump_lines(out, f, layers, &vl_ops);
}

/* Writes --vl-dump's file with write(); 0, or -1 after a message. */
int layers_dump(const char *path, layers_dump_fn *write,
		const struct dqr_fabric *f, const void *layers,
		const char *topo, const char *lfts)
{
	FILE *out = fopen(path, "w");
	int bad;

	if (!out) {
		fprintf(stderr, "dqr-check: --vl-dump: cannot open %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	write(out, f, layers, topo, lfts);
	/* ferror() keeps no errno; fclose() flushes the rest and does */
	bad = ferror(out) ? EIO : 0;
	if (fclose(out))
		bad = errno;
	if (bad) {
		fprintf(stderr, "dqr-check: --vl-dump: cannot write %s: %s\n",
			path, strerror(bad));
		return -1;
	}
	return 0;
}

/*
 * dqr_verify_ok() without the one-layer cycle: with layers, their VLs
 * decide deadlock freedom.
 */
int verify_ok_but_cycle(const struct dqr_verify_report *r, unsigned kinds)
{
	struct dqr_verify_report one = *r;

	one.cycle_found = 0;
	return dqr_verify_ok(&one, kinds);
}

void print_vl_text(const struct dqr_fabric *f,
		   const struct dqr_ml_vls *v,
		   const struct dqr_vl_stats *st)
{
	char buf[4096];
	unsigned l;

	printf("vl layers: routes %" PRIu64 ", broken %" PRIu64
	       ", with a U-turn %" PRIu64 " (from or to an end port %" PRIu64
	       ")\n", st->routes, st->unrouted, st->uturn_routes,
	       st->uturn_end);
	printf("vl layers: conflict keys %" PRIu64 ", moved %" PRIu64
	       ", unplaced %" PRIu64 ", VL 1 entries %" PRIu64 "\n",
	       st->conflict_keys, st->moved, st->unplaced, st->vl1_entries);
	printf("vl layers: SLs used %u (mask 0x%04x), VLs used %u\n",
	       st->sls_used, st->sl_mask, st->vls_used);
	printf("vl layers: dependencies VL 0 %" PRIu64 ", VL 1 %" PRIu64
	       ", VL 0 -> 1 %" PRIu64 ", VL 1 -> 0 %" PRIu64 "\n",
	       st->edges[0], st->edges[1], st->edges_up, st->edges_down);
	for (l = 0; l < DQR_VL_LAYERS; l++) {
		const struct dqr_cycle *c = dqr_vl_cycle(v, l);

		if (st->acyclic[l]) {
			printf("vl %u dependency cycle: no\n", l);
			continue;
		}
		dqr_format_cycle(f, c, buf, sizeof(buf));
		printf("vl %u dependency cycle: yes, %u channels: %s\n", l,
		       c->len, buf);
	}
	printf("one-layer dependency graph (every hop on one VL): %s\n",
	       st->one_layer_acyclic ? "acyclic" :
	       "cyclic, not judged: the two VLs decide");
	printf("vl layers: deadlock free on two VLs: %s\n",
	       st->deadlock_free ? "yes" : "no");
	printf("vl layers time: build %.3f ms, verify %.3f ms\n",
	       st->build_ms, st->verify_ms);
}

/* A member of the enclosing object: ,"vl_layers":{...} */
void print_vl_json(const struct dqr_fabric *f,
		   const struct dqr_ml_vls *v,
		   const struct dqr_vl_stats *st)
{
	unsigned l;

	printf(",\"vl_layers\":{\"routes\":%" PRIu64 ",\"broken\":%" PRIu64
	       ",\"uturn_routes\":%" PRIu64 ",\"uturn_end\":%" PRIu64
	       ",\"conflict_keys\":%" PRIu64 ",\"moved\":%" PRIu64
	       ",\"unplaced\":%" PRIu64 ",\"vl1_entries\":%" PRIu64
	       ",\"sls_used\":%u,\"sl_mask\":%u,\"vls_used\":%u,"
	       "\"edges\":[%" PRIu64 ",%" PRIu64 "],\"edges_up\":%" PRIu64
	       ",\"edges_down\":%" PRIu64 ",\"acyclic\":[%s,%s],\"cycles\":[",
	       st->routes, st->unrouted, st->uturn_routes, st->uturn_end,
	       st->conflict_keys, st->moved, st->unplaced, st->vl1_entries,
	       st->sls_used, st->sl_mask, st->vls_used, st->edges[0],
	       st->edges[1], st->edges_up, st->edges_down,
	       st->acyclic[0] ? "true" : "false",
	       st->acyclic[1] ? "true" : "false");
	for (l = 0; l < DQR_VL_LAYERS; l++) {
		if (l)
			putchar(',');
		json_cycle(stdout, f, dqr_vl_cycle(v, l));
	}
	printf("],\"deadlock_free\":%s,\"one_layer_acyclic\":%s,"
	       "\"ms\":{\"build\":%.3f,\"verify\":%.3f}}",
	       st->deadlock_free ? "true" : "false",
	       st->one_layer_acyclic ? "true" : "false", st->build_ms,
	       st->verify_ms);
}
