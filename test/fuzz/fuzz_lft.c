/*
 * fuzz_lft.c - fuzz target of the LFT reader (io/lft_read.h): dump_fts
 * output and opensm-lfts.dump, read for the tiny fabric.
 */
#include "fuzz.h"
#include "io/lft_read.h"

const char fuzz_name[] = "lft";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct dqr_fabric *f = fuzz_fabric();
	struct dqr_lft_read_info info;
	struct dqr_lfts *t;
	char err[512];
	uint32_t sw, lid;
	FILE *fp = fuzz_file(data, size);

	if (!fp)
		return 0;
	err[0] = '\0';
	t = dqr_parse_lfts(f, fp, "fuzz", &info, err, sizeof(err));
	fclose(fp);
	if (!t) {
		fuzz_check_err(err);
		return 0;
	}
	/* every entry read names a port of its switch, or none */
	for (sw = 0; sw < t->num_switches; sw++)
		for (lid = 0; lid < t->lid_count; lid++) {
			uint8_t p = dqr_lft_get(t, sw, lid);

			if (p != DQR_NO_PATH &&
			    p > f->nodes[f->switches[sw]].num_ports)
				abort();
		}
	if (t->num_switches != f->num_switches ||
	    t->lid_count > DQR_MAX_LID + 1 ||
	    info.switches_seen + info.switches_missing != f->num_switches)
		abort();
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(t);
	return 0;
}
