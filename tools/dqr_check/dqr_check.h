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
#include "io/vl_read.h"
#include "vlayers/vlayers.h"
#include "ftree/ml_vls.h"
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
	const char *vls;		/* --vls=FILE: per VL */
	/* --vls-after=FILE: the SLs answered once the plan is in force */
	const char *vls_after;
	uint64_t reconf;		/* --reconf=ID when have_reconf */
	int have_reconf;
	unsigned kinds;			/* --pairs: DQR_PAIRS_* */
	int json, load, vl;
	int torus;			/* --torus-layers */
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
struct dqr_ml_vls *vl_build(const struct dqr_fabric *f,
			    const struct dqr_lfts *t,
			    struct dqr_vl_stats *st);
/* What --vl-dump writes of some layers: vl.c's or torus.c's. */
typedef void layers_dump_fn(FILE *out, const struct dqr_fabric *f,
			    const void *layers, const char *topo,
			    const char *lfts);
layers_dump_fn vl_dump_write;
int layers_dump(const char *path, layers_dump_fn *write,
		const struct dqr_fabric *f, const void *layers,
		const char *topo, const char *lfts);
unsigned vl_source_lid(const struct dqr_fabric *f, uint32_t port);
/*
 * What some layers answer for --vl-dump's lines.  listed: which lines
 * are, for the file's header.  sl2vl: the table of switch sw (an index)
 * from port in to port out, or with sw DQR_NONE of the end port at port
 * index out; 0: not listed.  path_sl: the SL of the route from port to
 * lid; -1: not listed.
 */
struct layers_dump_ops {
	const char *listed;
	int (*sl2vl)(const void *layers, uint32_t sw, unsigned in,
		     uint32_t out, uint8_t vl[DQR_VL_NUM_SL]);
	int (*path_sl)(const struct dqr_fabric *f, const void *layers,
		       uint32_t port, unsigned lid);
};
/* The legend of --vl-dump's lines, and the lines. */
void layers_dump_lines(FILE *out, const struct dqr_fabric *f,
		       const void *layers, const struct layers_dump_ops *ops);
int verify_ok_but_cycle(const struct dqr_verify_report *r, unsigned kinds);
void print_vl_text(const struct dqr_fabric *f,
		   const struct dqr_ml_vls *v,
		   const struct dqr_vl_stats *st);
void print_vl_json(const struct dqr_fabric *f,
		   const struct dqr_ml_vls *v,
		   const struct dqr_vl_stats *st);

/* torus.c: --torus-layers */
struct torus_stats {
	char grid[128];			/* dqr_grid_describe() */
	unsigned layers;
	uint32_t sl_mask;		/* bit s: some route has SL s */
	struct dqr_vlayers_verdict v;
	double build_ms, verify_ms;
};

struct dqr_vlayers *torus_build(const struct dqr_fabric *f,
				const struct dqr_lfts *t,
				struct torus_stats *st);
layers_dump_fn torus_dump_write;
void print_torus_text(const struct dqr_verify_report *r,
		      const struct torus_stats *st);
void print_torus_json(const struct dqr_verify_report *r,
		      const struct torus_stats *st);

/* report.c */
int compare(const struct dqr_fabric *f, const struct dqr_lfts *t,
	    const char *path, struct dqr_lft_diff *diff);
int run_report(const struct check_opts *o, const struct check_input *in);

/* replay.c */
int run_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
	       uint32_t start_quirk, const struct check_opts *o);
int run_one_shot(struct dqr_fabric *f, const struct dqr_lfts *t,
		 const char *old_path, const char *new_path, int json);

/* vl_replay.c: one stage's union judged per (channel, VL) */
struct vl_stage {
	int cyclic;
	uint32_t len;		/* of cycle */
	uint32_t *cycle;	/* vertices channel * 16 + VL, in order */
	uint64_t edges;		/* dependencies of the union */
	uint32_t vl_mask;	/* bit v: some dependency is on VL v */
};

/*
 * Fills out[0 .. p->num_stages) replaying p from start with the SLs and
 * SL2VL tables of v; after (or NULL): the SLs answered once p is in
 * force, whose pairs that differ from v's are left out (their packets
 * carry v's SL until they ask the SA again), counted (source port,
 * DLID) into *left_out.  0, or -1 when out of memory (out released).
 */
int vl_replay_judge(const struct dqr_fabric *f, const struct dqr_vls *v,
		    const struct dqr_vls *after,
		    const struct dqr_lfts *start, const struct dqr_plan *p,
		    struct vl_stage *out, uint64_t *left_out);
void vl_stages_release(struct vl_stage *st, uint32_t n);
/*
 * replay.c: p's stages judged per VL when o has --vls (*vs one per stage,
 * else NULL), with --vls-after the pairs it left out in *left_out; 0,
 * or 2 after a message.
 */
int judge_vls(const struct dqr_fabric *f, const struct dqr_lfts *start,
	      const struct check_opts *o, const struct dqr_plan *p,
	      struct dqr_vls *vls, struct vl_stage **vs, uint64_t *left_out);
/* "0x<guid>[<port>] (<name>) VL <vl>" of a vertex */
const char *vl_vertex(const struct dqr_fabric *f, uint32_t x, char *buf,
		      size_t len);

#endif
