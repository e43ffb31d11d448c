/*
 * fuzz_lft.c - fuzz target of the LFT reader (io/lft_read.h): dump_fts
 * output and opensm-lfts.dump, read for the tiny fabric.
 */
#include "fuzz.h"
#include "io/lft_read.h"

const char fuzz_name[] = "lft";

/* What the reader returns: the tables and what it found reading them. */
struct lft_read {
	struct dqr_lft_read_info info;
	struct dqr_lfts *t;
};

static int parse_lft(FILE *fp, void *arg, char *err, size_t errlen)
{
	struct lft_read *r = arg;

	r->t = dqr_parse_lfts(fuzz_fabric(), fp, "fuzz", &r->info, err,
			      errlen);
	return !r->t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct dqr_fabric *f = fuzz_fabric();
	struct lft_read r;
	uint32_t sw, lid;

	if (!fuzz_read(data, size, parse_lft, &r))
		return 0;
	/* every entry read names a port of its switch, or none */
	for (sw = 0; sw < r.t->num_switches; sw++)
		for (lid = 0; lid < r.t->lid_count; lid++) {
			uint8_t p = dqr_lft_get(r.t, sw, lid);

			if (p != DQR_NO_PATH &&
			    p > f->nodes[f->switches[sw]].num_ports)
				abort();
		}
	if (r.t->num_switches != f->num_switches ||
	    r.t->lid_count > DQR_MAX_LID + 1 ||
	    r.info.switches_seen + r.info.switches_missing != f->num_switches)
		abort();
	dqr_lft_read_info_release(&r.info);
	dqr_lfts_free(r.t);
	return 0;
}
