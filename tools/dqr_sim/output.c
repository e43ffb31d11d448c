/*
 * output.c - dqr-sim's report: the text table, the JSON object and the
 * --data table for gnuplot.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "options/options.h"
#include "verify/verify_print.h"
#include "dqr_sim.h"

void print_header(const struct sim *s, FILE *out)
{
	const struct dqr_recon_result *st = &s->p.start;
	char pol[32];

	policy_name(s, pol, sizeof(pol));
	fprintf(out, "dqr-sim: %s (%s), routing %s\n", s->in.name,
		s->in.describe, s->in.routing);
	fprintf(out, "  %u switches, %u end ports, %u LIDs, %" PRIu64
		" pairs; %u %s may fail\n", s->sc.switches, s->sc.end_ports,
		s->sc.lids, s->sc.pairs, s->sc.num_cand, fault_kind(s->o));
	fprintf(out, "  mode %s, turns %s, seed %" PRIu64 ", verify %s, "
		"reroute preference %s\n", dqr_mode_names[s->o->ro.mode],
		dqr_turns_names[s->o->ro.turns], s->o->seed, pol,
		bias_name(s));
	fprintf(out, "  start: channel list built once in %.1f ms; %" PRIu64
		" unrouted entries filled by DQR in %.1f ms; every run "
		"starts from a copy (%.1f ms)\n", st->us_list / 1e3,
		st->rs.changed, (st->us_total - st->us_list) / 1e3,
		s->p.ms_copy);
	if (s->o->vl_layers)
		fprintf(out, "  re-routing layer on a second VL where one "
			"layer fails (--vl-layers)\n");
	if (s->o->switch_faults)
		fprintf(out, "  the first %u faults of a run fail whole "
			"switches (every cable), the other %u links\n",
			s->o->switch_faults,
			s->o->faults - s->o->switch_faults);
}

void print_verify_summary(const struct sim *s, FILE *out)
{
	fprintf(out, "verification: %" PRIu64 " states checked, %u failed",
		s->states_verified, s->verify_failures);
	if (s->verify_failures_partial)
		fprintf(out, ", %u of them partial tables after a reported "
			"failure", s->verify_failures_partial);
	fprintf(out, "%s\n", s->verify_failures ?
		" (A BUG: see the messages on standard error)" : "");
}

static void print_conn(const struct sim *s)
{
	struct conn_view c;
	unsigned k;

	printf("\nP(conn): every pair a cable path joins is routed (a run "
	       "stays failed after its\nfirst failure; k = 0: the start "
	       "tables, checked once).  P(ends): that, and no\nCA is cut off "
	       "from another by the faults (cut: runs where one is).\n"
	       "P(df): deadlock free, of the states checked at k.  ca-lost: "
	       "checked states\nthat leave a CA-to-CA pair unrouted.\n");
	printf("fault  P(conn)   conn  P(ends)    cut  checked  vfail  "
	       "cyclic   P(df)  ca-lost\n");
	for (k = 0; k <= s->o->faults; k++) {
		c = conn_view(s, k);
		printf("%5u  %7.4f  %5u  %7.4f  %5u  %7u  %5u  %6u  ", k,
		       c.p_connected, c.connected, c.p_ends, c.ends_cut,
		       c.verified, c.verify_failed, c.cyclic);
		if (c.verified)
			printf("%6.4f  %7u\n", c.p_df, c.ca_lost);
		else
			printf("     -        -\n");
	}
}

static void print_ml(const struct sim *s)
{
	const struct step_stats *st;
	unsigned k;

	printf("\nTwo layers (--vl-layers): states served on the FT paper's "
	       "re-routing layer (the run\ngoes on).  unusable: layers the "
	       "plugin would refuse (the run fails): left,\nentries still "
	       "without a route; cyclic, the two VLs not deadlock free.  SLs, "
	       "VLs,\nfilled: the most a state used, and entries its fill "
	       "routed.\n");
	printf("fault  two-layer  unusable   left  cyclic  SLs  VLs  filled\n");
	for (k = 0; k < s->o->faults; k++) {
		st = &s->steps[k];
		printf("%5u  %9u  %8u  %5u  %6u  %3u  %3u  %6" PRIu64 "\n",
		       k + 1, st->ml, st->ml_unusable, st->ml_left,
		       st->ml_cyclic, st->ml_sls_max, st->ml_vls_max,
		       st->ml_filled_max);
	}
}

void print_text(const struct sim *s)
{
	struct dist o_us = overall(s, 0), o_tot = overall(s, 1);
	struct step_view v;
	unsigned k;

	print_header(s, stdout);
	printf("  %u runs of %u faults in %.1f s\n\n", s->o->runs,
	       s->o->faults, s->ms_wall / 1e3);
	printf("fault  P(ok)   ok/reached  split  broken%%  changed%%  "
	       "pairs%%   turns  reord   moved  refused  reroute us"
	       "         update us\n");
	printf("%102s%s\n", "", "median    worst    median    worst");
	for (k = 0; k < s->o->faults; k++) {
		v = step_view(s, k);
		printf("%5u  %6.4f %5u/%-5u %6u  %7.4f  %7.4f  %7.4f %6.1f "
		       "%6.1f %7.1f %8.1f  %8.0f %8.0f  %8.0f %8.0f\n", k + 1,
		       v.p_ok, s->steps[k].ok, s->steps[k].reached,
		       s->steps[k].split, 100 * v.disconnected, 100 * v.changed,
		       100 * v.pairs, v.turns, v.reorders, v.moved,
		       v.refused, v.us.median, v.us.max, v.us_total.median,
		       v.us_total.max);
	}
	printf("\noverall: reroute compute median %.0f us, p90 %.0f us, "
	       "worst %.0f us; whole update median %.0f us, worst %.0f us\n",
	       o_us.median, o_us.p90, o_us.max, o_tot.median, o_tot.max);
	if (s->o->vl_layers) {
		struct dist f = ml_dist(s, 0), b = ml_dist(s, 1);
		struct dist c = ml_dist(s, 2);

		printf("re-routing layer: %u built; fill median %.0f us, worst "
		       "%.0f us; VL build median %.1f ms, worst %.1f ms; VL "
		       "verify median %.1f ms, worst %.1f ms\n", s->mlt.n,
		       f.median, f.max, b.median, b.max, c.median, c.max);
	}
	print_conn(s);
	if (s->o->vl_layers)
		print_ml(s);
	print_verify_summary(s, stdout);
}

void print_json_dist(const char *key, struct dist d)
{
	printf("\"%s\":{\"median\":%.1f,\"p90\":%.1f,\"max\":%.1f}", key,
	       d.median, d.p90, d.max);
}

static void print_json_step(const struct sim *s, unsigned k)
{
	const struct step_stats *st = &s->steps[k];
	struct step_view v = step_view(s, k);

	printf("{\"fault\":%u,\"p_ok\":%.6f,\"reached\":%u,\"ok\":%u,"
	       "\"failed\":%u,\"split\":%u,\"broken_frac\":%.6g,"
	       "\"changed_frac\":%.6g,\"changed_frac_max\":%.6g,"
	       "\"pairs_frac\":%.6g,\"turns\":%.3f,\"reorders\":%.3f,"
	       "\"moved\":%.3f,\"refused\":%.3f,\"lids\":%.3f,"
	       "\"verified\":%u,\"verify_failed\":%u,", k + 1, v.p_ok,
	       st->reached, st->ok, st->failed, st->split, v.disconnected,
	       v.changed, st->max_changed, v.pairs, v.turns, v.reorders,
	       v.moved, v.refused, v.lids, st->verified, st->verify_failed);
	if (s->o->vl_layers)
		printf("\"two_layer\":%u,\"ml_unusable\":%u,\"ml_left\":%u,"
		       "\"ml_cyclic\":%u,\"ml_sls_max\":%u,\"ml_vls_max\":%u,"
		       "\"ml_filled_max\":%" PRIu64 ",", st->ml,
		       st->ml_unusable, st->ml_left, st->ml_cyclic,
		       st->ml_sls_max, st->ml_vls_max, st->ml_filled_max);
	print_json_dist("reroute_us", v.us);
	putchar(',');
	print_json_dist("update_us", v.us_total);
	putchar('}');
}

void print_json_head(const struct sim *s)
{
	char pol[32];

	policy_name(s, pol, sizeof(pol));
	printf("{\"fabric\":");
	dqr_json_string(stdout, s->in.name);
	printf(",\"describe\":");
	dqr_json_string(stdout, s->in.describe);
	printf(",\"routing\":\"%s\",\"switches\":%u,\"end_ports\":%u,"
	       "\"lids\":%u,\"pairs\":%" PRIu64 ",\"fault_links\":%u,"
	       "\"ca_links\":%s,\"mode\":\"%s\",\"turns\":\"%s\","
	       "\"seed\":%" PRIu64 ",\"verify\":\"%s\",\"bias\":\"%s\","
	       "\"vl_layers\":%s,",
	       s->in.routing, s->sc.switches, s->sc.end_ports, s->sc.lids,
	       s->sc.pairs, s->sc.num_cand, s->o->ca_links ? "true" : "false",
	       dqr_mode_names[s->o->ro.mode], dqr_turns_names[s->o->ro.turns],
	       s->o->seed, pol, bias_name(s),
	       s->o->vl_layers ? "true" : "false");
	if (s->o->switch_faults)
		printf("\"switch_faults\":%u,", s->o->switch_faults);
	printf("\"start\":{\"list_us\":%.1f,\"total_us\":%.1f,"
	       "\"filled\":%" PRIu64 ",\"copy_ms\":%.3f},",
	       s->p.start.us_list, s->p.start.us_total,
	       s->p.start.rs.changed, s->p.ms_copy);
}

void print_json(const struct sim *s)
{
	unsigned k;

	print_json_head(s);
	printf("\"runs\":%u,\"faults\":%u,\"wall_s\":%.3f,\"steps\":[",
	       s->o->runs, s->o->faults, s->ms_wall / 1e3);
	for (k = 0; k < s->o->faults; k++) {
		if (k)
			putchar(',');
		print_json_step(s, k);
	}
	printf("],\"connectivity\":[");
	for (k = 0; k <= s->o->faults; k++) {
		struct conn_view c = conn_view(s, k);

		printf("%s{\"fault\":%u,\"p_connected\":%.6f,\"connected\":%u,"
		       "\"p_ends\":%.6f,\"ends_cut\":%u,\"verified\":%u,"
		       "\"verify_failed\":%u,\"cyclic\":%u,\"ca_lost\":%u,"
		       "\"p_deadlock_free\":", k ? "," : "", k, c.p_connected,
		       c.connected, c.p_ends, c.ends_cut, c.verified,
		       c.verify_failed, c.cyclic, c.ca_lost);
		if (c.verified)
			printf("%.6f}", c.p_df);
		else
			printf("null}");
	}
	printf("],\"overall\":{");
	print_json_dist("reroute_us", overall(s, 0));
	putchar(',');
	print_json_dist("update_us", overall(s, 1));
	if (s->o->vl_layers) {
		printf(",\"ml\":{\"built\":%u,", s->mlt.n);
		print_json_dist("fill_us", ml_dist(s, 0));
		putchar(',');
		print_json_dist("vl_build_ms", ml_dist(s, 1));
		putchar(',');
		print_json_dist("vl_verify_ms", ml_dist(s, 2));
		putchar('}');
	}
	printf("},\"states_verified\":%" PRIu64 ",\"verify_failures\":%u,"
	       "\"verify_failures_partial\":%u", s->states_verified,
	       s->verify_failures, s->verify_failures_partial);
	perm_print_json(s);
	printf("}\n");
}

/* Writes and closes fp, opened early so that a bad path fails fast. */
static void write_conn(FILE *fp, const struct sim *s, unsigned k)
{
	struct conn_view c = conn_view(s, k);
	const struct step_stats *st;

	fprintf(fp, " %.6f %u %u %u ", c.p_connected, c.verified,
		c.verify_failed, c.cyclic);
	if (c.verified)
		fprintf(fp, "%.6f %u", c.p_df, c.ca_lost);
	else
		fprintf(fp, "NaN NaN");
	fprintf(fp, " %.6f %u", c.p_ends, c.ends_cut);
	/* the re-routing layer's columns, 0 at k = 0 and without it */
	if (!k) {
		fprintf(fp, " 0 0 0 0 0 0 0\n");
		return;
	}
	st = &s->steps[k - 1];
	fprintf(fp, " %u %u %u %u %u %u %" PRIu64 "\n", st->ml,
		st->ml_unusable, st->ml_left, st->ml_cyclic, st->ml_sls_max,
		st->ml_vls_max, st->ml_filled_max);
}

int write_data(const struct sim *s, FILE *fp, const char *path)
{
	struct step_view v;
	unsigned k;

	fprintf(fp, "# dqr-sim %s routing=%s mode=%s turns=%s runs=%u "
		"faults=%u seed=%" PRIu64 " links=%s bias=%s vl_layers=%s\n",
		s->in.name, s->in.routing, dqr_mode_names[s->o->ro.mode],
		dqr_turns_names[s->o->ro.turns], s->o->runs, s->o->faults,
		s->o->seed, s->o->ca_links ? "all" : "switch", bias_name(s),
		s->o->vl_layers ? "yes" : "no");
	fprintf(fp, "# fault p_ok reached ok failed split broken_frac "
		"changed_frac pairs_frac turns reorders moved refused "
		"reroute_us_med reroute_us_max update_us_med "
		"update_us_max p_connected verified verify_failed cyclic "
		"p_deadlock_free ca_lost p_ends ends_cut two_layer "
		"ml_unusable ml_left ml_cyclic ml_sls_max ml_vls_max "
		"ml_filled_max\n");
	/* fault 0, the start tables: nothing broken, no update timed */
	fprintf(fp, "0 1.000000 %u %u 0 0 0 0 0 0.000 0.000 0.000 0.000 "
		"NaN NaN NaN NaN", s->o->runs, s->o->runs);
	write_conn(fp, s, 0);
	for (k = 0; k < s->o->faults; k++) {
		v = step_view(s, k);
		fprintf(fp, "%u %.6f %u %u %u %u %.6g %.6g %.6g %.3f %.3f "
			"%.3f %.3f %.1f %.1f %.1f %.1f", k + 1, v.p_ok,
			s->steps[k].reached, s->steps[k].ok,
			s->steps[k].failed, s->steps[k].split, v.disconnected,
			v.changed, v.pairs, v.turns, v.reorders, v.moved,
			v.refused, v.us.median, v.us.max, v.us_total.median,
			v.us_total.max);
		write_conn(fp, s, k + 1);
	}
	if (fclose(fp)) {
		fprintf(stderr, PROG ": cannot write %s\n", path);
		return -1;
	}
	return 0;
}
