/*
 * trap_ports.c - the PortInfo of trapping switches: routes that avoid
 * the fault, the Gets, the hook that notes their answers.
 *
 * Two routes per trapping switch, over the cabling before the trap: the
 * shortest, and one that shares neither its last cable nor a switch on
 * the way (but the one next to the SM's CA, which every route takes).
 * A single fault breaks at most one of the two.  The second goes only
 * for the ports the first has not answered after a short grace, so
 * that a healthy route costs no SMP that is bound to fail (OpenSM logs
 * each as an error).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_sm.h>

#include "fabric/sm_paths.h"
#include "fabric/topo_diff.h"
#include "switch_tables.h"
#include "trap_ports.h"
#include "util/mem.h"
#include "util/timing.h"

/*
 * OpenSM's PortInfo receiver (osm_port_info_rcv.c): exported by opensm,
 * declared in none of its installed headers.
 */
void osm_pi_rcv_process(void *context, void *data);

/*
 * The marker of the plugin's own Gets: pi_context's active_transition,
 * which OpenSM reads only for Sets (pi_rcv_process_set), so that an
 * answer to a Get of OpenSM's sweep sent before the trap is not taken
 * for a fresh one.
 */
#define OUR_GET TRUE

/*
 * What the shortest route has before the second one goes: GRACE_MS,
 * and QUEUE_MS more for each port asked before it and not answered yet
 * (the SMPs wait in one queue, a thousand of them when a spine dies:
 * an answer not come is late, not lost), or less once OVERTAKEN ports
 * asked after it were answered.
 */
#define GRACE_MS 5
#define QUEUE_MS 1.0
#define OVERTAKEN 8

/* 1 when ask a looks lost; t->sync.lock held. */
static int overdue(const struct dqr_trap_ports *t,
		   const struct dqr_port_ask *a, double now)
{
	double ahead = a->seq > t->answered_upto ?
		       a->seq - t->answered_upto : 0;

	if (a->answered || now - a->t_sent < GRACE_MS)
		return 0;
	return a->seq + OVERTAKEN < t->answered_upto ||
	       now - a->t_sent >= GRACE_MS + ahead * QUEUE_MS;
}

int dqr_trap_ports_init(struct dqr_trap_ports *t, osm_opensm_t *osm)
{
	memset(t, 0, sizeof(*t));
	t->osm = osm;
	return dqr_wait_init(&t->sync);
}

void dqr_trap_ports_destroy(struct dqr_trap_ports *t)
{
	dqr_trap_ports_end(t);
	free(t->asks);
	free(t->sws);
	dqr_wait_destroy(&t->sync);
}

static void mark_answer(struct dqr_trap_ports *t, uint64_t guid,
			uint8_t port, uint8_t state)
{
	uint32_t i;

	pthread_mutex_lock(&t->sync.lock);
	for (i = 0; i < t->num_asks; i++) {
		struct dqr_port_ask *a = &t->asks[i];

		if (a->guid != guid || a->port != port || a->answered)
			continue;
		a->answered = 1;
		a->state = state;
		if (a->seq + 1 > t->answered_upto)
			t->answered_upto = a->seq + 1;
		t->t_answer = dqr_now_ms();
		if (!--t->unanswered)
			pthread_cond_broadcast(&t->sync.cond);
		break;
	}
	pthread_mutex_unlock(&t->sync.lock);
}

/*
 * In front of OpenSM's receiver, on its dispatcher threads.  Every
 * answer but ours goes to OpenSM's receiver; of ours only those that
 * say Down, which it unlinks as its sweep would.  For a port that is
 * up the receiver asks the neighbour's NodeInfo, and a heavy sweep
 * that starts meanwhile counts that neighbour as discovered while its
 * first hop stops the probing of neighbours (in_sweep_hop_0): the sweep
 * then loses the switches behind it.  The MAD is freed after this
 * returns.
 */
static void pi_hook(void *context, void *data)
{
	struct dqr_trap_ports *t = context;
	osm_madw_t *p_madw = data;
	ib_smp_t *p_smp = osm_madw_get_smp_ptr(p_madw);
	osm_pi_context_t *pc = osm_madw_get_pi_context_ptr(p_madw);
	ib_port_info_t *pi = ib_smp_get_payload_ptr(p_smp);
	int ours = !pc->set_method && pc->active_transition == OUR_GET;
	uint64_t guid = cl_ntoh64(pc->node_guid);
	uint8_t port = (uint8_t)cl_ntoh32(p_smp->attr_mod);
	uint8_t state = ib_smp_get_status(p_smp) ? 0 :
			ib_port_info_get_port_state(pi);

	if (!ours || state == IB_LINK_DOWN)
		osm_pi_rcv_process(&t->osm->sm, data);
	if (ours)
		mark_answer(t, guid, port, state);
}

int dqr_trap_ports_hook(struct dqr_trap_ports *t)
{
	osm_sm_t *sm = &t->osm->sm;
	cl_disp_reg_handle_t h;

	cl_disp_unregister(sm->pi_disp_h);
	h = cl_disp_register(sm->p_disp, OSM_MSG_MAD_PORT_INFO, pi_hook, t);
	if (h != CL_DISP_INVALID_HANDLE) {
		sm->pi_disp_h = h;
		return 0;
	}
	sm->pi_disp_h = cl_disp_register(sm->p_disp, OSM_MSG_MAD_PORT_INFO,
					 osm_pi_rcv_process, sm);
	return -1;
}

int dqr_trap_ports_begin(struct dqr_trap_ports *t,
			 const struct dqr_fabric *cur)
{
	size_t n = cur->num_nodes + 1;

	dqr_trap_ports_end(t);
	pthread_mutex_lock(&t->sync.lock);
	t->num_asks = 0;
	t->unanswered = 0;
	t->answered_upto = 0;
	t->t_answer = 0;
	pthread_mutex_unlock(&t->sync.lock);
	t->num_sws = 0;
	t->answers_widened = 0;
	t->cur = cur;
	t->work = dqr_fabric_clone(cur);
	t->root = dqr_sm_port(t->osm, cur);
	t->via = malloc(sizeof(*t->via) * n);
	t->via2 = malloc(sizeof(*t->via2) * n);
	t->avoid = calloc(cur->num_ports + 1, 1);
	if (t->work && t->root != DQR_NONE && t->via && t->via2 &&
	    t->avoid && !dqr_sm_tree(t->work, t->root, NULL, t->via))
		return 0;
	dqr_trap_ports_end(t);
	return -1;
}

void dqr_trap_ports_end(struct dqr_trap_ports *t)
{
	dqr_fabric_free(t->work);
	free(t->via);
	free(t->via2);
	free(t->avoid);
	t->work = NULL;
	t->via = t->via2 = NULL;
	t->avoid = NULL;
	t->cur = NULL;
}

static void to_dr_path(osm_dr_path_t *path, const uint8_t *out, int hops)
{
	memset(path, 0, sizeof(*path));
	path->hop_count = (uint8_t)hops;
	memcpy(path->path + 1, out, (size_t)hops);
}

/*
 * The shortest route to node into *first, the second into s; 0, or -1
 * when the SM does not reach node.
 */
static int routes_to(struct dqr_trap_ports *t, uint32_t node,
		     struct dqr_asked_switch *s)
{
	const struct dqr_fabric *f = t->work;
	uint32_t n, start = f->ports[t->root].node;
	uint8_t out[DQR_SM_HOPS_MAX];
	int hops;

	s->has_second = 0;
	hops = dqr_sm_route(f, t->via, t->root, node, out);
	if (hops < 0)
		return -1;
	to_dr_path(&s->first, out, hops);
	if (!hops)
		return 0;	/* the SM's own switch */
	memset(t->avoid, 0, f->num_ports);
	t->avoid[t->via[node]] = 1;
	for (n = f->ports[t->via[node]].node; n != start;
	     n = f->ports[t->via[n]].node)
		if (t->via[n] != t->root)
			memset(t->avoid + f->nodes[n].port_base, 1,
			       f->nodes[n].num_ports + 1u);
	if (dqr_sm_tree(f, t->root, t->avoid, t->via2))
		return 0;
	hops = dqr_sm_route(f, t->via2, t->root, node, out);
	if (hops >= 0) {
		to_dr_path(&s->second, out, hops);
		s->has_second = 1;
	}
	return 0;
}

static struct dqr_asked_switch *new_switch(struct dqr_trap_ports *t)
{
	if (dqr_grow((void **)&t->sws, &t->cap_sws, t->num_sws + 1,
		     sizeof(*t->sws), 16))
		return NULL;
	return &t->sws[t->num_sws++];
}

/* 0 when added, 1 when asked before, -1 out of memory. */
static int add_ask(struct dqr_trap_ports *t, uint32_t node, uint64_t guid,
		   uint8_t port)
{
	struct dqr_port_ask *a;
	uint32_t i;

	pthread_mutex_lock(&t->sync.lock);
	for (i = 0; i < t->num_asks; i++)
		if (t->asks[i].guid == guid && t->asks[i].port == port) {
			pthread_mutex_unlock(&t->sync.lock);
			return 1;
		}
	if (dqr_grow((void **)&t->asks, &t->cap_asks, t->num_asks + 1,
		     sizeof(*t->asks), 64)) {
		pthread_mutex_unlock(&t->sync.lock);
		return -1;
	}
	a = &t->asks[t->num_asks++];
	a->node = node;
	a->guid = guid;
	a->port = port;
	a->answered = 0;
	a->state = 0;
	a->again = 0;
	a->t_sent = dqr_now_ms();
	a->seq = t->num_asks - 1;
	t->unanswered++;
	pthread_mutex_unlock(&t->sync.lock);
	return 0;
}

static int get_port_info(struct dqr_trap_ports *t, osm_node_t *node,
			 uint8_t port, const osm_dr_path_t *path)
{
	osm_physp_t *p0 = osm_node_get_physp_ptr(node, 0);
	osm_physp_t *p = osm_node_get_physp_ptr(node, port);
	osm_madw_context_t context;

	memset(&context, 0, sizeof(context));
	context.pi_context.node_guid = osm_node_get_node_guid(node);
	context.pi_context.port_guid = osm_physp_get_port_guid(p);
	context.pi_context.active_transition = OUR_GET;
	return osm_req_get(&t->osm->sm, path, IB_MAD_ATTR_PORT_INFO,
			   cl_hton32(port), FALSE,
			   ib_port_info_get_m_key(&p0->port_info), 0,
			   CL_DISP_MSGID_NONE, &context) == IB_SUCCESS ? 0 : -1;
}

/*
 * The entry of switch node (of t->cur), a new one (routes unset) when
 * none; NULL when out of memory.
 */
static struct dqr_asked_switch *asked_switch(struct dqr_trap_ports *t,
					     uint32_t node)
{
	struct dqr_asked_switch *s;
	uint32_t k;

	for (k = 0; k < t->num_sws; k++)
		if (t->sws[k].node == node)
			return &t->sws[k];
	s = new_switch(t);
	if (s) {
		memset(s, 0, sizeof(*s));
		s->node = node;
		s->guid = t->cur->nodes[node].guid;
	}
	return s;
}

/*
 * Asks switch node of t->work for the PortInfo of port pn, or of every
 * port (pn 0), by its shortest route; what was asked before is not
 * asked again.  The ports asked, or -1 when the SM does not reach the
 * switch (or OpenSM does not know it) or out of memory.
 */
static int ask_node(struct dqr_trap_ports *t, uint32_t node, unsigned pn)
{
	const struct dqr_fabric *f = t->work;
	uint64_t guid = f->nodes[node].guid;
	struct dqr_asked_switch *s;
	osm_switch_t *p_sw;
	unsigned i, lo = pn ? pn : 1, hi = pn ? pn : f->nodes[node].num_ports;
	int ret, n = 0;

	p_sw = osm_get_switch_by_guid(&t->osm->subn, cl_hton64(guid));
	s = asked_switch(t, node);
	if (!p_sw || !s)
		return -1;
	/* if it stays silent, its neighbours are asked */
	if (!pn)
		s->whole = 1;
	if (!s->routed && routes_to(t, node, s))
		return -1;
	s->routed = 1;
	for (i = lo; i <= hi; i++) {
		if (!osm_node_get_physp_ptr(p_sw->p_node, i))
			continue;
		ret = add_ask(t, node, guid, (uint8_t)i);
		if (ret < 0 ||
		    (!ret && get_port_info(t, p_sw->p_node, (uint8_t)i,
					   &s->first)))
			return -1;
		n += !ret;
	}
	return n;
}

int dqr_trap_ports_ask(struct dqr_trap_ports *t, uint16_t lid, char *why,
		       size_t len)
{
	osm_port_t *port = osm_get_port_by_lid_ho(&t->osm->subn, lid);
	uint64_t guid;
	uint32_t at;

	if (!port || !port->p_node || !port->p_node->sw) {
		snprintf(why, len, "trap 128 names LID %u, which is no switch "
			 "OpenSM knows", lid);
		return -1;
	}
	guid = cl_ntoh64(osm_node_get_node_guid(port->p_node));
	at = dqr_fabric_find_guid(t->work, guid);
	if (at == DQR_NONE || !dqr_is_switch(t->work, at)) {
		snprintf(why, len, "trap 128 from switch 0x%016" PRIx64
			 " (%s), which the model does not know", guid,
			 port->p_node->print_desc);
		return -1;
	}
	/* cut off already: a dying switch's own trap, said by others */
	if (at != t->work->ports[t->root].node && t->via[at] == DQR_NONE)
		return 1;
	if (ask_node(t, at, 0) < 0) {
		snprintf(why, len, "out of memory, or no route to switch "
			 "0x%016" PRIx64 " (%s)", guid,
			 port->p_node->print_desc);
		return -1;
	}
	return 0;
}

/*
 * The ports answered not Active, as ports of f (the reference or a
 * projection of it: the same indices), into down (room for num_asks);
 * their count.  *seen: what else the answers said.  t->sync.lock held.
 */
static uint32_t answered_down(const struct dqr_trap_ports *t,
			      const struct dqr_fabric *f, uint32_t *down,
			      struct dqr_trap_seen *seen)
{
	uint32_t i, n = 0;

	memset(seen, 0, sizeof(*seen));
	for (i = 0; i < t->num_asks; i++) {
		const struct dqr_port_ask *a = &t->asks[i];

		if (!a->answered)
			continue;
		if (!a->state && !seen->errors++) {
			seen->error_guid = a->guid;
			seen->error_port = a->port;
		}
		seen->coming_up |= a->state == IB_LINK_INIT ||
				   a->state == IB_LINK_ARMED;
		if (!a->state || a->state == IB_LINK_ACTIVE)
			continue;
		down[n++] = dqr_port_index(f, a->node, a->port);
	}
	return n;
}

int64_t dqr_trap_ports_down(struct dqr_trap_ports *t,
			    const struct dqr_fabric *f, uint32_t **down,
			    struct dqr_trap_seen *seen)
{
	int64_t n = -1;

	pthread_mutex_lock(&t->sync.lock);
	*down = malloc(sizeof(**down) * (t->num_asks + 1));
	if (*down)
		n = answered_down(t, f, *down, seen);
	pthread_mutex_unlock(&t->sync.lock);
	return n;
}

/* 1 when switch guid answered none of the ports asked (t->sync.lock held). */
static int silent(const struct dqr_trap_ports *t, uint64_t guid)
{
	uint32_t i;

	for (i = 0; i < t->num_asks; i++)
		if (t->asks[i].guid == guid && t->asks[i].answered)
			return 0;
	return 1;
}

/* 1 when some port asked of switch guid looks lost; lock held. */
static int overdue_switch(const struct dqr_trap_ports *t, uint64_t guid,
			  double now)
{
	uint32_t i;

	for (i = 0; i < t->num_asks; i++)
		if (t->asks[i].guid == guid && overdue(t, &t->asks[i], now))
			return 1;
	return 0;
}

/*
 * Around a cable found down, the far end may have lost more (a dying
 * switch), whose traps may never come: they are routed by LID, and the
 * tables may lead them through what died.  So the far end is asked for
 * every port; if it has not answered after the grace (as any switch
 * asked for every port, a trapping one too: a dying switch may trap
 * itself), each of its neighbours is asked for the port that faces it
 * (around_silent): when they all say Down, it is cut off and its
 * silence is explained.
 */
static int ask_far_end(struct dqr_trap_ports *t, uint32_t x)
{
	struct dqr_asked_switch *s;
	int n;

	n = ask_node(t, x, 0);
	s = asked_switch(t, x);
	if (!s)
		return 0;
	if (n < 0) {
		/* the SM does not reach it: around it at once */
		s->whole = 1;
		s->around = 1;
	}
	return n > 0 ? n : 0;
}

/* The neighbours of switch x, each for the port that faces it. */
static void ask_around(struct dqr_trap_ports *t, uint32_t x)
{
	const struct dqr_fabric *f = t->cur;
	uint32_t q, peer;
	unsigned pn;

	dqr_for_each_linked_port(f, x, pn) {
		q = dqr_peer_port(f, dqr_port_index(f, x, pn));
		peer = f->ports[q].node;
		if (dqr_is_switch(f, peer))
			ask_node(t, peer, q - f->nodes[peer].port_base);
	}
}

/*
 * Asks around each switch asked for every port that has not answered
 * within the grace, or at once when the SM does not reach it.  The
 * ports newly asked.
 */
static int around_silent(struct dqr_trap_ports *t, double now)
{
	uint32_t k, before = t->num_asks;
	int quiet;

	for (k = 0; k < t->num_sws; k++) {
		struct dqr_asked_switch *s = &t->sws[k];

		if (!s->whole || s->around_asked)
			continue;
		pthread_mutex_lock(&t->sync.lock);
		quiet = silent(t, s->guid) &&
			(s->around || overdue_switch(t, s->guid, now));
		pthread_mutex_unlock(&t->sync.lock);
		if (!quiet)
			continue;
		s->around_asked = 1;
		ask_around(t, s->node);
	}
	return (int)(t->num_asks - before);
}

int dqr_trap_ports_widen(struct dqr_trap_ports *t)
{
	const struct dqr_fabric *cur = t->cur;
	struct dqr_topo_diff d = { 0 };
	struct dqr_trap_seen seen;
	uint32_t *down, n, i, q, x;
	int64_t got;
	int asked = 0;

	got = dqr_trap_ports_down(t, cur, &down, &seen);
	if (got < 0)
		return -1;
	n = (uint32_t)got;
	/* the routes from now on keep off what is known down */
	if (dqr_fabric_project_cut(t->work, cur, down, n, &d) ||
	    dqr_sm_tree(t->work, t->root, NULL, t->via)) {
		dqr_topo_diff_release(&d);
		free(down);
		return -1;
	}
	dqr_topo_diff_release(&d);
	for (i = 0; i < n; i++) {
		q = dqr_peer_port(cur, down[i]);
		x = q == DQR_NONE ? DQR_NONE : cur->ports[q].node;
		if (x != DQR_NONE && dqr_is_switch(cur, x))
			asked += ask_far_end(t, x);
	}
	asked += around_silent(t, dqr_now_ms());
	free(down);
	return asked;
}

/*
 * Asks again, by the second route, each port the first has not answered
 * within the grace.
 */
static void ask_again(struct dqr_trap_ports *t, double now)
{
	osm_switch_t *p_sw;
	uint32_t i, k;

	/* the hook notes answers without OpenSM's lock */
	pthread_mutex_lock(&t->sync.lock);
	for (i = 0; i < t->num_asks; i++) {
		struct dqr_port_ask *a = &t->asks[i];

		if (a->again || !overdue(t, a, now))
			continue;
		a->again = 1;
		for (k = 0; k < t->num_sws && t->sws[k].guid != a->guid; k++)
			;
		p_sw = osm_get_switch_by_guid(&t->osm->subn,
					      cl_hton64(a->guid));
		if (k < t->num_sws && t->sws[k].has_second && p_sw)
			get_port_info(t, p_sw->p_node, a->port,
				      &t->sws[k].second);
	}
	pthread_mutex_unlock(&t->sync.lock);
}

/*
 * 1 when every port not answered is on a switch that answered nothing
 * and that the cables found down cut off from the SM: a dying switch
 * may trap before its last cable goes, and no route reaches it then.
 * Its neighbours' answers say all there is to say.  t->sync.lock held.
 */
static int silence_explained(struct dqr_trap_ports *t)
{
	const struct dqr_fabric *cur = t->cur;
	struct dqr_topo_diff d = { 0 };
	struct dqr_trap_seen seen;
	struct dqr_fabric *f = NULL;
	uint32_t i, n, *down;
	int ok = 0;

	for (i = 0; i < t->num_asks; i++)
		if (!t->asks[i].answered && !silent(t, t->asks[i].guid))
			return 0;
	down = malloc(sizeof(*down) * (t->num_asks + 1));
	if (!down)
		return 0;
	n = answered_down(t, cur, down, &seen);
	f = dqr_fabric_clone(cur);
	if (!f || dqr_fabric_project_cut(f, cur, down, n, &d) ||
	    dqr_sm_tree(f, t->root, NULL, t->via2))
		goto out;
	ok = 1;
	for (i = 0; ok && i < t->num_asks; i++)
		ok = t->asks[i].answered ||
		     t->via2[t->asks[i].node] == DQR_NONE;
out:
	dqr_topo_diff_release(&d);
	dqr_fabric_free(f);
	free(down);
	return ok;
}

/*
 * 1 when every port asked is answered, or the silence of the rest is
 * explained; t->sync.lock held.  The explanation costs a copy of the
 * fabric and a pass over the ports asked for each one not answered: it
 * is looked for once answers stop coming for QUIET_MS.
 */
#define QUIET_MS 2.0
static int complete(struct dqr_trap_ports *t)
{
	return !t->unanswered ||
	       (dqr_now_ms() - t->t_answer >= QUIET_MS &&
		silence_explained(t));
}

/* Waits for an answer, OpenSM's lock let go, until ms from now. */
static void wait_slice(struct dqr_trap_ports *t, double ms)
{
	struct timespec until = dqr_deadline(ms);

	CL_PLOCK_RELEASE(&t->osm->lock);
	pthread_mutex_lock(&t->sync.lock);
	if (!complete(t) && !t->quit)
		dqr_wait_until(&t->sync, &until);
	pthread_mutex_unlock(&t->sync.lock);
	CL_PLOCK_EXCL_ACQUIRE(&t->osm->lock);
}

/* how often a wait looks at what to ask again */
#define SLICE_MS 1.0

int dqr_trap_ports_wait(struct dqr_trap_ports *t, unsigned timeout_ms,
			double per_ask_ms)
{
	double t0 = dqr_now_ms(), now;
	uint32_t answers, asks;
	int done;

	for (;;) {
		pthread_mutex_lock(&t->sync.lock);
		done = complete(t);
		asks = t->num_asks;
		answers = asks - t->unanswered;
		pthread_mutex_unlock(&t->sync.lock);
		now = dqr_now_ms();
		if (done || t->quit ||
		    now - t0 >= timeout_ms + asks * per_ask_ms)
			return done;
		/* a port found down: around it at once, not after the wait */
		if (answers != t->answers_widened) {
			t->answers_widened = answers;
			if (dqr_trap_ports_widen(t) < 0)
				return 0;
		}
		ask_again(t, now);
		around_silent(t, now);
		wait_slice(t, SLICE_MS);
	}
}

void dqr_trap_ports_quit(struct dqr_trap_ports *t)
{
	pthread_mutex_lock(&t->sync.lock);
	t->quit = 1;
	pthread_cond_broadcast(&t->sync.cond);
	pthread_mutex_unlock(&t->sync.lock);
}
