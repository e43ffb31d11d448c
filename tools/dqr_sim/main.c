/*
 * dqr-sim - the evaluation of the DQR paper, section V, offline.
 *
 * A fabric (generated and routed by lib's reference routing, or read with
 * its tables from a real subnet) loses random links one after the other;
 * DQR reconfigures after each loss.  Over many runs this gives, per number
 * of faults, the probability that the result is connected and deadlock
 * free, what the reconfiguration touched and what it cost.  --bench times
 * single faults from the start state instead.
 *
 * With --routing uturn the fat tree is recognised once from the cabling
 * and DQR prefers the FT paper's reroutes (uturn_repair.h), as the plugin
 * does after base=uturn; --no-uturn-bias leaves DQR's search without
 * that preference, so that the two can be compared on the same faults.
 *
 * With --vl-layers (fat trees) an update that leaves connected entries
 * without a route in the one layer is answered as the plugin answers it:
 * the FT paper's re-routing layer fills them outside the channel list and
 * lays the routing on two VLs (rerouting_layer.h).  When that is usable
 * the state counts as served on two layers and the run goes on; the fill
 * is made again after every later update, from what recon then leaves
 * unrouted, until the one layer holds everything again.
 *
 * Every run starts from one copy of the state dqr_recon_start() built, so
 * the channel list is built (and timed) once.  A run stops at its first
 * failure and counts as failed for every later fault, as in the paper.
 * A fault that splits the fabric is no failure of DQR: the pairs it
 * separates are reported apart, and the run succeeds when every pair that
 * a cable path still joins is routed.  --switch-faults K fails K whole
 * switches first, each answered as one fault; the pairs of their CAs are
 * such pairs.
 *
 * --soak (soak.c) draws random faults and recoveries instead (links,
 * whole switches, flaps), answers each as the plugin does (update,
 * fallback, full routing) and judges every transition between the
 * table states stage by stage, as the plugin would upload it.
 *
 * Exit status: 0; 1 when a verification failed (a bug: DQR claims deadlock
 * freedom and connectivity by construction) or when DQR could not
 * complete the start tables; 2 for bad usage or input.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "options/options.h"
#include "routing/intermediate.h"
#include "shape/grid_symmetry.h"
#include "dqr_sim.h"

#define MAX_FAULTS 1000
#define DEFAULT_RUNS 500
#define DEFAULT_FAULTS 10
#define DEFAULT_TRIALS 200
#define SOAK_RUNS 200
#define SOAK_EVENTS 8

static void usage(FILE *out)
{
	struct dqr_options d;

	dqr_options_init(&d);
	fprintf(out,
"usage: dqr-sim [options] --fabric SPEC\n"
"       dqr-sim [options] --topology FILE --lfts FILE\n"
"input:\n"
"  --fabric SPEC        generated fabric (kary:K,N fattree2:R fattree3:R\n"
"                       mesh:AxB torus:AxB hypercube:D; see dqr-genfabric)\n"
"  --routing NAME       its base routing: auto (default: what the plugin's\n"
"                       base=auto routes, uturn on a fat tree, up*/down*\n"
"                       from the corner on a mesh or torus, e-cube on a\n"
"                       hypercube), ftree-mod, dor, dor-wrap, ecube,\n"
"                       updn, updn-mesh (up*/down* from the corner, no\n"
"                       wrap cables), uturn (any fat tree; DQR then\n"
"                       prefers the FT paper's reroutes), twophase (a\n"
"                       hypercube, the plugin's base=twophase; --options\n"
"                       twophase_seed=N)\n"
"  --no-uturn-bias      with uturn: DQR without that preference\n"
"  --no-mesh-plugin     meshes and tori: DQR without the DQR paper's mesh\n"
"                       plug-in (local paths towards the centre), which\n"
"                       the plugin and dqr-sim use by default\n"
"  --torus-layers       a torus routed by e-cube on virtual layers (one\n"
"                       VL per combination of rings wrapped, 4 on a 2D\n"
"                       torus), as the plugin routes it with qos TRUE,\n"
"                       repaired by the mesh plug-in in every layer;\n"
"                       SLs never change (but see --layer-moves); works\n"
"                       with --soak, --what-if and read tables\n"
"  --lash               as --torus-layers, on a generated mesh or torus\n"
"                       routed by the same shortest routes, the layers\n"
"                       given by LASH's first fit (the DQR paper's\n"
"                       Fig. 5); works with --soak\n"
"  --layer-moves[=N]    with --torus-layers or --lash: where no path fits\n"
"                       the routes' own layers, move them to another\n"
"                       layer below N (default 8), as the plugin's\n"
"                       layer_moves=on does; SLs then change\n"
"  --topology FILE      ibnetdiscover output (or ibsim net file with LIDs)\n"
"  --lfts FILE          dump_fts output or OpenSM's opensm-lfts.dump\n"
"  --dqr-switch-lids    clear the entries towards switch LIDs first: DQR\n"
"                       routes switch-to-switch traffic itself, as in the\n"
"                       paper's fat-tree experiment\n"
"  --qos                the VLs of opensm.conf's qos TRUE (8 data VLs):\n"
"                       the plugin may use the re-routing layer and\n"
"                       virtual layers; without it, as OpenSM's default\n"
"                       qos FALSE, VL 0 only (--vl-layers, --torus-layers\n"
"                       and --lash imply it)\n"
"  --vl-layers          fat trees: when one layer fails, route what it\n"
"                       left on the FT paper's re-routing layer (two VLs), as\n"
"                       the plugin does; the run goes on when that holds\n"
"  --stretch N          with --vl-layers: one-layer routes more than N\n"
"                       (0..4) links above the shortest go to the layer,\n"
"                       as the plugin's stretch=N with qos on\n"
"experiment:\n"
"  --runs N             runs (default 500)\n"
"  --faults K           successive random link faults per run (default 10;\n"
"                       0: the start state alone)\n"
"  --switch-faults K    first fail K random whole switches per run (every\n"
"                       cable; default 0), each answered as one fault,\n"
"                       then the link faults; the rows count them all\n"
"  --active-pairs       hypercubes: judge each state by the HC paper's\n"
"                       active nodes (every pair of whole groups routed,\n"
"                       deadlock free); runs go on while that holds\n"
"  --seed S             seed of the fault sequences (default 1)\n"
"  --ca-links           CA links may fail too (default: switch links only)\n"
"  --mode MODE          end-to-end or local (default %s, as the plugin)\n"
"  --turns TURNS        each or path (default %s, as the plugin)\n"
"  --verify POLICY      all, last, sample:N (every Nth run) or none;\n"
"                       default all below 2000 LIDs, else sample:50\n"
"output:\n"
"  --json               one JSON object instead of the table\n"
"  --data FILE          per-step table for gnuplot\n"
"  --load all-to-all    the routes every switch-to-switch channel carries\n"
"                       when every end port sends to every other: the\n"
"                       start state's, then the mean and worst of the\n"
"                       states in force after each fault\n"
"  --permutation KIND   bit-reversal, transpose (both on a power of two\n"
"                       of end ports) or random (from --seed): end port\n"
"                       i (by base LID) sends to end port pi(i); per\n"
"                       state the routes on the busiest switch-to-switch\n"
"                       channel (\"max link load N\" at the start), the\n"
"                       longest and mean route in switch hops, the pairs\n"
"                       not delivered\n"
"benchmark:\n"
"  --bench              time single faults from the start state instead\n"
"  --trials N           faults the benchmark times (default 200)\n"
"soak:\n"
"  --soak               random faults and recoveries (links, switches,\n"
"                       flaps) answered as the plugin answers them, every\n"
"                       transition planned as it plans and judged stage by\n"
"                       stage; --runs (default 200) of --faults events\n"
"                       (default 8); exit 1 on any unsafe state; with\n"
"                       --torus-layers on the layers, through recon\n"
"what if:\n"
"  --what-if NAME       what one fault would change, answered as the\n"
"                       plugin answers it: NAME[PORT] the cable at that\n"
"                       port, NAME a whole switch (node description or\n"
"                       0xGUID); exit 1 unless the result is connected\n"
"                       and deadlock free\n"
"  --what-if all        every switch-to-switch cable (--ca-links: every\n"
"                       cable) and every switch in turn, a line each and\n"
"                       a summary: what each leaves unreachable at the\n"
"                       first upload, by kind of pair, and its drains;\n"
"                       --faults M: M of them, spread evenly; --data FILE\n"
"                       for scripts/plot/what-if.gp\n"
"  --what-if tolerance  the plugin's fault-tolerance report (tolerance_s=)\n"
"                       of the start state, walked as its thread walks\n"
"                       it, and what that costs; --faults M: M faults,\n"
"                       spread over the fabric; exit 1 when one would\n"
"                       cut pairs off\n"
"  --options STRING     the plugin's options (mode=, turns=, base=uturn,\n"
"                       vl_layer=, stretch=, fallback=; see osmdqr(8))\n"
"IN paper's model (generated meshes and tori; no DQR, no tables):\n"
"  --intermediates N    judge random sets of link faults (--runs\n"
"                       sequences of --faults) by the IN paper's routes\n"
"                       through at most N (0..4) intermediate switches,\n"
"                       one row per number of faults; exit 1 when a set\n"
"                       leaves a connected pair without a route\n"
"                       with --torus-layers: DQR's repair tries\n"
"                       those routes first, each DLID its own, in its\n"
"                       routes' layers (the plugin's intermediates=N)\n"
"  --exhaustive K       instead, every set of up to K cables, one per\n"
"                       class of sets alike under the grid's symmetries\n"
"  --segments KIND      dor (default): each segment on its one\n"
"                       dimension-order path, as InfiniBand's tables\n"
"                       forward; minimal: none of its minimal paths may\n"
"                       fail, the paper's adaptive routing\n"
"  -h, --help           this text\n"
"exit status: 0 done, 1 a verification failed (or a soak failure, or a\n"
"what-if fault not survived) or DQR could not complete the start tables,\n"
"2 bad usage or input\n",
		dqr_mode_names[d.mode], dqr_turns_names[d.turns]);
}

/* Strict unsigned decimal in min .. max; -1 when s is not one. */
static int parse_uint(const char *s, unsigned long long min,
		      unsigned long long max, unsigned long long *out)
{
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_choice(const char *s, const char *const *names, int *out)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(s, names[i])) {
			*out = i;
			return 0;
		}
	return -1;
}

static int parse_verify(const char *s, struct sim_opts *o)
{
	unsigned long long n;

	if (!strcmp(s, "all"))
		o->verify = VERIFY_ALL;
	else if (!strcmp(s, "last"))
		o->verify = VERIFY_LAST;
	else if (!strcmp(s, "none"))
		o->verify = VERIFY_NONE;
	else if (!strncmp(s, "sample:", 7) &&
		 !parse_uint(s + 7, 1, UINT32_MAX, &n)) {
		o->verify = VERIFY_SAMPLE;
		o->verify_every = (unsigned)n;
	} else {
		return -1;
	}
	return 0;
}

static int bad_value(const char *opt, const char *val, const char *what)
{
	fprintf(stderr, PROG ": --%s takes %s, not '%s'\n", opt, what, val);
	return -1;
}

/* One option; -1 after a message when its value is bad. */
static int apply_option(struct sim_opts *o, int c, const char *name,
			const char *arg)
{
	unsigned long long n;
	int k;

	switch (c) {
	case 'f':
		o->spec = arg;
		break;
	case 'r':
		if (dqr_ref_parse(arg, &o->routing))
			return bad_value(name, arg, "auto, ftree-mod, dor, "
					 "dor-wrap, ecube, updn, updn-mesh or "
					 "uturn");
		o->routing_set = 1;
		break;
	case 'T':
		o->topo_path = arg;
		break;
	case 'L':
		o->lfts_path = arg;
		break;
	case 'n':
		if (parse_uint(arg, 1, 100000000, &n))
			return bad_value(name, arg, "a number of runs >= 1");
		o->runs = (unsigned)n;
		o->runs_set = 1;
		break;
	case 'k':
		if (parse_uint(arg, 0, MAX_FAULTS, &n))
			return bad_value(name, arg, "a number of faults, 0 to "
					 "1000");
		o->faults = (unsigned)n;
		o->faults_set = 1;
		break;
	case 'F':
		if (parse_uint(arg, 0, MAX_FAULTS, &n))
			return bad_value(name, arg, "a number of switches, 0 "
					 "to 1000");
		o->switch_faults = (unsigned)n;
		break;
	case 's':
		if (parse_uint(arg, 0, UINT64_MAX, &n))
			return bad_value(name, arg, "an unsigned number");
		o->seed = n;
		break;
	case 'c':
		o->ca_links = 1;
		break;
	case 'S':
		o->unroute_sw = 1;
		break;
	case 'B':
		o->no_uturn_bias = 1;
		break;
	case 'M':
		o->no_mesh_plugin = 1;
		break;
	case 'Y':
		o->vlayers = 1;
		break;
	case 'H':
		o->vlayers = 1;
		o->lash = 1;
		break;
	case 'G':
		n = DQR_VLAYERS_MAX;
		if (arg && parse_uint(arg, 1, DQR_VLAYERS_MAX, &n))
			return bad_value(name, arg, "1 .. 8");
		o->layer_moves = n;
		break;
	case 'V':
		o->vl_layers = 1;
		break;
	case 'Q':
		o->qos = 1;
		break;
	case 'X':
		if (parse_uint(arg, 0, 4, &n))
			return bad_value(name, arg, "0 .. 4");
		o->stretch = (int)n;
		break;
	case 'm':
		if (parse_choice(arg, dqr_mode_names, &k))
			return bad_value(name, arg, "end-to-end or local");
		o->ro.mode = k;
		o->mode_set = 1;
		break;
	case 't':
		if (parse_choice(arg, dqr_turns_names, &k))
			return bad_value(name, arg, "each or path");
		o->ro.turns = k;
		o->turns_set = 1;
		break;
	case 'v':
		if (parse_verify(arg, o))
			return bad_value(name, arg, "all, last, sample:N or "
					 "none");
		break;
	case 'j':
		o->json = 1;
		break;
	case 'd':
		o->data_path = arg;
		break;
	case 'b':
		o->bench = 1;
		break;
	case 'K':
		o->soak = 1;
		break;
	case 'N':
		if (parse_uint(arg, 1, 10000000, &n))
			return bad_value(name, arg, "a number of trials >= 1");
		o->trials = (unsigned)n;
		o->trials_set = 1;
		break;
	case 'W':
		o->what_if = arg;
		break;
	case 'O':
		o->options_str = arg;
		break;
	case 'A':
		if (strcmp(arg, "all-to-all"))
			return bad_value(name, arg, "all-to-all");
		o->load = 1;
		break;
	case 'a':
		o->active_pairs = 1;
		break;
	case 'P':
		if (parse_choice(arg, perm_kind_names, &k) || k == PERM_NONE)
			return bad_value(name, arg, "bit-reversal, transpose "
					 "or random");
		o->permutation = k;
		break;
	case 'I':
		if (parse_uint(arg, 0, DQR_IMED_MAX, &n))
			return bad_value(name, arg, "0 .. 4");
		o->intermediates = (unsigned)n;
		o->intermediates_set = 1;
		break;
	case 'E':
		if (parse_uint(arg, 1, DQR_FAULT_SET_MAX, &n))
			return bad_value(name, arg, "1 .. 32");
		o->exhaustive = (unsigned)n;
		break;
	case 'g':
		if (!strcmp(arg, "minimal"))
			o->segments = DQR_IMED_MINIMAL;
		else if (!strcmp(arg, "dor"))
			o->segments = DQR_IMED_DOR;
		else
			return bad_value(name, arg, "minimal or dor");
		break;
	default:
		return -1;
	}
	return 0;
}

/*
 * The input options must name exactly one input, and no option may be
 * given where it does nothing: silently ignored, it would make two runs
 * look compared.
 */
static int check_input_options(const struct sim_opts *o)
{
	const struct {
		int breached;
		const char *msg;
	} rules[] = {
		{ o->spec && (o->topo_path || o->lfts_path),
		  "--fabric excludes --topology and --lfts" },
		{ !o->spec && !(o->topo_path && o->lfts_path),
		  "give --fabric SPEC, or --topology FILE with --lfts FILE" },
		{ !o->spec && o->routing_set,
		  "--routing applies to --fabric only; --lfts gives the "
		  "tables" },
		{ o->no_uturn_bias && o->routing != DQR_REF_UTURN,
		  "--no-uturn-bias applies to --routing uturn only" },
		{ o->stretch >= 0 && !o->vl_layers,
		  "--stretch needs --vl-layers (what it leaves, only the "
		  "layer can route)" },
		{ o->vl_layers && o->bench,
		  "--vl-layers applies to the fault runs, not to --bench" },
		{ o->soak && o->bench, "--soak excludes --bench" },
		{ o->soak && o->vl_layers,
		  "--soak judges one VL: not with --vl-layers" },
		{ o->soak && (o->data_path || o->verify != VERIFY_DEFAULT),
		  "--soak judges every state: no --data, no --verify" },
		{ o->options_str && !o->what_if &&
		  o->routing != DQR_REF_TWOPHASE,
		  "--options applies to --what-if and --routing twophase "
		  "(its twophase_seed=) only" },
		{ o->options_str && (o->mode_set || o->turns_set),
		  "--options gives mode= and turns=: not with --mode or "
		  "--turns" },
		{ o->what_if && (o->soak || o->bench || o->vl_layers ||
				 o->stretch >= 0 || o->unroute_sw),
		  "--what-if excludes --soak, --bench, --vl-layers, --stretch "
		  "and --dqr-switch-lids (--options gives vl_layer= and "
		  "stretch=)" },
		{ o->what_if && (o->runs_set || o->trials_set ||
				 (o->faults_set && strcmp(o->what_if, "all") &&
				  strcmp(o->what_if, "tolerance")) ||
				 o->verify != VERIFY_DEFAULT),
		  "--what-if judges one start: no --runs, --trials or "
		  "--verify, and --faults only with --what-if all or "
		  "tolerance" },
		{ o->load && (o->what_if || o->bench || o->soak || o->json),
		  "--load applies to the runs of faults, in text" },
		{ o->permutation && (o->what_if || o->bench || o->soak ||
				     (o->intermediates_set && !o->vlayers)),
		  "--permutation applies to the runs of faults (also on "
		  "--torus-layers): not to --what-if, --bench, --soak or the "
		  "IN paper's model" },
		{ o->active_pairs && (o->what_if || o->bench || o->soak ||
				      o->vlayers || o->vl_layers ||
				      o->intermediates_set || o->json),
		  "--active-pairs applies to the runs of faults on one VL, "
		  "in text" },
		{ o->switch_faults && (o->what_if || o->bench || o->soak ||
				       o->vlayers || o->intermediates_set),
		  "--switch-faults applies to the runs of faults on one VL "
		  "(--soak fails switches of its own)" },
		{ o->faults_set && !o->faults &&
		  (o->what_if || o->bench || o->soak || o->vlayers ||
		   o->intermediates_set),
		  "--faults 0 (the start state alone) applies to the runs of "
		  "faults on one VL" },
		{ o->what_if && strcmp(o->what_if, "all") &&
		  (o->data_path || o->ca_links),
		  "--data and --ca-links apply to --what-if all only" },
		{ o->vlayers && (o->bench || o->vl_layers ||
				 o->unroute_sw || o->mode_set ||
				 o->turns_set || (o->json && !o->what_if) ||
				 o->verify != VERIFY_DEFAULT),
		  "--torus-layers judges every state: no --bench, "
		  "--vl-layers, --dqr-switch-lids, --mode, --turns, --verify, "
		  "and --json only with --what-if" },
		{ o->lash && !o->spec,
		  "--lash takes a generated mesh or torus (--fabric)" },
		{ o->layer_moves && !o->vlayers,
		  "--layer-moves applies to --torus-layers and --lash" },
		{ (o->exhaustive || o->segments) && !o->intermediates_set,
		  "--exhaustive and --segments apply to --intermediates" },
		{ o->vlayers && o->intermediates_set &&
		  (o->exhaustive || o->segments),
		  "with --torus-layers, --intermediates N is the repair's: no "
		  "--exhaustive or --segments" },
		{ o->intermediates_set && !o->vlayers && (!o->spec ||
		  o->routing_set ||
		  o->ca_links || o->unroute_sw || o->no_uturn_bias ||
		  o->no_mesh_plugin || o->layer_moves ||
		  o->vl_layers || o->qos || o->stretch >= 0 || o->mode_set ||
		  o->turns_set || o->verify != VERIFY_DEFAULT || o->json ||
		  o->data_path || o->bench || o->trials_set || o->soak ||
		  o->what_if || o->options_str || (o->load && o->exhaustive)),
		  "--intermediates judges a generated mesh or torus (--fabric)"
		  " by the IN paper's model: besides --exhaustive and "
		  "--segments, only --runs, --faults, --seed and (without "
		  "--exhaustive) --load apply" },
		{ o->exhaustive && (o->runs_set || o->faults_set),
		  "--exhaustive K tries every set: no --runs or --faults" },
		{ o->vlayers && o->routing_set &&
		  o->routing != DQR_REF_DOR_WRAP,
		  "--torus-layers routes e-cube (--routing dor-wrap)" },
	};
	size_t i;

	for (i = 0; i < sizeof(rules) / sizeof(rules[0]); i++)
		if (rules[i].breached) {
			fprintf(stderr, PROG ": %s\n", rules[i].msg);
			return -1;
		}
	return 0;
}

/* 0 to go on, 1 after --help, -1 (message printed) for bad usage. */
static int parse_args(int argc, char **argv, struct sim_opts *o)
{
	static const struct option opts[] = {
		{ "fabric", required_argument, NULL, 'f' },
		{ "routing", required_argument, NULL, 'r' },
		{ "topology", required_argument, NULL, 'T' },
		{ "lfts", required_argument, NULL, 'L' },
		{ "runs", required_argument, NULL, 'n' },
		{ "faults", required_argument, NULL, 'k' },
		{ "seed", required_argument, NULL, 's' },
		{ "ca-links", no_argument, NULL, 'c' },
		{ "dqr-switch-lids", no_argument, NULL, 'S' },
		{ "no-uturn-bias", no_argument, NULL, 'B' },
		{ "no-mesh-plugin", no_argument, NULL, 'M' },
		{ "torus-layers", no_argument, NULL, 'Y' },
		{ "lash", no_argument, NULL, 'H' },
		{ "layer-moves", optional_argument, NULL, 'G' },
		{ "vl-layers", no_argument, NULL, 'V' },
		{ "qos", no_argument, NULL, 'Q' },
		{ "stretch", required_argument, NULL, 'X' },
		{ "mode", required_argument, NULL, 'm' },
		{ "turns", required_argument, NULL, 't' },
		{ "verify", required_argument, NULL, 'v' },
		{ "json", no_argument, NULL, 'j' },
		{ "data", required_argument, NULL, 'd' },
		{ "bench", no_argument, NULL, 'b' },
		{ "trials", required_argument, NULL, 'N' },
		{ "soak", no_argument, NULL, 'K' },
		{ "what-if", required_argument, NULL, 'W' },
		{ "options", required_argument, NULL, 'O' },
		{ "load", required_argument, NULL, 'A' },
		{ "permutation", required_argument, NULL, 'P' },
		{ "active-pairs", no_argument, NULL, 'a' },
		{ "switch-faults", required_argument, NULL, 'F' },
		{ "intermediates", required_argument, NULL, 'I' },
		{ "exhaustive", required_argument, NULL, 'E' },
		{ "segments", required_argument, NULL, 'g' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct dqr_options defaults;
	int c, idx;

	memset(o, 0, sizeof(*o));
	o->runs = DEFAULT_RUNS;
	o->faults = DEFAULT_FAULTS;
	o->trials = DEFAULT_TRIALS;
	o->seed = 1;
	o->stretch = -1;
	/* the plugin's defaults, so that the figures describe what runs */
	dqr_options_init(&defaults);
	o->plugin = defaults;
	o->ro.mode = defaults.mode;
	o->ro.turns = defaults.turns;
	opterr = 0;
	for (;;) {
		idx = -1;
		c = getopt_long(argc, argv, "h", opts, &idx);
		if (c == -1)
			break;
		if (c == 'h') {
			usage(stdout);
			return 1;
		}
		if (c == '?' || c == ':') {
			fprintf(stderr, PROG ": bad option '%s' (unknown, or "
				"its value is missing)\n", argv[optind - 1]);
			usage(stderr);
			return -1;
		}
		if (apply_option(o, c, idx >= 0 ? opts[idx].name : "?",
				 optarg))
			return -1;
	}
	if (optind < argc) {
		fprintf(stderr, PROG ": unexpected argument '%s'\n",
			argv[optind]);
		usage(stderr);
		return -1;
	}
	if (o->soak && !o->runs_set)
		o->runs = SOAK_RUNS;
	if (o->soak && !o->faults_set)
		o->faults = SOAK_EVENTS;
	if (check_input_options(o))
		return -1;
	/* from here on, every fault step: the switches first */
	o->faults += o->switch_faults;
	if (o->intermediates_set && !o->vlayers && !o->segments)
		o->segments = DQR_IMED_DOR;
	if (o->vlayers)
		o->routing = DQR_REF_DOR_WRAP;
	if (o->options_str) {
		char err[512];

		if (dqr_options_parse(o->options_str, &o->plugin, err,
				      sizeof(err))) {
			fprintf(stderr, PROG ": --options: %s\n", err);
			return -1;
		}
		o->ro.mode = o->plugin.mode;
		o->ro.turns = o->plugin.turns;
	}
	/* the soak judges every state: so says the header */
	if (o->soak)
		o->verify = VERIFY_ALL;
	return 0;
}

/* Runs what the options ask for; the exit status. */
static int execute(struct sim *s)
{
	FILE *data = NULL;
	unsigned links;
	int ret;

	if (s->o->intermediates_set && !s->o->vlayers)
		return imed_sim(s->o);
	if (load_input(s))
		return 2;
	if (scale_build(&s->sc, s->in.f, s->o->ca_links))
		goto nomem;
	ret = perm_setup(s);
	if (ret < 0)
		goto nomem;
	if (ret)
		return ret;
	if (s->o->vlayers && s->o->what_if) {
		ret = what_if(s);
		return ret < 0 ? 2 : ret;
	}
	if (s->o->vlayers)
		return s->o->soak ? soak(s) : vlayers_sim(s);
	ret = start(s);
	if (ret > 0)
		return ret;
	if (ret < 0)
		goto nomem;
	if (s->o->what_if) {
		ret = what_if(s);
		if (ret < 0)
			goto nomem;
		return ret;
	}
	if (s->o->soak && s->sc.num_cand)
		return soak(s);
	links = s->o->faults - s->o->switch_faults;
	if (!s->sc.num_cand || (!s->o->bench && links > s->sc.num_cand)) {
		fprintf(stderr, PROG ": %s has %u %s, fewer than the %u "
			"faults asked for\n", s->in.name, s->sc.num_cand,
			fault_kind(s->o), s->o->bench ? 1 : links);
		return 2;
	}
	if (s->o->switch_faults && switch_faults_fit(s))
		return 2;
	ret = active_alloc(s);
	if (ret < 0)
		goto nomem;
	if (ret)
		return 2;
	if (s->o->bench) {
		if (bench(s))
			goto nomem;
		return s->verify_failures ? 1 : 0;
	}
	if (s->o->data_path) {
		data = fopen(s->o->data_path, "w");
		if (!data) {
			fprintf(stderr, PROG ": cannot write %s: %s\n",
				s->o->data_path, strerror(errno));
			return 2;
		}
	}
	if (simulate(s)) {
		if (data)
			fclose(data);
		goto nomem;
	}
	if (s->o->json)
		print_json(s);
	else
		print_text(s);
	load_print(s);
	if (!s->o->json)
		perm_print(s);
	active_print(s);
	if (data && write_data(s, data, s->o->data_path))
		return 2;
	if (s->verify_failures)
		fprintf(stderr, PROG ": %u verification failures: DQR "
			"produced tables that are not what it claims\n",
			s->verify_failures);
	return s->verify_failures ? 1 : 0;
nomem:
	fprintf(stderr, PROG ": out of memory\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct sim_opts o;
	struct sim s;
	int ret;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret > 0 ? 0 : 2;
	memset(&s, 0, sizeof(s));
	s.o = &o;
	ret = execute(&s);
	steps_free(&s, o.faults);
	scale_release(&s.sc);
	pristine_release(&s.p);
	input_release(&s.in);
	free(s.mlt.v);
	free(s.loads);
	active_free(&s);
	perm_release(&s);
	return ret;
}
