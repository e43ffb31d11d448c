/*
 * whatif.c - dqr-sim --what-if: what one named cable or switch fault
 * would change, answered as the plugin answers it, from the start state;
 * and --what-if all: every switch-to-switch cable and every switch in
 * turn, each from the same start, for fault tolerance at a glance.
 *
 * The answer and its judgement are lib's (reaction/what_if.h), the
 * ones the plugin's fault-tolerance report gives: where one layer
 * cannot hold the repair and the plugin would lay the FT paper's
 * re-routing layer (vl_layer=on after base=uturn on a fat tree), that
 * layer too.  What dqr-sim adds: whether the fault splits the fabric,
 * and what it cuts before anything is rerouted.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_diff.h"
#include "reaction/what_if.h"
#include "transition/transition.h"
#include "util/timing.h"
#include "verify/verify.h"
#include "verify/verify_print.h"
#include "dqr_sim.h"

#define WI_NAME 300

/*
 * A drain with OpenSM's defaults: twice the LifeTime of packet_life_time
 * 0x12 (osmdqr(8), drain_ms=auto), for the planned time to the last
 * stage.
 */
#define WI_DRAIN_MS 2148

/* One fault: a cable (one of its ports) or every cable of a switch. */
struct wi_fault {
	char name[WI_NAME];	/* as --what-if takes it */
	char peer[WI_NAME];	/* a cable's other end, else "" */
	int is_switch;
	uint32_t node;		/* the switch, or the named end's node */
	uint32_t *ports;	/* ports of the reference to cut */
	uint32_t num_ports;
};

/* What the plugin would make of one fault, and what dqr-sim adds. */
struct wi_result {
	struct dqr_what_if a;
	uint64_t cut_pairs;		/* unreachable in the tables held */
	int split;			/* the fault splits the fabric */
};

static int wi_ok(const struct wi_result *w)
{
	return dqr_what_if_survived(&w->a);
}

static const char *wi_verdict(const struct wi_result *w)
{
	if (wi_ok(w))
		return "survived";
	if (!w->a.deadlock_free || !w->a.loop_free)
		return w->a.connected ? "unsafe" : "lost+unsafe";
	return "lost";
}

/* ------------------------------------------------------------ names */

static uint32_t find_node(const struct dqr_fabric *f, const char *name)
{
	char bare[WI_NAME];
	unsigned long long g;
	uint32_t n = dqr_fabric_find_name(f, name);
	size_t len = strlen(name);
	char *end;

	if (n != DQR_NONE)
		return n;
	/* quoted, as in ibsim's net files and its Unlink command */
	if (len >= 2 && len < sizeof(bare) && name[0] == '"' &&
	    name[len - 1] == '"') {
		memcpy(bare, name + 1, len - 2);
		bare[len - 2] = 0;
		return dqr_fabric_find_name(f, bare);
	}
	/* a GUID: 0x and hex digits, as ibnetdiscover prints it */
	if (strncmp(name, "0x", 2) && strncmp(name, "0X", 2))
		return DQR_NONE;
	errno = 0;
	g = strtoull(name + 2, &end, 16);
	if (errno || *end || end == name + 2)
		return DQR_NONE;
	return dqr_fabric_find_guid(f, g);
}

static void port_name(const struct dqr_fabric *f, uint32_t port,
		      char *buf, size_t len)
{
	snprintf(buf, len, "%s[%u]",
		 dqr_node_name(f, f->ports[port].node), f->ports[port].num);
}

static int fault_switch(const struct dqr_fabric *f, uint32_t node,
			struct wi_fault *w)
{
	w->is_switch = 1;
	w->node = node;
	snprintf(w->name, sizeof(w->name), "%s", dqr_node_name(f, node));
	w->peer[0] = 0;
	w->ports = malloc(sizeof(uint32_t) * (f->nodes[node].num_ports + 1));
	if (!w->ports)
		return -1;
	w->num_ports = dqr_what_if_node_ports(f, node, w->ports);
	return 0;
}

static int fault_cable(const struct dqr_fabric *f, uint32_t port,
		       struct wi_fault *w)
{
	w->is_switch = 0;
	w->node = f->ports[port].node;
	port_name(f, port, w->name, sizeof(w->name));
	port_name(f, dqr_peer_port(f, port), w->peer, sizeof(w->peer));
	w->ports = malloc(sizeof(uint32_t));
	if (!w->ports)
		return -1;
	w->ports[0] = port;
	w->num_ports = 1;
	return 0;
}

/*
 * "NODE[PORT]" (the cable at that port) or "NODE" (a whole switch); NODE
 * a node description or a GUID.  1 after a message naming what is
 * wrong, -1 when out of memory.
 */
static int resolve(const struct dqr_fabric *f, const char *arg,
		   struct wi_fault *w)
{
	char node[WI_NAME];
	const char *br = strrchr(arg, '[');
	unsigned long pn;
	uint32_t n = find_node(f, arg), port;
	size_t len;
	char *end;

	memset(w, 0, sizeof(*w));
	if (n != DQR_NONE) {
		if (dqr_is_switch(f, n))
			return fault_switch(f, n, w);
		fprintf(stderr, PROG ": --what-if '%s': not a switch; name "
			"one of its cables as '%s[PORT]'\n", arg, arg);
		return 1;
	}
	len = strlen(arg);
	if (!br || len < 3 || arg[len - 1] != ']' ||
	    (size_t)(br - arg) >= sizeof(node) || br == arg) {
		fprintf(stderr, PROG ": --what-if '%s': no switch or node of "
			"that name or GUID (a cable is NODE[PORT])\n", arg);
		return 1;
	}
	memcpy(node, arg, br - arg);
	node[br - arg] = 0;
	n = find_node(f, node);
	if (n == DQR_NONE) {
		fprintf(stderr, PROG ": --what-if '%s': no node named '%s' "
			"(node description or GUID)\n", arg, node);
		return 1;
	}
	errno = 0;
	pn = strtoul(br + 1, &end, 10);
	if (errno || end == br + 1 || *end != ']' || end[1] ||
	    !pn || pn > f->nodes[n].num_ports) {
		fprintf(stderr, PROG ": --what-if '%s': %s has ports 1 to "
			"%u\n", arg, node, f->nodes[n].num_ports);
		return 1;
	}
	port = dqr_port_index(f, n, (unsigned)pn);
	if (dqr_peer_port(f, port) == DQR_NONE) {
		fprintf(stderr, PROG ": --what-if '%s': no cable at port %lu "
			"of %s\n", arg, pn, node);
		return 1;
	}
	return fault_cable(f, port, w);
}

/* ------------------------------------------------------------ judging */

static void unreachable_pairs(const struct dqr_verify_report *v,
			      uint64_t *all, uint64_t *no_path)
{
	int k;

	*all = 0;
	*no_path = 0;
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++) {
		*all += v->unreachable[k];
		*no_path += v->disconnected[k];
	}
}

/*
 * One fault from a fresh copy of the start state, answered by the
 * plugin's reactor (what_if.h).  0, or -1 when out of memory.  w is the
 * caller's to release (dqr_what_if_release(&w->a)).
 */
static int run_fault(struct sim *s, const struct wi_fault *fa,
		     uint32_t *parent, int with_cycle, struct wi_result *w)
{
	struct dqr_verify_report v;
	struct dqr_reactor x;
	uint64_t no_path;
	int ret = -1;

	memset(w, 0, sizeof(*w));
	if (sim_reactor_start(s, &x))
		goto out;
	if (dqr_what_if(&x, fa->ports, fa->num_ports,
			with_cycle ? DQR_WHAT_IF_CYCLE : 0, &w->a))
		goto out;
	/* a dead switch is gone, not split off: judge the others */
	if (fa->is_switch)
		s->sc.linked_node[fa->node] = 0;
	w->split = fabric_split(w->a.proj, s->sc.linked_node, parent);
	if (fa->is_switch)
		s->sc.linked_node[fa->node] = 1;
	/* what the fault cuts before anything is rerouted */
	if (dqr_verify(w->a.proj, w->a.held, &v, NULL))
		goto out;
	unreachable_pairs(&v, &w->cut_pairs, &no_path);
	dqr_verify_report_free(&v);
	ret = 0;
out:
	dqr_reactor_release(&x);
	return ret;
}

/* ------------------------------------------------------------ one fault */

static const char *code_name(int code)
{
	switch (code) {
	case DQR_RECON_OK:
		return "ok";
	case DQR_RECON_FAILED:
		return "entries left without a legal route";
	case DQR_RECON_OVER:
		return "over budget";
	default:
		return "?";
	}
}

static const char *plan_kind(const struct wi_result *w)
{
	if (!w->a.planned)
		return "none";
	if (w->a.layered)
		return "layered";
	if (w->a.rep.folded)
		return w->a.rep.proved ? "proved, folded" : "planner, folded";
	if (w->a.rep.withdrawn)
		return "withdrawn";
	return w->a.rep.proved ? "proved" : "planner";
}

static const char *fallback_says(const struct sim *s)
{
	return s->o->plugin.fallback == DQR_FALLBACK_BASE ?
	       "fallback=base: the plugin would route the whole fabric "
	       "with the base engine instead" :
	       "fallback=none: the plugin would upload these tables";
}

static void print_options(const struct sim *s)
{
	char buf[512];

	dqr_options_format(&s->o->plugin, buf, sizeof(buf));
	printf("  plugin options: %s\n", buf);
}

static void json_options(const struct sim *s)
{
	char buf[512];

	dqr_options_format(&s->o->plugin, buf, sizeof(buf));
	printf("\"options\":");
	dqr_json_string(stdout, buf);
	putchar(',');
}

static void print_stages(const struct wi_result *w)
{
	const struct dqr_plan *p = &w->a.plan;
	uint32_t k;

	for (k = 0; k < p->num_stages; k++) {
		printf("    stage %u: %u entries", k + 1,
		       p->stage_off[k + 1] - p->stage_off[k]);
		if (dqr_plan_stage_withdraws(p, k))
			printf(", withdraws only");
		if (p->stage_drain && p->stage_drain[k])
			printf(", waits the drain: %s",
			       dqr_drain_reason(p->stage_drain[k]));
		putchar('\n');
	}
}

static void print_one_text(const struct sim *s, const struct wi_fault *fa,
			   const struct wi_result *w)
{
	const struct dqr_reroute_stats *rs = &w->a.res.rs;
	const struct dqr_plan_report *rep = &w->a.rep;

	print_header(s, stdout);
	print_options(s);
	if (fa->is_switch)
		printf("what if switch %s fails (%u cables)\n", fa->name,
		       fa->num_ports);
	else
		printf("what if the cable %s -- %s fails\n", fa->name,
		       fa->peer);
	printf("  reroute: %s; %" PRIu64 " (switch, DLID) routes cut, %"
	       PRIu64 " entries written, %" PRIu64 " turns added, %.2f ms\n",
	       code_name(w->a.code), rs->disconnected, rs->changed, rs->turns,
	       w->a.res.us_total / 1e3);
	if (w->a.code == DQR_RECON_FAILED && w->a.layer > 0)
		printf("  re-routing layer: %" PRIu64 " entries one layer left "
		       "open routed on a second VL (deadlock free per VL)\n",
		       w->a.filled);
	else if (w->a.code == DQR_RECON_FAILED)
		printf("  %" PRIu64 " connected entries without a legal "
		       "route%s; %s\n", rs->failed + rs->holes,
		       w->a.layer < 0 ? " (the re-routing layer cannot hold "
		       "them)" : "", fallback_says(s));
	printf("  tables: %" PRIu64 " entries changed in %" PRIu64
	       " 64-LID blocks on %u switches\n", w->a.diff.entries,
	       w->a.diff.blocks, w->a.diff.switches);
	printf("  pairs: %" PRIu64 " disconnected by the fault, %" PRIu64
	       " rerouted; %" PRIu64 " left unreachable (%" PRIu64
	       " with no cable path left, %" PRIu64 " that a cable path "
	       "still joins)%s\n", w->cut_pairs,
	       w->cut_pairs > w->a.unreachable ?
	       w->cut_pairs - w->a.unreachable : 0, w->a.unreachable,
	       w->a.no_path, w->a.lost,
	       w->split ? "; the fault splits the fabric" : "");
	if (w->a.planned) {
		printf("  transition: %u stages (%s), %u wait a drain, largest "
		       "stage %u entries\n", w->a.plan.num_stages, plan_kind(w),
		       dqr_plan_drains(&w->a.plan), rep->max_stage);
		print_stages(w);
		if (w->a.wait_cycle[0])
			printf("  the first drain: %s\n", w->a.wait_cycle);
		if (rep->folded)
			printf("  planner: %u stages folded into the last, "
			       "after one drain; %u entries withdrawn before "
			       "it\n", rep->folded, rep->withdrawn);
		else if (!rep->safe || rep->withdrawn)
			printf("  planner: %s\n", rep->reason);
	} else {
		printf("  transition: none (the tables do not change)\n");
	}
	printf("  first upload: %" PRIu64 " ca-to-ca, %" PRIu64
	       " ca-to-switch, %" PRIu64 " switch-to-ca, %" PRIu64
	       " switch-to-switch pairs a "
	       "cable path joins unreachable; the last stage after %u drains "
	       "(%u ms)\n", w->a.first_lost[DQR_PAIR_CA_CA],
	       w->a.first_lost[DQR_PAIR_CA_SW], w->a.first_lost[DQR_PAIR_SW_CA],
	       w->a.first_lost[DQR_PAIR_SW_SW], w->a.drains,
	       w->a.drains * WI_DRAIN_MS);
	printf("  verdict: %s, %s, %s: %s\n",
	       w->a.connected ? "connected" : "NOT connected",
	       w->a.loop_free ? "loop free" : "LOOPS",
	       w->a.deadlock_free ? "deadlock free" : "NOT deadlock free",
	       wi_verdict(w));
}

static void print_result_json(const struct wi_fault *fa,
			      const struct wi_result *w)
{
	printf("{\"name\":");
	dqr_json_string(stdout, fa->name);
	printf(",\"kind\":\"%s\"", fa->is_switch ? "switch" : "link");
	if (!fa->is_switch) {
		printf(",\"peer\":");
		dqr_json_string(stdout, fa->peer);
	}
	printf(",\"outcome\":\"%s\",\"routes_cut\":%" PRIu64
	       ",\"written\":%" PRIu64 ",\"layer\":%d,\"layer_filled\":%"
	       PRIu64 ",\"changed_entries\":%" PRIu64 ",\"blocks\":%" PRIu64
	       ",\"switches\":%u,\"pairs_disconnected\":%" PRIu64
	       ",\"pairs_unreachable\":%" PRIu64 ",\"pairs_no_path\":%"
	       PRIu64 ",\"pairs_lost\":%" PRIu64 ",\"split\":%s,"
	       "\"plan\":\"%s\",\"stages\":%u,\"drains\":%u,",
	       w->a.code == DQR_RECON_OK ? "ok" : w->a.code == DQR_RECON_OVER ?
	       "over" : "failed", w->a.res.rs.disconnected,
	       w->a.res.rs.changed, w->a.layer, w->a.filled, w->a.diff.entries,
	       w->a.diff.blocks, w->a.diff.switches, w->cut_pairs,
	       w->a.unreachable, w->a.no_path, w->a.lost,
	       w->split ? "true" : "false", plan_kind(w),
	       w->a.planned ? w->a.plan.num_stages : 0,
	       w->a.planned ? dqr_plan_drains(&w->a.plan) : 0);
	printf("\"first_upload\":{\"ca_to_ca\":%" PRIu64 ",\"ca_to_switch\":%"
	       PRIu64 ",\"switch_to_ca\":%" PRIu64 ",\"switch_to_switch\":%"
	       PRIu64 "},\"last_ms\":%u,", w->a.first_lost[DQR_PAIR_CA_CA],
	       w->a.first_lost[DQR_PAIR_CA_SW], w->a.first_lost[DQR_PAIR_SW_CA],
	       w->a.first_lost[DQR_PAIR_SW_SW], w->a.drains * WI_DRAIN_MS);
	printf("\"connected\":%s,\"loop_free\":%s,\"deadlock_free\":%s,"
	       "\"verdict\":\"%s\",\"ms\":%.3f}",
	       w->a.connected ? "true" : "false",
	       w->a.loop_free ? "true" : "false",
	       w->a.deadlock_free ? "true" : "false", wi_verdict(w), w->a.ms);
}

static void print_one_json(const struct sim *s, const struct wi_fault *fa,
			   const struct wi_result *w)
{
	const struct dqr_plan *p = &w->a.plan;
	uint32_t k;

	print_json_head(s);
	json_options(s);
	printf("\"what_if\":");
	print_result_json(fa, w);
	printf(",\"stage_list\":[");
	for (k = 0; w->a.planned && k < p->num_stages; k++) {
		printf("%s{\"entries\":%u,\"drain\":", k ? "," : "",
		       p->stage_off[k + 1] - p->stage_off[k]);
		if (p->stage_drain && p->stage_drain[k])
			dqr_json_string(stdout,
					dqr_drain_reason(p->stage_drain[k]));
		else
			printf("null");
		putchar('}');
	}
	printf("]}\n");
}

static int what_if_one(struct sim *s, uint32_t *parent)
{
	struct wi_fault fa;
	struct wi_result w;
	int ret;

	ret = resolve(s->in.f, s->o->what_if, &fa);
	if (ret)
		return ret > 0 ? 2 : -1;
	ret = run_fault(s, &fa, parent, 1, &w);
	if (!ret) {
		if (s->o->json)
			print_one_json(s, &fa, &w);
		else
			print_one_text(s, &fa, &w);
		ret = wi_ok(&w) ? 0 : 1;
	}
	dqr_what_if_release(&w.a);
	free(fa.ports);
	return ret;
}

/* ------------------------------------------------------------ all */

struct wi_sum {
	uint32_t faults, links, switches, survived;
	uint32_t lost, unsafe, failed, layered, split;
	uint64_t entries_max, stages_max, drains;
	double ms_wall, ms_max;
	/* at the first upload: the worst of each kind, the faults that
	 * leave a pair with a CA at one end, faults by drains (3: more) */
	uint64_t first_worst[DQR_PAIR_NUM_KINDS];
	uint32_t ca_faults, by_drains[4], drains_max;
};

static void sum_add(struct wi_sum *t, const struct wi_fault *fa,
		    const struct wi_result *w)
{
	uint32_t stages = w->a.planned ? w->a.plan.num_stages : 0;
	int k;

	t->faults++;
	t->switches += fa->is_switch;
	t->links += !fa->is_switch;
	t->survived += wi_ok(w);
	t->lost += !w->a.connected;
	t->unsafe += !w->a.loop_free || !w->a.deadlock_free;
	t->failed += w->a.code != DQR_RECON_OK;
	t->layered += w->a.layer > 0;
	t->split += w->split;
	if (w->a.diff.entries > t->entries_max)
		t->entries_max = w->a.diff.entries;
	if (stages > t->stages_max)
		t->stages_max = stages;
	t->drains += w->a.planned ? dqr_plan_drains(&w->a.plan) : 0;
	if (w->a.ms > t->ms_max)
		t->ms_max = w->a.ms;
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		if (w->a.first_lost[k] > t->first_worst[k])
			t->first_worst[k] = w->a.first_lost[k];
	t->ca_faults += w->a.first_lost[DQR_PAIR_CA_CA] ||
			w->a.first_lost[DQR_PAIR_CA_SW] ||
			w->a.first_lost[DQR_PAIR_SW_CA];
	t->by_drains[w->a.drains < 3 ? w->a.drains : 3]++;
	if (w->a.drains > t->drains_max)
		t->drains_max = w->a.drains;
}

static void line_text(const struct wi_fault *fa, const struct wi_result *w)
{
	printf("%-6s %-28s %8" PRIu64 " %6u %6u %8" PRIu64 " %5" PRIu64 " %5"
	       PRIu64 " %5" PRIu64 " %5" PRIu64 " %7u  %s\n",
	       fa->is_switch ? "switch" : "link", fa->name, w->a.diff.entries,
	       w->a.planned ? w->a.plan.num_stages : 0,
	       w->a.planned ? dqr_plan_drains(&w->a.plan) : 0, w->a.lost,
	       w->a.first_lost[DQR_PAIR_CA_CA], w->a.first_lost[DQR_PAIR_CA_SW],
	       w->a.first_lost[DQR_PAIR_SW_CA], w->a.first_lost[DQR_PAIR_SW_SW],
	       w->a.drains * WI_DRAIN_MS, wi_verdict(w));
}

static void line_data(FILE *fp, uint32_t i, const struct wi_fault *fa,
		      const struct wi_result *w)
{
	int v = wi_ok(w) ? 0 : !w->a.connected && w->a.loop_free &&
		w->a.deadlock_free ? 1 : 2;

	fprintf(fp, "%u\t%s\t%s\t%" PRIu64 "\t%u\t%u\t%" PRIu64 "\t%d\t%.3f\n",
		i + 1, fa->name, fa->is_switch ? "switch" : "link",
		w->a.diff.entries, w->a.planned ? w->a.plan.num_stages : 0,
		w->a.planned ? dqr_plan_drains(&w->a.plan) : 0, w->a.lost, v,
		w->a.ms);
}

static void summary_text(const struct wi_sum *t)
{
	printf("summary: %u single faults (%u links, %u switches): %u "
	       "survived connected and deadlock free, %u lose a connected "
	       "pair, %u unsafe; %u left entries without a legal route, %u "
	       "of them served on the re-routing layer; %u split the "
	       "fabric\n", t->faults, t->links, t->switches, t->survived,
	       t->lost, t->unsafe, t->failed, t->layered, t->split);
	printf("most entries changed %" PRIu64 ", most stages %" PRIu64
	       ", drains %" PRIu64 " in all; slowest answer %.1f ms, wall "
	       "%.2f s\n", t->entries_max, t->stages_max, t->drains,
	       t->ms_max, t->ms_wall / 1e3);
	printf("first upload: %u faults leave a pair with a CA at one end "
	       "unreachable; the worst leave %" PRIu64 " ca-to-ca, %" PRIu64
	       " ca-to-switch, %" PRIu64 " switch-to-ca, %" PRIu64
	       " switch-to-switch; drains: %u faults none, %u one, %u two, "
	       "%u more (at most %u: the last stage %u ms after the first)\n",
	       t->ca_faults, t->first_worst[DQR_PAIR_CA_CA],
	       t->first_worst[DQR_PAIR_CA_SW], t->first_worst[DQR_PAIR_SW_CA],
	       t->first_worst[DQR_PAIR_SW_SW], t->by_drains[0],
	       t->by_drains[1], t->by_drains[2], t->by_drains[3],
	       t->drains_max, t->drains_max * WI_DRAIN_MS);
}

static void summary_json(const struct wi_sum *t)
{
	printf("],\"summary\":{\"faults\":%u,\"links\":%u,\"switches\":%u,"
	       "\"survived\":%u,\"lost\":%u,\"unsafe\":%u,\"failed\":%u,"
	       "\"layered\":%u,\"split\":%u,\"entries_max\":%" PRIu64
	       ",\"stages_max\":%" PRIu64 ",\"drains\":%" PRIu64
	       ",\"ms_max\":%.3f,\"wall_s\":%.3f,", t->faults, t->links,
	       t->switches, t->survived, t->lost, t->unsafe, t->failed,
	       t->layered, t->split, t->entries_max, t->stages_max,
	       t->drains, t->ms_max, t->ms_wall / 1e3);
	printf("\"first_upload_worst\":{\"ca_to_ca\":%" PRIu64
	       ",\"ca_to_switch\":%" PRIu64 ",\"switch_to_ca\":%" PRIu64
	       ",\"switch_to_switch\":%" PRIu64 "},\"ca_faults\":%u,"
	       "\"by_drains\":[%u,%u,%u,%u],\"drains_max\":%u,"
	       "\"last_ms_max\":%u}}\n", t->first_worst[DQR_PAIR_CA_CA],
	       t->first_worst[DQR_PAIR_CA_SW], t->first_worst[DQR_PAIR_SW_CA],
	       t->first_worst[DQR_PAIR_SW_SW], t->ca_faults, t->by_drains[0],
	       t->by_drains[1], t->by_drains[2], t->by_drains[3],
	       t->drains_max, t->drains_max * WI_DRAIN_MS);
}

/* Fault i of all: the candidate cables first, then the switches. */
static int nth_fault(const struct sim *s, uint32_t i, struct wi_fault *fa)
{
	const struct dqr_fabric *f = s->in.f;

	memset(fa, 0, sizeof(*fa));
	if (i < s->sc.num_cand)
		return fault_cable(f, s->sc.cand[i], fa);
	return fault_switch(f, f->switches[i - s->sc.num_cand], fa);
}

static int what_if_all(struct sim *s, uint32_t *parent, FILE *data)
{
	uint32_t i, n = s->sc.num_cand + s->in.f->num_switches, m = n;
	struct wi_fault fa;
	struct wi_result w;
	struct wi_sum t;
	double t0 = dqr_now_ms();
	int ret = 0;

	memset(&t, 0, sizeof(t));
	if (s->o->json) {
		print_json_head(s);
		json_options(s);
		printf("\"what_if_all\":[");
	} else {
		print_header(s, stdout);
		print_options(s);
		printf("  first upload: the pairs of each kind a cable path "
		       "joins that the stages before the first drain leave "
		       "unreachable; last_ms: the last stage after the first, "
		       "%u ms a drain\n", WI_DRAIN_MS);
		printf("%-6s %-28s %8s %6s %6s %8s %5s %5s %5s %5s %7s  %s\n",
		       "fault", "name", "entries", "stages", "drains", "lost",
		       "ca-ca", "ca-sw", "sw-ca", "sw-sw", "last_ms",
		       "verdict");
	}
	if (data)
		fprintf(data, "# dqr-sim --what-if all: %s, routing %s\n"
			"# n\tname\tkind\tentries\tstages\tdrains\tlost_pairs"
			"\tverdict(0 survived,1 lost,2 unsafe)\tms\n",
			s->in.name, s->in.routing);
	/* --faults M: M of them, spread evenly over cables and switches */
	if (s->o->faults_set && s->o->faults < n)
		m = s->o->faults;
	for (i = 0; i < m && !ret; i++) {
		if (nth_fault(s, (uint32_t)((uint64_t)i * n / m), &fa))
			return -1;
		ret = run_fault(s, &fa, parent, 0, &w);
		if (!ret) {
			sum_add(&t, &fa, &w);
			if (s->o->json) {
				if (i)
					putchar(',');
				print_result_json(&fa, &w);
			} else {
				line_text(&fa, &w);
			}
			if (data)
				line_data(data, i, &fa, &w);
		}
		dqr_what_if_release(&w.a);
		free(fa.ports);
	}
	if (ret)
		return -1;
	t.ms_wall = dqr_now_ms() - t0;
	if (s->o->json)
		summary_json(&t);
	else
		summary_text(&t);
	return t.survived == t.faults ? 0 : 1;
}

/* ------------------------------------------------------------ entry */

int what_if(struct sim *s)
{
	uint32_t *parent;
	FILE *data = NULL;
	int ret;

	parent = malloc(sizeof(uint32_t) * (s->in.f->num_nodes + 1));
	if (!parent)
		return -1;
	if (!strcmp(s->o->what_if, "tolerance"))
		return what_if_tolerance(s);
	if (strcmp(s->o->what_if, "all")) {
		ret = what_if_one(s, parent);
		free(parent);
		return ret;
	}
	if (s->o->data_path) {
		data = fopen(s->o->data_path, "w");
		if (!data) {
			fprintf(stderr, PROG ": cannot write %s: %s\n",
				s->o->data_path, strerror(errno));
			free(parent);
			return 2;
		}
	}
	ret = what_if_all(s, parent, data);
	free(parent);
	if (data && fclose(data) && ret >= 0) {
		fprintf(stderr, PROG ": cannot write %s: %s\n",
			s->o->data_path, strerror(errno));
		return 2;
	}
	return ret;
}
