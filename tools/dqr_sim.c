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
 * a cable path still joins is routed.
 *
 * Exit status: 0; 1 when a verification failed (a bug: DQR claims deadlock
 * freedom and connectivity by construction) or when DQR could not
 * complete the start tables; 2 for bad usage or input.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "deps/channel_list.h"
#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "io/lft_read.h"
#include "io/topo_read.h"
#include "options/options.h"
#include "repair/recon.h"
#include "repair/reroute.h"
#include "repair/rerouting_layer.h"
#include "repair/uturn_repair.h"
#include "routing/ref_routing.h"
#include "shape/ftree_shape.h"
#include "util/timing.h"
#include "util/union_find.h"
#include "verify/verify.h"
#include "verify/verify_print.h"

#define PROG "dqr-sim"
#define MAX_FAULTS 1000
#define DEFAULT_RUNS 500
#define DEFAULT_FAULTS 10
#define DEFAULT_TRIALS 200
/* fabrics with this many LIDs or more verify every 50th run by default */
#define VERIFY_ALL_BELOW 2000
#define VERIFY_DEFAULT_EVERY 50

enum verify_policy {
	VERIFY_DEFAULT = 0,
	VERIFY_ALL,
	VERIFY_LAST,
	VERIFY_SAMPLE,
	VERIFY_NONE,
};

struct sim_opts {
	const char *spec;
	const char *topo_path, *lfts_path;
	enum dqr_ref_kind routing;
	int routing_set;
	unsigned runs, faults, trials;
	uint64_t seed;
	int ca_links, json, bench;
	int unroute_sw;			/* DQR routes the switch LIDs */
	int no_uturn_bias;		/* uturn without FT's choice */
	int vl_layers;			/* re-routing layer on a second VL */
	int stretch;			/* --stretch N, else -1 */
	const char *data_path;
	struct dqr_reroute_opts ro;
	int verify;			/* enum verify_policy */
	unsigned verify_every;		/* VERIFY_SAMPLE */
};

/* The fabric and tables the experiment starts from. */
struct sim_input {
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char name[256];		/* canonical spec or topology path */
	char routing[64];	/* reference routing, or "file" */
	char describe[256];
};

/*
 * The state after dqr_recon_start, kept so that every run (and every
 * benchmark trial) starts from an identical copy without building the
 * channel list again.
 */
struct pristine {
	struct dqr_fabric *ref;
	struct dqr_lfts *orig;
	struct dqr_cdg *g;		/* dependencies of the input tables */
	struct dqr_channel_list list;	/* start's order of the channels */
	uint32_t *added;		/* start's added edges: from, to */
	uint32_t num_added;
	struct dqr_recon_result start;
	double ms_copy;		/* one restore, for the report */
};

/* Figures of the fabric the fractions are taken over. */
struct sim_scale {
	uint32_t switches, end_ports, lids;
	uint64_t entries;		/* switches x LIDs */
	uint64_t pairs;			/* (source, DLID) pairs */
	uint32_t *cand;			/* cables that may fail: a port each */
	uint32_t num_cand;
	uint8_t *linked_node;		/* node has a cable in the reference */
};

/* What happened at one fault step, summed over the runs that got there. */
struct step_stats {
	uint32_t reached, ok, failed, split, verified, verify_failed;
	/*
	 * ok, and the check (when it ran) found every connected pair
	 * reachable; states verified with a dependency cycle in the tables
	 * or in the mix of old and new entries; states verified that leave
	 * a CA-to-CA pair unrouted (only failed updates may), which tells
	 * failures the FT paper's figure 11 would see from those it would not
	 */
	uint32_t connected, cyclic, ca_lost;
	uint32_t ends_cut;		/* reached, CAs physically split */
	uint32_t conn_ends;		/* connected and CAs not split */
	double broken, changed, pairs;	/* sums of fractions */
	double turns, reorders, moved, refused, lids;
	double max_changed;		/* worst fraction of entries changed */
	double *us;			/* reroute compute, one per run */
	double *us_total;		/* whole update, one per run */
	/*
	 * --vl-layers: states served on two layers; re-routing layers the
	 * plugin would refuse (entries still left without a route, or the
	 * two VLs not deadlock free); the most SLs and VLs a state used and
	 * the most entries its fill routed
	 */
	uint32_t ml, ml_unusable, ml_left, ml_cyclic;
	unsigned ml_sls_max, ml_vls_max;
	uint64_t ml_filled_max;
};

/* --vl-layers: the cost of every re-routing layer built, for the report */
struct ml_cost {
	double fill_us, build_ms, verify_ms;
};

struct ml_times {
	struct ml_cost *v;
	uint32_t n, cap;
};

struct sim {
	const struct sim_opts *o;
	/* o->ro with the topology preference, when there is one */
	struct dqr_reroute_opts ro;
	/* the fat tree of the bias (--routing uturn) and of --vl-layers */
	struct dqr_ftree *ft;
	struct sim_input in;
	struct pristine p;
	struct sim_scale sc;
	struct step_stats *steps;
	struct step_stats start_step;	/* k = 0: the start tables */
	struct ml_times mlt;
	uint32_t verify_failures;
	uint32_t verify_failures_partial;	/* after a reported failure */
	uint64_t states_verified;
	double ms_wall;
};

/* ------------------------------------------------------------ random */

/*
 * splitmix64: small, fast and good enough to pick links; each run (and
 * trial) gets its own stream from the seed, so a run's fault sequence
 * depends on the seed and its number only, not on the mode or on other
 * runs: every mode sees the same faults.
 */
static uint64_t rng_next(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t rng_stream(uint64_t seed, uint64_t stream, uint64_t index)
{
	uint64_t s = seed ^ (stream * 0xd1b54a32d192ed03ull);

	s ^= rng_next(&s) + index * 0x9e3779b97f4a7c15ull;
	rng_next(&s);
	return s;
}

/* Uniform in 0 .. n-1 (n < 2^32; the bias of 32x32 bits is negligible). */
static uint32_t rng_below(uint64_t *s, uint32_t n)
{
	return (uint32_t)(((rng_next(s) >> 32) * (uint64_t)n) >> 32);
}

/* ------------------------------------------------------------ options */

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
"  --routing NAME       its base routing: auto (default), ftree-mod, dor,\n"
"                       dor-wrap, ecube, updn, uturn (any fat tree; DQR\n"
"                       then prefers the FT paper's reroutes)\n"
"  --no-uturn-bias      with uturn: DQR without that preference\n"
"  --topology FILE      ibnetdiscover output (or ibsim net file with LIDs)\n"
"  --lfts FILE          dump_fts output or OpenSM's opensm-lfts.dump\n"
"  --dqr-switch-lids    clear the entries towards switch LIDs first: DQR\n"
"                       routes switch-to-switch traffic itself, as in the\n"
"                       paper's fat-tree experiment\n"
"  --vl-layers          fat trees: when one layer fails, route what it\n"
"                       left on the FT paper's re-routing layer (two VLs), as\n"
"                       the plugin does; the run goes on when that holds\n"
"  --stretch N          with --vl-layers: one-layer routes more than N\n"
"                       (0..4) links above the shortest go to the layer,\n"
"                       as the plugin's stretch=N with qos on\n"
"experiment:\n"
"  --runs N             runs (default 500)\n"
"  --faults K           successive random link faults per run (default 10)\n"
"  --seed S             seed of the fault sequences (default 1)\n"
"  --ca-links           CA links may fail too (default: switch links only)\n"
"  --mode MODE          end-to-end or local (default %s, as the plugin)\n"
"  --turns TURNS        each or path (default %s, as the plugin)\n"
"  --verify POLICY      all, last, sample:N (every Nth run) or none;\n"
"                       default all below 2000 LIDs, else sample:50\n"
"output:\n"
"  --json               one JSON object instead of the table\n"
"  --data FILE          per-step table for gnuplot\n"
"benchmark:\n"
"  --bench              time single faults from the start state instead\n"
"  --trials N           faults the benchmark times (default 200)\n"
"  -h, --help           this text\n"
"exit status: 0 done, 1 a verification failed or DQR could not complete\n"
"the start tables, 2 bad usage or input\n",
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
					 "dor-wrap, ecube, updn or uturn");
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
		break;
	case 'k':
		if (parse_uint(arg, 1, MAX_FAULTS, &n))
			return bad_value(name, arg, "a number of faults, 1 to "
					 "1000");
		o->faults = (unsigned)n;
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
	case 'V':
		o->vl_layers = 1;
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
		break;
	case 't':
		if (parse_choice(arg, dqr_turns_names, &k))
			return bad_value(name, arg, "each or path");
		o->ro.turns = k;
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
	case 'N':
		if (parse_uint(arg, 1, 10000000, &n))
			return bad_value(name, arg, "a number of trials >= 1");
		o->trials = (unsigned)n;
		break;
	default:
		return -1;
	}
	return 0;
}

/* The input options must name exactly one input. */
static int check_input_options(const struct sim_opts *o)
{
	if (o->spec && (o->topo_path || o->lfts_path)) {
		fprintf(stderr, PROG ": --fabric excludes --topology and "
			"--lfts\n");
		return -1;
	}
	if (!o->spec && !(o->topo_path && o->lfts_path)) {
		fprintf(stderr, PROG ": give --fabric SPEC, or --topology "
			"FILE with --lfts FILE\n");
		return -1;
	}
	if (!o->spec && o->routing_set) {
		fprintf(stderr, PROG ": --routing applies to --fabric only; "
			"--lfts gives the tables\n");
		return -1;
	}
	/* silently ignored it would make two runs look compared */
	if (o->no_uturn_bias && o->routing != DQR_REF_UTURN) {
		fprintf(stderr, PROG ": --no-uturn-bias applies to --routing "
			"uturn only\n");
		return -1;
	}
	if (o->stretch >= 0 && !o->vl_layers) {
		fprintf(stderr, PROG ": --stretch needs --vl-layers (what it "
			"leaves, only the layer can route)\n");
		return -1;
	}
	if (o->vl_layers && o->bench) {
		fprintf(stderr, PROG ": --vl-layers applies to the fault runs, "
			"not to --bench\n");
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
		{ "vl-layers", no_argument, NULL, 'V' },
		{ "stretch", required_argument, NULL, 'X' },
		{ "mode", required_argument, NULL, 'm' },
		{ "turns", required_argument, NULL, 't' },
		{ "verify", required_argument, NULL, 'v' },
		{ "json", no_argument, NULL, 'j' },
		{ "data", required_argument, NULL, 'd' },
		{ "bench", no_argument, NULL, 'b' },
		{ "trials", required_argument, NULL, 'N' },
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
	return check_input_options(o);
}

/* ------------------------------------------------------------ input */

static int load_generated(const struct sim_opts *o, struct sim_input *in)
{
	struct dqr_gen_place *places = NULL;
	struct dqr_gen_spec spec;
	enum dqr_ref_kind kind;
	char err[512];

	if (dqr_gen_parse(o->spec, &spec, err, sizeof(err))) {
		fprintf(stderr, PROG ": --fabric %s: %s\n", o->spec, err);
		return -1;
	}
	in->f = dqr_gen_build_places(&spec, &places, err, sizeof(err));
	if (!in->f) {
		fprintf(stderr, PROG ": --fabric %s: %s\n", o->spec, err);
		return -1;
	}
	kind = o->routing == DQR_REF_AUTO ? dqr_ref_auto(&spec) : o->routing;
	if (dqr_ref_route(in->f, &spec, places, kind, &in->t, err,
			  sizeof(err))) {
		fprintf(stderr, PROG ": routing %s on %s: %s\n",
			dqr_ref_name(kind), o->spec, err);
		free(places);
		return -1;
	}
	free(places);
	dqr_gen_format(&spec, in->name, sizeof(in->name));
	dqr_gen_describe(&spec, in->describe, sizeof(in->describe));
	snprintf(in->routing, sizeof(in->routing), "%s", dqr_ref_name(kind));
	return 0;
}

static int load_files(const struct sim_opts *o, struct sim_input *in)
{
	struct dqr_lft_read_info info;
	char err[512];

	in->f = dqr_read_topology(o->topo_path, err, sizeof(err));
	if (!in->f) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	in->t = dqr_read_lfts(in->f, o->lfts_path, &info, err, sizeof(err));
	if (!in->t) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	if (info.quirk_missing_top_lid) {
		/* dump_fts 44.0 drops that block: unknown, not unrouted */
		fprintf(stderr, PROG ": warning: LID %u is missing from every "
			"switch in %s (dump_fts quirk); it is left out\n",
			info.quirk_missing_top_lid, o->lfts_path);
		dqr_fabric_forget_lid(in->f, info.quirk_missing_top_lid);
	}
	if (info.switches_missing)
		fprintf(stderr, PROG ": warning: %u switches have no table "
			"in %s\n", info.switches_missing, o->lfts_path);
	dqr_lft_read_info_release(&info);
	snprintf(in->name, sizeof(in->name), "%s", o->topo_path);
	snprintf(in->routing, sizeof(in->routing), "file");
	snprintf(in->describe, sizeof(in->describe),
		 "%u switches, %u end ports, tables from %s",
		 in->f->num_switches, dqr_fabric_count_end_ports(in->f),
		 o->lfts_path);
	return 0;
}

/*
 * Every switch forgets its routes to the other switches' LIDs, so that
 * dqr_recon_start fills them: the paper's fat-tree experiment starts from
 * OpenSM's ftree tables, which leave switch-to-switch pairs unrouted, and
 * lets DQR place the U-turns those pairs need.
 */
static void unroute_switch_lids(const struct dqr_fabric *f,
				struct dqr_lfts *t)
{
	uint32_t lid, owner, sw;

	for (lid = 1; lid <= f->max_lid && lid < t->lid_count; lid++) {
		owner = dqr_lid_owner(f, lid);
		if (owner == DQR_NONE || f->ports[owner].num ||
		    !dqr_is_switch(f, f->ports[owner].node))
			continue;
		for (sw = 0; sw < t->num_switches; sw++)
			if (f->switches[sw] != f->ports[owner].node)
				dqr_lft_set(t, sw, lid, DQR_NO_PATH);
	}
}

static void input_release(struct sim_input *in)
{
	dqr_fabric_free(in->f);
	dqr_lfts_free(in->t);
	in->f = NULL;
	in->t = NULL;
}

/*
 * After base=uturn the plugin lets DQR prefer the FT paper's reroutes; so
 * does the simulator, on the tree of the reference fabric (projections
 * keep its switch and port indices, which is all the tree refers to).
 * The re-routing layer needs the same tree for its levels, whatever the
 * routing.
 */
static int setup_ftree(struct sim *s)
{
	int bias = s->o->routing == DQR_REF_UTURN && !s->o->no_uturn_bias;
	char err[512];

	if (!bias && !s->o->vl_layers)
		return 0;
	if (dqr_ftree_detect(s->in.f, &s->ft, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s%s: %s\n", s->o->vl_layers ?
			"--vl-layers needs a fat tree: " : "", s->in.name,
			err);
		return -1;
	}
	if (bias)
		dqr_uturn_repair_opts(s->ft, &s->ro);
	if (s->o->stretch >= 0) {
		s->ro.stretch_on = 1;
		s->ro.stretch = (uint32_t)s->o->stretch;
	}
	return 0;
}

static const char *bias_name(const struct sim *s)
{
	return s->ro.bias == dqr_uturn_bias ? "uturn" : "none";
}

/* ------------------------------------------------------------ state */

static void pristine_release(struct pristine *p)
{
	dqr_fabric_free(p->ref);
	dqr_lfts_free(p->orig);
	dqr_cdg_free(p->g);
	dqr_channel_list_free(&p->list);
	free(p->added);
	memset(p, 0, sizeof(*p));
}

/* Keeps what a copy of r needs; -1 when out of memory. */
static int pristine_keep(struct pristine *p, const struct dqr_recon *r,
			 const struct dqr_lfts *input)
{
	const struct dqr_dyn_order *cl = r->cl;
	uint32_t i;

	p->ref = dqr_fabric_clone(r->ref);
	p->orig = dqr_lfts_clone(r->orig);
	p->g = dqr_cdg_build(r->ref, input);
	p->added = malloc(sizeof(uint32_t) * 2 * (cl->num_added + 1));
	if (!p->ref || !p->orig || !p->g || !p->added ||
	    dqr_dyn_export(cl, &p->list))
		return -1;
	for (i = 0; i < cl->num_added; i++) {
		p->added[2 * i] = cl->edges[i].from;
		p->added[2 * i + 1] = cl->edges[i].to;
	}
	p->num_added = cl->num_added;
	return 0;
}

/*
 * A recon state equal to the one start left: the same tables, the same
 * order, the same base and added dependencies (every added edge already
 * points up in the exported order, so adding it moves nothing).  -1 when
 * out of memory or when the copy would not be valid.
 */
static int restore(struct dqr_recon *r, const struct pristine *p)
{
	uint32_t i;

	memset(r, 0, sizeof(*r));
	r->ref = dqr_fabric_clone(p->ref);
	r->orig = dqr_lfts_clone(p->orig);
	r->cur = dqr_lfts_clone(p->orig);
	r->cl = dqr_dyn_new(p->g, &p->list);
	r->rr = dqr_reroute_new(p->ref);
	if (!r->ref || !r->orig || !r->cur || !r->cl || !r->rr)
		goto fail;
	for (i = 0; i < p->num_added; i++)
		if (dqr_dyn_add(r->cl, p->added[2 * i],
				p->added[2 * i + 1]) != DQR_DYN_ADDED)
			goto fail;
	dqr_dyn_commit(r->cl);
	return 0;
fail:
	dqr_recon_release(r);
	return -1;
}

/*
 * Runs dqr_recon_start on the input and keeps its state.  Returns 0; the
 * exit status after a message when DQR cannot start: 2 for cyclic input
 * tables, 1 when DQR could not route all of them; -1 when out of memory.
 */
static int start(struct sim *s)
{
	struct dqr_recon r;
	double t0;
	int ret;

	ret = dqr_recon_start(&r, s->in.f, s->in.t, &s->ro, &s->p.start);
	if (ret == DQR_RECON_NOMEM)
		return -1;
	if (ret == DQR_RECON_CYCLIC) {
		fprintf(stderr, PROG ": the input tables have a channel "
			"dependency cycle (%u channels): they are not deadlock "
			"free, DQR cannot start from them\n", r.cycle.len);
		dqr_recon_release(&r);
		return 2;
	}
	if (ret == DQR_RECON_FAILED || s->p.start.rs.holes) {
		fprintf(stderr, PROG ": DQR could not complete the input "
			"tables: %" PRIu64 " connected entries left without a "
			"legal route\n", s->p.start.rs.failed +
			s->p.start.rs.holes);
		dqr_recon_release(&r);
		return 1;
	}
	ret = pristine_keep(&s->p, &r, s->in.t);
	dqr_recon_release(&r);
	if (ret)
		return -1;
	/* a first copy proves the restore valid and says what it costs */
	t0 = dqr_now_ms();
	if (restore(&r, &s->p)) {
		fprintf(stderr, PROG ": cannot copy the start state (out of "
			"memory, or start's channel list does not fit its "
			"tables)\n");
		return -1;
	}
	s->p.ms_copy = dqr_now_ms() - t0;
	dqr_recon_release(&r);
	return 0;
}

/* ------------------------------------------------------------ scale */

static int is_candidate(const struct dqr_fabric *f, uint32_t port,
			int ca_links)
{
	const struct dqr_port *p = &f->ports[port];
	int sa, sb;

	if (!p->num || p->remote == DQR_NONE || p->remote < port)
		return 0;
	sa = dqr_is_switch(f, p->node);
	sb = dqr_is_switch(f, f->ports[p->remote].node);
	return (sa && sb) || (ca_links && (sa || sb));
}

/* The fabric's size and the cables a fault may take. */
static int scale_build(struct sim_scale *sc, const struct dqr_fabric *f,
		       int ca_links)
{
	uint32_t i, lid, n = 0;

	memset(sc, 0, sizeof(*sc));
	sc->switches = f->num_switches;
	sc->end_ports = dqr_fabric_count_end_ports(f);
	for (lid = 1; lid <= f->max_lid; lid++)
		sc->lids += dqr_lid_owner(f, lid) != DQR_NONE;
	sc->entries = (uint64_t)sc->switches * sc->lids;
	/* every source but the LID's owner sends to each LID */
	if (sc->switches + sc->end_ports)
		sc->pairs = (uint64_t)sc->lids *
			    (sc->switches + sc->end_ports - 1);
	sc->cand = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	sc->linked_node = calloc(f->num_nodes + 1, 1);
	if (!sc->cand || !sc->linked_node)
		return -1;
	for (i = 0; i < f->num_ports; i++) {
		if (f->ports[i].num && f->ports[i].remote != DQR_NONE)
			sc->linked_node[f->ports[i].node] = 1;
		if (is_candidate(f, i, ca_links))
			sc->cand[n++] = i;
	}
	sc->num_cand = n;
	return 0;
}

static void scale_release(struct sim_scale *sc)
{
	free(sc->cand);
	free(sc->linked_node);
	memset(sc, 0, sizeof(*sc));
}

/*
 * 1 when the cables left no longer join every node that had one: some
 * pairs are then beyond any routing.  parent: num_nodes scratch.
 */
static int fabric_split(const struct dqr_fabric *f, const uint8_t *linked,
			uint32_t *parent)
{
	uint32_t i, a, b, root = DQR_NONE;

	for (i = 0; i < f->num_nodes; i++)
		parent[i] = i;
	for (i = 0; i < f->num_ports; i++) {
		const struct dqr_port *p = &f->ports[i];

		if (!p->num || p->remote == DQR_NONE)
			continue;
		a = dqr_uf_root(parent, p->node);
		b = dqr_uf_root(parent, f->ports[p->remote].node);
		if (a != b)
			parent[a] = b;
	}
	for (i = 0; i < f->num_nodes; i++) {
		if (!linked[i])
			continue;
		a = dqr_uf_root(parent, i);
		if (root == DQR_NONE)
			root = a;
		else if (a != root)
			return 1;
	}
	return 0;
}

/*
 * 1 when, after fabric_split() filled parent, the CAs (and routers) that
 * had a cable are no longer all joined: endpoints are cut off from each
 * other, which no routing can mend.
 */
static int ends_split(const struct dqr_fabric *f, const uint8_t *linked,
		      uint32_t *parent)
{
	uint32_t i, a, root = DQR_NONE;

	for (i = 0; i < f->num_nodes; i++) {
		if (!linked[i] || dqr_is_switch(f, i))
			continue;
		a = dqr_uf_root(parent, i);
		if (root == DQR_NONE)
			root = a;
		else if (a != root)
			return 1;
	}
	return 0;
}

/* ------------------------------------------------------------ verify */

/*
 * What a check found, as bits: deadlock (a cycle in the tables or in
 * the mix of old and new entries), lost connectivity, and failures of
 * DQR's own bookkeeping that are neither.
 */
enum {
	VF_CYCLE = 1,		/* dependency cycle in the new tables */
	VF_MIX_CYCLE = 2,	/* ... in old and new entries mixed */
	VF_LOOP = 4,		/* forwarding loop */
	VF_LOST = 8,		/* claimed success, a connected pair lost */
	VF_LIST = 16,		/* a dependency the list does not admit */
};
#define VF_DEADLOCK (VF_CYCLE | VF_MIX_CYCLE)
#define VF_DISCONNECTED (VF_LOOP | VF_LOST)

/* The state being verified, for the messages. */
struct where {
	uint32_t run;		/* or benchmark trial */
	unsigned step;		/* fault number, from 1 */
	/*
	 * DQR_RECON_OK when the state claims every connected pair routed:
	 * the update succeeded, or the re-routing layer serves the rest
	 */
	int code;
	int two_layers;		/* the state is a re-routing layer's */
};

static void verify_complain(const struct sim *s, const char *what,
			    const struct where *w)
{
	char at[64];

	if (w->step)
		snprintf(at, sizeof(at), "%s %u, fault %u",
			 s->o->bench ? "trial" : "run", w->run, w->step);
	else
		snprintf(at, sizeof(at), "start tables");
	fprintf(stderr, PROG ": VERIFICATION FAILED (a DQR bug): %s, "
		"%s%s%s, mode %s, turns %s, bias %s, seed %" PRIu64 ", %s\n",
		s->in.name, what, w->code == DQR_RECON_OK ? "" :
		" (partial tables of an update that reported failure)",
		w->two_layers ? " (on two layers)" : "",
		dqr_mode_names[s->o->ro.mode], dqr_turns_names[s->o->ro.turns],
		bias_name(s), s->o->seed, at);
}

/*
 * Tables: loops, cycles and, when DQR claims success, reachability.  The
 * VF_ bits found, or -1 when out of memory.  *ca_lost: CA-to-CA pairs a
 * cable joins but the tables do not, what the FT paper's figure 11 counts.
 * ml: t are its tables; they are meant to be cyclic on one VL, so their
 * deadlock freedom is that of its two VLs, which vl_layers.c judged by
 * walking every route again.
 */
static int verify_tables(const struct sim *s, const struct dqr_fabric *proj,
			 const struct dqr_lfts *t, const struct dqr_ml *ml,
			 const struct where *w, uint64_t *ca_lost)
{
	struct dqr_verify_report v;
	uint64_t lost = 0;
	char what[160];
	int bad = 0, k;

	if (dqr_verify(proj, t, &v, NULL))
		return -1;
	if (ml && !ml->st.vl.deadlock_free) {
		snprintf(what, sizeof(what), "two VLs not deadlock free "
			 "(acyclic %d/%d, %" PRIu64 " VL 1 -> VL 0 "
			 "dependencies)", ml->st.vl.acyclic[0],
			 ml->st.vl.acyclic[1], ml->st.vl.edges_down);
		verify_complain(s, what, w);
		bad |= VF_CYCLE;
	} else if (!ml && v.cycle_found) {
		snprintf(what, sizeof(what), "dependency cycle of %u channels",
			 v.cycle.len);
		verify_complain(s, what, w);
		bad |= VF_CYCLE;
	}
	if (v.loop_entries) {
		snprintf(what, sizeof(what), "%" PRIu64 " entries on a "
			 "forwarding loop", v.loop_entries);
		verify_complain(s, what, w);
		bad |= VF_LOOP;
	}
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		lost += v.unreachable[k] - v.disconnected[k];
	*ca_lost = v.unreachable[DQR_PAIR_CA_CA] -
		   v.disconnected[DQR_PAIR_CA_CA];
	/* a failed update leaves such pairs: it says so itself */
	if (w->code == DQR_RECON_OK && (lost || v.dead_port_entries)) {
		snprintf(what, sizeof(what), "%s but %" PRIu64 " connected "
			 "pairs are unreachable, %" PRIu64 " entries name a "
			 "dead port", ml ? "the re-routing layer is usable" :
			 "DQR reported success", lost, v.dead_port_entries);
		verify_complain(s, what, w);
		bad |= VF_LOST;
	}
	dqr_verify_report_free(&v);
	return bad;
}

/* The tables before the last update: cur with its change log undone. */
static struct dqr_lfts *tables_before(const struct dqr_recon *r)
{
	struct dqr_lfts *t = dqr_lfts_clone(r->cur);
	const struct dqr_change *c;
	uint32_t n;

	if (!t)
		return NULL;
	c = dqr_reroute_changes(r->rr, &n);
	/* backwards, so an entry written twice gets its first value */
	while (n--)
		dqr_lft_set(t, c[n].sw, c[n].lid, c[n].old);
	return t;
}

/*
 * The channel list must admit every dependency of the new tables, and of
 * any mix of old and new entries while the switches are updated: that is
 * DQR's deadlock freedom argument, checked directly.  prev: the tables
 * before the update, NULL to take them from r's change log.  0,
 * VF_MIX_CYCLE, VF_LIST, or -1 when out of memory.
 */
static int verify_list(const struct sim *s, const struct dqr_recon *r,
		       const struct dqr_fabric *proj,
		       const struct dqr_lfts *prev, const struct where *w)
{
	struct dqr_lfts *own = prev ? NULL : tables_before(r);
	const struct dqr_lfts *both[2] = { prev ? prev : own, r->cur };
	struct dqr_cdg *g = both[0] ? dqr_cdg_build(proj, r->cur) : NULL;
	struct dqr_cdg *gt = g ? dqr_cdg_build_multi(proj, both, 2) : NULL;
	struct dqr_channel_list cl;
	int bad = 0, ret;

	dqr_lfts_free(own);
	if (!g || !gt) {
		dqr_cdg_free(g);
		dqr_cdg_free(gt);
		return -1;
	}
	if (!dqr_cl_covers(r->cl, g)) {
		verify_complain(s, "a dependency of the new tables is not "
				"admitted by the channel list", w);
		bad = VF_LIST;
	} else if (!dqr_cl_covers(r->cl, gt)) {
		ret = dqr_channel_list_build(proj, gt, &cl, NULL);
		if (ret == 0)
			dqr_channel_list_free(&cl);
		verify_complain(s, ret == 1 ?
				"old and new entries mixed during the update "
				"form a dependency cycle" :
				"a dependency of old and new entries mixed is "
				"not admitted by the channel list (the mix is "
				"acyclic)", w);
		bad = ret == 1 ? VF_MIX_CYCLE : VF_LIST;
	}
	dqr_cdg_free(g);
	dqr_cdg_free(gt);
	return bad;
}

/*
 * 0 holds, else the VF_ bits of what failed (reported); -1 out of
 * memory.  step 0: the start tables.  *ca_lost as verify_tables says.
 * code: DQR_RECON_OK when the state claims every connected pair.  prev
 * as verify_list says.  ml: the state is served on two layers: its
 * tables are judged, and the channel list still with the one layer r->cur
 * (what later faults repair).
 */
static int verify_state(struct sim *s, const struct dqr_recon *r,
			const struct dqr_fabric *proj,
			const struct dqr_lfts *prev, const struct dqr_ml *ml,
			int code, uint32_t run, unsigned step,
			uint64_t *ca_lost)
{
	struct where w = { run, step, code, ml != NULL };
	int a, b;

	a = verify_tables(s, proj, ml ? ml->tables : r->cur, ml, &w,
			  ca_lost);
	if (a < 0)
		return -1;
	b = verify_list(s, r, proj, prev, &w);
	if (b < 0)
		return -1;
	s->states_verified++;
	if (!a && !b)
		return 0;
	s->verify_failures++;
	s->verify_failures_partial += code != DQR_RECON_OK;
	return a | b;
}

static int effective_policy(const struct sim *s, unsigned *every)
{
	*every = s->o->verify_every;
	if (s->o->verify != VERIFY_DEFAULT)
		return s->o->verify;
	if (s->sc.lids < VERIFY_ALL_BELOW)
		return VERIFY_ALL;
	*every = VERIFY_DEFAULT_EVERY;
	return VERIFY_SAMPLE;
}

/* Should the state after this fault of this run be verified? */
static int want_verify(const struct sim *s, uint32_t run, int last)
{
	unsigned every;

	switch (effective_policy(s, &every)) {
	case VERIFY_ALL:
		return 1;
	case VERIFY_LAST:
		return last;
	case VERIFY_SAMPLE:
		return run % every == 0;
	default:
		return 0;
	}
}

static void policy_name(const struct sim *s, char *buf, size_t len)
{
	static const char *const names[] = {
		[VERIFY_ALL] = "all", [VERIFY_LAST] = "last",
		[VERIFY_NONE] = "none",
	};
	unsigned every;
	int p = effective_policy(s, &every);

	if (p == VERIFY_SAMPLE)
		snprintf(buf, len, "sample:%u", every);
	else
		snprintf(buf, len, "%s", names[p]);
}

/* ------------------------------------------------------------ faults */

/*
 * Fails the cable at port in cur and reconfigures r, as the plugin does
 * after a sweep: project the cabling onto the reference, then update.
 * Fills *res (and *ms_project when not NULL) and returns the update's
 * code; *projp receives the projection (free it).  DQR_RECON_NOMEM when
 * out of memory.
 */
static int fail_one(struct dqr_recon *r, struct dqr_fabric *cur,
		    uint32_t port, const struct dqr_reroute_opts *ro,
		    struct dqr_fabric **projp, struct dqr_recon_result *res,
		    double *ms_project)
{
	struct dqr_topo_diff d;
	struct dqr_fabric *proj;
	double t0 = dqr_now_ms();
	int ret;

	dqr_fabric_unlink_port(cur, port);
	proj = dqr_fabric_project(r->ref, cur, &d);
	if (ms_project)
		*ms_project = dqr_now_ms() - t0;
	if (!proj)
		return DQR_RECON_NOMEM;
	if (!dqr_topo_diff_degraded_only(&d)) {
		/* removing a cable cannot add anything: a lib bug */
		fprintf(stderr, PROG ": projection sees new cables or "
			"nodes after a link removal\n");
		dqr_topo_diff_release(&d);
		dqr_fabric_free(proj);
		return DQR_RECON_NOMEM;
	}
	ret = dqr_recon_update(r, proj, &d, ro, res);
	dqr_topo_diff_release(&d);
	*projp = proj;
	return ret;
}

/* ok: the run passed fault k (on one layer or two) */
static void record_step(struct sim *s, unsigned k,
			const struct dqr_recon_result *res, int ok, int split)
{
	struct step_stats *st = &s->steps[k];
	const struct dqr_reroute_stats *rs = &res->rs;
	double ent = s->sc.entries ? (double)s->sc.entries : 1.0;
	double pairs = s->sc.pairs ? (double)s->sc.pairs : 1.0;
	double ch = rs->changed / ent;

	st->us[st->reached] = rs->us;
	st->us_total[st->reached] = res->us_total;
	st->reached++;
	st->ok += ok;
	st->failed += !ok;
	st->split += split;
	st->broken += rs->broken / ent;
	st->changed += ch;
	if (ch > st->max_changed)
		st->max_changed = ch;
	st->pairs += rs->broken_pairs / pairs;
	st->turns += rs->turns;
	st->reorders += rs->reorders;
	st->moved += rs->moved;
	st->refused += rs->refused;
	st->lids += rs->lids;
}

static int ml_cost_add(struct ml_times *m, const struct dqr_ml_stats *st)
{
	struct ml_cost *v;

	if (m->n == m->cap) {
		v = realloc(m->v, sizeof(*v) * (m->cap ? 2 * m->cap : 256));
		if (!v)
			return -1;
		m->v = v;
		m->cap = m->cap ? 2 * m->cap : 256;
	}
	m->v[m->n].fill_us = st->us_fill;
	m->v[m->n].build_ms = st->vl.build_ms;
	m->v[m->n].verify_ms = st->vl.verify_ms;
	m->n++;
	return 0;
}

enum {
	ML_ONE,		/* one layer holds every connected entry */
	ML_TWO,		/* served on two layers */
	ML_UNUSABLE,	/* the plugin would fall back: the run fails */
};

/*
 * --vl-layers, after an update that left connected entries without a
 * route, or while the run is on two layers (the fill must follow every
 * later update): the re-routing layer, built as the plugin builds it.
 * ML_TWO leaves it in ml; ML_ONE and ML_UNUSABLE release it.  -1 after
 * a message when out of memory.
 */
static int ml_step(struct sim *s, struct dqr_recon *r,
		   const struct dqr_fabric *proj, int code, unsigned k,
		   struct dqr_ml *ml)
{
	struct step_stats *st = &s->steps[k];
	char err[256];

	if (dqr_ml_build(r, proj, s->ft, &s->ro, ml, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return -1;
	}
	if (ml_cost_add(&s->mlt, &ml->st)) {
		dqr_ml_release(ml);
		return -1;
	}
	if (code == DQR_RECON_OK && !ml->st.filled && !ml->st.left) {
		dqr_ml_release(ml);
		return ML_ONE;
	}
	if (!dqr_ml_usable(ml)) {
		st->ml_unusable++;
		st->ml_left += ml->st.left > 0;
		st->ml_cyclic += !ml->st.vl.deadlock_free;
		dqr_ml_release(ml);
		return ML_UNUSABLE;
	}
	st->ml++;
	if (ml->st.vl.sls_used > st->ml_sls_max)
		st->ml_sls_max = ml->st.vl.sls_used;
	if (ml->st.vl.vls_used > st->ml_vls_max)
		st->ml_vls_max = ml->st.vl.vls_used;
	if (ml->st.filled > st->ml_filled_max)
		st->ml_filled_max = ml->st.filled;
	return ML_TWO;
}

/*
 * The state after fault k of a run: its figures, the re-routing layer
 * when --vl-layers calls for it, and the check.  *on_ml: the state
 * before is on two layers, and on return whether this one is.  1 when
 * the run goes on, 0 when it fails here, -1 when out of memory.
 */
static int judge_step(struct sim *s, struct dqr_recon *r,
		      const struct dqr_fabric *proj,
		      const struct dqr_recon_result *res, int code,
		      uint32_t run, unsigned k, int *on_ml, uint32_t *parent)
{
	struct step_stats *st = &s->steps[k];
	struct dqr_lfts *prev = NULL;
	struct dqr_ml ml;
	uint64_t ca_lost = 0;
	int m = ML_ONE, ok, conn, split, ends_cut, v = 0;

	memset(&ml, 0, sizeof(ml));
	split = fabric_split(proj, s->sc.linked_node, parent);
	ends_cut = ends_split(proj, s->sc.linked_node, parent);
	if (s->o->vl_layers && (code == DQR_RECON_FAILED || *on_ml)) {
		/*
		 * the fill reuses r's change log: keep what the update
		 * replaced for the check of the transition
		 */
		if (want_verify(s, run, 1)) {
			prev = tables_before(r);
			if (!prev)
				return -1;
		}
		m = ml_step(s, r, proj, code, k, &ml);
		if (m < 0) {
			dqr_lfts_free(prev);
			return -1;
		}
	}
	*on_ml = m == ML_TWO;
	ok = m == ML_TWO || (code == DQR_RECON_OK && m == ML_ONE);
	record_step(s, k, res, ok, split);
	st->ends_cut += ends_cut;
	if (want_verify(s, run, !ok || k + 1 == s->o->faults)) {
		v = verify_state(s, r, proj, prev, m == ML_TWO ? &ml : NULL,
				 ok ? DQR_RECON_OK : DQR_RECON_FAILED, run,
				 k + 1, &ca_lost);
		st->verified++;
		st->verify_failed += v > 0;
		st->cyclic += v > 0 && (v & VF_DEADLOCK);
		st->ca_lost += ca_lost > 0;
	}
	/* DQR's claim, and the check's when it ran */
	conn = ok && !(v > 0 && (v & VF_DISCONNECTED));
	st->connected += conn;
	st->conn_ends += conn && !ends_cut;
	dqr_lfts_free(prev);
	dqr_ml_release(&ml);
	return v < 0 ? -1 : ok;
}

/*
 * One run: up to K faults on a fresh copy of the start state, stopping at
 * the first failure.  0, or -1 when out of memory.
 */
static int run_one(struct sim *s, uint32_t run, uint32_t *cand,
		   uint32_t *parent)
{
	struct dqr_recon_result res;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_recon r;
	uint32_t ncand = s->sc.num_cand, pick, port;
	uint64_t rng = rng_stream(s->o->seed, 1, run);
	unsigned k;
	int code, on_ml = 0, ret = 0;

	if (restore(&r, &s->p))
		return -1;
	cur = dqr_fabric_clone(s->p.ref);
	if (!cur) {
		dqr_recon_release(&r);
		return -1;
	}
	memcpy(cand, s->sc.cand, sizeof(uint32_t) * ncand);
	for (k = 0; k < s->o->faults && ret >= 0; k++) {
		pick = rng_below(&rng, ncand);
		port = cand[pick];
		cand[pick] = cand[--ncand];
		code = fail_one(&r, cur, port, &s->ro, &proj, &res, NULL);
		if (code == DQR_RECON_NOMEM)
			ret = -1;
		else
			ret = judge_step(s, &r, proj, &res, code, run, k,
					 &on_ml, parent);
		dqr_fabric_free(proj);
		proj = NULL;
		if (!ret)
			break;
	}
	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	return ret < 0 ? -1 : 0;
}

static int steps_alloc(struct sim *s, unsigned n, uint32_t per_step)
{
	unsigned k;

	s->steps = calloc(n, sizeof(*s->steps));
	if (!s->steps)
		return -1;
	for (k = 0; k < n; k++) {
		s->steps[k].us = malloc(sizeof(double) * per_step);
		s->steps[k].us_total = malloc(sizeof(double) * per_step);
		if (!s->steps[k].us || !s->steps[k].us_total)
			return -1;
	}
	return 0;
}

static void steps_free(struct sim *s, unsigned n)
{
	unsigned k;

	if (!s->steps)
		return;
	for (k = 0; k < n; k++) {
		free(s->steps[k].us);
		free(s->steps[k].us_total);
	}
	free(s->steps);
	s->steps = NULL;
}

/*
 * k = 0: every run starts from the same copy of start's state, so it is
 * checked once, under any policy that checks something.  start() has
 * already refused tables DQR could not complete.  0, or -1 when out of
 * memory.
 */
static int start_step(struct sim *s)
{
	struct step_stats *st = &s->start_step;
	struct dqr_recon r;
	uint64_t ca_lost = 0;
	unsigned every;
	int v = 0;

	st->reached = st->ok = s->o->runs;
	if (effective_policy(s, &every) != VERIFY_NONE) {
		if (restore(&r, &s->p))
			return -1;
		v = verify_state(s, &r, r.ref, NULL, NULL, DQR_RECON_OK, 0, 0,
				 &ca_lost);
		dqr_recon_release(&r);
		if (v < 0)
			return -1;
		st->verified = 1;
		st->verify_failed = v > 0;
		st->cyclic = v > 0 && (v & VF_DEADLOCK);
		st->ca_lost = ca_lost > 0;
	}
	st->connected = v > 0 && (v & VF_DISCONNECTED) ? 0 : s->o->runs;
	st->conn_ends = st->connected;
	return 0;
}

static int simulate(struct sim *s)
{
	uint32_t *cand = malloc(sizeof(uint32_t) * (s->sc.num_cand + 1));
	uint32_t *parent = malloc(sizeof(uint32_t) *
				  (s->p.ref->num_nodes + 1));
	double t0 = dqr_now_ms();
	uint32_t run;
	int ret = 0;

	if (!cand || !parent ||
	    steps_alloc(s, s->o->faults, s->o->runs) || start_step(s))
		ret = -1;
	for (run = 0; run < s->o->runs && !ret; run++)
		ret = run_one(s, run, cand, parent);
	s->ms_wall = dqr_now_ms() - t0;
	free(cand);
	free(parent);
	return ret;
}

/* ------------------------------------------------------------ figures */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

struct dist {
	double median, p90, max;
};

/* Sorts v in place. */
static struct dist distribution(double *v, uint32_t n)
{
	struct dist d = { 0, 0, 0 };

	if (!n)
		return d;
	qsort(v, n, sizeof(double), cmp_double);
	d.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	d.p90 = v[(uint32_t)((n - 1) * 0.9)];
	d.max = v[n - 1];
	return d;
}

/* The same over every step: one array of all values. */
static struct dist overall(const struct sim *s, int total)
{
	uint32_t n = 0, k, i;
	double *all;
	struct dist d = { 0, 0, 0 };

	for (k = 0; k < s->o->faults; k++)
		n += s->steps[k].reached;
	all = malloc(sizeof(double) * (n + 1));
	if (!all)
		return d;
	for (k = n = 0; k < s->o->faults; k++)
		for (i = 0; i < s->steps[k].reached; i++)
			all[n++] = total ? s->steps[k].us_total[i] :
				   s->steps[k].us[i];
	d = distribution(all, n);
	free(all);
	return d;
}

/* The cost of the re-routing layers: 0 fill, 1 VL build, 2 VL verify. */
static struct dist ml_dist(const struct sim *s, int which)
{
	const struct ml_times *m = &s->mlt;
	double *all = malloc(sizeof(double) * (m->n + 1));
	struct dist d = { 0, 0, 0 };
	uint32_t i;

	if (!all)
		return d;
	for (i = 0; i < m->n; i++)
		all[i] = which == 0 ? m->v[i].fill_us : which == 1 ?
			 m->v[i].build_ms : m->v[i].verify_ms;
	d = distribution(all, m->n);
	free(all);
	return d;
}

/* Per-step figures, ready to print. */
struct step_view {
	double p_ok;			/* over all runs */
	double broken, changed, pairs;	/* mean fractions, over reached */
	double turns, reorders, moved, refused, lids;
	struct dist us, us_total;
};

static struct step_view step_view(const struct sim *s, unsigned k)
{
	struct step_stats *st = &s->steps[k];
	double n = st->reached ? st->reached : 1;
	struct step_view v;
	uint32_t ok = 0;

	/* runs successful through k: those that reached k and passed it */
	ok = st->ok;
	v.p_ok = (double)ok / s->o->runs;
	v.broken = st->broken / n;
	v.changed = st->changed / n;
	v.pairs = st->pairs / n;
	v.turns = st->turns / n;
	v.reorders = st->reorders / n;
	v.moved = st->moved / n;
	v.refused = st->refused / n;
	v.lids = st->lids / n;
	v.us = distribution(st->us, st->reached);
	v.us_total = distribution(st->us_total, st->reached);
	return v;
}

/*
 * Connectivity and deadlock freedom after k faults, k = 0 (the start
 * tables) to K: the FT paper's figure 11.  A run that failed at j < k counts
 * as disconnected at k, as in the paper; it did not go on.  Deadlock
 * freedom is over the states checked at k: all that reached k under
 * --verify all.
 */
struct conn_view {
	uint32_t connected, verified, verify_failed, cyclic, ca_lost;
	uint32_t ends_cut;
	double p_connected;
	double p_ends;			/* connected, no CA cut off */
	double p_df;			/* NaN when none was checked */
};

static struct conn_view conn_view(const struct sim *s, unsigned k)
{
	const struct step_stats *st = k ? &s->steps[k - 1] : &s->start_step;
	struct conn_view c;

	c.connected = st->connected;
	c.verified = st->verified;
	c.verify_failed = st->verify_failed;
	c.cyclic = st->cyclic;
	c.ca_lost = st->ca_lost;
	c.ends_cut = st->ends_cut;
	c.p_ends = (double)st->conn_ends / s->o->runs;
	c.p_connected = (double)st->connected / s->o->runs;
	c.p_df = st->verified ? (double)(st->verified - st->cyclic) /
				st->verified : NAN;
	return c;
}

static const char *fault_kind(const struct sim_opts *o)
{
	return o->ca_links ? "switch and CA links" : "switch-to-switch links";
}

static void print_header(const struct sim *s, FILE *out)
{
	const struct dqr_recon_result *st = &s->p.start;
	char pol[32];

	policy_name(s, pol, sizeof(pol));
	fprintf(out, "dqr-sim: %s (%s), routing %s\n", s->in.name,
		s->in.describe, s->in.routing);
	fprintf(out, "  %u switches, %u end ports, %u LIDs, %" PRIu64
		" pairs; %u %s may fail\n", s->sc.switches, s->sc.end_ports,
		s->sc.lids, s->sc.pairs, s->sc.num_cand, fault_kind(s->o));
	fprintf(out, "  mode %s, turns %s, seed %" PRIu64 ", verify %s, "
		"reroute preference %s\n", dqr_mode_names[s->o->ro.mode],
		dqr_turns_names[s->o->ro.turns], s->o->seed, pol,
		bias_name(s));
	fprintf(out, "  start: channel list built once in %.1f ms; %" PRIu64
		" unrouted entries filled by DQR in %.1f ms; every run "
		"starts from a copy (%.1f ms)\n", st->us_list / 1e3,
		st->rs.changed, (st->us_total - st->us_list) / 1e3,
		s->p.ms_copy);
	if (s->o->vl_layers)
		fprintf(out, "  re-routing layer on a second VL where one "
			"layer fails (--vl-layers)\n");
}

static void print_verify_summary(const struct sim *s, FILE *out)
{
	fprintf(out, "verification: %" PRIu64 " states checked, %u failed",
		s->states_verified, s->verify_failures);
	if (s->verify_failures_partial)
		fprintf(out, ", %u of them partial tables after a reported "
			"failure", s->verify_failures_partial);
	fprintf(out, "%s\n", s->verify_failures ?
		" (A BUG: see the messages on standard error)" : "");
}

static void print_conn(const struct sim *s)
{
	struct conn_view c;
	unsigned k;

	printf("\nP(conn): every pair a cable path joins is routed (a run "
	       "stays failed after its\nfirst failure; k = 0: the start "
	       "tables, checked once).  P(ends): that, and no\nCA is cut off "
	       "from another by the faults (cut: runs where one is).\n"
	       "P(df): deadlock free, of the states checked at k.  ca-lost: "
	       "checked states\nthat leave a CA-to-CA pair unrouted.\n");
	printf("fault  P(conn)   conn  P(ends)    cut  checked  vfail  "
	       "cyclic   P(df)  ca-lost\n");
	for (k = 0; k <= s->o->faults; k++) {
		c = conn_view(s, k);
		printf("%5u  %7.4f  %5u  %7.4f  %5u  %7u  %5u  %6u  ", k,
		       c.p_connected, c.connected, c.p_ends, c.ends_cut,
		       c.verified, c.verify_failed, c.cyclic);
		if (c.verified)
			printf("%6.4f  %7u\n", c.p_df, c.ca_lost);
		else
			printf("     -        -\n");
	}
}

static void print_ml(const struct sim *s)
{
	const struct step_stats *st;
	unsigned k;

	printf("\nTwo layers (--vl-layers): states served on the FT paper's "
	       "re-routing layer (the run\ngoes on).  unusable: layers the "
	       "plugin would refuse (the run fails): left,\nentries still "
	       "without a route; cyclic, the two VLs not deadlock free.  SLs, "
	       "VLs,\nfilled: the most a state used, and entries its fill "
	       "routed.\n");
	printf("fault  two-layer  unusable   left  cyclic  SLs  VLs  filled\n");
	for (k = 0; k < s->o->faults; k++) {
		st = &s->steps[k];
		printf("%5u  %9u  %8u  %5u  %6u  %3u  %3u  %6" PRIu64 "\n",
		       k + 1, st->ml, st->ml_unusable, st->ml_left,
		       st->ml_cyclic, st->ml_sls_max, st->ml_vls_max,
		       st->ml_filled_max);
	}
}

static void print_text(const struct sim *s)
{
	struct dist o_us = overall(s, 0), o_tot = overall(s, 1);
	struct step_view v;
	unsigned k;

	print_header(s, stdout);
	printf("  %u runs of %u faults in %.1f s\n\n", s->o->runs,
	       s->o->faults, s->ms_wall / 1e3);
	printf("fault  P(ok)   ok/reached  split  broken%%  changed%%  "
	       "pairs%%   turns  reord   moved  refused  reroute us"
	       "         update us\n");
	printf("%102s%s\n", "", "median    worst    median    worst");
	for (k = 0; k < s->o->faults; k++) {
		v = step_view(s, k);
		printf("%5u  %6.4f %5u/%-5u %6u  %7.4f  %7.4f  %7.4f %6.1f "
		       "%6.1f %7.1f %8.1f  %8.0f %8.0f  %8.0f %8.0f\n", k + 1,
		       v.p_ok, s->steps[k].ok, s->steps[k].reached,
		       s->steps[k].split, 100 * v.broken, 100 * v.changed,
		       100 * v.pairs, v.turns, v.reorders, v.moved,
		       v.refused, v.us.median, v.us.max, v.us_total.median,
		       v.us_total.max);
	}
	printf("\noverall: reroute compute median %.0f us, p90 %.0f us, "
	       "worst %.0f us; whole update median %.0f us, worst %.0f us\n",
	       o_us.median, o_us.p90, o_us.max, o_tot.median, o_tot.max);
	if (s->o->vl_layers) {
		struct dist f = ml_dist(s, 0), b = ml_dist(s, 1);
		struct dist c = ml_dist(s, 2);

		printf("re-routing layer: %u built; fill median %.0f us, worst "
		       "%.0f us; VL build median %.1f ms, worst %.1f ms; VL "
		       "verify median %.1f ms, worst %.1f ms\n", s->mlt.n,
		       f.median, f.max, b.median, b.max, c.median, c.max);
	}
	print_conn(s);
	if (s->o->vl_layers)
		print_ml(s);
	print_verify_summary(s, stdout);
}

static void print_json_dist(const char *key, struct dist d)
{
	printf("\"%s\":{\"median\":%.1f,\"p90\":%.1f,\"max\":%.1f}", key,
	       d.median, d.p90, d.max);
}

static void print_json_step(const struct sim *s, unsigned k)
{
	const struct step_stats *st = &s->steps[k];
	struct step_view v = step_view(s, k);

	printf("{\"fault\":%u,\"p_ok\":%.6f,\"reached\":%u,\"ok\":%u,"
	       "\"failed\":%u,\"split\":%u,\"broken_frac\":%.6g,"
	       "\"changed_frac\":%.6g,\"changed_frac_max\":%.6g,"
	       "\"pairs_frac\":%.6g,\"turns\":%.3f,\"reorders\":%.3f,"
	       "\"moved\":%.3f,\"refused\":%.3f,\"lids\":%.3f,"
	       "\"verified\":%u,\"verify_failed\":%u,", k + 1, v.p_ok,
	       st->reached, st->ok, st->failed, st->split, v.broken,
	       v.changed, st->max_changed, v.pairs, v.turns, v.reorders,
	       v.moved, v.refused, v.lids, st->verified, st->verify_failed);
	if (s->o->vl_layers)
		printf("\"two_layer\":%u,\"ml_unusable\":%u,\"ml_left\":%u,"
		       "\"ml_cyclic\":%u,\"ml_sls_max\":%u,\"ml_vls_max\":%u,"
		       "\"ml_filled_max\":%" PRIu64 ",", st->ml, st->ml_unusable,
		       st->ml_left, st->ml_cyclic, st->ml_sls_max,
		       st->ml_vls_max, st->ml_filled_max);
	print_json_dist("reroute_us", v.us);
	putchar(',');
	print_json_dist("update_us", v.us_total);
	putchar('}');
}

static void print_json_head(const struct sim *s)
{
	char pol[32];

	policy_name(s, pol, sizeof(pol));
	printf("{\"fabric\":");
	dqr_json_string(stdout, s->in.name);
	printf(",\"describe\":");
	dqr_json_string(stdout, s->in.describe);
	printf(",\"routing\":\"%s\",\"switches\":%u,\"end_ports\":%u,"
	       "\"lids\":%u,\"pairs\":%" PRIu64 ",\"fault_links\":%u,"
	       "\"ca_links\":%s,\"mode\":\"%s\",\"turns\":\"%s\","
	       "\"seed\":%" PRIu64 ",\"verify\":\"%s\",\"bias\":\"%s\","
	       "\"vl_layers\":%s,",
	       s->in.routing, s->sc.switches, s->sc.end_ports, s->sc.lids,
	       s->sc.pairs, s->sc.num_cand, s->o->ca_links ? "true" : "false",
	       dqr_mode_names[s->o->ro.mode], dqr_turns_names[s->o->ro.turns],
	       s->o->seed, pol, bias_name(s),
	       s->o->vl_layers ? "true" : "false");
	printf("\"start\":{\"list_us\":%.1f,\"total_us\":%.1f,"
	       "\"filled\":%" PRIu64 ",\"copy_ms\":%.3f},",
	       s->p.start.us_list, s->p.start.us_total,
	       s->p.start.rs.changed, s->p.ms_copy);
}

static void print_json(const struct sim *s)
{
	unsigned k;

	print_json_head(s);
	printf("\"runs\":%u,\"faults\":%u,\"wall_s\":%.3f,\"steps\":[",
	       s->o->runs, s->o->faults, s->ms_wall / 1e3);
	for (k = 0; k < s->o->faults; k++) {
		if (k)
			putchar(',');
		print_json_step(s, k);
	}
	printf("],\"connectivity\":[");
	for (k = 0; k <= s->o->faults; k++) {
		struct conn_view c = conn_view(s, k);

		printf("%s{\"fault\":%u,\"p_connected\":%.6f,\"connected\":%u,"
		       "\"p_ends\":%.6f,\"ends_cut\":%u,\"verified\":%u,"
		       "\"verify_failed\":%u,\"cyclic\":%u,\"ca_lost\":%u,"
		       "\"p_deadlock_free\":", k ? "," : "", k, c.p_connected,
		       c.connected, c.p_ends, c.ends_cut, c.verified,
		       c.verify_failed, c.cyclic, c.ca_lost);
		if (c.verified)
			printf("%.6f}", c.p_df);
		else
			printf("null}");
	}
	printf("],\"overall\":{");
	print_json_dist("reroute_us", overall(s, 0));
	putchar(',');
	print_json_dist("update_us", overall(s, 1));
	if (s->o->vl_layers) {
		printf(",\"ml\":{\"built\":%u,", s->mlt.n);
		print_json_dist("fill_us", ml_dist(s, 0));
		putchar(',');
		print_json_dist("vl_build_ms", ml_dist(s, 1));
		putchar(',');
		print_json_dist("vl_verify_ms", ml_dist(s, 2));
		putchar('}');
	}
	printf("},\"states_verified\":%" PRIu64 ",\"verify_failures\":%u,"
	       "\"verify_failures_partial\":%u}\n", s->states_verified,
	       s->verify_failures, s->verify_failures_partial);
}

/* Writes and closes fp, opened early so that a bad path fails fast. */
static void write_conn(FILE *fp, const struct sim *s, unsigned k)
{
	struct conn_view c = conn_view(s, k);
	const struct step_stats *st;

	fprintf(fp, " %.6f %u %u %u ", c.p_connected, c.verified,
		c.verify_failed, c.cyclic);
	if (c.verified)
		fprintf(fp, "%.6f %u", c.p_df, c.ca_lost);
	else
		fprintf(fp, "NaN NaN");
	fprintf(fp, " %.6f %u", c.p_ends, c.ends_cut);
	/* the re-routing layer's columns, 0 at k = 0 and without it */
	if (!k) {
		fprintf(fp, " 0 0 0 0 0 0 0\n");
		return;
	}
	st = &s->steps[k - 1];
	fprintf(fp, " %u %u %u %u %u %u %" PRIu64 "\n", st->ml,
		st->ml_unusable, st->ml_left, st->ml_cyclic, st->ml_sls_max,
		st->ml_vls_max, st->ml_filled_max);
}

static int write_data(const struct sim *s, FILE *fp, const char *path)
{
	struct step_view v;
	unsigned k;

	fprintf(fp, "# dqr-sim %s routing=%s mode=%s turns=%s runs=%u "
		"faults=%u seed=%" PRIu64 " links=%s bias=%s vl_layers=%s\n",
		s->in.name, s->in.routing, dqr_mode_names[s->o->ro.mode],
		dqr_turns_names[s->o->ro.turns], s->o->runs, s->o->faults,
		s->o->seed, s->o->ca_links ? "all" : "switch", bias_name(s),
		s->o->vl_layers ? "yes" : "no");
	fprintf(fp, "# fault p_ok reached ok failed split broken_frac "
		"changed_frac pairs_frac turns reorders moved refused "
		"reroute_us_med reroute_us_max update_us_med "
		"update_us_max p_connected verified verify_failed cyclic "
		"p_deadlock_free ca_lost p_ends ends_cut two_layer "
		"ml_unusable ml_left ml_cyclic ml_sls_max ml_vls_max "
		"ml_filled_max\n");
	/* fault 0, the start tables: nothing broken, no update timed */
	fprintf(fp, "0 1.000000 %u %u 0 0 0 0 0 0.000 0.000 0.000 0.000 "
		"NaN NaN NaN NaN", s->o->runs, s->o->runs);
	write_conn(fp, s, 0);
	for (k = 0; k < s->o->faults; k++) {
		v = step_view(s, k);
		fprintf(fp, "%u %.6f %u %u %u %u %.6g %.6g %.6g %.3f %.3f "
			"%.3f %.3f %.1f %.1f %.1f %.1f", k + 1, v.p_ok,
			s->steps[k].reached, s->steps[k].ok,
			s->steps[k].failed, s->steps[k].split, v.broken,
			v.changed, v.pairs, v.turns, v.reorders, v.moved,
			v.refused, v.us.median, v.us.max, v.us_total.median,
			v.us_total.max);
		write_conn(fp, s, k + 1);
	}
	if (fclose(fp)) {
		fprintf(stderr, PROG ": cannot write %s\n", path);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------ bench */

struct bench_figs {
	double *us, *us_total, *us_project, *changed, *lids;
	uint32_t n, ok, split;
};

static void bench_free(struct bench_figs *b)
{
	free(b->us);
	free(b->us_total);
	free(b->us_project);
	free(b->changed);
	free(b->lids);
}

static int bench_alloc(struct bench_figs *b, uint32_t n)
{
	memset(b, 0, sizeof(*b));
	b->us = malloc(sizeof(double) * n);
	b->us_total = malloc(sizeof(double) * n);
	b->us_project = malloc(sizeof(double) * n);
	b->changed = malloc(sizeof(double) * n);
	b->lids = malloc(sizeof(double) * n);
	return b->us && b->us_total && b->us_project && b->changed &&
	       b->lids ? 0 : -1;
}

/* One random fault from a fresh copy of the start state. */
static int bench_trial(struct sim *s, uint32_t trial, struct bench_figs *b,
		       uint32_t *parent)
{
	struct dqr_recon_result res;
	struct dqr_fabric *cur, *proj = NULL;
	struct dqr_recon r;
	uint64_t rng = rng_stream(s->o->seed, 2, trial);
	uint32_t port = s->sc.cand[rng_below(&rng, s->sc.num_cand)];
	uint64_t ca_lost;
	double ms_proj;
	int code, v = 0;

	if (restore(&r, &s->p))
		return -1;
	cur = dqr_fabric_clone(s->p.ref);
	if (!cur) {
		dqr_recon_release(&r);
		return -1;
	}
	code = fail_one(&r, cur, port, &s->ro, &proj, &res, &ms_proj);
	if (code != DQR_RECON_NOMEM) {
		b->us[b->n] = res.rs.us;
		b->us_total[b->n] = res.us_total;
		b->us_project[b->n] = ms_proj * 1e3;
		b->changed[b->n] = (double)res.rs.changed;
		b->lids[b->n] = (double)res.rs.lids;
		b->n++;
		b->ok += code == DQR_RECON_OK;
		b->split += fabric_split(proj, s->sc.linked_node, parent);
		if (want_verify(s, trial, 1))
			v = verify_state(s, &r, proj, NULL, NULL, code, trial,
					 1, &ca_lost);
	}
	dqr_fabric_free(proj);
	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	return code == DQR_RECON_NOMEM || v < 0 ? -1 : 0;
}

static void bench_print(const struct sim *s, struct bench_figs *b)
{
	struct dist us = distribution(b->us, b->n);
	struct dist tot = distribution(b->us_total, b->n);
	struct dist proj = distribution(b->us_project, b->n);
	struct dist ch = distribution(b->changed, b->n);
	struct dist lids = distribution(b->lids, b->n);

	if (s->o->json) {
		print_json_head(s);
		printf("\"bench\":{\"trials\":%u,\"ok\":%u,\"split\":%u,", b->n,
		       b->ok, b->split);
		print_json_dist("reroute_us", us);
		putchar(',');
		print_json_dist("update_us", tot);
		putchar(',');
		print_json_dist("project_us", proj);
		putchar(',');
		print_json_dist("changed", ch);
		putchar(',');
		print_json_dist("lids", lids);
		printf("},\"states_verified\":%" PRIu64 ",\"verify_failures\":"
		       "%u,\"verify_failures_partial\":%u}\n",
		       s->states_verified, s->verify_failures,
		       s->verify_failures_partial);
		return;
	}
	print_header(s, stdout);
	printf("\nbenchmark: %u single random faults of %s, each from the "
	       "start state\n", b->n, fault_kind(s->o));
	printf("  channel list build (once, before any fault)  %10.1f ms\n",
	       s->p.start.us_list / 1e3);
	printf("  reroute compute (dqr_reroute_run)   median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", us.median, us.p90, us.max);
	printf("  whole update (dqr_recon_update)     median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", tot.median, tot.p90,
	       tot.max);
	printf("  projection (dqr_fabric_project)     median %8.0f us  "
	       "p90 %8.0f us  worst %8.0f us\n", proj.median, proj.p90,
	       proj.max);
	printf("  entries changed                     median %8.0f     "
	       "worst %8.0f\n", ch.median, ch.max);
	printf("  DLIDs examined                      median %8.0f     "
	       "worst %8.0f\n", lids.median, lids.max);
	printf("  connected and deadlock free: %u/%u; fabric split: %u\n",
	       b->ok, b->n, b->split);
	printf("  ");
	print_verify_summary(s, stdout);
}

static int bench(struct sim *s)
{
	struct bench_figs b;
	uint32_t *parent = malloc(sizeof(uint32_t) *
				  (s->p.ref->num_nodes + 1));
	uint32_t t;
	int ret = 0;

	if (!parent || bench_alloc(&b, s->o->trials)) {
		free(parent);
		bench_free(&b);
		return -1;
	}
	for (t = 0; t < s->o->trials && !ret; t++)
		ret = bench_trial(s, t, &b, parent);
	if (!ret)
		bench_print(s, &b);
	bench_free(&b);
	free(parent);
	return ret;
}

/* ------------------------------------------------------------ main */

static int load(struct sim *s)
{
	int ret;

	s->ro = s->o->ro;
	if (s->o->spec)
		ret = load_generated(s->o, &s->in);
	else
		ret = load_files(s->o, &s->in);
	if (!ret)
		ret = setup_ftree(s);
	if (ret || !s->o->unroute_sw)
		return ret;
	unroute_switch_lids(s->in.f, s->in.t);
	/* the name says which tables the figures start from */
	strncat(s->in.routing, "+dqr-switch-lids",
		sizeof(s->in.routing) - strlen(s->in.routing) - 1);
	return 0;
}

/* Runs what the options ask for; the exit status. */
static int execute(struct sim *s)
{
	FILE *data = NULL;
	int ret;

	if (load(s))
		return 2;
	if (scale_build(&s->sc, s->in.f, s->o->ca_links))
		goto nomem;
	ret = start(s);
	if (ret > 0)
		return ret;
	if (ret < 0)
		goto nomem;
	if (!s->sc.num_cand || (!s->o->bench &&
				s->o->faults > s->sc.num_cand)) {
		fprintf(stderr, PROG ": %s has %u %s, fewer than the %u "
			"faults asked for\n", s->in.name, s->sc.num_cand,
			fault_kind(s->o), s->o->bench ? 1 : s->o->faults);
		return 2;
	}
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
	dqr_ftree_free(s.ft);
	free(s.mlt.v);
	return ret;
}
