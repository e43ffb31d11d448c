/*
 * dqr_sim.h - what the files of dqr-sim share: the options, the start
 * state, the sums per fault step, and the functions one file calls in
 * another.  Not a lib header: only tools/dqr_sim/ includes it.
 */
#ifndef DQR_SIM_H
#define DQR_SIM_H

#include <stdint.h>
#include <stdio.h>

#include "deps/channel_list.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "options/options.h"
#include "reaction/reaction.h"
#include "recon/recon.h"
#include "vlayers/vlayers.h"
#include "reroute/reroute.h"
#include "ftree/rerouting_layer.h"
#include "routes/route_load.h"
#include "routing/ref_routing.h"
#include "routing/twophase.h"

#define PROG "dqr-sim"

/* --permutation KIND (perm.c) */
enum perm_kind {
	PERM_NONE = 0,
	PERM_BIT_REVERSAL,
	PERM_TRANSPOSE,
	PERM_RANDOM,
};

extern const char *const perm_kind_names[];

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
	/* faults: the fault steps of a run, --switch-faults K (the first
	 * K) and the --faults link faults after them */
	unsigned runs, faults, trials;
	int runs_set, faults_set;	/* given: --soak keeps them */
	unsigned switch_faults;		/* --switch-faults K */
	uint64_t seed;
	int ca_links, json, bench;
	int soak;			/* --soak: faults and recoveries */
	int unroute_sw;			/* DQR routes the switch LIDs */
	int no_uturn_bias;		/* uturn without FT's choice */
	int no_mesh_plugin;		/* meshes and tori: agnostic DQR */
	int vlayers;		/* e-cube tori on virtual layers */
	int lash;			/* --lash: LASH's layers instead */
	unsigned layer_moves;		/* --layer-moves: below this, or 0 */
	int vl_layers;			/* re-routing layer on a second VL */
	int load;			/* --load all-to-all */
	int permutation;		/* --permutation: enum perm_kind */
	int active_pairs;		/* --active-pairs (active.c) */
	/* --intermediates N: the IN paper's model instead of DQR */
	unsigned intermediates;
	int intermediates_set;
	unsigned exhaustive;		/* --exhaustive K, or 0: sampled */
	int segments;			/* enum dqr_imed_segment */
	int qos;			/* --qos: OpenSM programs SL2VL */
	int stretch;			/* --stretch N, else -1 */
	const char *data_path;
	struct dqr_reroute_opts ro;
	int verify;			/* enum verify_policy */
	unsigned verify_every;		/* VERIFY_SAMPLE */
	int mode_set, turns_set, trials_set;
	/* --what-if NAME or "all", and the plugin's options (--options) */
	const char *what_if;
	const char *options_str;
	struct dqr_options plugin;
};

/* The fabric and tables the experiment starts from. */
struct sim_input {
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	char name[256];		/* canonical spec or topology path */
	char routing[64];	/* reference routing, or "file" */
	/* the routing of the start tables; DQR_REF_AUTO: read from files */
	enum dqr_ref_kind kind;
	char describe[256];
	/* --lash: the SL of every pair of switches, and how many layers */
	uint8_t *lash_sl;
	unsigned lash_layers;
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
	double disconnected, changed, pairs;	/* sums of fractions */
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

/*
 * The topology the plugin would hold for the input (reaction/topology.h),
 * chosen once from the options and the cabling; sim_reactor() builds it
 * for every run.
 */
enum sim_topo_kind {
	SIM_TOPO_ANY = 0,
	SIM_TOPO_FAT_TREE,	/* --routing uturn, base=uturn, --vl-layers */
	SIM_TOPO_MESH,		/* a mesh or torus on one VL */
	SIM_TOPO_HYPERCUBE,
	SIM_TOPO_TWOPHASE,	/* a hypercube by --routing twophase */
	SIM_TOPO_VLAYERS,	/* --torus-layers, --lash */
};

struct sim_topo {
	enum sim_topo_kind kind;
	int prefer_uturn;	/* the FT paper's preference */
	int mesh_plugin;	/* the DQR paper's mesh plug-in */
	int wraps_last;		/* a torus's wrap cables last */
	int updn;		/* routed up*\/down*, not dimension order */
};

/* --load: the routes per channel of the states after k faults, summed */
struct load_sum {
	uint32_t states;
	double max, mean;		/* sums over the states */
	uint64_t worst;			/* the largest max */
	uint64_t unrouted;		/* pairs no route delivered */
};

/* --active-pairs: the states after k faults, summed (active.c) */
struct active_sum {
	uint32_t states, holds;
	double whole, active;		/* fractions of the switches */
	uint64_t unrouted;		/* pairs of whole groups */
};

struct active_run {
	struct dqr_twophase *hc;	/* the criteria, on the cube's labels */
	struct active_sum *sums;	/* [k] after k faults, k >= 0 */
	uint8_t *level;			/* per switch: scratch */
};

/* --permutation: the figures of the states after k faults, summed */
struct perm_sum {
	uint32_t states;
	double max, longest, mean_hops;	/* sums over the states */
	uint64_t worst;			/* the largest max */
	uint32_t longest_max;		/* the longest route of them all */
	uint64_t unrouted, apart;	/* pairs, summed */
};

/* --permutation: the end ports of the start fabric and where each sends */
struct perm_run {
	uint32_t n;			/* E, the end ports */
	uint32_t *ends;			/* their port indices, by base LID */
	uint32_t *pi;			/* end port i sends to pi[i] */
	uint64_t pairs;			/* sources that send: pi[i] != i */
	struct dqr_perm_load start;	/* the start tables' */
	struct perm_sum *sums;		/* [k] after k faults, k >= 1 */
};

struct sim {
	const struct sim_opts *o;
	/* the reactor's options: the plugin's, and dqr-sim's own flags */
	struct dqr_options ropts;
	struct sim_topo topo;
	/* --soak on layers: every pair of switches' SL at the start, which
	 * the hosts keep: no restart may change one */
	uint8_t *soak_sl;
	struct sim_input in;
	struct pristine p;
	struct sim_scale sc;
	struct step_stats *steps;
	struct step_stats start_step;	/* k = 0: the start tables */
	struct ml_times mlt;
	struct load_sum *loads;		/* --load: [k] after k faults */
	struct perm_run perm;		/* --permutation */
	struct active_run act;		/* --active-pairs */
	uint32_t verify_failures;
	uint32_t verify_failures_partial;	/* after a reported failure */
	uint64_t states_verified;
	double ms_wall;
};

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

/* ------------------------------------------------------------ figures */

struct dist {
	double median, p90, max;
};

/* Per-step figures, ready to print. */
struct step_view {
	double p_ok;			/* over all runs */
	/* mean fractions, over the runs that reached the fault */
	double disconnected, changed, pairs;
	double turns, reorders, moved, refused, lids;
	struct dist us, us_total;
};

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

/* ------------------------------------------------------------ functions */

/* input.c */
void input_release(struct sim_input *in);
int load_input(struct sim *s);

/*
 * reactor.c: sim_setup() chooses the topology and the reactor's options
 * (0, or -1 after a message); sim_reactor() gives a run its reactor, as
 * the plugin would hold it for the input, with no state yet (0, or -1
 * when out of memory); sim_reactor_start() that, with DQR started on the
 * input tables (0; 1 when it cannot start on the layers; -1 when out of
 * memory; release x in every case); bias_name() the reroute preference,
 * for the headers.
 */
int sim_setup(struct sim *s);
int sim_reactor(const struct sim *s, struct dqr_reactor *x);
int sim_reactor_start(const struct sim *s, struct dqr_reactor *x);
const char *bias_name(const struct sim *s);
/* reactor.c: r a copy of the start state p (0, or -1) */
int restore(struct dqr_recon *r, const struct pristine *p);
/*
 * reactor.c: the layers of the input tables on grid g, e-cube's or
 * (--lash) LASH's: 0, or -1 with why in err.
 */
int sim_vlayers_new(const struct sim *s, const struct dqr_grid *g,
		    struct dqr_vlayers **tl, char *err, size_t errlen);

/* state.c */
void pristine_release(struct pristine *p);
int start(struct sim *s);
int fresh_state(const struct sim *s, struct dqr_reactor *x,
		struct dqr_fabric **cur);

/* intermediate.c: the exit status */
int imed_sim(const struct sim_opts *o);

/* faults.c; fault_kind() names the cables that may fail */
const char *fault_kind(const struct sim_opts *o);
uint64_t rng_stream(uint64_t seed, uint64_t stream, uint64_t index);
uint32_t rng_below(uint64_t *s, uint32_t n);
int scale_build(struct sim_scale *sc, const struct dqr_fabric *f,
		int ca_links);
void scale_release(struct sim_scale *sc);
int fabric_split(const struct dqr_fabric *f, const uint8_t *linked,
		 uint32_t *parent);
int ends_split(const struct dqr_fabric *f, const uint8_t *linked,
	       uint32_t *parent);
int fail_one(struct dqr_reactor *x, struct dqr_fabric *cur, uint32_t port,
	     struct dqr_fabric **projp, struct dqr_reaction *r);
/* a whole switch (node of cur): every cable it has left, as fail_one */
int fail_switch(struct dqr_reactor *x, struct dqr_fabric *cur, uint32_t node,
		struct dqr_fabric **projp, struct dqr_reaction *r);
/*
 * --switch-faults: whether the fabric has the switches, and after any K
 * of them the cables, that the faults asked for need; 0, or -1 after a
 * message
 */
int switch_faults_fit(const struct sim *s);

/* verify.c */
struct dqr_lfts *tables_before(const struct dqr_recon *r);
int verify_state(struct sim *s, const struct dqr_recon *r,
		 const struct dqr_fabric *proj,
		 const struct dqr_lfts *prev, const struct dqr_ml *ml,
		 int code, uint32_t run, unsigned step,
		 uint64_t *ca_lost);
int effective_policy(const struct sim *s, unsigned *every);
int want_verify(const struct sim *s, uint32_t run, int last);
void policy_name(const struct sim *s, char *buf, size_t len);

/*
 * active.c: --active-pairs.  active_alloc(): 0, 1 after a message (no
 * hypercube), -1 out of memory.  active_add(): the state after k faults
 * (t on f; deadlock: its check found a cycle), 1 when it holds, 0 when
 * not, -1 out of memory.
 */
int active_alloc(struct sim *s);
void active_free(struct sim *s);
int active_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	       const struct dqr_lfts *t, int deadlock);
void active_print(const struct sim *s);

/* montecarlo.c */
void steps_free(struct sim *s, unsigned n);
int simulate(struct sim *s);

/* figures.c */
struct dist distribution(double *v, uint32_t n);
/* The peak resident memory of this process so far, KiB (0: unknown). */
long peak_rss_kib(void);
struct dist overall(const struct sim *s, int total);
struct dist ml_dist(const struct sim *s, int which);
struct step_view step_view(const struct sim *s, unsigned k);
struct conn_view conn_view(const struct sim *s, unsigned k);

/* output.c */
void print_header(const struct sim *s, FILE *out);
void print_verify_summary(const struct sim *s, FILE *out);
void print_text(const struct sim *s);
void print_json_dist(const char *key, struct dist d);
void print_json_head(const struct sim *s);
void print_json(const struct sim *s);
int write_data(const struct sim *s, FILE *fp, const char *path);

/* bench.c */
int bench(struct sim *s);

/* soak.c: the exit status (0, 1 after a failure, 2 out of memory) */
int soak(struct sim *s);

/*
 * What soak.c shares with soak_torus.c (--soak --torus-layers): the
 * events and their tally are soak.c's, the answer on a torus's virtual
 * layers and its judgement soak_torus.c's, and below both soak_run.c
 * holds a run's messages, cabling and tables held.
 */
enum soak_ev { EV_LINK, EV_SWITCH, EV_RETURN, EV_FLAP, EV_NUM };


struct soak_tally {
	uint64_t events[EV_NUM];
	uint64_t answers[DQR_ANSWER_NUM];	/* the reactor's, by kind */
	uint64_t changes;		/* changes of cabling answered */
	uint64_t split;			/* ... leaving the fabric split */
	uint64_t transitions, proved, planner, withdrawn, refused;
	uint64_t unchanged;		/* the new tables are the old */
	uint64_t cut;			/* left mid-way by a flap's return */
	uint64_t stages, drains, drain_checks;
	uint64_t states, unions;	/* tables and stage unions judged */
	uint64_t states_failed, unions_failed;	/* --torus-layers */
	uint64_t unproved;		/* ... withdrawn although the list
					 * was given: the proof failed */
	uint64_t proved_restart;	/* ... proved after a restart, on a
					 * list that never knew the held */
	uint64_t unsafe;		/* states that can loop or deadlock */
	uint64_t held_bad;		/* tables held bad on the new cabling */
	uint64_t first_withdrawn;	/* ... stage 1 withdrew before the
					 * cable came up */
	uint64_t unreachable;		/* connected pairs, summed */
	uint64_t unreachable_states;
	/* pairs of switches two-phase routing leaves out, none of whole
	 * groups lost: its own loss, not a failure */
	uint64_t left_out;
	uint64_t dead_port_entries;
	uint64_t failures;		/* all of the above that are bugs */
	double ms_plan, ms_judge, ms_wall;
	/* the first failure, for the summary */
	uint32_t first_run, first_event;
	char first[512];
};

/* One run's state. */
struct soak_run {
	struct sim *s;
	struct soak_tally *t;
	uint32_t run;
	unsigned event;			/* from 1 */
	uint64_t rng;
	uint8_t *cable_down;		/* per s->sc.cand */
	uint8_t *node_down;		/* per node of the input fabric */
	uint32_t *parent;		/* scratch for fabric_split */
	struct dqr_reactor x;		/* the plugin's state in this run */
	struct dqr_lfts *held;		/* what the switches hold */
	int held_is_recon;		/* recon's, its list holds them */
	int dead;			/* no tables: the run stops */
	int restarted;			/* --torus-layers: fell back, the
					 * run starts again intact */
	char *log;			/* the events so far, for messages */
	size_t log_len, log_cap;
};

struct dqr_plan;

/* soak_run.c */
void soak_log(struct soak_run *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void soak_complain(struct soak_run *w, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
struct dqr_fabric *soak_cabling(const struct soak_run *w);
int soak_same_tables(const struct dqr_lfts *a, const struct dqr_lfts *b);
struct dqr_lfts *soak_state_before(const struct dqr_lfts *from,
				   const struct dqr_plan *p, uint32_t k);
/* the switches take p, all of it or (cut) some stages; 0 or -1 */
int soak_upload(struct soak_run *w, const struct dqr_plan *p, int cut);
/*
 * Tables held that loop or are cyclic on the cabling now can only have
 * been made so by cables that came back.  OpenSM activates a port that
 * came back only after the routing step of the sweep that found it, so
 * the plugin's stage 1, handed over in that step, is in force before
 * any packet crosses such a cable: its union is part of the state held
 * on the cabling before, which was judged then.  It must only withdraw
 * (the union then adds nothing), and the state it leaves, which meets
 * the cable, must be loop free and acyclic on the cabling now (the
 * caller judges it, on one VL or on the layers); the rest is judged
 * from there.  *s1: that state.  0, 1 when stage 1 does more (said,
 * unsafe), -1 when out of memory.
 */
int soak_first_withdrawal(struct soak_run *w, const struct dqr_plan *p,
			  struct dqr_lfts **s1);

/*
 * soak_torus.c: soak_torus_check() whether the input is a torus e-cube
 * can layer (0, else 2 with a message; *layers their number);
 * soak_torus_start() a run's start (recon on the layers, held = its
 * tables); soak_torus_react() soak.c's react() on the layers.  0, or -1
 * when out of memory.
 */
int soak_torus_check(struct sim *s, unsigned *layers);
int soak_torus_start(struct soak_run *w);
int soak_torus_react(struct soak_run *w, int cut);

/* torus.c: --torus-layers; the exit status */
int vlayers_sim(struct sim *s);

/*
 * whatif.c: the exit status (0 every fault survived, 1 not, 2 bad name
 * or file), -1 when out of memory.
 */
int what_if(struct sim *s);

/* --load (load.c): s->loads for faults + 1 steps, 0 or -1; the load of
 * tables t on f counted at step k (nothing without --load), 0 or -1;
 * the lines, after the table */
int load_alloc(struct sim *s);
int load_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	     const struct dqr_lfts *t);
/* One state's load into ls. */
void load_sum_add(struct load_sum *ls, const struct dqr_route_load *ld);
void load_print(const struct sim *s);
/*
 * --permutation (perm.c): perm_setup() the end ports of the input and
 * the permutation (0; 2 after a message when it is not defined on them;
 * -1 when out of memory); perm_add() the figures of tables t on f at
 * step k, 0 the start (nothing without --permutation), 0 or -1; the
 * lines after the table, or the JSON key; perm_release() frees.
 */
int perm_setup(struct sim *s);
int perm_add(struct sim *s, unsigned k, const struct dqr_fabric *f,
	     const struct dqr_lfts *t);
void perm_print(const struct sim *s);
void perm_print_json(const struct sim *s);
void perm_release(struct sim *s);
/* --what-if tolerance (tolerance.c): exit status, or -1 out of memory */
int what_if_tolerance(struct sim *s);

#endif
