/*
 * dqr_record.c - the JSON records of every reconfiguration and
 * transition in <dump_files_dir>/dqr-reconfig.log, and the ids of the
 * records runs before this one left there.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include <json.h>

#include "dqr_record.h"
#include "util/id_tail.h"

#define RECONFIG_LOG "dqr-reconfig.log"
/* written by dqr_transition.c; its ids are transition ids */
#define TRANSITION_DUMP "dqr-transition.dump"
/* a record is far shorter: the last one is always in the tail read */
#define ID_TAIL_BYTES 65536

/*
 * The records are built with json-c, which escapes whatever a node
 * description holds.  Every json-c call can run out of memory; the
 * builders then give NULL or -1, and the record is skipped whole
 * (put_record() logs it) rather than written with a field missing.
 */

/* adds v under key and gives 0; -1 when v is NULL or not added (freed) */
static int jadd(struct json_object *o, const char *key, struct json_object *v)
{
	if (v && !json_object_object_add(o, key, v))
		return 0;
	json_object_put(v);
	return -1;
}

static int jpush(struct json_object *a, struct json_object *v)
{
	if (v && !json_object_array_add(a, v))
		return 0;
	json_object_put(v);
	return -1;
}

static int jadd_u64(struct json_object *o, const char *key, uint64_t v)
{
	return jadd(o, key, json_object_new_uint64(v));
}

static int jadd_str(struct json_object *o, const char *key, const char *s)
{
	return jadd(o, key, json_object_new_string(s));
}

/* json-c would print %.17g: the records keep ms to the microsecond */
static struct json_object *jms(double v)
{
	char s[48];

	snprintf(s, sizeof(s), "%.3f", v);
	return json_object_new_double_s(v, s);
}

static int jadd_ms(struct json_object *o, const char *key, double v)
{
	return jadd(o, key, jms(v));
}

/* ...and us whole */
static int jadd_us(struct json_object *o, const char *key, double v)
{
	char s[48];

	snprintf(s, sizeof(s), "%.0f", v);
	return jadd(o, key, json_object_new_double_s(v, s));
}

/* {"desc":"..","guid":"0x.."} of node */
static struct json_object *jnode(const struct dqr_fabric *f, uint32_t node)
{
	struct json_object *o = json_object_new_object();
	char guid[24];

	snprintf(guid, sizeof(guid), "0x%016" PRIx64, f->nodes[node].guid);
	if (o && (jadd_str(o, "desc", dqr_node_name(f, node)) ||
		  jadd_str(o, "guid", guid))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* key: {"desc":..,"guid":..,"port":N} of port p, null without one */
static int jadd_end(struct json_object *o, const char *key,
		    const struct dqr_fabric *f, uint32_t p)
{
	struct json_object *e;

	if (p == DQR_NONE)
		return json_object_object_add(o, key, NULL) ? -1 : 0;
	e = jnode(f, f->ports[p].node);
	if (e && jadd_u64(e, "port", f->ports[p].num)) {
		json_object_put(e);
		e = NULL;
	}
	return jadd(o, key, e);
}

/* {"a":{..},"b":{..}}: the cable at switch port p */
static struct json_object *jlink(const struct dqr_fabric *f, uint32_t p)
{
	struct json_object *o = json_object_new_object();

	if (o && (jadd_end(o, "a", f, p) ||
		  jadd_end(o, "b", f, dqr_peer_port(f, p)))) {
		json_object_put(o);
		return NULL;
	}
	return o;
}

/* key: [one(f, item),...], empty without a fabric */
static int jadd_list(struct json_object *o, const char *key,
		     const struct dqr_fabric *f, const uint32_t *items,
		     uint32_t n,
		     struct json_object *(*one)(const struct dqr_fabric *,
						uint32_t))
{
	struct json_object *a = json_object_new_array();
	uint32_t i;

	for (i = 0; a && f && i < n; i++)
		if (jpush(a, one(f, items[i]))) {
			json_object_put(a);
			return -1;
		}
	return jadd(o, key, a);
}

static int jadd_changed(struct json_object *o, const struct dqr_ctx *ctx)
{
	const struct dqr_recon_change *c = &ctx->react.recon.change;
	const struct dqr_fabric *f = ctx->react.recon.ref;

	return jadd_list(o, "links_failed", f, c->links_failed,
			 c->num_links_failed, jlink) ||
	       jadd_list(o, "links_returned", f, c->links_returned,
			 c->num_links_returned, jlink) ||
	       jadd_list(o, "switches_lost", f, c->lost, c->num_lost, jnode) ||
	       jadd_list(o, "switches_returned", f, c->returned,
			 c->num_returned, jnode);
}

/* What the mesh plug-in did, on the meshes and tori it serves. */
static int jadd_mesh(struct json_object *o, const struct dqr_ctx *ctx)
{
	struct dqr_plugin_stats st;
	struct json_object *m;

	dqr_topology_plugin_stats(&ctx->react, &st);
	if (!st.present)
		return 0;
	m = json_object_new_object();
	if (jadd(o, "mesh_plugin", m) ||
	    jadd_u64(m, "links_failed", st.links_failed) ||
	    jadd_u64(m, "links_bypassed", st.links_bypassed))
		return -1;
	if (st.layered &&
	    (jadd_u64(m, "links_searched", st.links_searched) ||
	     jadd_u64(m, "lids_searched", st.lids_searched) ||
	     jadd_u64(m, "lids_moved", st.lids_moved) ||
	     jadd_u64(m, "pairs_moved", st.pairs_moved) ||
	     jadd_u64(m, "pairs_on_moved_sl", st.pairs_on_moved_sl)))
		return -1;
	if (jadd_u64(m, "turns", st.turns) ||
	    jadd_u64(m, "reorders", st.reorders))
		return -1;
	return st.layered && jadd_u64(m, "layers", st.layers);
}

/* 1 when the records have a place (dump_files_dir) */
static int record_dir(const struct dqr_ctx *ctx)
{
	const char *dir = ctx->osm->subn.opt.dump_files_dir;

	return dir && *dir;
}

/* the record's time of day */
static void stamp_now(char *stamp, size_t len)
{
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * Appends record o of what id as one line to
 * <dump_files_dir>/dqr-reconfig.log and frees it; bad (or o NULL) when
 * building it ran out of memory: it is skipped, logged.
 */
static void put_record(struct dqr_ctx *ctx, struct json_object *o, int bad,
		       const char *what, uint64_t id)
{
	const char *dir = ctx->osm->subn.opt.dump_files_dir;
	/* compact "key":value, and '/' left as it is */
	const int how = JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE;
	const char *line = NULL;
	char path[4096];
	int failed = 0;
	FILE *fp;

	if (o && !bad)
		line = json_object_to_json_string_ext(o, how);
	snprintf(path, sizeof(path), "%s/%s", dir, RECONFIG_LOG);
	if (!line) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ10: dqr: "
			"out of memory building the record of %s %" PRIu64
			" for %s: it is skipped\n", what, id, path);
		json_object_put(o);
		return;
	}
	fp = fopen(path, "a");
	if (fp) {
		failed = fprintf(fp, "%s\n", line) < 0;
		failed |= fclose(fp) != 0;
	}
	if (!fp || failed)
		OSM_LOG(&ctx->osm->log, OSM_LOG_ERROR, "ERR DQ10: dqr: "
			"cannot append to %s: %s\n", path, strerror(errno));
	json_object_put(o);
}

/*
 * A record: its id under key, first (json-c keeps the order, and
 * dqr_ids_resume() finds the ids by it), and the time of day.  *bad when
 * out of memory.
 */
static struct json_object *record_new(const char *key, uint64_t id, int *bad)
{
	struct json_object *o = json_object_new_object();
	char stamp[32];

	stamp_now(stamp, sizeof(stamp));
	*bad = !o || jadd_u64(o, key, id) || jadd_str(o, "time", stamp);
	return o;
}

/*
 * A fast reaction's times from the trap: every PortInfo answered, the
 * repair ready (planned), its last stage answered (null when it sent
 * none).
 */
static int jadd_fast(struct json_object *o, const struct dqr_ctx *ctx)
{
	const struct dqr_pass_times *t = &ctx->times;

	return jadd_ms(o, "ports_known_ms", t->ports_known) ||
	       jadd_ms(o, "repair_ready_ms", t->ports_known + t->project +
		       t->reroute + t->verify + t->plan) ||
	       (t->stages_up ? jadd_ms(o, "answered_ms", t->answered) :
		json_object_object_add(o, "answered_ms", NULL));
}

void dqr_record_reconfig(struct dqr_ctx *ctx,
			 const struct dqr_recon_result *r, const char *outcome)
{
	const struct dqr_reroute_stats *s = &r->rs;
	const struct dqr_pass_times *t = &ctx->times;
	struct json_object *o;
	int bad;

	if (!record_dir(ctx))
		return;
	o = record_new("id", ctx->reconfigs, &bad);
	bad = bad || jadd_str(o, "outcome", outcome) ||
	      jadd_u64(o, "cables_down", ctx->diff.links_missing) ||
	      jadd_u64(o, "nodes_missing", ctx->diff.nodes_missing) ||
	      jadd_u64(o, "ports_failed", r->ports_failed) ||
	      jadd_u64(o, "ports_recovered", r->ports_recovered) ||
	      jadd(o, "from_original",
		   json_object_new_boolean(r->from_original)) ||
	      jadd_u64(o, "lids", s->lids_disconnected) ||
	      jadd_u64(o, "disconnected_entries", s->disconnected) ||
	      jadd_u64(o, "disconnected_pairs", s->disconnected_pairs) ||
	      jadd_u64(o, "changed_entries", r->diff.entries) ||
	      jadd_u64(o, "changed_blocks", r->diff.blocks) ||
	      jadd_u64(o, "switches_touched", r->diff.switches) ||
	      jadd_u64(o, "turns_enabled", s->turns) ||
	      jadd_u64(o, "reorders", s->reorders) ||
	      jadd_u64(o, "channels_moved", s->moved) ||
	      jadd_u64(o, "unreachable_entries", s->unreachable) ||
	      jadd_u64(o, "failed_entries", s->failed) ||
	      jadd_us(o, "compute_us", r->us_total) ||
	      jadd_us(o, "list_us", r->us_list) ||
	      jadd_str(o, "since", t->since) ||
	      jadd_ms(o, "project_ms", t->project) ||
	      jadd_ms(o, "reroute_ms", t->reroute) ||
	      jadd_ms(o, "verify_ms", t->verify) ||
	      jadd_ms(o, "plan_ms", t->plan) ||
	      (t->handed >= 0 ? jadd_ms(o, "handed_ms", t->handed) :
	       json_object_object_add(o, "handed_ms", NULL)) ||
	      jadd(o, "fast_path", json_object_new_boolean(t->fast)) ||
	      (t->fast && jadd_fast(o, ctx)) ||
	      jadd_changed(o, ctx) || jadd_mesh(o, ctx);
	put_record(ctx, o, bad, "reconfiguration", ctx->reconfigs);
}

/* Stage s's upload (handed -> answered), or the drain after it. */
static double stage_span(const struct dqr_transition *x, uint32_t s,
			 int drain)
{
	const struct dqr_stage_times *t = &x->times[s];

	return drain ? t[1].handed - t->answered : t->answered - t->handed;
}

/* Stages whose span is known: every upload, the drains between them. */
static uint32_t spans(const struct dqr_transition *x, int drain)
{
	uint32_t n = x->plan.num_stages;

	return drain && n ? n - 1 : n;
}

void dqr_fmt_stage_spans(char *buf, size_t len,
			 const struct dqr_transition *x, int drain)
{
	uint32_t s, n = spans(x, drain);
	size_t used = 0;

	buf[0] = '\0';
	if (!n)
		snprintf(buf, len, "none");
	for (s = 0; s < n && used < len; s++) {
		/* room for the next figure and the ellipsis */
		if (used + 24 > len) {
			snprintf(buf + used, len - used, " ...");
			return;
		}
		used += snprintf(buf + used, len - used, "%s%.1f",
				 s ? " " : "", stage_span(x, s, drain));
	}
}

/* key: [ms,...], every upload's or every drain's span */
static int jadd_spans(struct json_object *o, const char *key,
		      const struct dqr_transition *x, int drain)
{
	struct json_object *a = json_object_new_array();
	uint32_t s, n = spans(x, drain);

	for (s = 0; a && s < n; s++)
		if (jpush(a, jms(stage_span(x, s, drain)))) {
			json_object_put(a);
			return -1;
		}
	return jadd(o, key, a);
}

void dqr_record_transition(struct dqr_ctx *ctx,
			   const struct dqr_transition *x)
{
	uint32_t last = x->plan.num_stages - 1;
	struct json_object *o;
	int bad;

	if (!record_dir(ctx))
		return;
	o = record_new("transition", x->id, &bad);
	bad = bad || jadd_str(o, "what", x->what) ||
	      jadd_u64(o, "stages", x->plan.num_stages) ||
	      jadd_u64(o, "drains", dqr_plan_drains(&x->plan)) ||
	      jadd_u64(o, "entries", x->plan.stage_off[x->plan.num_stages]) ||
	      jadd_u64(o, "drain_delay_ms", x->drain_ms) ||
	      jadd_str(o, "since", x->since) ||
	      jadd_ms(o, "first_answered_ms",
		      x->times[0].answered - x->t_start) ||
	      jadd_ms(o, "last_answered_ms",
		      x->times[last].answered - x->t_start) ||
	      jadd_spans(o, "upload_ms", x, 0) ||
	      jadd_spans(o, "drain_ms", x, 1);
	put_record(ctx, o, bad, "transition", x->id);
}

/*
 * The largest id after each prefix in the tail of dir/name (0 when none);
 * 0, or -1 when the file is there but unreadable (logged).
 */
static int tail_ids(struct dqr_ctx *ctx, const char *dir, const char *name,
		    const char *const *prefix, uint64_t *max, int n)
{
	char path[4096], *buf;
	size_t len;
	int cut, ret, i;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = dqr_id_tail_read(path, ID_TAIL_BYTES, &buf, &len, &cut);
	if (ret < 0) {
		OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: cannot read the "
			"last ids in %s (%s); ids may repeat earlier ones\n",
			path, strerror(errno));
		return -1;
	}
	for (i = 0; i < n; i++)
		max[i] = dqr_id_tail_scan(buf, len, cut, prefix[i]);
	free(buf);
	return 0;
}

void dqr_ids_resume(struct dqr_ctx *ctx)
{
	static const char *const json[2] = { "{\"id\":", "{\"transition\":" };
	static const char *const dump[1] = { "" };
	const char *dir = ctx->osm->subn.opt.dump_files_dir;
	uint64_t last[2] = { 0, 0 }, in_dump = 0;

	if (!dir || !*dir)
		return;
	tail_ids(ctx, dir, RECONFIG_LOG, json, last, 2);
	tail_ids(ctx, dir, TRANSITION_DUMP, dump, &in_dump, 1);
	if (in_dump > last[1])
		last[1] = in_dump;
	/* again at a takeover: say so only when another SM numbered on */
	if (last[0] <= ctx->reconfigs && last[1] <= ctx->transitions)
		return;
	if (last[0] > ctx->reconfigs)
		ctx->reconfigs = last[0];
	if (last[1] > ctx->transitions)
		ctx->transitions = last[1];
	OSM_LOG(&ctx->osm->log, OSM_LOG_INFO, "dqr: %s holds records up to "
		"reconfiguration %" PRIu64 " and transition %" PRIu64
		" of earlier runs: this run numbers on from there\n", dir,
		ctx->reconfigs, ctx->transitions);
}
