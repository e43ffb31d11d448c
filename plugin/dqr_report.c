/*
 * dqr_report.c - what the plugin tells the OpenSM log: the verdict on
 * every table handed over, the reactor's notes, the line of every
 * reconfiguration (whose JSON record dqr_record.c writes).  Called by
 * dqr_engine.c, dqr_reconfig.c, dqr_transition.c and dqr_sls.c; calls
 * dqr_record.c and dqr_status.c below it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_record.h"
#include "dqr_report.h"
#include "routes/route_walk.h"
#include "util/timing.h"
#include "verify/verify.h"

/* the cycle's ERROR line shows this many channels at most */
#define CYCLE_SHOW_MAX 16

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

static void log_cycle(struct dqr_ctx *ctx, const char *what)
{
	const struct dqr_cycle *c = &ctx->judged.v.cycle;
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
	switch (ctx->judged.kind) {
	case DQR_JUDGED_TWO_VLS:
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: the tables of %s close a cycle of %u channels "
			"in one layer, as routes through the re-routing "
			"layer do; on their two VLs each layer is acyclic: "
			"%s\n", what, c->len, line);
		return;
	case DQR_JUDGED_VLAYERS:
		/* the layers' own verdict follows, an ERR when cyclic */
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: the tables of %s close a cycle of %u channels "
			"in one layer, as shortest routes round a ring do; "
			"%s layers are judged on their own VLs: %s\n",
			what, c->len, dqr_topology_whose(&ctx->react), line);
		return;
	default:
		break;
	}
	if (!ctx->pass_dqr && ctx->judged.kind == DQR_JUDGED_BASE_SLS) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
			"dqr: the tables of %s close a cycle of %u "
			"channels in the one-layer channel dependency graph; "
			"'%s' spreads routes over virtual lanes by SL, which "
			"dqr does not check: %s\n", what, c->len,
			ctx->bases.ran ? dqr_base_name(ctx->bases.ran) : "?",
			line);
		return;
	}
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR,
		"ERR DQ0D: dqr: deadlock possible: the tables of %s close a "
		"cycle of %u channels in the channel dependency graph: %s\n",
		what, c->len, line);
}

/* A few unrouted pairs, for whoever raised the log level to see why. */
static void log_examples(struct dqr_ctx *ctx)
{
	const struct dqr_verify_report *r = &ctx->judged.v;
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

/* What the summary says of a cycle on one layer, by the judgement. */
static const char *cycle_phrase(const struct dqr_judgement *j,
				int pass_dqr)
{
	if (!j->v.cycle_found)
		return "no";
	switch (j->kind) {
	case DQR_JUDGED_TWO_VLS:
		return "yes (one layer; none on the two VLs)";
	case DQR_JUDGED_VLAYERS:
		return j->vv.acyclic ? "yes (one layer; none on the torus's "
		       "layers)" : "yes (and on a layer of the torus)";
	case DQR_JUDGED_BASE_SLS:
		return pass_dqr ? "yes" :
		       "yes (one layer; base uses SL layers)";
	default:
		return "yes";
	}
}

static void log_pass(struct dqr_ctx *ctx, const char *what, double ms_model,
		     double ms_verify, uint64_t filled)
{
	const struct dqr_verify_report *r = &ctx->judged.v;
	uint64_t sw_inv, no_path = 0;
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		no_path += r->disconnected[k];
	sw_inv = r->unreachable[DQR_PAIR_CA_SW] +
		 r->unreachable[DQR_PAIR_SW_CA] +
		 r->unreachable[DQR_PAIR_SW_SW];
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
		"dqr: %s: %u switches, %u CA ports, %u LIDs, %u channels, "
		"%" PRIu64 " dependencies, unrouted pairs %" PRIu64
		" (switch-involved %" PRIu64 ", no cable path %" PRIu64
		"), cycle %s, filled %" PRIu64 " entries, model %.2f ms, "
		"verify %.2f ms\n", what, r->switches, r->end_ports, r->lids,
		r->channels, r->dependencies, dqr_report_unreachable(r),
		sw_inv, no_path, cycle_phrase(&ctx->judged, ctx->pass_dqr),
		filled, ms_model, ms_verify);
}

int dqr_judge(struct dqr_ctx *ctx, const char *what, double ms_model,
	      uint64_t filled)
{
	osm_log_t *log = &ctx->osm->log;
	const struct dqr_judgement *j = &ctx->judged;
	double t0 = dqr_now_ms();

	if (ctx->have_report)
		dqr_judgement_release(&ctx->judged);
	ctx->have_report = 0;
	if (dqr_react_judge(&ctx->react, ctx->fabric, ctx->lfts,
			    &ctx->judged)) {
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0A: dqr: out of memory "
			"verifying %u switches x %u LIDs; the tables of %s "
			"go out unverified\n", ctx->fabric->num_switches,
			ctx->fabric->max_lid, what);
		return -1;
	}
	ctx->have_report = 1;
	log_pass(ctx, what, ms_model, dqr_now_ms() - t0, filled);
	if (j->v.cycle_found)
		log_cycle(ctx, what);
	if (j->v.loop_entries)
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0E: dqr: the tables of %s "
			"have %" PRIu64 " entries on forwarding loops\n", what,
			j->v.loop_entries);
	if (osm_log_is_active(log, OSM_LOG_VERBOSE))
		log_examples(ctx);
	if (j->kind == DQR_JUDGED_VLAYERS && !j->vv.acyclic)
		OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ0D: dqr: deadlock "
			"possible: the tables of %s close a cycle on layer %u "
			"of the torus\n", what, j->vv.cyclic_layer);
	return !dqr_judgement_safe(j);
}

void dqr_log_notes(struct dqr_ctx *ctx, const struct dqr_notes *ns)
{
	osm_log_t *log = &ctx->osm->log;
	const struct dqr_note *n;
	unsigned i;

	for (i = 0; i < ns->len; i++) {
		n = &ns->note[i];
		switch (n->level) {
		case DQR_NOTE_VERBOSE:
			OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: %s\n", n->text);
			break;
		case DQR_NOTE_INFO:
			OSM_LOG(log, OSM_LOG_INFO, "dqr: %s\n", n->text);
			break;
		case DQR_NOTE_SYS:
			OSM_LOG(log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: %s\n",
				n->text);
			break;
		case DQR_NOTE_NOTICE:
			OSM_LOG(log, OSM_LOG_SYS | OSM_LOG_INFO, "osmdqr: "
				"NOTICE: %s\n", n->text);
			break;
		case DQR_NOTE_ERROR:
			OSM_LOG(log, OSM_LOG_ERROR, "ERR DQ%s: dqr: %s\n",
				n->code, n->text);
			break;
		}
	}
	if (ns->dropped)
		OSM_LOG(log, OSM_LOG_VERBOSE, "dqr: %u more notes dropped\n",
			ns->dropped);
}

/* links, switches and cut-off LIDs the log line names; the rest counted */
#define NAMES_SHOW 3

/*
 * s for a log line, between quotes: a node description is whatever the
 * node says, quotes and control characters included (json-c escapes it
 * in the records).
 */
static void esc(const char *s, char *buf, size_t len)
{
	size_t k = 0;
	unsigned char c;

	for (; *s && k + 7 < len; s++) {
		c = (unsigned char)*s;
		if (c == '"' || c == '\\')
			k += (size_t)snprintf(buf + k, len - k, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			k += (size_t)snprintf(buf + k, len - k, "\\u%04x", c);
		else
			buf[k++] = (char)c;
	}
	buf[k] = '\0';
}

/* "desc" 0x<guid> of node */
static int fmt_node(const struct dqr_fabric *f, uint32_t node, char *buf,
		    size_t len)
{
	char d[400];

	esc(dqr_node_name(f, node), d, sizeof(d));
	return snprintf(buf, len, "\"%s\" 0x%016" PRIx64, d,
			f->nodes[node].guid);
}

/* "a" 0x.. port 5 <-> "b" 0x.. port 1: the cable at switch port p */
static int fmt_link(const struct dqr_fabric *f, uint32_t p, char *buf,
		    size_t len)
{
	uint32_t q = dqr_peer_port(f, p);
	int n;

	n = fmt_node(f, f->ports[p].node, buf, len);
	if (n < 0 || (size_t)n >= len)
		return n;
	n += snprintf(buf + n, len - (size_t)n, " port %u <-> ",
		      f->ports[p].num);
	if ((size_t)n >= len)
		return n;
	if (q == DQR_NONE)
		return n + snprintf(buf + n, len - (size_t)n, "?");
	n += fmt_node(f, f->ports[q].node, buf + n, len - (size_t)n);
	if ((size_t)n >= len)
		return n;
	return n + snprintf(buf + n, len - (size_t)n, " port %u",
			    f->ports[q].num);
}

/*
 * "; <what>: A, B, C and 4 more" for the first NAMES_SHOW of items
 * (cables by a switch port, or switch nodes), appended at buf + *used.
 */
static void fmt_list(const struct dqr_fabric *f, const char *what,
		     const uint32_t *items, uint32_t n, int links, char *buf,
		     size_t len, size_t *used)
{
	char one[900];
	uint32_t i;

	for (i = 0; i < n && i < NAMES_SHOW && *used < len; i++) {
		if (links)
			fmt_link(f, items[i], one, sizeof(one));
		else
			fmt_node(f, items[i], one, sizeof(one));
		*used += (size_t)snprintf(buf + *used, len - *used, "%s%s",
					  i ? ", " : "; ", i ? "" : what);
		if (*used < len)
			*used += (size_t)snprintf(buf + *used, len - *used,
						  "%s", one);
	}
	if (n > NAMES_SHOW && *used < len)
		*used += (size_t)snprintf(buf + *used, len - *used,
					  " and %u more", n - NAMES_SHOW);
}

/* What failed and what came back, for the reconfiguration's line. */
static void fmt_changed(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	const struct dqr_recon_change *c = &ctx->react.recon.change;
	const struct dqr_fabric *f = ctx->react.recon.ref;
	size_t used = 0;

	buf[0] = '\0';
	if (!f)
		return;
	fmt_list(f, "links failed: ", c->links_failed, c->num_links_failed,
		 1, buf, len, &used);
	fmt_list(f, "links back: ", c->links_returned, c->num_links_returned,
		 1, buf, len, &used);
	fmt_list(f, "switches lost: ", c->lost, c->num_lost, 0, buf, len,
		 &used);
	fmt_list(f, "switches back: ", c->returned, c->num_returned, 0, buf,
		 len, &used);
}

/*
 * The ERROR line of entries left cut off: the first LIDs with their
 * node and the switches that cannot reach them.
 */
static void log_cut(struct dqr_ctx *ctx)
{
	const struct dqr_recon_change *c = &ctx->react.recon.change;
	const struct dqr_fabric *f = ctx->react.recon.ref;
	char line[3072], one[512];
	uint32_t i, j, lid, sw, owner, lids = 0, shown = 0, on;
	size_t used = 0;

	line[0] = '\0';
	for (i = 0; i < c->num_cut; i = j) {
		lid = (uint32_t)(c->cut[i] >> 32);
		for (j = i; j < c->num_cut && c->cut[j] >> 32 == lid; j++)
			;
		lids++;
		if (shown == NAMES_SHOW || used >= sizeof(line))
			continue;
		shown++;
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE)
			snprintf(one, sizeof(one), "?");
		else
			fmt_node(f, f->ports[owner].node, one, sizeof(one));
		used += (size_t)snprintf(line + used, sizeof(line) - used,
					 "%sLID %u (%s) from ", shown > 1 ?
					 "; " : "", lid, one);
		for (on = 0; on < j - i && on < NAMES_SHOW; on++) {
			sw = (uint32_t)c->cut[i + on];
			if (used >= sizeof(line) || sw >= f->num_switches)
				break;
			fmt_node(f, f->switches[sw], one, sizeof(one));
			used += (size_t)snprintf(line + used,
						 sizeof(line) - used, "%s%s",
						 on ? ", " : "", one);
		}
		if (j - i > NAMES_SHOW && used < sizeof(line))
			used += (size_t)snprintf(line + used,
						 sizeof(line) - used,
						 " and %u more switches",
						 j - i - NAMES_SHOW);
	}
	if (lids > shown && used < sizeof(line))
		snprintf(line + used, sizeof(line) - used, "; and %u more "
			 "LIDs", lids - shown);
	OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ33: dqr: "
		"reconfiguration %" PRIu64 " leaves %u entries for %u LIDs "
		"without a legal route though a cable path joins them: %s\n",
		ctx->reconfigs, c->num_cut, lids, line);
}

void dqr_log_reconfig(struct dqr_ctx *ctx, const struct dqr_recon_result *r,
		      const char *outcome)
{
	const struct dqr_reroute_stats *s = &r->rs;
	const struct dqr_pass_times *t = &ctx->times;
	char handed[96] = "not handed to OpenSM", named[3072];

	if (t->handed >= 0)
		snprintf(handed, sizeof(handed), "first stage handed to "
			 "OpenSM %.2f ms from the %s", t->handed, t->since);
	fmt_changed(ctx, named, sizeof(named));
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO,
		"dqr: reconfiguration %" PRIu64 " (%s): %u cables down, %u "
		"nodes missing (%u switch ports newly down, %u back%s)%s; "
		"disconnected flows: %" PRIu64 " entries for %" PRIu64
		" LIDs (%" PRIu64 " pairs); changed %" PRIu64 " entries in %"
		PRIu64 " blocks on %u switches; turns enabled %" PRIu64
		", channel-list moves %" PRIu64 "; unreachable %" PRIu64
		" entries (no cable path), no legal route %" PRIu64
		"; compute %.0f us; projection %.2f ms, reroute %.2f ms, "
		"verify %.2f ms, plan %.2f ms; %s\n", ctx->reconfigs, outcome,
		ctx->diff.links_missing, ctx->diff.nodes_missing,
		r->ports_failed, r->ports_recovered,
		r->from_original ? ", from the original tables" : "", named,
		s->disconnected, s->lids_disconnected, s->disconnected_pairs,
		r->diff.entries, r->diff.blocks, r->diff.switches, s->turns,
		s->moved, s->unreachable, s->failed, r->us_total, t->project,
		t->reroute, t->verify, t->plan, handed);
	/* "no legal route" and "no legal route, not uploaded" */
	if (ctx->react.recon.change.num_cut && ctx->react.recon.ref &&
	    !strncmp(outcome, "no legal route", 14))
		log_cut(ctx);
	dqr_record_reconfig(ctx, r, outcome);
	dqr_status_reconfig(ctx, r, outcome);
}
