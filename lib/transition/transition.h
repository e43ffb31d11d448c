/*
 * transition.h - staged LFT transitions: planning, recording, replaying.
 *
 * Every change of tables becomes a plan: stages of (switch, DLID) entry
 * changes, uploaded one stage after the other.  While stage k is being
 * uploaded a switch may forward by its old or its new entry for each
 * entry of stage k; entries of earlier stages are new, later ones old.
 * The union of state k-1 and state k must then be
 *
 *   loop free:  per DLID, the graph in which every switch has up to two
 *               out-edges (old and new entry) is acyclic;
 *   acyclic:    the channel dependency graph of every combination is
 *               acyclic: (W->X)->(X->Y) exists when W's old or new entry
 *               leads to X and X's old or new entry leads to Y; end
 *               ports inject towards every LID but their own, switches
 *               are sources too (port 0).
 *
 * This assumes what the stage boundary means in OpenSM: the next stage is
 * sent only once the previous one is in force everywhere (and packets
 * routed by states before k-1 have drained), as OSR (the OSR paper) assumes
 * one reconfiguration at a time.
 *
 * Record format, one line per changed entry in upload order ('#' starts
 * a comment):
 *
 *   <reconfiguration-id> <stage> 0x<switch-node-guid> <dlid> <old> <new>
 *
 * id, stage, DLID and ports in decimal; stages of one reconfiguration are
 * numbered from 1 upwards.
 */
#ifndef DQR_TRANSITION_H
#define DQR_TRANSITION_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"

struct dqr_plan_entry {
	uint32_t sw;		/* switch index */
	uint32_t lid;
	uint32_t line;		/* record line it was read from, else 0 */
	uint8_t old_port;
	uint8_t new_port;
};

struct dqr_plan {
	uint32_t num_stages;
	uint32_t num_entries;
	struct dqr_plan_entry *entries;	/* upload order */
	/* stage s is entries[stage_off[s] .. stage_off[s + 1]) */
	uint32_t *stage_off;
	/* per stage: its reconfiguration and its number there; the
	 * planner leaves reconfiguration 0 and numbers 1 .. num_stages */
	uint64_t *stage_reconf;
	uint32_t *stage_num;
};

/*
 * A plan must be initialised before its first use; the functions that
 * fill one release what it held first.
 */
void dqr_plan_init(struct dqr_plan *p);
void dqr_plan_release(struct dqr_plan *p);
/* Room for n entries in at most n stages (released first); 0 or -1. */
int dqr_plan_alloc(struct dqr_plan *p, uint32_t n);

#define DQR_LOOP_SHOWN 16

/* What one union of two consecutive states holds. */
struct dqr_union_verdict {
	uint32_t loop_dlids;	/* DLIDs towards which the union loops */
	uint32_t loop_lid;	/* the first of them, 0 when none */
	uint32_t loop_len;	/* switches on that loop */
	uint32_t loop_sw[DQR_LOOP_SHOWN];	/* the first of them */
	int cyclic;		/* the union's dependencies have a cycle */
	struct dqr_cycle cycle;	/* one of them when cyclic */
};

static inline int dqr_union_ok(const struct dqr_union_verdict *v)
{
	return !v->loop_dlids && !v->cyclic;
}

void dqr_union_verdict_release(struct dqr_union_verdict *v);

/* "loops towards DLID 5 (sw1 -> sw2 -> sw1)" and/or "dependency cycle
 * of 4 channels: a -> b -> ..." into buf, "" when the verdict is OK. */
void dqr_format_verdict(const struct dqr_fabric *f,
			const struct dqr_union_verdict *v, char *buf,
			size_t len);

struct dqr_plan_report {
	uint32_t entries;	/* changed entries */
	uint32_t dlids;		/* DLIDs with a changed entry */
	uint32_t switches;	/* switches with a changed entry */
	uint32_t levels;	/* stages of the dependency order */
	uint32_t stages;	/* stages of the plan */
	uint32_t max_stage;	/* entries in the largest stage */
	uint32_t splits;	/* levels whose union failed as a whole */
	uint64_t checks;	/* union checks (or candidates) tried */
	double ms;
	int old_ok, new_ok;	/* each table alone loop free and acyclic */
	int safe;		/* every stage union checked and holds */
	uint32_t forced;	/* entries staged although their union fails */
	uint32_t stages_cyclic;	/* stages opened on a cyclic state */
	char reason[2048];	/* why not safe; "" when safe */
};

/*
 * Plans the change of from into to on f (tables of f's switches; LIDs
 * beyond one table's end count as DQR_NO_PATH there).  Every entry that
 * differs is in exactly one stage.
 *
 *   1. Per DLID, an order of its changed switches: a switch changes only
 *      after every changed switch downstream on its new route (so it
 *      takes its new route when that route already forwards: no loop
 *      can form), and, where that does not contradict it, before its old
 *      next hop when that changes too and is not on its new route
 *      (upstream leaves first, so no packet is routed old, then new).
 *   2. List scheduling: a stage takes, wave after wave, every entry whose
 *      predecessors are staged or in force and whose addition keeps the
 *      stage union loop free and acyclic, first fit: everything at once
 *      when it fits (a change compatible with the channel list is one
 *      stage per wave of order, usually merged into one), else in the
 *      channel-dependency order of the old tables (upstream channels
 *      first, as OSR's tokens travel), destination by destination, then
 *      entry by entry.  What does not fit waits for the next stage.
 *   3. When nothing fits even alone, any pending entry that fits is
 *      taken out of order; when none does, no order can bridge the old
 *      and new functions from here: the first entry is staged alone,
 *      rep->safe is 0 and rep->reason says which entry, and the loop or
 *      the channels of the cycle its union closes.  While the state in
 *      force is then cyclic, stages are judged for loops only (the
 *      unsafe stretch is kept to as few stages as possible).
 *
 * When the old or new tables themselves loop or are cyclic, no order can
 * help either: rep->safe is 0 with the reason; DLIDs that loop there are
 * not judged for loops, and a cycle there stops dependencies from being
 * judged (the plan is then loop free only).  Returns 0, or -1 when out
 * of memory.  plan is released and refilled.
 */
int dqr_plan_build(const struct dqr_fabric *f, const struct dqr_lfts *from,
		   const struct dqr_lfts *to, struct dqr_plan *plan,
		   struct dqr_plan_report *rep);

/*
 * Writes p as records of reconfiguration reconf_id, stages numbered 1 ..
 * num_stages, after one comment line.  0, or -1 on a write error.
 */
/* Stage s (0-based; written as s + 1) of p, in the same format. */
int dqr_plan_write_stage(FILE *out, const struct dqr_fabric *f,
			 const struct dqr_plan *p, uint32_t s,
			 uint64_t reconf_id);
int dqr_plan_write(FILE *out, const struct dqr_fabric *f,
		   const struct dqr_plan *p, uint64_t reconf_id);

/* ---------------------------------------------------------------- files */

struct dqr_plan_record {
	uint64_t reconf_id;
	uint32_t stage;
	uint32_t sw;		/* switch index */
	uint32_t lid;
	uint32_t line;
	uint8_t old_port;
	uint8_t new_port;
};

struct dqr_plan_file {
	const struct dqr_fabric *f;	/* the fabric it was read for */
	char *fname;
	uint32_t num;
	struct dqr_plan_record *rec;	/* file order */
	uint32_t *id_of;		/* per record: index into ids */
	uint32_t num_ids;
	uint64_t *ids;			/* in order of first appearance */
};

void dqr_plan_file_release(struct dqr_plan_file *pf);

/*
 * Reads records for fabric f.  Returns 0, or -1 with "FILE:LINE: what is
 * wrong" in err (bad field, unknown or non-switch GUID, port beyond the
 * switch, no memory); pf is then empty.
 */
int dqr_plan_parse(const struct dqr_fabric *f, FILE *fp, const char *fname,
		   struct dqr_plan_file *pf, char *err, size_t errlen);
int dqr_plan_read(const struct dqr_fabric *f, const char *path,
		  struct dqr_plan_file *pf, char *err, size_t errlen);

/*
 * The plan of one reconfiguration (id not NULL) or of every record in
 * file order (id NULL).  A stage is a run of records with the same id and
 * stage; between runs of one id the stage number must grow, and one
 * stage must not change an entry twice.  Returns 0, or -1 with
 * "FILE:LINE: ..." in err (or "FILE: ..." when id has no records).
 */
int dqr_plan_select(const struct dqr_plan_file *pf, const uint64_t *id,
		    struct dqr_plan *p, char *err, size_t errlen);

/* ---------------------------------------------------------------- replay */

struct dqr_stage_result {
	uint64_t reconf_id;
	uint32_t stage;			/* its number in the plan */
	uint32_t entries;
	uint32_t mismatches;		/* old port was not the entry */
	uint32_t first_mismatch;	/* plan entry index, or DQR_NONE */
	uint8_t found_port;		/* what that entry held */
	struct dqr_union_verdict v;
};

struct dqr_replay_report {
	uint32_t num_stages;
	struct dqr_stage_result *stages;
	uint32_t bad_stages;		/* union loops or is cyclic */
	uint64_t mismatches;
	double ms;
};

static inline int dqr_replay_ok(const struct dqr_replay_report *r)
{
	return !r->bad_stages && !r->mismatches;
}

/*
 * Applies p's stages to start in order and judges the union of the
 * states before and after every stage.  A record whose old port is not
 * what the entry holds is counted; the union then has what the entry
 * really held and the new port.  With end_out not NULL it receives the
 * final tables (lid_count grown to the highest DLID of p if needed).
 * Returns 0, or -1 when out of memory.
 */
int dqr_plan_replay(const struct dqr_fabric *f, const struct dqr_lfts *start,
		    const struct dqr_plan *p, struct dqr_lfts **end_out,
		    struct dqr_replay_report *r);
void dqr_replay_report_release(struct dqr_replay_report *r);

/* ---------------------------------------------------------------- one shot */

/*
 * A one-shot upload from old to new (OpenSM's own: every changed block
 * of every switch at once, switches in no particular order).  Judged:
 *
 *   whole   the union of old and new as one stage: any switch may
 *           forward any changed entry by either table.  Every state the
 *           upload can pass through, and every pair of them, lies inside
 *           it: the worst case.
 *   first   per switch s with a change, the union of old and the state
 *           where only s has switched (s uploaded first);
 *   last    per switch s, the union of new and the state where every
 *           switch but s has switched (s uploaded last).
 *
 * first and last are the states at both ends of every switch-by-switch
 * order: 2 per changed switch.  A state is bad when its union loops
 * towards some DLID or has a dependency cycle.
 */
struct dqr_one_shot_report {
	uint64_t entries;		/* entries that differ */
	uint32_t switches;		/* switches with one */
	uint32_t dlids;			/* DLIDs with one */
	uint32_t old_loop_dlids, new_loop_dlids;
	int old_cyclic, new_cyclic;
	struct dqr_union_verdict whole;
	uint32_t states;		/* first + last states judged */
	uint32_t first_loop, first_cyclic, first_bad;
	uint32_t last_loop, last_cyclic, last_bad;
	/* a switch whose first / last state is bad, or DQR_NONE */
	uint32_t first_bad_sw, last_bad_sw;
	double ms;
};

static inline int dqr_one_shot_ok(const struct dqr_one_shot_report *r)
{
	return dqr_union_ok(&r->whole);
}

int dqr_one_shot_judge(const struct dqr_fabric *f, const struct dqr_lfts *old,
		       const struct dqr_lfts *new_t,
		       struct dqr_one_shot_report *r);
void dqr_one_shot_report_release(struct dqr_one_shot_report *r);

#endif
