/*
 * dqr-check - judge the forwarding tables a fabric holds.
 *
 * Reads a topology (ibnetdiscover output or an ibsim net file with LIDs)
 * and LFTs (dump_fts output or OpenSM's opensm-lfts.dump) and reports
 * unreachable pairs by kind, forwarding loops, dead ports, hop statistics
 * and a channel dependency cycle.
 *
 * --load adds the routes per channel under all-to-all traffic and shift
 * permutations of the end ports, to compare the balance of routings.
 *
 * --vl-layers puts the routes of a fat tree on the FT paper's two layers
 * (ml_vls.h), as the plugin does, and judges deadlock freedom on the
 * two VLs instead of one; --vl-dump=FILE also writes the SL2VL tables
 * and path SLs of that assignment, to compare with what OpenSM installed.
 * --torus-layers does the same for a torus on e-cube's virtual layers
 * (vlayers.h): SL = VL = layer, every layer judged on its own.
 *
 * Two more modes judge a transition instead of one state:
 *   --replay=PLAN        replays staged LFT changes (records of
 *                        transition.h) from LFTS and judges the union of
 *                        the states before and after every stage (per
 *                        VL with --vls: vl_replay.c);
 *   --one-shot-from=OLD  judges an upload of LFTS over OLD all at once.
 *
 * Exit status: 0 when everything holds, 1 when something does not, 2 for
 * bad usage or malformed input.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/topo_read.h"
#include "util/text_input.h"
#include "dqr_check.h"

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
		"  --load          also count routes per switch-to-switch "
		"link: all-to-all\n"
		"                  CA traffic, and shift permutations of the "
		"CAs by LID\n"
		"  --vl-layers     put the routes on the FT paper's two VLs "
		"(fat trees only):\n"
		"                  deadlock freedom is judged on them, not "
		"on one VL\n"
		"  --torus-layers  put the routes of a torus on e-cube's "
		"virtual layers (SL l\n"
		"                  on VL l, 4 on a 2D torus): deadlock "
		"freedom is judged\n"
		"                  per layer, not on one VL\n"
		"  --vl-dump=FILE  also write their SL2VL tables and path "
		"SLs to FILE\n"
		"  --pairs=KINDS   pairs whose reachability decides the exit "
		"status:\n"
		"                  all (default) or ca (CA to CA only); "
		"loops, dead ports\n"
		"                  and dependency cycles (or with "
		"--vl-layers or\n"
		"                  --torus-layers cyclic VLs) always "
		"count\n"
		"  --replay=PLAN   replay the staged LFT changes in PLAN "
		"from LFTS and judge\n"
		"                  every stage: the union of the states "
		"before and after it\n"
		"                  must be loop free and acyclic\n"
		"  --reconf=ID     replay only reconfiguration ID (default: "
		"all, in file order)\n"
		"  --vls=FILE      judge the tables (with --replay: every "
		"stage) per\n"
		"                  (channel, VL) with the path SLs and "
		"SL2VL tables in FILE\n"
		"                  (dqr-check --vl-dump's lines or smpquery "
		"sl2vl output)\n"
		"  --vls-after=FILE\n"
		"                  with --replay and --vls: the path SLs "
		"answered once the\n"
		"                  plan is in force; a pair whose SL they "
		"change is left out\n"
		"                  of every stage (its packets keep the "
		"SL of --vls)\n"
		"  --expect=LFTS2  after --replay, compare the end state with "
		"these tables\n"
		"  --one-shot-from=OLD\n"
		"                  judge uploading LFTS over OLD at once: "
		"the union of both,\n"
		"                  and each switch switching first and "
		"last\n"
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

/* The options given, as bits, for the rules between them. */
enum {
	O_REPLAY = 1,
	O_ONE_SHOT = 2,
	O_RECONF = 4,
	O_EXPECT = 8,
	O_BASELINE = 16,
	O_LOAD = 32,
	O_VL = 64,
	O_VLS = 128,
	O_TORUS = 256,
	O_VLS_AFTER = 512,
};

/* Any of given needs one of other (needs), or excludes all of it. */
static const struct {
	unsigned given, other;
	int needs;
	const char *msg;
} option_rules[] = {
	{ O_RECONF | O_EXPECT, O_REPLAY, 1,
	  "--reconf and --expect go with --replay" },
	{ O_VLS_AFTER, O_REPLAY, 1, "--vls-after goes with --replay" },
	{ O_VLS_AFTER, O_VLS, 1, "--vls-after goes with --vls" },
	{ O_VLS, O_VL | O_TORUS | O_ONE_SHOT, 0,
	  "--vls does not go with --vl-layers, --torus-layers or "
	  "--one-shot-from" },
	{ O_REPLAY | O_ONE_SHOT, O_BASELINE, 0,
	  "--baseline does not go with --replay or --one-shot-from" },
	{ O_REPLAY | O_ONE_SHOT, O_LOAD, 0,
	  "--load does not go with --replay or --one-shot-from" },
	{ O_REPLAY | O_ONE_SHOT, O_VL, 0,
	  "--vl-layers and --vl-dump do not go with --replay or "
	  "--one-shot-from" },
	{ O_REPLAY, O_ONE_SHOT, 0,
	  "--replay and --one-shot-from exclude each other" },
	{ O_TORUS, O_VL | O_REPLAY | O_ONE_SHOT | O_LOAD | O_BASELINE, 0,
	  "--torus-layers does not go with --vl-layers, --replay, "
	  "--one-shot-from, --load or --baseline" },
};

/* 0 when the options go together, else -1 after a message. */
static int check_option_rules(const struct check_opts *o)
{
	unsigned set = (o->replay ? O_REPLAY : 0) |
		       (o->one_shot ? O_ONE_SHOT : 0) |
		       (o->have_reconf ? O_RECONF : 0) |
		       (o->expect ? O_EXPECT : 0) |
		       (o->baseline ? O_BASELINE : 0) |
		       (o->load ? O_LOAD : 0) | (o->vl ? O_VL : 0) |
		       (o->vls ? O_VLS : 0) | (o->torus ? O_TORUS : 0) |
		       (o->vls_after ? O_VLS_AFTER : 0);
	size_t i;

	for (i = 0; i < sizeof(option_rules) / sizeof(option_rules[0]); i++) {
		/* breached: needed and absent, or excluded and present */
		if (!(set & option_rules[i].given) ||
		    ((set & option_rules[i].other) != 0) ==
		    option_rules[i].needs)
			continue;
		fprintf(stderr, "dqr-check: %s\n", option_rules[i].msg);
		return -1;
	}
	return 0;
}

static int bad_value(const char *what, const char *arg)
{
	fprintf(stderr, "dqr-check: %s, not '%s'\n", what, arg);
	return -1;
}

/* One option; -1 after a message when its value is bad. */
static int apply_option(struct check_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'j':
		o->json = 1;
		break;
	case 'p':
		if (parse_pairs(arg, &o->kinds))
			return bad_value("--pairs takes all or ca", arg);
		break;
	case 'b':
		o->baseline = arg;
		break;
	case 'r':
		o->replay = arg;
		break;
	case 'i':
		if (dqr_parse_uint(arg, strlen(arg), 10, UINT64_MAX,
				   &o->reconf))
			return bad_value("--reconf takes a decimal "
					 "reconfiguration id", arg);
		o->have_reconf = 1;
		break;
	case 'e':
		o->expect = arg;
		break;
	case 's':
		o->vls = arg;
		break;
	case 'A':
		o->vls_after = arg;
		break;
	case 'o':
		o->one_shot = arg;
		break;
	case 'l':
		o->load = 1;
		break;
	case 'd':
		/* the dump needs layers: --vl-layers' unless --torus-layers */
		o->vl_dump = arg;
		break;
	case 'v':
		o->vl = 1;
		break;
	case 't':
		o->torus = 1;
		break;
	default:
		usage(stderr);
		return -1;
	}
	return 0;
}

/* 0 to go on, 1 after --help, -1 (message printed) for bad usage. */
static int parse_args(int argc, char **argv, struct check_opts *o)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "pairs", required_argument, NULL, 'p' },
		{ "baseline", required_argument, NULL, 'b' },
		{ "replay", required_argument, NULL, 'r' },
		{ "reconf", required_argument, NULL, 'i' },
		{ "expect", required_argument, NULL, 'e' },
		{ "one-shot-from", required_argument, NULL, 'o' },
		{ "load", no_argument, NULL, 'l' },
		{ "vl-layers", no_argument, NULL, 'v' },
		{ "vl-dump", required_argument, NULL, 'd' },
		{ "torus-layers", no_argument, NULL, 't' },
		{ "vls", required_argument, NULL, 's' },
		{ "vls-after", required_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	memset(o, 0, sizeof(*o));
	o->kinds = DQR_PAIRS_ALL;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (apply_option(o, c, optarg))
			return -1;
	}
	if (argc - optind != 2) {
		usage(stderr);
		return -1;
	}
	if (o->vl_dump && !o->torus)
		o->vl = 1;
	o->topo = argv[optind];
	o->lfts = argv[optind + 1];
	return check_option_rules(o);
}

/*
 * Reads the topology, its tables and the --baseline tables; warns of
 * what the dump leaves unknown.  0, or -1 after a message.
 */
static int read_input(const struct check_opts *o, struct check_input *in)
{
	char err[512];

	memset(in, 0, sizeof(*in));
	in->f = dqr_read_topology(o->topo, err, sizeof(err));
	if (!in->f) {
		fprintf(stderr, "dqr-check: %s\n", err);
		return -1;
	}
	/*
	 * A replay starts from tables read before the change: a switch
	 * that is gone since (a switch fault) is skipped, not an error.
	 */
	in->t = o->replay ?
		dqr_read_lfts_known(in->f, o->lfts, &in->info, err,
				    sizeof(err)) :
		dqr_read_lfts(in->f, o->lfts, &in->info, err, sizeof(err));
	if (!in->t) {
		fprintf(stderr, "dqr-check: %s\n", err);
		dqr_fabric_free(in->f);
		return -1;
	}
	if (o->baseline && compare(in->f, in->t, o->baseline, &in->diff)) {
		dqr_lft_read_info_release(&in->info);
		dqr_lfts_free(in->t);
		dqr_fabric_free(in->f);
		return -1;
	}
	if (in->info.quirk_missing_top_lid) {
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
			in->info.quirk_missing_top_lid, o->lfts);
		dqr_fabric_forget_lid(in->f, in->info.quirk_missing_top_lid);
	}
	if (in->info.switches_missing)
		fprintf(stderr, "dqr-check: warning: %u switches of the "
			"topology have no table in %s\n",
			in->info.switches_missing, o->lfts);
	return 0;
}

int main(int argc, char **argv)
{
	struct check_input in;
	struct check_opts o;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	if (read_input(&o, &in))
		return 2;
	if (o.replay)
		ret = run_replay(in.f, in.t, in.info.quirk_missing_top_lid,
				 &o);
	else if (o.one_shot)
		ret = run_one_shot(in.f, in.t, o.one_shot, o.lfts, o.json);
	else
		ret = run_report(&o, &in);
	dqr_lft_read_info_release(&in.info);
	dqr_lfts_free(in.t);
	dqr_fabric_free(in.f);
	return ret;
}
