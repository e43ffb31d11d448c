/*
 * fuzz_topo.c - fuzz target of the topology reader (io/topo_read.h):
 * ibnetdiscover output and ibsim net files.
 */
#include "fuzz.h"
#include "io/topo_read.h"

const char fuzz_name[] = "topo";

static int parse_topo(FILE *fp, void *arg, char *err, size_t errlen)
{
	struct dqr_fabric **f = arg;

	*f = dqr_parse_topology(fp, "fuzz", err, errlen);
	return !*f;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dqr_fabric *f;

	if (!fuzz_read(data, size, parse_topo, &f))
		return 0;
	/* what the reader promises of a fabric it returns */
	if (!f->finished || !f->num_nodes)
		abort();
	dqr_fabric_free(f);
	return 0;
}
