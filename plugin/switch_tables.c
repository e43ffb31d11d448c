/*
 * switch_tables.c - the model's tables into OpenSM's switches and back:
 * the bottom of the plugin, called by dqr_reconfig.c and dqr_transition.c.
 */
#include <stdint.h>
#include <string.h>
#include <unistd.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>
#include <opensm/osm_switch.h>
#include <opensm/osm_sm.h>
#include <opensm/osm_ucast_mgr.h>

#include "util/timing.h"

#include "fabric/node_index.h"
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

static void write_one(osm_switch_t *p_sw, uint32_t sw, void *arg)
{
	const struct dqr_lfts *t = arg;
	uint32_t lid, top = top_lid(p_sw, t, p_sw->new_lft);

	for (lid = 1; lid <= top; lid++)
		p_sw->new_lft[lid] = dqr_lft_get(t, sw, lid);
}

/*
 * new_lft starts the pass as all OSM_NO_PATH; afterwards OpenSM sends
 * only the 64-LID blocks that differ from what the switch holds, so
 * unchanged entries cost nothing.
 */
int dqr_write_tables(osm_opensm_t *osm, const struct dqr_fabric *f,
		     const struct dqr_lfts *t)
{
	if (!each_switch(osm, f, write_one, (void *)t))
		return 0;
	OSM_LOG(&osm->log, OSM_LOG_ERROR, "ERR DQ19: dqr: out of memory "
		"writing the tables; failing this routing pass\n");
	return -1;
}

static void read_one(osm_switch_t *p_sw, uint32_t sw, void *arg)
{
	struct dqr_lfts *t = arg;
	uint32_t lid, top = top_lid(p_sw, t, p_sw->lft);

	for (lid = 1; lid <= top; lid++)
		dqr_lft_set(t, sw, lid, p_sw->lft[lid]);
}

/*
 * p_sw->lft is what was uploaded and answered.  A switch OpenSM no
 * longer has (a switch fault) keeps target's row: nothing can be
 * uploaded to it, so a plan must not count its entries.
 */
struct dqr_lfts *dqr_read_held(osm_opensm_t *osm, const struct dqr_fabric *f,
			       const struct dqr_lfts *target)
{
	struct dqr_lfts *t = dqr_lfts_clone(target);

	if (t && each_switch(osm, f, read_one, t)) {
		dqr_lfts_free(t);
		t = NULL;
	}
	return t;
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
