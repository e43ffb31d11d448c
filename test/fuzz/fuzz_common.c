/*
 * fuzz_common.c - the fabric the table readers are fuzzed against, and
 * the check of their error messages.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "io/topo_read.h"

/* test/data/tiny.ibnd without its comments: 2 switches, 4 CAs */
static const char tiny[] =
	"switchguid=0x200000(200000)\n"
	"Switch\t8 \"S-0000000000200000\"\t# \"Switch1\" base port 0 "
	"lid 1 lmc 0\n"
	"[1]\t\"H-0000000000100000\"[1](100001)\n"
	"[2]\t\"H-0000000000100006\"[1](100007)\n"
	"[3]\t\"S-0000000000200001\"[3]\n"
	"[5]\t\"S-0000000000200001\"[5]\n"
	"\n"
	"switchguid=0x200001(200001)\n"
	"Switch\t8 \"S-0000000000200001\"\t# \"Switch2\" base port 0 "
	"lid 3 lmc 0\n"
	"[1]\t\"H-0000000000100003\"[1](100004)\n"
	"[2]\t\"H-0000000000100009\"[1](10000a)\n"
	"[3]\t\"S-0000000000200000\"[3]\n"
	"[5]\t\"S-0000000000200000\"[5]\n"
	"\n"
	"caguid=0x100006\n"
	"Ca\t2 \"H-0000000000100006\"\t# \"Hca3\"\n"
	"[1](100007)\t\"S-0000000000200000\"[2]\t# lid 5 lmc 0\n"
	"\n"
	"caguid=0x100000\n"
	"Ca\t2 \"H-0000000000100000\"\t# \"Hca1\"\n"
	"[1](100001)\t\"S-0000000000200000\"[1]\t# lid 2 lmc 0\n"
	"\n"
	"caguid=0x100009\n"
	"Ca\t2 \"H-0000000000100009\"\t# \"Hca4\"\n"
	"[1](10000a)\t\"S-0000000000200001\"[2]\t# lid 6 lmc 0\n"
	"\n"
	"caguid=0x100003\n"
	"Ca\t2 \"H-0000000000100003\"\t# \"Hca2\"\n"
	"[1](100004)\t\"S-0000000000200001\"[1]\t# lid 4 lmc 0\n";

static struct dqr_fabric *fabric;

static void free_fabric(void)
{
	dqr_fabric_free(fabric);
}

const struct dqr_fabric *fuzz_fabric(void)
{
	char err[512];
	FILE *fp;

	if (fabric)
		return fabric;
	fp = fmemopen((void *)tiny, sizeof(tiny) - 1, "r");
	if (!fp)
		abort();
	fabric = dqr_parse_topology(fp, "tiny", err, sizeof(err));
	fclose(fp);
	if (!fabric) {
		fprintf(stderr, "fuzz: the tiny fabric: %s\n", err);
		abort();
	}
	atexit(free_fabric);
	return fabric;
}

/* data as a stream to read; NULL for no bytes (fmemopen refuses 0). */
static FILE *fuzz_file(const uint8_t *data, size_t size)
{
	if (!size)
		return NULL;
	return fmemopen((void *)data, size, "r");
}

int fuzz_read(const uint8_t *data, size_t size,
	      int (*parse)(FILE *fp, void *arg, char *err, size_t errlen),
	      void *arg)
{
	char err[512] = "";
	FILE *fp = fuzz_file(data, size);
	int bad;

	if (!fp)
		return 0;
	bad = parse(fp, arg, err, sizeof(err));
	fclose(fp);
	if (bad)
		fuzz_check_err(err);
	return !bad;
}

void fuzz_check_err(const char *err)
{
	if (!strncmp(err, "fuzz:", 5))
		return;
	fprintf(stderr, "refusal without the file's name: '%s'\n", err);
	abort();
}
