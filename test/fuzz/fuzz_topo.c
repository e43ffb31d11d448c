/*
 * fuzz_topo.c - fuzz target of the topology reader (io/topo_read.h):
 * ibnetdiscover output and ibsim net files.
 */
#include "fuzz.h"
#include "io/topo_read.h"

const char fuzz_name[] = "topo";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dqr_fabric *f;
	char err[512];
	FILE *fp = fuzz_file(data, size);

	if (!fp)
		return 0;
	err[0] = '\0';
	f = dqr_parse_topology(fp, "fuzz", err, sizeof(err));
	fclose(fp);
	if (!f) {
		fuzz_check_err(err);
		return 0;
	}
	/* what the reader promises of a fabric it returns */
	if (!f->finished || !f->num_nodes)
		abort();
	dqr_fabric_free(f);
	return 0;
}
