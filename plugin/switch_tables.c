/*
 * switch_tables.c - the model's tables into OpenSM's switches and back:
 * the bottom of the plugin, called by dqr_reconfig.c and dqr_transition.c.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_sm.h>
#include <opensm/osm_ucast_mgr.h>

#include "util/mem.h"
#include "util/timing.h"

#include "fabric/node_index.h"
#include "fabric/sm_paths.h"
#include "switch_tables.h"

/*
 * Calls fn for every OpenSM switch that f knows, with its switch index in
 * f: tables of the model and OpenSM's switches meet by node GUID.
 */
static int each_switch(osm_opensm_t *osm, const struct dqr_fabric *f,
		       void (*fn)(osm_switch_t *p_sw, uint32_t sw, void *arg),
		       void *arg)
{
	cl_qmap_t *tbl = &osm->subn.sw_guid_tbl;
	struct dqr_node_index *ix = dqr_node_index_build(f);
	cl_map_item_t *item;

	if (!ix)
		return -1;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *p_sw = (osm_switch_t *)item;
		uint64_t guid = cl_ntoh64(osm_node_get_node_guid(p_sw->p_node));
		uint32_t node = dqr_node_index_guid(ix, guid);

		if (node != DQR_NONE && dqr_is_switch(f, node))
			fn(p_sw, f->nodes[node].sw_index, arg);
	}
	dqr_node_index_free(ix);
	return 0;
}

/* The LIDs of t that p_sw's tables have room for: 1 .. top. */
static uint32_t top_lid(const osm_switch_t *p_sw, const struct dqr_lfts *t,
			const uint8_t *table)
{
	uint32_t top = p_sw->max_lid_ho;

	if (!table)
		return 0;
	if (top >= t->lid_count)
		top = t->lid_count - 1;
	if (top >= p_sw->lft_size)
		top = p_sw->lft_size - 1;
	return top;
}

uint32_t dqr_sm_port(osm_opensm_t *osm, const struct dqr_fabric *f)
{
	osm_port_t *port = osm_get_port_by_guid(&osm->subn,
						osm->subn.sm_port_guid);
	uint32_t node;
	unsigned p;

	if (!port || !port->p_node || !port->p_physp)
		return DQR_NONE;
	node = dqr_fabric_find_guid(f,
			cl_ntoh64(osm_node_get_node_guid(port->p_node)));
	if (node == DQR_NONE)
		return DQR_NONE;
	p = dqr_is_switch(f, node) ? 0 :
	    osm_physp_get_port_num(port->p_physp);
	if (p > f->nodes[node].num_ports)
		return DQR_NONE;
	return dqr_port_index(f, node, p);
}

/*
 * The directed-route tree of f from the SM's port (sm_paths.h), into
 * *via, and its root; NULL when the SM's port is unknown or out of
 * memory.
 */
static uint32_t *sm_tree(osm_opensm_t *osm, const struct dqr_fabric *f,
			 uint32_t *root)
{
	uint32_t *via;

	*root = dqr_sm_port(osm, f);
	if (*root == DQR_NONE)
		return NULL;
	via = malloc(sizeof(*via) * (f->num_nodes + 1));
	if (via && dqr_sm_tree(f, *root, NULL, via)) {
		free(via);
		via = NULL;
	}
	return via;
}

/*
 * For each switch of f, 1 when the SM cannot reach it over f's cables:
 * nothing can be uploaded to it.  OpenSM drops such a switch at its
 * next sweep; before that (a fast reaction) it is still there, cut off.
 * NULL when the SM's port is unknown (every switch counts as reachable)
 * or out of memory.
 */
static uint8_t *cut_off_switches(osm_opensm_t *osm,
				 const struct dqr_fabric *f)
{
	uint32_t sw, node, root, *via = sm_tree(osm, f, &root);
	uint8_t *cut = via ? calloc(f->num_switches + 1, 1) : NULL;

	for (sw = 0; cut && sw < f->num_switches; sw++) {
		node = f->switches[sw];
		cut[sw] = node != f->ports[root].node && via[node] == DQR_NONE;
	}
	free(via);
	return cut;
}

struct write_arg {
	const struct dqr_lfts *t;
	const uint8_t *cut;
};

static void write_one(osm_switch_t *p_sw, uint32_t sw, void *arg)
{
	const struct write_arg *a = arg;
	uint32_t lid, top = top_lid(p_sw, a->t, p_sw->new_lft);

	if (a->cut && a->cut[sw]) {
		/* what it holds: then nothing goes to it */
		memcpy(p_sw->new_lft, p_sw->lft, p_sw->lft_size);
		return;
	}
	for (lid = 1; lid <= top; lid++)
		p_sw->new_lft[lid] = dqr_lft_get(a->t, sw, lid);
}

/*
 * new_lft starts the pass as all OSM_NO_PATH; afterwards OpenSM sends
 * only the 64-LID blocks that differ from what the switch holds, so
 * unchanged entries cost nothing.
 */
int dqr_write_tables(osm_opensm_t *osm, const struct dqr_fabric *f,
		     const struct dqr_lfts *t)
{
	struct write_arg a = { t, cut_off_switches(osm, f) };
	int ret = each_switch(osm, f, write_one, &a);

	free((void *)a.cut);
	if (!ret)
		return 0;
	OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR DQ19: dqr: out of memory "
		"writing the tables; failing this routing pass\n");
	return -1;
}

struct read_arg {
	struct dqr_lfts *t;
	const uint8_t *cut;
};

static void read_one(osm_switch_t *p_sw, uint32_t sw, void *arg)
{
	struct read_arg *a = arg;
	uint32_t lid, top = top_lid(p_sw, a->t, p_sw->lft);

	if (a->cut && a->cut[sw])
		return;
	for (lid = 1; lid <= top; lid++)
		dqr_lft_set(a->t, sw, lid, p_sw->lft[lid]);
}

/*
 * p_sw->lft is what was uploaded and answered.  A switch OpenSM no
 * longer has (a switch fault), or that the SM cannot reach, keeps
 * target's row: nothing can be uploaded to it, so a plan must not
 * count its entries.
 */
struct dqr_lfts *dqr_read_held(osm_opensm_t *osm, const struct dqr_fabric *f,
			       const struct dqr_lfts *target)
{
	struct read_arg a = { dqr_lfts_clone(target), NULL };

	if (!a.t)
		return NULL;
	a.cut = cut_off_switches(osm, f);
	if (each_switch(osm, f, read_one, &a)) {
		dqr_lfts_free(a.t);
		a.t = NULL;
	}
	free((void *)a.cut);
	return a.t;
}

void dqr_keep_tables(osm_opensm_t *osm)
{
	cl_qmap_t *tbl = &osm->subn.sw_guid_tbl;
	cl_map_item_t *item;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *p_sw = (osm_switch_t *)item;

		if (p_sw->new_lft && p_sw->lft)
			memcpy(p_sw->new_lft, p_sw->lft, p_sw->lft_size);
	}
}

/* 1 when some switch does not hold its new_lft (a Set failed or is out). */
static int any_pending(osm_opensm_t *osm)
{
	cl_qmap_t *tbl = &osm->subn.sw_guid_tbl;
	cl_map_item_t *item;

	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *p_sw = (osm_switch_t *)item;
		size_t n = (size_t)p_sw->max_lid_ho + 1;

		if (!p_sw->new_lft || !p_sw->lft)
			continue;
		if (n > p_sw->lft_size)
			n = p_sw->lft_size;
		if (memcmp(p_sw->lft, p_sw->new_lft, n))
			return 1;
	}
	return 0;
}

/*
 * OpenSM's own upload of new_lft, in the middle of the routing pass, and
 * the wait for its answers.  The answers are stored by OpenSM's receiver
 * threads under OpenSM's lock, which the routing pass holds: it is let
 * go while waiting (nothing of the pass is read by others meanwhile but
 * what the SA reads anyway).
 */
int dqr_push_tables_now(osm_opensm_t *osm, unsigned timeout_ms)
{
	double t0 = dqr_now_ms();
	int pending;

	osm_ucast_mgr_set_fwd_tables(&osm->sm.ucast_mgr);
	CL_PLOCK_RELEASE(&osm->lock);
	while (osm->stats.qp0_mads_outstanding &&
	       dqr_now_ms() - t0 < timeout_ms)
		usleep(200);
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	pending = osm->stats.qp0_mads_outstanding || any_pending(osm);
	return pending;
}

/*
 * A block not yet answered holds this in every entry: a port no switch
 * with fewer ports can hold in all 64 entries of a block.
 */
#define UNREAD_PORT 0xfe

static uint32_t lft_blocks(const osm_switch_t *p_sw)
{
	uint32_t n = p_sw->max_lid_ho / IB_SMP_DATA_SIZE + 1;

	if ((size_t)n * IB_SMP_DATA_SIZE > p_sw->lft_size)
		n = p_sw->lft_size / IB_SMP_DATA_SIZE;
	return n;
}

static int block_unread(const osm_switch_t *p_sw, uint32_t b)
{
	const uint8_t *p = p_sw->lft + (size_t)b * IB_SMP_DATA_SIZE;
	uint32_t i;

	if (p_sw->num_ports > UNREAD_PORT)
		return 0;
	for (i = 0; i < IB_SMP_DATA_SIZE; i++)
		if (p[i] != UNREAD_PORT)
			return 0;
	return 1;
}

static uint32_t ask_blocks(osm_opensm_t *osm, osm_switch_t *p_sw)
{
	osm_physp_t *p_physp = osm_node_get_physp_ptr(p_sw->p_node, 0);
	osm_madw_context_t context;
	uint32_t b, n = lft_blocks(p_sw), asked = 0;

	if (!p_physp || !p_sw->lft)
		return 0;
	memset(&context, 0, sizeof(context));
	context.lft_context.node_guid = osm_node_get_node_guid(p_sw->p_node);
	context.lft_context.set_method = FALSE;
	for (b = 0; b < n; b++) {
		memset(p_sw->lft + (size_t)b * IB_SMP_DATA_SIZE, UNREAD_PORT,
		       IB_SMP_DATA_SIZE);
		if (osm_req_get(&osm->sm, osm_physp_get_dr_path_ptr(p_physp),
				IB_MAD_ATTR_LIN_FWD_TBL, cl_hton32(b), FALSE,
				ib_port_info_get_m_key(&p_physp->port_info),
				0, CL_DISP_MSGID_NONE, &context) == IB_SUCCESS)
			asked++;
	}
	return asked;
}

void dqr_fetch_tables(osm_opensm_t *osm, unsigned timeout_ms,
		      uint32_t *asked, uint32_t *unanswered)
{
	cl_qmap_t *tbl = &osm->subn.sw_guid_tbl;
	cl_map_item_t *item;
	double t0 = dqr_now_ms();
	uint32_t b, n;

	*asked = *unanswered = 0;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item))
		*asked += ask_blocks(osm, (osm_switch_t *)item);
	/* the answers are stored under OpenSM's lock, which the pass holds */
	CL_PLOCK_RELEASE(&osm->lock);
	while (osm->stats.qp0_mads_outstanding &&
	       dqr_now_ms() - t0 < timeout_ms)
		usleep(200);
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item)) {
		osm_switch_t *p_sw = (osm_switch_t *)item;

		if (!p_sw->lft)
			continue;
		n = lft_blocks(p_sw);
		for (b = 0; b < n; b++)
			*unanswered += block_unread(p_sw, b);
	}
}

int dqr_lft_wait_init(struct dqr_lft_wait *w)
{
	memset(w, 0, sizeof(*w));
	return dqr_wait_init(&w->sync);
}

void dqr_lft_wait_destroy(struct dqr_lft_wait *w)
{
	free(w->sent);
	dqr_wait_destroy(&w->sync);
}

static int note_sent(struct dqr_lft_wait *w, const osm_switch_t *p_sw,
		     uint16_t block)
{
	if (dqr_grow((void **)&w->sent, &w->cap, w->num + 1, sizeof(*w->sent),
		     64))
		return -1;
	w->sent[w->num].p_sw = p_sw;
	w->sent[w->num].block = block;
	w->sent[w->num].answered = 0;
	w->num++;
	return 0;
}

/* The blocks of p_sw that differ, noted in w; -1 when out of memory. */
static int note_changed(struct dqr_lft_wait *w, const osm_switch_t *p_sw)
{
	uint32_t b, n = lft_blocks(p_sw);
	size_t off;

	if (!p_sw->new_lft || !p_sw->lft)
		return 0;
	for (b = 0; b < n; b++) {
		off = (size_t)b * IB_SMP_DATA_SIZE;
		if (memcmp(p_sw->new_lft + off, p_sw->lft + off,
			   IB_SMP_DATA_SIZE) && note_sent(w, p_sw, b))
			return -1;
	}
	return 0;
}

/*
 * The directed route to p_sw over f (sm_paths.h), or OpenSM's own when
 * f is NULL.  0, or -1 when f's cables do not reach it.
 */
static int route_to(const osm_switch_t *p_sw, const struct dqr_fabric *f,
		    const struct dqr_node_index *ix, const uint32_t *via,
		    uint32_t root, osm_dr_path_t *path)
{
	osm_physp_t *p0 = osm_node_get_physp_ptr(p_sw->p_node, 0);
	uint8_t out[DQR_SM_HOPS_MAX];
	uint32_t node;
	int hops;

	if (!f) {
		*path = *osm_physp_get_dr_path_ptr(p0);
		return 0;
	}
	node = dqr_node_index_guid(ix,
			cl_ntoh64(osm_node_get_node_guid(p_sw->p_node)));
	if (node == DQR_NONE)
		return -1;
	hops = dqr_sm_route(f, via, root, node, out);
	if (hops < 0)
		return -1;
	memset(path, 0, sizeof(*path));
	path->hop_count = (uint8_t)hops;
	memcpy(path->path + 1, out, (size_t)hops);
	return 0;
}

static int send_block(osm_opensm_t *osm, osm_switch_t *p_sw, uint16_t b,
		      const osm_dr_path_t *path)
{
	osm_physp_t *p_physp = osm_node_get_physp_ptr(p_sw->p_node, 0);
	osm_madw_context_t context;
	size_t off = (size_t)b * IB_SMP_DATA_SIZE;

	memset(&context, 0, sizeof(context));
	context.lft_context.node_guid = osm_node_get_node_guid(p_sw->p_node);
	context.lft_context.set_method = TRUE;
	memset(p_sw->lft + off, 0, IB_SMP_DATA_SIZE);
	if (osm_req_set(&osm->sm, path, p_sw->new_lft + off,
			IB_SMP_DATA_SIZE, IB_MAD_ATTR_LIN_FWD_TBL,
			cl_hton32(b), FALSE,
			ib_port_info_get_m_key(&p_physp->port_info), 0,
			CL_DISP_MSGID_NONE, &context) == IB_SUCCESS)
		return 0;
	OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR DQ38: dqr: cannot send LFT "
		"block %u to switch 0x%016" PRIx64 "\n", b,
		cl_ntoh64(context.lft_context.node_guid));
	return -1;
}

/* Sends what w notes, each by its route; the blocks that went. */
static uint32_t send_noted(osm_opensm_t *osm, struct dqr_lft_wait *w,
			   const struct dqr_fabric *f)
{
	const osm_switch_t *last = NULL;
	struct dqr_node_index *ix = NULL;
	uint32_t i, root = 0, *via = NULL, sent = 0;
	osm_dr_path_t path;
	int ok = 0;

	if (f) {
		via = sm_tree(osm, f, &root);
		ix = via ? dqr_node_index_build(f) : NULL;
		if (!ix) {
			free(via);
			return 0;
		}
	}
	for (i = 0; i < w->num; i++) {
		osm_switch_t *p_sw = (osm_switch_t *)w->sent[i].p_sw;

		if (p_sw != last)
			ok = !route_to(p_sw, f, ix, via, root, &path);
		last = p_sw;
		if (ok && !send_block(osm, p_sw, w->sent[i].block, &path))
			sent++;
	}
	dqr_node_index_free(ix);
	free(via);
	return sent;
}

uint32_t dqr_send_blocks(osm_opensm_t *osm, const struct dqr_fabric *f,
			 struct dqr_lft_wait *w, unsigned timeout_ms,
			 unsigned per_block_ms, uint32_t *sent)
{
	cl_qmap_t *tbl = &osm->subn.sw_guid_tbl;
	cl_map_item_t *item;
	struct timespec until;
	uint32_t left;

	*sent = 0;
	pthread_mutex_lock(&w->sync.lock);
	w->num = 0;
	for (item = cl_qmap_head(tbl); item != cl_qmap_end(tbl);
	     item = cl_qmap_next(item))
		if (note_changed(w, (osm_switch_t *)item)) {
			w->num = 0;
			pthread_mutex_unlock(&w->sync.lock);
			return UINT32_MAX;
		}
	w->left = w->num;
	pthread_mutex_unlock(&w->sync.lock);
	/* no answer can come before the lock is let go: the receiver
	 * takes it */
	*sent = send_noted(osm, w, f);
	CL_PLOCK_RELEASE(&osm->lock);
	until = dqr_deadline(timeout_ms + (double)*sent * per_block_ms);
	pthread_mutex_lock(&w->sync.lock);
	while (w->left &&
	       dqr_wait_until(&w->sync, &until) == 0)
		;
	left = w->left;
	w->num = 0;
	pthread_mutex_unlock(&w->sync.lock);
	CL_PLOCK_EXCL_ACQUIRE(&osm->lock);
	return left;
}

void dqr_lft_answered(struct dqr_lft_wait *w,
		      const osm_epi_lft_change_event_t *ev)
{
	uint32_t i;

	if (!(ev->flags & LFT_CHANGED_BLOCK))
		return;
	pthread_mutex_lock(&w->sync.lock);
	for (i = 0; i < w->num; i++) {
		struct dqr_lft_sent *s = &w->sent[i];

		if (s->p_sw != ev->p_sw || s->block != ev->block_num ||
		    s->answered)
			continue;
		s->answered = 1;
		if (!--w->left)
			pthread_cond_broadcast(&w->sync.cond);
		break;
	}
	pthread_mutex_unlock(&w->sync.lock);
}

int dqr_tables_blank(const struct dqr_lfts *t)
{
	uint32_t sw, lid;
	uint8_t p;

	for (sw = 0; sw < t->num_switches; sw++)
		for (lid = 1; lid < t->lid_count; lid++) {
			p = dqr_lft_get(t, sw, lid);
			if (p != 0 && p != DQR_NO_PATH)
				return 0;
		}
	return 1;
}
