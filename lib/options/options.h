/*
 * options.h - the plugin's key=value options.
 *
 * OpenSM hands every event plugin the same free-form string
 * (event_plugin_options in opensm.conf).  The grammar:
 *
 *   options := ws* ( item ( ws+ item )* )? ws*
 *   item    := key '=' value          no blanks around '='
 *   key     := one of the keys of the table, case sensitive
 *   value   := any non-blank characters; what is valid depends on the key
 *
 * Each key may appear once.  Parsing is table driven: a later key is one
 * more struct dqr_opt_spec row and one more field in struct dqr_options.
 * Every error message names the offending key (or token) so that one log
 * line tells the operator what to fix.
 *
 * No OpenSM types here: the table and the parser are unit tested alone.
 */
#ifndef DQR_OPTIONS_H
#define DQR_OPTIONS_H

#include <stddef.h>

/*
 * The OpenSM routing engines the plugin can run for the initial routing.
 * The names are OpenSM's own (osm_opensm.c), matched case-insensitively.
 */
enum dqr_base_engine {
	/* uturn on a fat tree, else ftree, else updn, else minhop */
	DQR_BASE_AUTO = 0,
	DQR_BASE_FTREE,
	DQR_BASE_UPDN,
	DQR_BASE_DNUP,
	DQR_BASE_MINHOP,
	DQR_BASE_DOR,
	DQR_BASE_LASH,
	DQR_BASE_NUE,
	DQR_BASE_DFSSSP,
	DQR_BASE_SSSP,
	DQR_BASE_TORUS_2QOS,
	DQR_BASE_UTURN,		/* lib's own fat-tree routing, not OpenSM's */
	DQR_BASE_TWOPHASE,	/* lib's own hypercube routing (twophase.h) */
	DQR_BASE_NUM
};

/* NULL-terminated, indexed by enum dqr_base_engine */
extern const char *const dqr_base_engine_names[DQR_BASE_NUM + 1];
/* The name of base for log lines; "?" for a value out of range. */
const char *dqr_base_engine_name(int base);

/* indexed by the values of struct dqr_options' fields below */
extern const char *const dqr_mode_names[];	/* enum dqr_mode */
extern const char *const dqr_turns_names[];	/* enum dqr_turns */
extern const char *const dqr_fallback_names[];
extern const char *const dqr_transition_names[];
extern const char *const dqr_mesh_routing_names[];	/* enum below */
/* "0" .. "4": that many links, "off": DQR_STRETCH_OFF */
extern const char *const dqr_stretch_names[];
#define DQR_STRETCH_OFF 5

enum dqr_transition_mode {
	DQR_TRANSITION_ORDERED = 0,	/* staged, each stage checked */
	DQR_TRANSITION_ONESHOT,		/* OpenSM's way: all at once */
};

/* drain_ms when not given: derived from the subnet (see osmdqr(8)) */
#define DQR_DRAIN_AUTO 0xffffffffu	/* UINT_MAX, as "auto" parses */
#define DQR_DRAIN_MAX 600000u

/*
 * Each reconfiguration's budget (see struct dqr_options); "auto" scales
 * with the fabric (osmdqr(8), plugin/dqr_reconfig.c).
 */
#define DQR_BUDGET_AUTO 0xffffffffu
#define DQR_BUDGET_MS_MAX 600000u
#define DQR_BUDGET_MB_MAX 1048576u

/*
 * base=auto on a mesh, or a torus routed as its mesh: lib's routing of it
 * (doc/grids.md compares them).  up*\/down* is the default because DQR
 * keeps it through two link faults and a lost switch, where dimension
 * order's turns leave it no room.
 */
enum dqr_mesh_routing {
	DQR_MESH_DOR = 0,	/* dimension order: balanced links */
	DQR_MESH_UPDN,		/* up*\/down* from the corner: as short */
};

enum dqr_fallback {
	DQR_FALLBACK_BASE = 0,	/* route everything with the base engine */
	DQR_FALLBACK_NONE,	/* keep DQR's partial answer */
};

struct dqr_options {
	int base;	/* enum dqr_base_engine */
	int verify;	/* judge every routing pass: 1 (default) or 0 */
	int mode;	/* enum dqr_mode (reroute.h) */
	int turns;	/* enum dqr_turns (reroute.h) */
	int fallback;	/* enum dqr_fallback */
	int transition;	/* enum dqr_transition_mode */
	unsigned drain_ms;	/* DQR_DRAIN_AUTO, or 0 .. DQR_DRAIN_MAX */
	/*
	 * base=uturn: where one layer cannot hold the repair, put the FT
	 * paper's re-routing layer on VL 1 (SLs and SL2VL, rerouting_layer.h)
	 * instead of falling back: 1 (default) or 0.
	 */
	int vl_layer;
	/*
	 * With the re-routing layer at hand: one-layer routes longer than
	 * the shortest cable path by more than this many links are left to
	 * the layer (the FT paper's local reroute); 0..4, or DQR_STRETCH_OFF
	 * (default: on deep trees the shortest routes soon need a second
	 * U-turn inside VL 1, doc/uturn-fig11.md).
	 */
	int stretch;
	/*
	 * What one reconfiguration may cost before the plugin gives up on
	 * DQR and takes the fallback instead of holding OpenSM's sweep: ms
	 * of its own compute from the start of the routing pass (0: none at
	 * all, every fault falls back), and MiB by which the resident memory
	 * may grow meanwhile.  DQR_BUDGET_AUTO: scaled to the fabric.
	 */
	unsigned budget_ms;
	unsigned budget_mb;
	/* enum dqr_mesh_routing */
	int mesh_routing;
	/*
	 * Tori and grids on virtual layers (qos TRUE): where no path fits
	 * the routes' own layers, move them to another layer, changing
	 * their SL (vlayers.h), instead of falling back: 1 (default)
	 * or 0.
	 */
	int layer_moves;
	/*
	 * Answer trap 128 from the plugin's own thread, before OpenSM's
	 * heavy sweep: ask the trapping switches which ports went down,
	 * repair, and send the stages that need no drain: 1 (default) or 0.
	 */
	int fast_path;
	/*
	 * The fault-tolerance report: CPU seconds a background thread may
	 * spend, at the lowest priority, trying every single fault on a
	 * copy of each settled state (what_if.h); 0: no report.
	 */
	unsigned tolerance_s;
	/*
	 * Tori on virtual layers (qos TRUE): the repair first tries the IN
	 * paper's routes through at most this many intermediate switches
	 * (vlayers.h: dqr_vlayers_allow_intermediates), where the layers
	 * leave a VL spare; 0 (default): the mesh plug-in alone.
	 */
	unsigned intermediates;
	/*
	 * base=twophase: the seed its intermediates are drawn from, so
	 * that every full routing of one fabric gives the same tables.
	 */
	unsigned twophase_seed;
};

#define DQR_TOLERANCE_S_DEFAULT 60
#define DQR_INTERMEDIATES_MAX 4
#define DQR_TWOPHASE_SEED_MAX 1000000000u
#define DQR_TOLERANCE_S_MAX 86400

/* The defaults: base=auto verify=on mode=end-to-end turns=each
 * fallback=base transition=ordered drain_ms=auto vl_layer=on stretch=off
 * budget_ms=auto budget_mb=auto mesh_routing=updn layer_moves=on
 * fast_path=on tolerance_s=60 intermediates=0 twophase_seed=1. */
void dqr_options_init(struct dqr_options *o);

/*
 * Parses str (NULL or empty: the defaults) into *o.  Returns 0, or -1 with
 * a one-line message in err; *o is left unchanged on error.
 */
int dqr_options_parse(const char *str, struct dqr_options *o,
		      char *err, size_t errlen);

/* "base=auto verify=on ...": the effective options, for the log. */
void dqr_options_format(const struct dqr_options *o, char *buf, size_t len);

/* ---------------------------------------------------------------------
 * The generic parser behind dqr_options_parse, for tables of other keys.
 */
enum dqr_opt_type {
	DQR_OPT_CHOICE,	/* int field: index into choices, any case */
	DQR_OPT_BOOL,	/* int field: on/off, yes/no, true/false, 1/0 */
	DQR_OPT_UINT,	/* unsigned field: decimal, min .. max */
	DQR_OPT_UINT_AUTO,	/* the same, or "auto": UINT_MAX */
};

struct dqr_opt_spec {
	const char *key;
	enum dqr_opt_type type;
	size_t offset;			/* of the field in the target */
	const char *const *choices;	/* DQR_OPT_CHOICE, NULL-terminated */
	unsigned min, max;		/* DQR_OPT_UINT */
};

#define DQR_OPT_MAX_SPECS 64

/*
 * The longest option string taken: OpenSM reads opensm.conf through a
 * 1024-byte line buffer, so event_plugin_options never comes longer;
 * a longer string is refused before anything is parsed.
 */
#define DQR_OPT_STR_MAX 1024

/*
 * Applies str to target through n specs (n <= DQR_OPT_MAX_SPECS).  Keys
 * absent from str leave their field alone; a str longer than
 * DQR_OPT_STR_MAX bytes is refused.  Returns 0, or -1 with a
 * message in err; target may then be partly written.
 */
int dqr_opts_parse(const struct dqr_opt_spec *specs, size_t n,
		   const char *str, void *target, char *err, size_t errlen);

#endif
