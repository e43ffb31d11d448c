/*
 * dqr_check.h - what the files of dqr-check share: the options, the
 * fabric and tables read, and the functions one file calls in another.
 * Not a lib header: only tools/dqr_check/ includes it.
 */
#ifndef DQR_CHECK_H
#define DQR_CHECK_H

#include <stdint.h>
#include <stdio.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "io/lft_read.h"
#include "repair/vl_layers.h"
#include "routes/route_load.h"
#include "transition/record.h"
#include "transition/replay.h"
#include "verify/verify.h"

struct check_opts {
	const char *topo, *lfts;	/* the two arguments */
	const char *baseline;		/* --baseline=LFTS */
	const char *replay, *expect;	/* --replay=PLAN, --expect=LFTS2 */
	const char *one_shot;		/* --one-shot-from=OLD */
	const char *vl_dump;		/* --vl-dump=FILE */
	uint64_t reconf;		/* --reconf=ID when have_reconf */
	int have_reconf;
	unsigned kinds;			/* --pairs: DQR_PAIRS_* */
	int json, load, vl;
};

/* The fabric and the tables judged, and what reading them found. */
struct check_input {
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	struct dqr_lft_read_info info;
	struct dqr_lft_diff diff;	/* against --baseline */
};

/* --load's figures */
struct check_load {
	struct dqr_route_load all;
	struct dqr_shift_summary shift;
};

/* print.c */
void json_cycle(FILE *out, const struct dqr_fabric *f,
		const struct dqr_cycle *c);
void json_verdict(FILE *out, const struct dqr_fabric *f,
		  const struct dqr_union_verdict *v);
const char *switch_name(const struct dqr_fabric *f, uint32_t sw);
uint64_t switch_guid(const struct dqr_fabric *f, uint32_t sw);

/* load.c */
int load_measure(const struct dqr_fabric *f, const struct dqr_lfts *t,
		 struct check_load *l);
void print_load_text(const struct check_load *l);
void print_load_json(const struct check_load *l);

/* vl.c */
struct dqr_vl_layers *vl_build(const struct dqr_fabric *f,
			       const struct dqr_lfts *t,
			       struct dqr_vl_stats *st);
int vl_dump(const struct dqr_fabric *f, const struct dqr_vl_layers *v,
	    const char *path, const char *topo, const char *lfts);
int vl_ok(const struct dqr_verify_report *r, unsigned kinds,
	  const struct dqr_vl_stats *st);
void print_vl_text(const struct dqr_fabric *f,
		   const struct dqr_vl_layers *v,
		   const struct dqr_vl_stats *st);
void print_vl_json(const struct dqr_fabric *f,
		   const struct dqr_vl_layers *v,
		   const struct dqr_vl_stats *st);

/* report.c */
int compare(const struct dqr_fabric *f, const struct dqr_lfts *t,
	    const char *path, struct dqr_lft_diff *diff);
int run_report(const struct check_opts *o, const struct check_input *in);

/* replay.c */
int run_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
	       uint32_t start_quirk, const char *plan_path,
	       const uint64_t *id, const char *expect, int json);
int run_one_shot(struct dqr_fabric *f, const struct dqr_lfts *t,
		 const char *old_path, const char *new_path, int json);

#endif
