/*
 * replay.c - dqr-check's judgement of a transition instead of one state:
 * --replay of staged LFT changes, and --one-shot-from, an upload of all
 * of them at once.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
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
 * skip1/skip2: LIDs whose entries a dump left out (0 for none).  LIDs no
 * port of f holds are not compared: when the highest one goes, OpenSM
 * lowers the switches' LinearFDBTop below it and dump_fts lists nothing
 * for it, whatever the plan left there (the switches drop it anyway).
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
			if (lid && (lid == skip1 || lid == skip2 ||
				    dqr_lid_owner(f, lid) == DQR_NONE))
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

/*
 * Whether a stage holds: no mismatch, no loop, and no cycle, per VL when
 * vs is given (the one-VL cycle then does not count).
 */
static int stage_ok(const struct dqr_stage_result *sr,
		    const struct vl_stage *vs)
{
	if (sr->mismatches || sr->v.loop_dlids)
		return 0;
	return vs ? !vs->cyclic : !sr->v.cyclic;
}

/* "; VL cycle of N (channel, VL) pairs: a VL 0 -> b VL 1 -> ... -> a" */
static void print_vl_cycle(const struct dqr_fabric *f,
			   const struct vl_stage *vs)
{
	char one[320];
	uint32_t i;

	printf("dependency cycle of %u (channel, VL) pairs: ", vs->len);
	for (i = 0; i <= vs->len; i++) {
		if (i == 8 && vs->len > 8) {
			printf(" -> ...");
			break;
		}
		printf("%s%s", i ? " -> " : "",
		       vl_vertex(f, vs->cycle[i % vs->len], one, sizeof(one)));
	}
}

/* "  per VL: N dependencies on VLs 0 1: acyclic (on one VL: cyclic)" */
static void print_vl_stage_text(const struct dqr_stage_result *sr,
				const struct vl_stage *vs)
{
	unsigned l;

	printf("  per VL: %" PRIu64 " dependencies on VLs", vs->edges);
	for (l = 0; l < DQR_VLS_NUM_SL; l++)
		if (vs->vl_mask >> l & 1)
			printf(" %u", l);
	printf(": %s; on one VL: %s\n", vs->cyclic ? "cyclic" : "acyclic",
	       sr->v.cyclic ? "cyclic, not judged" : "acyclic");
}

static void print_stage_text(const struct dqr_fabric *f,
			     const struct dqr_plan *p,
			     const struct dqr_stage_result *sr,
			     const struct vl_stage *vs)
{
	struct dqr_union_verdict v = sr->v;
	char buf[4096];
	const char *sep = ":";

	printf("stage %u (reconfiguration %" PRIu64 "): %u entries: %s",
	       sr->stage, sr->reconf_id, sr->entries,
	       stage_ok(sr, vs) ? "OK" : "FAIL");
	if (sr->mismatches) {
		const struct dqr_plan_entry *e;

		e = &p->entries[sr->first_mismatch];
		printf(": %u old-port mismatches (line %u: switch 0x%016"
		       PRIx64 " (%s) DLID %u holds port %u, the record says "
		       "%u)", sr->mismatches, e->line, switch_guid(f, e->sw),
		       switch_name(f, e->sw), e->lid, sr->found_port,
		       e->old_port);
		sep = ";";
	}
	if (vs)
		v.cyclic = 0;	/* the VLs decide */
	if (!dqr_union_ok(&v)) {
		dqr_format_verdict(f, &v, buf, sizeof(buf));
		printf("%s %s", sep, buf);
		sep = ";";
	}
	if (vs && vs->cyclic) {
		printf("%s ", sep);
		print_vl_cycle(f, vs);
	}
	putchar('\n');
	if (vs)
		print_vl_stage_text(sr, vs);
}

/* What the replay judged, as both outputs want it. */
struct replay_out {
	const struct check_opts *o;
	const uint64_t *id;
	const struct dqr_plan *p;
	const struct dqr_replay_report *rr;
	const struct vl_stage *vs;	/* per stage, NULL without --vls */
	const struct dqr_vls *vls;
	uint64_t left_out;		/* pairs --vls-after left out */
	const struct expect_diff *d;
	uint32_t bad_stages;
};

static void print_replay_text(const struct dqr_fabric *f,
			      const struct replay_out *ro)
{
	const struct dqr_replay_report *rr = ro->rr;
	const struct expect_diff *d = ro->d;
	const char *expect = ro->o->expect;
	uint32_t s, i;

	printf("replay of %s", ro->o->replay);
	if (ro->id)
		printf(" (reconfiguration %" PRIu64 ")", *ro->id);
	printf(": %u stages, %u entries\n", ro->p->num_stages,
	       ro->p->num_entries);
	if (ro->vls)
		printf("VLs from %s: %u SL2VL tables, %u path SLs (SL mask "
		       "0x%04x); unlisted: VL 0, SL 0\n", ro->o->vls,
		       ro->vls->num_tables, ro->vls->num_paths,
		       ro->vls->sl_mask);
	if (ro->o->vls_after)
		printf("SLs once in force from %s: %" PRIu64 " (source, "
		       "DLID) pairs whose SL they change left out\n",
		       ro->o->vls_after, ro->left_out);
	for (s = 0; s < rr->num_stages; s++)
		print_stage_text(f, ro->p, &rr->stages[s],
				 ro->vs ? &ro->vs[s] : NULL);
	printf("stages: %u, failing %u; old-port mismatches %" PRIu64
	       "; %.1f ms\n", rr->num_stages, ro->bad_stages,
	       rr->mismatches, rr->ms);
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

/* ,"vl":{...}: a stage's judgement per (channel, VL) */
static void json_vl_stage(const struct dqr_fabric *f,
			  const struct vl_stage *vs)
{
	char one[320];
	uint32_t i;

	printf(",\"vl\":{\"dependencies\":%" PRIu64 ",\"vl_mask\":%u,"
	       "\"cyclic\":%s,\"cycle\":[", vs->edges, vs->vl_mask,
	       vs->cyclic ? "true" : "false");
	for (i = 0; i < vs->len; i++) {
		if (i)
			putchar(',');
		dqr_json_string(stdout, vl_vertex(f, vs->cycle[i], one,
						  sizeof(one)));
	}
	printf("],\"ok\":%s}", vs->cyclic ? "false" : "true");
}

static void print_replay_json(const struct dqr_fabric *f,
			      const struct replay_out *ro, int ok)
{
	const struct dqr_replay_report *rr = ro->rr;
	const struct dqr_plan *p = ro->p;
	const struct expect_diff *d = ro->d;
	const char *expect = ro->o->expect;
	uint32_t s, i;

	printf("{\"replay\":{\"file\":");
	dqr_json_string(stdout, ro->o->replay);
	if (ro->id)
		printf(",\"reconf\":%" PRIu64, *ro->id);
	else
		printf(",\"reconf\":null");
	if (ro->vls) {
		printf(",\"vls\":");
		dqr_json_string(stdout, ro->o->vls);
	}
	if (ro->o->vls_after) {
		printf(",\"vls_after\":");
		dqr_json_string(stdout, ro->o->vls_after);
		printf(",\"left_out\":%" PRIu64, ro->left_out);
	}
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
		if (ro->vs)
			json_vl_stage(f, &ro->vs[s]);
		putchar('}');
	}
	printf("],\"failing_stages\":%u,\"mismatches\":%" PRIu64
	       ",\"ms\":%.3f}", ro->bad_stages, rr->mismatches, rr->ms);
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

/* The per-VL judgement of p when --vls is given; 0, or 2 after a message */
int judge_vls(const struct dqr_fabric *f, const struct dqr_lfts *start,
	      const struct check_opts *o, const struct dqr_plan *p,
	      struct dqr_vls *vls, struct vl_stage **vs, uint64_t *left_out)
{
	struct dqr_vls after = { 0 };
	char err[512];
	int r;

	*vs = NULL;
	*left_out = 0;
	if (!o->vls)
		return 0;
	if (dqr_read_vls(f, o->vls, vls, err, sizeof(err)) ||
	    (o->vls_after &&
	     dqr_read_vls(f, o->vls_after, &after, err, sizeof(err)))) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return 2;
	}
	*vs = calloc(p->num_stages ? p->num_stages : 1, sizeof(**vs));
	r = !*vs || vl_replay_judge(f, vls, o->vls_after ? &after : NULL,
				    start, p, *vs, left_out);
	dqr_vls_release(&after);
	if (r) {
		free(*vs);
		*vs = NULL;
		fprintf(stderr, "dqr-check: out of memory\n");
		return 2;
	}
	return 0;
}

/* The --replay mode; returns the exit status. */
int run_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
	       uint32_t start_quirk, const struct check_opts *o)
{
	const uint64_t *id = o->have_reconf ? &o->reconf : NULL;
	struct dqr_replay_report rr;
	struct dqr_plan_file pf;
	struct dqr_lfts *end = NULL, *want = NULL;
	struct vl_stage *vs = NULL;
	struct dqr_vls vls;
	struct expect_diff d;
	struct replay_out ro;
	struct dqr_plan p;
	uint64_t left_out;
	uint32_t quirk = 0, s;
	char err[512];
	int ok, ret = 2;

	dqr_plan_init(&p);
	memset(&d, 0, sizeof(d));
	memset(&vls, 0, sizeof(vls));
	if (dqr_plan_read(f, o->replay, id, &pf, err, sizeof(err))) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return 2;
	}
	if (dqr_plan_select(&pf, id, &p, err, sizeof(err))) {
		fprintf(stderr, "dqr-check: %s\n", err);
		goto out;
	}
	if (o->expect) {
		want = read_tables(f, o->expect, &quirk);
		if (!want)
			goto out;
	}
	if (judge_vls(f, start, o, &p, &vls, &vs, &left_out))
		goto out;
	if (dqr_plan_replay(f, start, &p, &end, &rr)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		goto out;
	}
	if (want)
		expect_compare(f, end, want, start_quirk, quirk, &d);
	memset(&ro, 0, sizeof(ro));
	ro.o = o;
	ro.id = id;
	ro.p = &p;
	ro.rr = &rr;
	ro.vs = vs;
	ro.vls = o->vls ? &vls : NULL;
	ro.left_out = left_out;
	ro.d = &d;
	for (s = 0; s < rr.num_stages; s++)
		ro.bad_stages += !stage_ok(&rr.stages[s], vs ? &vs[s] : NULL);
	ok = !ro.bad_stages && !rr.mismatches && !d.entries;
	if (o->json)
		print_replay_json(f, &ro, ok);
	else
		print_replay_text(f, &ro);
	if (!o->json)
		printf("result: %s\n", ok ? "OK" : "FAIL");
	dqr_replay_report_release(&rr);
	ret = ok ? 0 : 1;
out:
	if (vs)
		vl_stages_release(vs, p.num_stages);
	free(vs);
	dqr_vls_release(&vls);
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
