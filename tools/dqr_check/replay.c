/*
 * replay.c - dqr-check's judgement of a transition instead of one state:
 * --replay of staged LFT changes, and --one-shot-from, an upload of all
 * of them at once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "dqr_check.h"
#include "io/lft_read.h"
#include "transition/record.h"
#include "transition/replay.h"
#include "verify/verify_print.h"

/* differing entries shown when the end state does not match --expect */
#define EXPECT_EXAMPLES 10

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
int run_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
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
int run_one_shot(struct dqr_fabric *f, const struct dqr_lfts *t,
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
