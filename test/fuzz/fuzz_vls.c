/*
 * fuzz_vls.c - fuzz target of the SL2VL and path SL reader
 * (io/vl_read.h), read for the tiny fabric.
 */
#include "fuzz.h"
#include "io/vl_read.h"

const char fuzz_name[] = "vls";

static int parse_vls(FILE *fp, void *v, char *err, size_t errlen)
{
	return dqr_parse_vls(fuzz_fabric(), fp, "fuzz", v, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dqr_vls v;
	uint32_t i;

	if (!fuzz_read(data, size, parse_vls, &v))
		return 0;
	/* every table and path read is found again, and sorted */
	for (i = 0; i < v.num_tables; i++) {
		const struct dqr_vl_table *t = &v.tables[i];

		if ((i && t->key <= v.tables[i - 1].key) ||
		    dqr_vls_vl(&v, (uint32_t)(t->key >> 16),
			       (uint8_t)(t->key >> 8), (uint8_t)t->key, 15) !=
		    t->vl[15])
			abort();
	}
	for (i = 0; i < v.num_paths; i++)
		if (dqr_vls_sl(&v, v.paths[i].key >> 16,
			       v.paths[i].key & 0xffff) != v.paths[i].sl)
			abort();
	dqr_vls_release(&v);
	return 0;
}
