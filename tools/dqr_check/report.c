/*
 * report.c - dqr-check's judgement of one state: the verification report,
 * with --baseline, --load, --vl-layers or --torus-layers added to it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/lft_read.h"
#include "verify/verify_print.h"
#include "dqr_check.h"

/* Differences between the tables in path and t, on the same fabric. */
int compare(const struct dqr_fabric *f, const struct dqr_lfts *t,
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

/* The output of the plain mode, everything measured already. */
static void print_report(const struct check_opts *o,
			 const struct check_input *in,
			 const struct dqr_verify_report *r,
			 const struct check_load *ld,
			 const struct dqr_ml_vls *v,
			 const struct dqr_vl_stats *vst,
			 const struct torus_stats *tst,
			 const struct vl_stage *vs, int ok)
{
	const struct dqr_lft_diff *diff = &in->diff;
	int wrap = o->baseline || o->load || o->vl || o->torus || vs;

	if (o->json && o->baseline)
		printf("{\"changed\":{\"entries\":%" PRIu64 ",\"blocks\":%"
		       PRIu64 ",\"switches\":%u},\"report\":", diff->entries,
		       diff->blocks, diff->switches);
	else if (o->json && wrap)
		printf("{\"report\":");
	if (o->json)
		dqr_print_report_json(stdout, in->f, r, o->kinds);
	else if (!o->vl && !o->torus && !vs)
		dqr_print_report_text(stdout, in->f, r, o->kinds);
	if (o->json && o->load)
		print_load_json(ld);
	if (o->json && o->vl) {
		print_vl_json(in->f, v, vst);
		/* the report's own "ok" judges the one-layer graph */
		printf(",\"ok\":%s", ok ? "true" : "false");
	}
	if (o->json && o->torus) {
		print_torus_json(r, tst);
		printf(",\"ok\":%s", ok ? "true" : "false");
	}
	if (o->json && vs)
		printf(",\"vls\":{\"dependencies\":%" PRIu64 ",\"vl_mask\":%"
		       PRIu32 ",\"acyclic\":%s},\"ok\":%s", vs->edges,
		       vs->vl_mask, vs->cyclic ? "false" : "true",
		       ok ? "true" : "false");
	if (o->json && wrap)
		printf("}\n");
	else if (o->baseline)
		printf("changed against %s: %" PRIu64 " entries, %" PRIu64
		       " blocks of 64 LIDs, %u switches\n", o->baseline,
		       diff->entries, diff->blocks, diff->switches);
	if (!o->json && o->load)
		print_load_text(ld);
	if (!o->json && o->vl) {
		print_vl_text(in->f, v, vst);
		printf("result: %s\n", ok ? "OK" : "FAIL");
	}
	if (!o->json && o->torus) {
		print_torus_text(r, tst);
		printf("result: %s\n", ok ? "OK" : "FAIL");
	}
	if (!o->json && vs) {
		printf("per VL (the path SLs and SL2VL tables of %s): %"
		       PRIu64 " dependencies on VLs 0x%04" PRIx32 ", %s\n",
		       o->vls, vs->edges, vs->vl_mask,
		       vs->cyclic ? "CYCLIC" : "acyclic");
		printf("result: %s\n", ok ? "OK" : "FAIL");
	}
}

/* The plain mode, one state judged; returns the exit status. */
int run_report(const struct check_opts *o, const struct check_input *in)
{
	const struct dqr_fabric *f = in->f;
	struct dqr_verify_report r;
	struct dqr_ml_vls *v = NULL;
	struct dqr_vl_stats vst;
	struct dqr_vlayers *tl = NULL;
	struct torus_stats tst;
	struct check_load ld;
	/* --vls: the state as the one stage of an empty plan */
	uint32_t none_off[2] = { 0, 0 };
	struct dqr_plan none = { .num_stages = 1, .stage_off = none_off };
	struct dqr_vls vls = { 0 };
	struct vl_stage *vs = NULL;
	uint64_t left_out;
	int ok, ret = 2;

	/* before any output: no half-printed JSON when memory runs out */
	if (o->load && load_measure(f, in->t, &ld)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		return 2;
	}
	if (o->vl) {
		v = vl_build(f, in->t, &vst);
		if (!v || (o->vl_dump && layers_dump(o->vl_dump, vl_dump_write,
						     f, v, o->topo, o->lfts)))
			goto out;
	}
	if (o->torus) {
		tl = torus_build(f, in->t, &tst);
		if (!tl || (o->vl_dump &&
			    layers_dump(o->vl_dump, torus_dump_write, f, tl,
					o->topo, o->lfts)))
			goto out;
	}
	if (o->vls && judge_vls(f, in->t, o, &none, &vls, &vs, &left_out))
		goto out;
	if (dqr_verify(f, in->t, &r, NULL)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		goto out;
	}
	if (vs)
		ok = verify_ok_but_cycle(&r, o->kinds) && !vs->cyclic;
	else if (o->torus)
		ok = verify_ok_but_cycle(&r, o->kinds) && tst.v.acyclic;
	else if (o->vl)
		ok = verify_ok_but_cycle(&r, o->kinds) &&
		     vst.deadlock_free;
	else
		ok = dqr_verify_ok(&r, o->kinds);
	/* text with layers: the verdict comes after them */
	if (!o->json && (o->vl || o->torus || vs) &&
	    print_report_body(f, &r, o->kinds)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		dqr_verify_report_free(&r);
		goto out;
	}
	print_report(o, in, &r, &ld, v, &vst, &tst, vs, ok);
	dqr_verify_report_free(&r);
	ret = ok ? 0 : 1;
out:
	if (vs)
		vl_stages_release(vs, 1);
	free(vs);
	dqr_vls_release(&vls);
	dqr_ml_vls_free(v);
	dqr_vlayers_free(tl);
	return ret;
}
