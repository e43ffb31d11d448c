/*
 * dqr-check - judge the forwarding tables a fabric holds.
 *
 * Reads a topology (ibnetdiscover output or an ibsim net file with LIDs)
 * and LFTs (dump_fts output or OpenSM's opensm-lfts.dump) and reports
 * unreachable pairs by kind, forwarding loops, dead ports, hop statistics
 * and a channel dependency cycle.
 *
 * --load adds the routes per channel under all-to-all traffic and shift
 * permutations of the end ports, to compare the balance of routings.
 *
 * --vl-layers puts the routes of a fat tree on the FT paper's two layers
 * (vl_layers.h), as the plugin does, and judges deadlock freedom on the
 * two VLs instead of one; --vl-dump=FILE also writes the SL2VL tables
 * and path SLs of that assignment, to compare with what OpenSM installed.
 *
 * Two more modes judge a transition instead of one state:
 *   --replay=PLAN        replays staged LFT changes (records of
 *                        transition.h) from LFTS and judges the union of
 *                        the states before and after every stage;
 *   --one-shot-from=OLD  judges an upload of LFTS over OLD all at once.
 *
 * Exit status: 0 when everything holds, 1 when something does not, 2 for
 * bad usage or malformed input.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "io/lft_read.h"
#include "io/topo_read.h"
#include "repair/vl_layers.h"
#include "routes/route_load.h"
#include "transition/transition.h"
#include "util/text_input.h"
#include "verify/verify.h"
#include "verify/verify_print.h"

/* differing entries shown when the end state does not match --expect */
#define EXPECT_EXAMPLES 10

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dqr-check [options] TOPOLOGY LFTS\n"
		"  TOPOLOGY  ibnetdiscover output (or an ibsim net file "
		"with LIDs)\n"
		"  LFTS      dump_fts output or OpenSM's opensm-lfts.dump\n"
		"options:\n"
		"  --json          one JSON object instead of text\n"
		"  --baseline=LFTS also count the entries, 64-LID blocks and "
		"switches\n"
		"                  that differ from these earlier tables of "
		"the same switches\n"
		"  --load          also count routes per switch-to-switch "
		"link: all-to-all\n"
		"                  CA traffic, and shift permutations of the "
		"CAs by LID\n"
		"  --vl-layers     put the routes on the two VLs of seed "
		"000 (fat trees only):\n"
		"                  deadlock freedom is judged on them, not "
		"on one VL\n"
		"  --vl-dump=FILE  also write their SL2VL tables and path "
		"SLs to FILE\n"
		"  --pairs=KINDS   pairs whose reachability decides the exit "
		"status:\n"
		"                  all (default) or ca (CA to CA only); "
		"loops, dead ports\n"
		"                  and dependency cycles (or with "
		"--vl-layers cyclic VLs)\n"
		"                  always count\n"
		"  --replay=PLAN   replay the staged LFT changes in PLAN "
		"from LFTS and judge\n"
		"                  every stage: the union of the states "
		"before and after it\n"
		"                  must be loop free and acyclic\n"
		"  --reconf=ID     replay only reconfiguration ID (default: "
		"all, in file order)\n"
		"  --expect=LFTS2  after --replay, compare the end state with "
		"these tables\n"
		"  --one-shot-from=OLD\n"
		"                  judge uploading LFTS over OLD at once: "
		"the union of both,\n"
		"                  and each switch switching first and "
		"last\n"
		"  -h, --help      this text\n"
		"exit status: 0 all holds, 1 a problem was found, 2 bad "
		"usage or input\n");
}

static int parse_pairs(const char *s, unsigned *kinds)
{
	if (!strcmp(s, "all"))
		*kinds = DQR_PAIRS_ALL;
	else if (!strcmp(s, "ca"))
		*kinds = DQR_PAIRS_CA;
	else
		return -1;
	return 0;
}

static void json_cycle(FILE *out, const struct dqr_fabric *f,
		       const struct dqr_cycle *c)
{
	char buf[300];
	uint32_t i;

	putc('[', out);
	for (i = 0; i < c->len; i++) {
		if (i)
			putc(',', out);
		dqr_json_string(out, dqr_format_channel(f, c->channels[i],
				buf, sizeof(buf)));
	}
	putc(']', out);
}

static void json_verdict(FILE *out, const struct dqr_fabric *f,
			 const struct dqr_union_verdict *v)
{
	uint32_t i;

	fprintf(out, "\"loop_dlids\":%u,\"loop_lid\":%u,\"loop\":[",
		v->loop_dlids, v->loop_lid);
	for (i = 0; i < v->loop_len && i < DQR_LOOP_SHOWN; i++) {
		if (i)
			putc(',', out);
		dqr_json_string(out,
				dqr_node_name(f, f->switches[v->loop_sw[i]]));
	}
	fprintf(out, "],\"cyclic\":%s,\"cycle\":", v->cyclic ? "true" :
		"false");
	json_cycle(out, f, &v->cycle);
	fprintf(out, ",\"ok\":%s", dqr_union_ok(v) ? "true" : "false");
}

static const char *switch_name(const struct dqr_fabric *f, uint32_t sw)
{
	return dqr_node_name(f, f->switches[sw]);
}

static uint64_t switch_guid(const struct dqr_fabric *f, uint32_t sw)
{
	return f->nodes[f->switches[sw]].guid;
}

/* -------------------------------------------------------------- --load */

static void print_load_text(const struct dqr_route_load *a,
			    const struct dqr_shift_summary *s)
{
	printf("load all-to-all: pairs %" PRIu64 ", unrouted %" PRIu64
	       ", switch links %u channels, max %" PRIu64 ", mean %.2f, min %"
	       PRIu64 ", max incl. CA links %" PRIu64 "\n", a->pairs,
	       a->unrouted, a->channels, a->max, a->mean, a->min, a->max_all);
	printf("load shift: %u shifts, worst max %" PRIu64 ", mean max %.2f, "
	       "mean %.2f\n", s->shifts, s->worst_max, s->mean_max, s->mean);
}

/* A member of the enclosing object: ,"load":{...} */
static void print_load_json(const struct dqr_route_load *a,
			    const struct dqr_shift_summary *s)
{
	printf(",\"load\":{\"all_to_all\":{\"pairs\":%" PRIu64
	       ",\"unrouted\":%" PRIu64 ",\"channels\":%u,\"max\":%" PRIu64
	       ",\"mean\":%.4f,\"min\":%" PRIu64 ",\"max_all\":%" PRIu64
	       "},\"shift\":{\"shifts\":%u,\"worst_max\":%" PRIu64
	       ",\"mean_max\":%.4f,\"mean\":%.4f}}", a->pairs, a->unrouted,
	       a->channels, a->max, a->mean, a->min, a->max_all, s->shifts,
	       s->worst_max, s->mean_max, s->mean);
}

/* --------------------------------------------------------- --vl-layers */

/* The layers of t on the fat tree of f; NULL after a message. */
static struct dqr_vl_layers *vl_build(const struct dqr_fabric *f,
				      const struct dqr_lfts *t,
				      struct dqr_vl_stats *st)
{
	struct dqr_vl_layers *v = NULL;
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
	if (dqr_vl_layers_build(f, t, ft, &v, st, err, sizeof(err)))
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
 * The sources vl_layers.h routes from, as OpenSM's path_sl sees them:
 * a switch's port 0 or a cabled end port, by its base LID (0: none).
 */
static unsigned vl_source_lid(const struct dqr_fabric *f, uint32_t port)
{
	const struct dqr_port *p = &f->ports[port];

	if (dqr_is_switch(f, p->node))
		return p->num ? 0 : p->base_lid;
	if (!p->num || p->remote == DQR_NONE ||
	    !dqr_is_switch(f, f->ports[p->remote].node))
		return 0;
	return p->base_lid;
}

static void vl_dump_write(FILE *out, const struct dqr_fabric *f,
			  const struct dqr_vl_layers *v, const char *topo,
			  const char *lfts)
{
	uint8_t vl[DQR_VL_NUM_SL];
	uint32_t sw, n, port, lid;
	unsigned in, q, slid, sl;

	fprintf(out,
		"# dqr-check --vl-dump: the FT paper's two layers on VL 0 and "
		"VL 1\n# topology %s, tables %s\n"
		"# sl2vl 0x<switch node GUID> <in port> <out port> <VL of SL "
		"0> .. <VL of SL 15>\n"
		"#   in port 0: what the switch sends itself\n"
		"# ca_sl2vl 0x<node GUID> <port> <VL of SL 0> .. <VL of SL "
		"15>\n"
		"# path_sl <SLID> <DLID> <SL>   (LIDs decimal; SLID the "
		"source's base LID)\n"
		"# Only tables with a VL other than 0 and routes with an SL "
		"other than 0\n# are listed: everything else is SL 0 and VL "
		"0.\n", topo, lfts);
	for (sw = 0; sw < f->num_switches; sw++) {
		const struct dqr_node *nd = &f->nodes[f->switches[sw]];

		for (in = 0; in <= nd->num_ports; in++)
			for (q = 1; q <= nd->num_ports; q++) {
				if (q == in)
					continue;
				dqr_vl_sl2vl_table(v, sw, in, q, vl);
				if (!vl_any(vl))
					continue;
				fprintf(out, "sl2vl 0x%016" PRIx64 " %u %u",
					nd->guid, in, q);
				vl_put(out, vl);
			}
	}
	for (n = 0; n < f->num_nodes; n++) {
		const struct dqr_node *nd = &f->nodes[n];

		for (q = 1; !dqr_is_switch(f, n) && q <= nd->num_ports; q++) {
			dqr_vl_ca_sl2vl_table(v, nd->port_base + q, vl);
			if (!vl_any(vl))
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
			sl = dqr_vl_path_sl(v, port, lid);
			if (sl)
				fprintf(out, "path_sl %u %u %u\n", slid, lid,
					sl);
		}
	}
}

/* Writes --vl-dump's file; 0, or -1 after a message. */
static int vl_dump(const struct dqr_fabric *f, const struct dqr_vl_layers *v,
		   const char *path, const char *topo, const char *lfts)
{
	FILE *out = fopen(path, "w");
	int bad;

	if (!out) {
		fprintf(stderr, "dqr-check: --vl-dump: cannot open %s: %s\n",
			path, strerror(errno));
		return -1;
	}
	vl_dump_write(out, f, v, topo, lfts);
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
 * dqr_verify_ok() without the one-layer cycle: with --vl-layers the two
 * VLs decide deadlock freedom.
 */
static int vl_ok(const struct dqr_verify_report *r, unsigned kinds,
		 const struct dqr_vl_stats *st)
{
	struct dqr_verify_report one = *r;

	one.cycle_found = 0;
	return dqr_verify_ok(&one, kinds) && st->deadlock_free;
}

/*
 * The text report up to its last line, "result: ...", which would judge
 * the one-layer graph.  -1 when out of memory.
 */
static int print_report_body(const struct dqr_fabric *f,
			     const struct dqr_verify_report *r,
			     unsigned kinds)
{
	char *buf = NULL, *end;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return -1;
	dqr_print_report_text(m, f, r, kinds);
	if (fclose(m)) {
		free(buf);
		return -1;
	}
	if (len)
		buf[len - 1] = '\0';
	end = strrchr(buf, '\n');
	fwrite(buf, 1, end ? (size_t)(end + 1 - buf) : 0, stdout);
	free(buf);
	return 0;
}

static void print_vl_text(const struct dqr_fabric *f,
			  const struct dqr_vl_layers *v,
			  const struct dqr_vl_stats *st)
{
	char buf[4096];
	unsigned l;

	printf("vl layers: routes %" PRIu64 ", broken %" PRIu64
	       ", with a U-turn %" PRIu64 " (from or to an end port %" PRIu64
	       ")\n", st->routes, st->broken, st->uturn_routes,
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
static void print_vl_json(const struct dqr_fabric *f,
			  const struct dqr_vl_layers *v,
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
	       st->routes, st->broken, st->uturn_routes, st->uturn_end,
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

/* ------------------------------------------------------------ --replay */

struct expect_diff {
	uint64_t entries;
	uint32_t switches;
	uint32_t shown;
	struct {
		uint32_t sw, lid;
		uint8_t got, want;
	} ex[EXPECT_EXAMPLES];
};

/*
 * Entries where the replayed end state and the expected tables differ.
 * skip1/skip2: LIDs whose entries a dump left out (0 for none).
 */
static void expect_compare(const struct dqr_fabric *f,
			   const struct dqr_lfts *end,
			   const struct dqr_lfts *want, uint32_t skip1,
			   uint32_t skip2, struct expect_diff *d)
{
	uint32_t sw, lid, n, any;
	uint8_t g, w;

	memset(d, 0, sizeof(*d));
	n = end->lid_count > want->lid_count ? end->lid_count :
	    want->lid_count;
	for (sw = 0; sw < f->num_switches; sw++) {
		any = 0;
		for (lid = 0; lid < n; lid++) {
			if (lid && (lid == skip1 || lid == skip2))
				continue;
			g = dqr_lft_get(end, sw, lid);
			w = dqr_lft_get(want, sw, lid);
			if (g == w)
				continue;
			any = 1;
			d->entries++;
			if (d->shown < EXPECT_EXAMPLES) {
				d->ex[d->shown].sw = sw;
				d->ex[d->shown].lid = lid;
				d->ex[d->shown].got = g;
				d->ex[d->shown++].want = w;
			}
		}
		d->switches += any;
	}
}

static void print_stage_text(const struct dqr_fabric *f,
			     const struct dqr_plan *p,
			     const struct dqr_stage_result *sr)
{
	char buf[4096];

	printf("stage %u (reconfiguration %" PRIu64 "): %u entries: %s",
	       sr->stage, sr->reconf_id, sr->entries,
	       dqr_union_ok(&sr->v) && !sr->mismatches ? "OK" : "FAIL");
	if (sr->mismatches) {
		const struct dqr_plan_entry *e;

		e = &p->entries[sr->first_mismatch];
		printf(": %u old-port mismatches (line %u: switch 0x%016"
		       PRIx64 " (%s) DLID %u holds port %u, the record says "
		       "%u)", sr->mismatches, e->line, switch_guid(f, e->sw),
		       switch_name(f, e->sw), e->lid, sr->found_port,
		       e->old_port);
	}
	if (!dqr_union_ok(&sr->v)) {
		dqr_format_verdict(f, &sr->v, buf, sizeof(buf));
		printf("%s %s", sr->mismatches ? ";" : ":", buf);
	}
	putchar('\n');
}

static void print_replay_text(const struct dqr_fabric *f, const char *plan,
			      const uint64_t *id, const struct dqr_plan *p,
			      const struct dqr_replay_report *rr,
			      const char *expect,
			      const struct expect_diff *d)
{
	uint32_t s, i;

	printf("replay of %s", plan);
	if (id)
		printf(" (reconfiguration %" PRIu64 ")", *id);
	printf(": %u stages, %u entries\n", p->num_stages, p->num_entries);
	for (s = 0; s < rr->num_stages; s++)
		print_stage_text(f, p, &rr->stages[s]);
	printf("stages: %u, failing %u; old-port mismatches %" PRIu64
	       "; %.1f ms\n", rr->num_stages, rr->bad_stages, rr->mismatches,
	       rr->ms);
	if (expect) {
		printf("end state against %s: %" PRIu64 " entries differ on "
		       "%u switches\n", expect, d->entries, d->switches);
		for (i = 0; i < d->shown; i++)
			printf("  switch 0x%016" PRIx64 " (%s) DLID %u: "
			       "replayed %u, expected %u\n",
			       switch_guid(f, d->ex[i].sw),
			       switch_name(f, d->ex[i].sw), d->ex[i].lid,
			       d->ex[i].got, d->ex[i].want);
	}
}

static void print_replay_json(const struct dqr_fabric *f, const char *plan,
			      const uint64_t *id, const struct dqr_plan *p,
			      const struct dqr_replay_report *rr,
			      const char *expect,
			      const struct expect_diff *d, int ok)
{
	uint32_t s, i;

	printf("{\"replay\":{\"file\":");
	dqr_json_string(stdout, plan);
	if (id)
		printf(",\"reconf\":%" PRIu64, *id);
	else
		printf(",\"reconf\":null");
	printf(",\"entries\":%u,\"stages\":[", p->num_entries);
	for (s = 0; s < rr->num_stages; s++) {
		const struct dqr_stage_result *sr = &rr->stages[s];

		printf("%s{\"reconf\":%" PRIu64 ",\"stage\":%u,\"entries\":%u,"
		       "\"mismatches\":%u,", s ? "," : "", sr->reconf_id,
		       sr->stage, sr->entries, sr->mismatches);
		if (sr->mismatches) {
			const struct dqr_plan_entry *e =
				&p->entries[sr->first_mismatch];

			printf("\"mismatch\":{\"line\":%u,\"switch\":"
			       "\"0x%016" PRIx64 "\",\"dlid\":%u,\"found\":%u,"
			       "\"record\":%u},", e->line,
			       switch_guid(f, e->sw), e->lid, sr->found_port,
			       e->old_port);
		}
		json_verdict(stdout, f, &sr->v);
		putchar('}');
	}
	printf("],\"failing_stages\":%u,\"mismatches\":%" PRIu64
	       ",\"ms\":%.3f}", rr->bad_stages, rr->mismatches, rr->ms);
	if (expect) {
		printf(",\"expect\":{\"file\":");
		dqr_json_string(stdout, expect);
		printf(",\"entries\":%" PRIu64 ",\"switches\":%u,"
		       "\"examples\":[", d->entries, d->switches);
		for (i = 0; i < d->shown; i++)
			printf("%s{\"switch\":\"0x%016" PRIx64 "\",\"dlid\":%u,"
			       "\"replayed\":%u,\"expected\":%u}",
			       i ? "," : "", switch_guid(f, d->ex[i].sw),
			       d->ex[i].lid, d->ex[i].got, d->ex[i].want);
		printf("]}");
	}
	printf(",\"ok\":%s}\n", ok ? "true" : "false");
}

/*
 * Reads the tables of path for f; on a dump_fts quirk the LID whose
 * entries are unknown goes to *quirk.  NULL after a message.
 */
static struct dqr_lfts *read_tables(const struct dqr_fabric *f,
				    const char *path, uint32_t *quirk)
{
	struct dqr_lft_read_info info;
	struct dqr_lfts *t;
	char err[512];

	t = dqr_read_lfts(f, path, &info, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return NULL;
	}
	*quirk = info.quirk_missing_top_lid;
	if (info.switches_missing)
		fprintf(stderr, "dqr-check: warning: %u switches of the "
			"topology have no table in %s\n", info.switches_missing,
			path);
	dqr_lft_read_info_release(&info);
	return t;
}

/* The --replay mode; returns the exit status. */
static int run_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
		      uint32_t start_quirk, const char *plan_path,
		      const uint64_t *id, const char *expect, int json)
{
	struct dqr_replay_report rr;
	struct dqr_plan_file pf;
	struct dqr_lfts *end = NULL, *want = NULL;
	struct expect_diff d;
	struct dqr_plan p;
	uint32_t quirk = 0;
	char err[512];
	int ok, ret = 2;

	dqr_plan_init(&p);
	memset(&d, 0, sizeof(d));
	if (dqr_plan_read(f, plan_path, &pf, err, sizeof(err))) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return 2;
	}
	if (dqr_plan_select(&pf, id, &p, err, sizeof(err))) {
		fprintf(stderr, "dqr-check: %s\n", err);
		goto out;
	}
	if (expect) {
		want = read_tables(f, expect, &quirk);
		if (!want)
			goto out;
	}
	if (dqr_plan_replay(f, start, &p, &end, &rr)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		goto out;
	}
	if (want)
		expect_compare(f, end, want, start_quirk, quirk, &d);
	ok = dqr_replay_ok(&rr) && !d.entries;
	if (json)
		print_replay_json(f, plan_path, id, &p, &rr, expect, &d, ok);
	else
		print_replay_text(f, plan_path, id, &p, &rr, expect, &d);
	if (!json)
		printf("result: %s\n", ok ? "OK" : "FAIL");
	dqr_replay_report_release(&rr);
	ret = ok ? 0 : 1;
out:
	dqr_plan_release(&p);
	dqr_plan_file_release(&pf);
	dqr_lfts_free(end);
	dqr_lfts_free(want);
	return ret;
}

/* ------------------------------------------------------ --one-shot-from */

static void print_one_shot_text(const struct dqr_fabric *f, const char *old,
				const char *new_path,
				const struct dqr_one_shot_report *r)
{
	char buf[4096];

	printf("one-shot upload of %s over %s: %" PRIu64 " entries differ "
	       "on %u switches, %u DLIDs\n", new_path, old, r->entries,
	       r->switches, r->dlids);
	printf("old tables: forwarding loops towards %u DLIDs, dependency "
	       "cycle: %s\n", r->old_loop_dlids, r->old_cyclic ? "yes" :
	       "no");
	printf("new tables: forwarding loops towards %u DLIDs, dependency "
	       "cycle: %s\n", r->new_loop_dlids, r->new_cyclic ? "yes" :
	       "no");
	dqr_format_verdict(f, &r->whole, buf, sizeof(buf));
	printf("union of old and new (any switch by either table): %s%s%s\n",
	       dqr_union_ok(&r->whole) ? "OK" : "FAIL", buf[0] ? ": " : "",
	       buf);
	printf("intermediate states judged: %u (per changed switch: it "
	       "switches first, it switches last)\n", r->states);
	printf("  first (only it has switched): %u loop, %u cyclic, %u of %u "
	       "bad", r->first_loop, r->first_cyclic, r->first_bad,
	       r->switches);
	if (r->first_bad_sw != DQR_NONE)
		printf(" (e.g. %s)", switch_name(f, r->first_bad_sw));
	printf("\n  last (all but it have switched): %u loop, %u cyclic, %u "
	       "of %u bad", r->last_loop, r->last_cyclic, r->last_bad,
	       r->switches);
	if (r->last_bad_sw != DQR_NONE)
		printf(" (e.g. %s)", switch_name(f, r->last_bad_sw));
	printf("\n%.1f ms\nresult: %s\n", r->ms,
	       dqr_one_shot_ok(r) ? "OK" : "FAIL");
}

static void print_one_shot_json(const struct dqr_fabric *f, const char *old,
				const char *new_path,
				const struct dqr_one_shot_report *r)
{
	printf("{\"one_shot\":{\"old\":");
	dqr_json_string(stdout, old);
	printf(",\"new\":");
	dqr_json_string(stdout, new_path);
	printf(",\"entries\":%" PRIu64 ",\"switches\":%u,\"dlids\":%u,"
	       "\"old_loop_dlids\":%u,\"old_cyclic\":%s,"
	       "\"new_loop_dlids\":%u,\"new_cyclic\":%s,\"union\":{",
	       r->entries, r->switches, r->dlids, r->old_loop_dlids,
	       r->old_cyclic ? "true" : "false", r->new_loop_dlids,
	       r->new_cyclic ? "true" : "false");
	json_verdict(stdout, f, &r->whole);
	printf("},\"states\":%u,\"first\":{\"loop\":%u,\"cyclic\":%u,"
	       "\"bad\":%u},\"last\":{\"loop\":%u,\"cyclic\":%u,"
	       "\"bad\":%u},\"ms\":%.3f},\"ok\":%s}\n", r->states,
	       r->first_loop, r->first_cyclic, r->first_bad, r->last_loop,
	       r->last_cyclic, r->last_bad, r->ms,
	       dqr_one_shot_ok(r) ? "true" : "false");
}

/* The --one-shot-from mode; returns the exit status. */
static int run_one_shot(struct dqr_fabric *f, const struct dqr_lfts *t,
			const char *old_path, const char *new_path, int json)
{
	struct dqr_one_shot_report r;
	struct dqr_lfts *old;
	uint32_t quirk = 0;
	int ok;

	old = read_tables(f, old_path, &quirk);
	if (!old)
		return 2;
	if (quirk)
		/* dump_fts left that LID out of OLD: do not judge it */
		dqr_fabric_forget_lid(f, quirk);
	if (dqr_one_shot_judge(f, old, t, &r)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		dqr_lfts_free(old);
		return 2;
	}
	if (json)
		print_one_shot_json(f, old_path, new_path, &r);
	else
		print_one_shot_text(f, old_path, new_path, &r);
	ok = dqr_one_shot_ok(&r);
	dqr_one_shot_report_release(&r);
	dqr_lfts_free(old);
	return ok ? 0 : 1;
}

/* Differences between the tables in path and t, on the same fabric. */
static int compare(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   const char *path, struct dqr_lft_diff *diff)
{
	struct dqr_lft_read_info info;
	struct dqr_lfts *old;
	char err[512];

	/* a switch that failed since has no row to compare */
	old = dqr_read_lfts_known(f, path, &info, err, sizeof(err));
	if (!old) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return -1;
	}
	dqr_lfts_diff(old, t, diff);
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(old);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "replay", required_argument, NULL, 'r' },
		{ "reconf", required_argument, NULL, 'i' },
		{ "expect", required_argument, NULL, 'e' },
		{ "one-shot-from", required_argument, NULL, 'o' },
		{ "load", no_argument, NULL, 'l' },
		{ "vl-layers", no_argument, NULL, 'v' },
		{ "vl-dump", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dqr_lft_read_info info;
	struct dqr_verify_report r;
	struct dqr_route_load load_all;
	struct dqr_shift_summary load_shift;
	struct dqr_vl_layers *v = NULL;
	struct dqr_vl_stats vst;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	unsigned kinds = DQR_PAIRS_ALL;
	const char *baseline = NULL, *replay = NULL, *expect = NULL;
	const char *one_shot = NULL, *vl_dump_path = NULL;
	uint64_t reconf = 0;
	int have_reconf = 0;
	struct dqr_lft_diff diff;
	char err[512];
	int c, json = 0, ok, load = 0, vl = 0, wrap, ret = 2;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'p':
			if (parse_pairs(optarg, &kinds)) {
				fprintf(stderr, "dqr-check: --pairs takes all "
					"or ca, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'r':
			replay = optarg;
			break;
		case 'i':
			if (dqr_parse_uint(optarg, strlen(optarg), 10,
					   UINT64_MAX, &reconf)) {
				fprintf(stderr, "dqr-check: --reconf takes "
					"a decimal reconfiguration id, not "
					"'%s'\n", optarg);
				return 2;
			}
			have_reconf = 1;
			break;
		case 'e':
			expect = optarg;
			break;
		case 'o':
			one_shot = optarg;
			break;
		case 'l':
			load = 1;
			break;
		case 'v':
			vl = 1;
			break;
		case 'd':
			/* the dump needs the layers */
			vl_dump_path = optarg;
			vl = 1;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}
	if ((have_reconf || expect) && !replay) {
		fprintf(stderr, "dqr-check: --reconf and --expect go with "
			"--replay\n");
		return 2;
	}
	if ((replay || one_shot) && baseline) {
		fprintf(stderr, "dqr-check: --baseline does not go with "
			"--replay or --one-shot-from\n");
		return 2;
	}
	if ((replay || one_shot) && load) {
		fprintf(stderr, "dqr-check: --load does not go with "
			"--replay or --one-shot-from\n");
		return 2;
	}
	if ((replay || one_shot) && vl) {
		fprintf(stderr, "dqr-check: --vl-layers and --vl-dump do not "
			"go with --replay or --one-shot-from\n");
		return 2;
	}
	if (replay && one_shot) {
		fprintf(stderr, "dqr-check: --replay and --one-shot-from "
			"exclude each other\n");
		return 2;
	}

	f = dqr_read_topology(argv[optind], err, sizeof(err));
	if (!f) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return 2;
	}
	t = dqr_read_lfts(f, argv[optind + 1], &info, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "dqr-check: %s\n", err);
		dqr_fabric_free(f);
		return 2;
	}
	if (baseline && compare(f, t, baseline, &diff)) {
		dqr_lft_read_info_release(&info);
		dqr_lfts_free(t);
		dqr_fabric_free(f);
		return 2;
	}
	if (info.quirk_missing_top_lid) {
		/*
		 * dump_fts 44.0 does not print the block that starts at
		 * LinearFDBTop when that is a multiple of 64: what the
		 * switches hold for that LID is unknown, so it is not judged
		 * rather than called a hole.
		 */
		fprintf(stderr, "dqr-check: warning: LID %u is missing from "
			"every switch in %s (dump_fts omits the block at "
			"LinearFDBTop when it is a multiple of 64); pairs "
			"towards it are not judged\n",
			info.quirk_missing_top_lid, argv[optind + 1]);
		dqr_fabric_forget_lid(f, info.quirk_missing_top_lid);
	}
	if (info.switches_missing)
		fprintf(stderr, "dqr-check: warning: %u switches of the "
			"topology have no table in %s\n", info.switches_missing,
			argv[optind + 1]);

	if (replay || one_shot) {
		c = replay ? run_replay(f, t, info.quirk_missing_top_lid,
					replay, have_reconf ? &reconf : NULL,
					expect, json) :
			     run_one_shot(f, t, one_shot, argv[optind + 1],
					  json);
		dqr_lft_read_info_release(&info);
		dqr_lfts_free(t);
		dqr_fabric_free(f);
		return c;
	}

	/* before any output: no half-printed JSON when memory runs out */
	if (load && (dqr_route_load(f, t, &load_all, NULL) ||
		     dqr_shift_load_summary(f, t, &load_shift))) {
		fprintf(stderr, "dqr-check: out of memory\n");
		goto out;
	}
	if (vl) {
		v = vl_build(f, t, &vst);
		if (!v || (vl_dump_path && vl_dump(f, v, vl_dump_path,
						   argv[optind],
						   argv[optind + 1])))
			goto out;
	}
	if (dqr_verify(f, t, &r, NULL)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		goto out;
	}
	ok = vl ? vl_ok(&r, kinds, &vst) : dqr_verify_ok(&r, kinds);
	wrap = baseline || load || vl;
	/* text with --vl-layers: the verdict comes after the VLs */
	if (!json && vl && print_report_body(f, &r, kinds)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		dqr_verify_report_free(&r);
		goto out;
	}
	if (json && baseline)
		printf("{\"changed\":{\"entries\":%" PRIu64 ",\"blocks\":%"
		       PRIu64 ",\"switches\":%u},\"report\":", diff.entries,
		       diff.blocks, diff.switches);
	else if (json && wrap)
		printf("{\"report\":");
	if (json)
		dqr_print_report_json(stdout, f, &r, kinds);
	else if (!vl)
		dqr_print_report_text(stdout, f, &r, kinds);
	if (json && load)
		print_load_json(&load_all, &load_shift);
	if (json && vl) {
		print_vl_json(f, v, &vst);
		/* the report's own "ok" judges the one-layer graph */
		printf(",\"ok\":%s", ok ? "true" : "false");
	}
	if (json && wrap)
		printf("}\n");
	else if (baseline)
		printf("changed against %s: %" PRIu64 " entries, %" PRIu64
		       " blocks of 64 LIDs, %u switches\n", baseline,
		       diff.entries, diff.blocks, diff.switches);
	if (!json && load)
		print_load_text(&load_all, &load_shift);
	if (!json && vl) {
		print_vl_text(f, v, &vst);
		printf("result: %s\n", ok ? "OK" : "FAIL");
	}
	dqr_verify_report_free(&r);
	ret = ok ? 0 : 1;
out:
	dqr_vl_layers_free(v);
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	return ret;
}
