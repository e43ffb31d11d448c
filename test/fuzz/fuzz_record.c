/*
 * fuzz_record.c - fuzz target of the record reader (transition/record.h):
 * dqr-transition.dump read for the tiny fabric, then every
 * reconfiguration and the whole file selected as plans.
 */
#include "fuzz.h"
#include "transition/record.h"

const char fuzz_name[] = "record";

static void select_one(const struct dqr_plan_file *pf, const uint64_t *id)
{
	struct dqr_plan p;
	char err[512];

	dqr_plan_init(&p);
	err[0] = '\0';
	if (dqr_plan_select(pf, id, &p, err, sizeof(err))) {
		fuzz_check_err(err);
		return;
	}
	if (p.stage_off[p.num_stages] != p.num_entries)
		abort();
	dqr_plan_release(&p);
}

static int parse_record(FILE *fp, void *pf, char *err, size_t errlen)
{
	return dqr_plan_parse(fuzz_fabric(), fp, "fuzz", pf, err, errlen);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dqr_plan_file pf;
	uint32_t i;

	if (!fuzz_read(data, size, parse_record, &pf))
		return 0;
	select_one(&pf, NULL);
	/* the first few ids alone: a file may hold thousands */
	for (i = 0; i < pf.num_ids && i < 4; i++)
		select_one(&pf, &pf.ids[i]);
	dqr_plan_file_release(&pf);
	return 0;
}
