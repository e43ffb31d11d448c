/*
 * dqr_status_fmt.c - the text of dqr-status and dqr.prom, and writing a
 * file atomically.  No OpenSM here: the plugin's side (dqr_status.c)
 * fills a struct dqr_status_view, and the unit test does the same.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "dqr_status.h"

void dqr_status_count(struct dqr_status_counters *c,
		      const struct dqr_status_reconfig *r,
		      uint64_t changed)
{
	int i;

	for (i = 0; i < DQR_STATUS_OUTCOMES; i++)
		if (!c->outcome[i][0] || !strcmp(c->outcome[i], r->outcome))
			break;
	if (i == DQR_STATUS_OUTCOMES) {
		/* all taken: the last slot counts the rest as "other" */
		i = DQR_STATUS_OUTCOMES - 1;
		snprintf(c->outcome[i], sizeof(c->outcome[i]), "other");
	} else if (!c->outcome[i][0]) {
		snprintf(c->outcome[i], sizeof(c->outcome[i]), "%s",
			 r->outcome);
	}
	c->reconfigs[i]++;
	c->last = *r;
	if (r->handed >= 0) {
		c->entries_changed += changed;
		c->last_reaction_ms = r->handed;
		c->have_reaction = 1;
	}
}

static void fmt_utc(char *buf, size_t len, double when)
{
	time_t t = (time_t)when;
	struct tm tm;

	if (!gmtime_r(&t, &tm) || !strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ",
					     &tm))
		snprintf(buf, len, "?");
}

/* "0x0000000000200001/5 (sw-L1-0000)" */
static void put_port(FILE *fp, const struct dqr_fabric *f, uint32_t p)
{
	const struct dqr_port *pt = &f->ports[p];

	fprintf(fp, "0x%016" PRIx64 "/%u (%s)", f->nodes[pt->node].guid,
		pt->num, dqr_node_name(f, pt->node));
}

/*
 * One line per failed cable: a switch-to-switch cable has both its
 * switch ports in the list, and is shown once, from the lower index.
 */
static void put_failed_ports(FILE *fp, const struct dqr_status_view *v)
{
	const struct dqr_fabric *f = v->ref;
	uint32_t i, shown = 0, skipped = 0;

	for (i = 0; i < v->num_failed_ports; i++) {
		uint32_t p = v->failed_ports[i], r;

		if (p >= f->num_ports)
			continue;
		r = f->ports[p].remote;
		if (r != DQR_NONE && r < p &&
		    dqr_is_switch(f, f->ports[r].node))
			continue;
		if (shown == DQR_STATUS_NAMES_MAX) {
			skipped++;
			continue;
		}
		fputs("failed_link: ", fp);
		put_port(fp, f, p);
		if (r != DQR_NONE) {
			fputs(" -> ", fp);
			put_port(fp, f, r);
		}
		fputc('\n', fp);
		shown++;
	}
	if (skipped)
		fprintf(fp, "failed_link: ... %u more\n", skipped);
}

static void put_gone_switches(FILE *fp, const struct dqr_status_view *v)
{
	const struct dqr_fabric *f = v->ref;
	uint32_t i, n = v->num_gone_switches;

	for (i = 0; i < n && i < DQR_STATUS_NAMES_MAX; i++) {
		uint32_t node = v->gone_switches[i];

		if (node < f->num_nodes)
			fprintf(fp, "missing_switch: 0x%016" PRIx64 " (%s)\n",
				f->nodes[node].guid, dqr_node_name(f, node));
	}
	if (n > DQR_STATUS_NAMES_MAX)
		fprintf(fp, "missing_switch: ... %u more\n",
			n - DQR_STATUS_NAMES_MAX);
}

static void put_left_out(FILE *fp, const struct dqr_status_view *v)
{
	const struct dqr_fabric *f = v->ref;
	uint32_t i, n = v->num_left_out;

	fprintf(fp, "twophase_left_out: %u\n"
		"twophase_active: %u\n", n, v->twophase_active);
	for (i = 0; f && i < n && i < DQR_STATUS_NAMES_MAX; i++) {
		uint32_t node = v->left_out[i];

		if (node < f->num_nodes)
			fprintf(fp, "left_out_switch: 0x%016" PRIx64 " (%s)\n",
				f->nodes[node].guid, dqr_node_name(f, node));
	}
	if (f && n > DQR_STATUS_NAMES_MAX)
		fprintf(fp, "left_out_switch: ... %u more\n",
			n - DQR_STATUS_NAMES_MAX);
}

static void put_transitions(FILE *fp, const struct dqr_status_view *v)
{
	const struct dqr_status_counters *c = v->c;

	if (v->transition)
		fprintf(fp, "transition: %" PRIu64 " stage %u of %u %s\n",
			v->transition, v->stage, v->stages,
			v->answered ? "answered" : "handed to OpenSM");
	else
		fputs("transition: none\n", fp);
	if (!c->ended_id)
		fputs("last_transition: none\n", fp);
	else if (c->ended_left)
		fprintf(fp, "last_transition: %" PRIu64 " left after %u of "
			"%u stages\n", c->ended_id, c->ended_done,
			c->ended_stages);
	else
		fprintf(fp, "last_transition: %" PRIu64 " complete, %u "
			"stages\n", c->ended_id, c->ended_stages);
}

static void put_reconfig(FILE *fp, const struct dqr_status_reconfig *r)
{
	char when[32];

	if (!r->id) {
		fputs("reconfiguration: none\n", fp);
		return;
	}
	fmt_utc(when, sizeof(when), r->when);
	fprintf(fp, "reconfiguration: %" PRIu64 "\n"
		"reconfiguration_time: %s\n"
		"outcome: %s\n"
		"phases_ms: projection %.2f reroute %.2f verify %.2f "
		"plan %.2f\n", r->id, when, r->outcome, r->project,
		r->reroute, r->verify, r->plan);
	if (r->handed >= 0)
		fprintf(fp, "reaction_ms: %.2f from the %s to the first "
			"stage handed to OpenSM\n", r->handed, r->since);
	else
		fputs("reaction_ms: none, not handed to OpenSM\n", fp);
}

static void put_tolerance(FILE *fp, const struct dqr_tol_report *t)
{
	uint32_t i;

	if (!t || t->state == DQR_TOL_OFF) {
		fputs("fault_tolerance: not judged (tolerance_s=0, or no "
		      "tables of DQR's yet)\n", fp);
		return;
	}
	if (t->state == DQR_TOL_UNAVAILABLE) {
		fprintf(fp, "fault_tolerance: not judged: %s\n", t->why);
		return;
	}
	fprintf(fp, "fault_tolerance: %s reconfiguration %" PRIu64 ": %u "
		"single faults (%u cables, %u switches), %u judged in %.1f s "
		"of CPU: %u absorbed at once, %u after a drain, %u cut pairs "
		"off\n", t->state == DQR_TOL_JUDGING ? "judging" :
		t->state == DQR_TOL_PARTIAL ? "partial (tolerance_s spent)," :
		"after", t->reconfig, t->faults, t->cables,
		t->faults - t->cables, t->judged, t->cpu_s, t->absorbed,
		t->drained, t->cut);
	for (i = 0; i < t->num_cut_names; i++)
		fprintf(fp, "fault_cuts_pairs: %s\n", t->cut_names[i]);
	if (t->cut > t->num_cut_names)
		fprintf(fp, "fault_cuts_pairs: ... and %u more\n",
			t->cut - t->num_cut_names);
}

int dqr_status_format(FILE *fp, const struct dqr_status_view *v)
{
	char now[32];

	fmt_utc(now, sizeof(now), v->now);
	fprintf(fp, "# osmdqr status, rewritten whole at every change "
		"(osmdqr(8), FILES)\n"
		"time: %s\n"
		"base: %s\n"
		"shape: %s\n"
		"re_routing_layer: %s\n"
		"failed_links: %u\n"
		"missing_nodes: %u\n"
		"missing_switches: %u\n", now, v->base, v->shape,
		v->re_routing_layer ? "on VL 1" : "off", v->failed_links,
		v->missing_nodes, v->missing_switches);
	if (v->ref) {
		put_failed_ports(fp, v);
		put_gone_switches(fp, v);
	}
	if (v->twophase)
		put_left_out(fp, v);
	put_transitions(fp, v);
	put_reconfig(fp, &v->c->last);
	fprintf(fp, "tables: %s\n", v->verified > 0 ? "safe" :
		v->verified ? "not verified" : "NOT SAFE");
	fprintf(fp, "verdict: %s\n", v->verdict);
	if (v->verified >= 0)
		fprintf(fp, "unrouted_pairs: %" PRIu64 "\n", v->unrouted_pairs);
	put_tolerance(fp, v->tol);
	return ferror(fp) ? -1 : 0;
}

/* ------------------------------------------------------------------ */
/* dqr.prom: Prometheus' text format, as node_exporter reads it */

static void prom_head(FILE *fp, const char *name, const char *type,
		      const char *help)
{
	fprintf(fp, "# HELP osmdqr_%s %s\n# TYPE osmdqr_%s %s\n", name, help,
		name, type);
}

/* a label value: backslash, double quote and newline escaped */
static void prom_label(FILE *fp, const char *s)
{
	fputc('"', fp);
	for (; *s; s++) {
		if (*s == '\\' || *s == '"')
			fputc('\\', fp);
		if (*s == '\n') {
			fputs("\\n", fp);
			continue;
		}
		fputc(*s, fp);
	}
	fputc('"', fp);
}

static void prom_u64(FILE *fp, const char *name, const char *type,
		     const char *help, uint64_t value)
{
	prom_head(fp, name, type, help);
	fprintf(fp, "osmdqr_%s %" PRIu64 "\n", name, value);
}

static void prom_dbl(FILE *fp, const char *name, const char *type,
		     const char *help, double value, int known)
{
	prom_head(fp, name, type, help);
	if (known)
		fprintf(fp, "osmdqr_%s %.6f\n", name, value);
}

/* the fault-tolerance report: its size always, its fates once judged */
static void prom_tolerance(FILE *fp, const struct dqr_tol_report *t)
{
	static const char *const fates[] = { "absorbed", "drained", "cut" };
	int judged = t && (t->state == DQR_TOL_JUDGING ||
			   t->state == DQR_TOL_DONE ||
			   t->state == DQR_TOL_PARTIAL);
	uint32_t n[3] = { 0, 0, 0 };
	int i;

	prom_u64(fp, "tolerance_faults", "gauge",
		 "Single faults (switch cables, switches) the tables in force "
		 "could meet next; 0: not judged.", judged ? t->faults : 0);
	prom_u64(fp, "tolerance_judged", "gauge",
		 "Of those, the ones tried on a copy of DQR's state so far.",
		 judged ? t->judged : 0);
	if (!judged)
		return;
	n[0] = t->absorbed;
	n[1] = t->drained;
	n[2] = t->cut;
	prom_head(fp, "tolerance_fate", "gauge",
		  "Single faults judged, by fate: absorbed at once, after a "
		  "drain, or cutting pairs off.");
	for (i = 0; i < 3; i++)
		fprintf(fp, "osmdqr_tolerance_fate{fate=\"%s\"} %u\n",
			fates[i], n[i]);
	prom_dbl(fp, "tolerance_cpu_seconds", "gauge",
		 "CPU the fault-tolerance walk of the tables in force took.",
		 t->cpu_s, 1);
}

int dqr_status_format_prom(FILE *fp, const struct dqr_status_view *v)
{
	const struct dqr_status_counters *c = v->c;
	int i;

	prom_head(fp, "reconfigurations_total", "counter",
		  "DQR reconfigurations since OpenSM started, by outcome.");
	if (!c->outcome[0][0])
		fputs("osmdqr_reconfigurations_total{outcome=\"ok\"} 0\n", fp);
	for (i = 0; i < DQR_STATUS_OUTCOMES && c->outcome[i][0]; i++) {
		fputs("osmdqr_reconfigurations_total{outcome=", fp);
		prom_label(fp, c->outcome[i]);
		fprintf(fp, "} %" PRIu64 "\n", c->reconfigs[i]);
	}
	prom_u64(fp, "entries_changed_total", "counter",
		 "Forwarding entries changed by reconfigurations handed to "
		 "OpenSM.", c->entries_changed);
	prom_u64(fp, "stages_total", "counter",
		 "Transition stages OpenSM answered.", c->stages);
	prom_dbl(fp, "drain_seconds_total", "counter",
		 "Drain delays waited by transitions that ended.",
		 c->drain_ms / 1e3, 1);
	prom_u64(fp, "fallbacks_total", "counter",
		 "DQR passes the base engine routed from scratch instead.",
		 c->fallbacks);
	prom_u64(fp, "fast_reactions_total", "counter",
		 "Traps the fast path answered before OpenSM's sweep.",
		 c->fast_reactions);
	prom_u64(fp, "fast_declined_total", "counter",
		 "Traps the fast path left to OpenSM's sweep (the log says "
		 "why).", c->fast_declined);
	prom_tolerance(fp, v->tol);
	prom_u64(fp, "failed_links", "gauge",
		 "Cables of the reference topology absent now.",
		 v->failed_links);
	prom_u64(fp, "missing_switches", "gauge",
		 "Switches of the reference topology absent now.",
		 v->missing_switches);
	prom_u64(fp, "missing_nodes", "gauge",
		 "Nodes (switches, CAs, routers) of the reference topology "
		 "absent now.", v->missing_nodes);
	if (v->twophase) {
		prom_u64(fp, "twophase_left_out", "gauge",
			 "Switches two-phase routing leaves out, their group "
			 "of four broken.", v->num_left_out);
		prom_u64(fp, "twophase_active", "gauge",
			 "Switches active by the HC paper's criteria.",
			 v->twophase_active);
	}
	prom_u64(fp, "transition_stage", "gauge",
		 "Stages of the transition under way handed to OpenSM; 0: "
		 "none under way.", v->transition ? v->stage : 0);
	prom_u64(fp, "transition_stages", "gauge",
		 "Stages of the transition under way; 0: none under way.",
		 v->transition ? v->stages : 0);
	prom_dbl(fp, "last_reaction_seconds", "gauge",
		 "The last reconfiguration handed over: from the trap (or "
		 "sweep) to its first stage handed to OpenSM.",
		 c->last_reaction_ms / 1e3, c->have_reaction);
	prom_dbl(fp, "last_reconfiguration_timestamp_seconds", "gauge",
		 "When the last reconfiguration was made, since the epoch.",
		 c->last.when, c->last.id != 0);
	prom_u64(fp, "tables_verified", "gauge",
		 "1 when the verifier found the tables handed over last "
		 "loop free and deadlock free.", v->verified > 0);
	prom_head(fp, "base_info", "gauge",
		  "The base engine that routed last; always 1.");
	fputs("osmdqr_base_info{base=", fp);
	prom_label(fp, v->base);
	fputs("} 1\n", fp);
	return ferror(fp) ? -1 : 0;
}

/* ------------------------------------------------------------------ */

int dqr_status_write(const char *dir, const char *name,
		     int (*fmt)(FILE *, const struct dqr_status_view *),
		     const struct dqr_status_view *v, char *err, size_t len)
{
	char tmp[4096], path[4096];
	FILE *fp = NULL;
	int fd, bad;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >=
	    sizeof(path) ||
	    (size_t)snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, name) >=
	    sizeof(tmp)) {
		snprintf(err, len, "%s/%s: path too long", dir, name);
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, len, "cannot create %s: %s", tmp,
			 strerror(errno));
		return -1;
	}
	/* mkstemp makes it 0600; the collector may run as another user */
	if (fchmod(fd, 0644) || !(fp = fdopen(fd, "w"))) {
		snprintf(err, len, "%s: %s", tmp, strerror(errno));
		if (!fp)
			close(fd);
		unlink(tmp);
		return -1;
	}
	errno = 0;
	bad = fmt(fp, v);
	bad = fclose(fp) || bad;
	if (bad || rename(tmp, path)) {
		snprintf(err, len, "cannot write %s: %s", path,
			 errno ? strerror(errno) : "write error");
		unlink(tmp);
		return -1;
	}
	return 0;
}
