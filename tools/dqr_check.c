/*
 * dqr-check - judge the forwarding tables a fabric holds.
 *
 * Reads a topology (ibnetdiscover output or an ibsim net file with LIDs)
 * and LFTs (dump_fts output or OpenSM's opensm-lfts.dump) and reports
 * unreachable pairs by kind, forwarding loops, dead ports, hop statistics
 * and a channel dependency cycle.  Exit status: 0 when everything holds,
 * 1 when something does not, 2 for bad usage or malformed input.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric.h"
#include "lft_read.h"
#include "topo_read.h"
#include "verify.h"
#include "verify_print.h"

static void usage(FILE *out)
{
	fprintf(out,
		"usage: dqr-check [options] TOPOLOGY LFTS\n"
		"  TOPOLOGY  ibnetdiscover output (or an ibsim net file "
		"with LIDs)\n"
		"  LFTS      dump_fts output or OpenSM's opensm-lfts.dump\n"
		"options:\n"
		"  --json          one JSON object instead of text\n"
		"  --baseline=LFTS also count the entries, 64-LID blocks and "
		"switches\n"
		"                  that differ from these earlier tables of "
		"the same switches\n"
		"  --pairs=KINDS   pairs whose reachability decides the exit "
		"status:\n"
		"                  all (default) or ca (CA to CA only); "
		"loops, dead ports\n"
		"                  and dependency cycles always count\n"
		"  -h, --help      this text\n"
		"exit status: 0 all holds, 1 a problem was found, 2 bad "
		"usage or input\n");
}

static int parse_pairs(const char *s, unsigned *kinds)
{
	if (!strcmp(s, "all"))
		*kinds = DQR_PAIRS_ALL;
	else if (!strcmp(s, "ca"))
		*kinds = DQR_PAIRS_CA;
	else
		return -1;
	return 0;
}

/* Differences between the tables in path and t, on the same fabric. */
static int compare(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   const char *path, struct dqr_lft_diff *diff)
{
	struct dqr_lft_read_info info;
	struct dqr_lfts *old;
	char err[512];

	old = dqr_read_lfts(f, path, &info, err, sizeof(err));
	if (!old) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return -1;
	}
	dqr_lfts_diff(old, t, diff);
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(old);
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dqr_lft_read_info info;
	struct dqr_verify_report r;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	unsigned kinds = DQR_PAIRS_ALL;
	const char *baseline = NULL;
	struct dqr_lft_diff diff;
	char err[512];
	int c, json = 0, ok;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'p':
			if (parse_pairs(optarg, &kinds)) {
				fprintf(stderr, "dqr-check: --pairs takes all "
					"or ca, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'b':
			baseline = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (argc - optind != 2) {
		usage(stderr);
		return 2;
	}

	f = dqr_read_topology(argv[optind], err, sizeof(err));
	if (!f) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return 2;
	}
	t = dqr_read_lfts(f, argv[optind + 1], &info, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "dqr-check: %s\n", err);
		dqr_fabric_free(f);
		return 2;
	}
	if (baseline && compare(f, t, baseline, &diff)) {
		dqr_lft_read_info_release(&info);
		dqr_lfts_free(t);
		dqr_fabric_free(f);
		return 2;
	}
	if (info.quirk_missing_top_lid) {
		/*
		 * dump_fts 44.0 does not print the block that starts at
		 * LinearFDBTop when that is a multiple of 64: what the
		 * switches hold for that LID is unknown, so it is not judged
		 * rather than called a hole.
		 */
		fprintf(stderr, "dqr-check: warning: LID %u is missing from "
			"every switch in %s (dump_fts omits the block at "
			"LinearFDBTop when it is a multiple of 64); pairs "
			"towards it are not judged\n",
			info.quirk_missing_top_lid, argv[optind + 1]);
		dqr_fabric_forget_lid(f, info.quirk_missing_top_lid);
	}
	if (info.switches_missing)
		fprintf(stderr, "dqr-check: warning: %u switches of the "
			"topology have no table in %s\n", info.switches_missing,
			argv[optind + 1]);

	if (dqr_verify(f, t, &r, NULL)) {
		fprintf(stderr, "dqr-check: out of memory\n");
		dqr_lft_read_info_release(&info);
		dqr_lfts_free(t);
		dqr_fabric_free(f);
		return 2;
	}
	if (json && baseline)
		printf("{\"changed\":{\"entries\":%" PRIu64 ",\"blocks\":%"
		       PRIu64 ",\"switches\":%u},\"report\":", diff.entries,
		       diff.blocks, diff.switches);
	if (json)
		dqr_print_report_json(stdout, f, &r, kinds);
	else
		dqr_print_report_text(stdout, f, &r, kinds);
	if (json && baseline)
		printf("}\n");
	else if (baseline)
		printf("changed against %s: %" PRIu64 " entries, %" PRIu64
		       " blocks of 64 LIDs, %u switches\n", baseline,
		       diff.entries, diff.blocks, diff.switches);
	ok = dqr_verify_ok(&r, kinds);
	dqr_verify_report_free(&r);
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	return ok ? 0 : 1;
}
