/*
 * record_write.c - plans written as records (record.h).  Separate from
 * the reader: the plugin writes records as it uploads and never reads
 * them; dqr-check reads them and never writes.
 */
#include <inttypes.h>

#include "transition/record.h"

int dqr_plan_write_stage(FILE *out, const struct dqr_fabric *f,
			 const struct dqr_plan *p, uint32_t s,
			 uint64_t reconf_id)
{
	uint32_t i;

	for (i = p->stage_off[s]; i < p->stage_off[s + 1]; i++) {
		const struct dqr_plan_entry *e = &p->entries[i];

		fprintf(out, "%" PRIu64 " %u 0x%016" PRIx64 " %u %u %u\n",
			reconf_id, s + 1, f->nodes[f->switches[e->sw]].guid,
			e->lid, e->old_port, e->new_port);
	}
	return ferror(out) ? -1 : 0;
}

int dqr_plan_write(FILE *out, const struct dqr_fabric *f,
		   const struct dqr_plan *p, uint64_t reconf_id)
{
	uint32_t s;

	fprintf(out, "# reconfiguration %" PRIu64 ": %u stages, %u entries\n",
		reconf_id, p->num_stages, p->num_entries);
	for (s = 0; s < p->num_stages; s++)
		if (dqr_plan_write_stage(out, f, p, s, reconf_id))
			return -1;
	return 0;
}
