/*
 * record.h - plans as records (the dqr-transition.dump format): written
 * as the plugin uploads them, read back by dqr-check to replay them.
 *
 * One line per changed entry in upload order ('#' starts a comment):
 *
 *   <reconfiguration-id> <stage> 0x<switch-node-guid> <dlid> <old> <new>
 *
 * id, stage, DLID and ports in decimal; stages of one reconfiguration are
 * numbered from 1 upwards.
 *
 * The reader checks every field against the fabric it reads for, each a
 * "FILE:LINE:" error: exactly six fields; the id a decimal 64-bit number;
 * the stage 1 .. DQR_RECORD_STAGE_MAX; the GUID "0x" and at most 16 hex
 * digits, of a switch of the fabric; the DLID 1 .. DQR_MAX_LID (the
 * unicast LIDs); each port 0 .. the switch's port count, or 255 (no
 * path).  Memory grows with the records read, never with a number read
 * (ids are found through a hash, so any number of them costs O(1) each).
 */
#ifndef DQR_RECORD_H
#define DQR_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"
#include "transition/plan.h"

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

/* A stage number must fit the plan's uint32_t with room for one more. */
#define DQR_RECORD_STAGE_MAX (UINT32_MAX - 1)

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

/* Frees what pf holds and zeroes it. */
void dqr_plan_file_release(struct dqr_plan_file *pf);

/*
 * Reads records for fabric f.  Returns 0, or -1 with "FILE:LINE: what is
 * wrong" in err (bad field, unknown or non-switch GUID, port beyond the
 * switch, no memory); pf is then empty.
 */
int dqr_plan_parse(const struct dqr_fabric *f, FILE *fp, const char *fname,
		   struct dqr_plan_file *pf, char *err, size_t errlen);
/*
 * The same from a path; only not NULL: the records of other ids are
 * checked for form and left out, so that a switch gone since they were
 * written does not stop the reading of a later reconfiguration.
 */
int dqr_plan_read(const struct dqr_fabric *f, const char *path,
		  const uint64_t *only, struct dqr_plan_file *pf, char *err,
		  size_t errlen);

/*
 * The plan of one reconfiguration (id not NULL) or of every record in
 * file order (id NULL).  A stage is a run of records with the same id and
 * stage; between runs of one id the stage number must grow, and one
 * stage must not change an entry twice.  Returns 0, or -1 with
 * "FILE:LINE: ..." in err (or "FILE: ..." when id has no records).
 */
int dqr_plan_select(const struct dqr_plan_file *pf, const uint64_t *id,
		    struct dqr_plan *p, char *err, size_t errlen);

#endif
