/*
 * route_walk.h - following the LFTs towards one destination LID.
 *
 * InfiniBand forwards by destination only, so the routes of every source to
 * one DLID form a forest over the switches.  Walking it once per DLID, with
 * every switch's outcome memoised, costs O(switches) per DLID instead of
 * O(sources x hops).
 */
#ifndef DQR_ROUTE_WALK_H
#define DQR_ROUTE_WALK_H

#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "util/names.h"

/* The outcomes, the first one 0, with their names in reports. */
#define DQR_WALK_RESULTS(X)						\
	/* reaches the DLID */						\
	X(DQR_WALK_OK, "ok")						\
	/* an entry on the way is DQR_NO_PATH */			\
	X(DQR_WALK_NO_PATH, "no-path")					\
	/* an entry names a port without a link */			\
	X(DQR_WALK_DEAD_PORT, "dead-port")				\
	/* the route comes back to a switch: dropped where an entry	\
	 * sends it back along its cable (fabric/relay.h), else it	\
	 * circles until its LifeTime ends */				\
	X(DQR_WALK_LOOP, "loop")					\
	/* delivered to an end port not owning it */			\
	X(DQR_WALK_WRONG_END, "wrong-end")

enum dqr_walk_result {
	DQR_WALK_RESULTS(DQR_ENUM_ID)
	DQR_WALK_NUM_RESULTS
};
/* r's name in reports ("ok", "loop", ...); "?" for a bad value. */
const char *dqr_walk_result_name(enum dqr_walk_result r);

/* What a packet for one DLID does when it enters a switch. */
struct dqr_walk_state {
	uint32_t fail_sw;	/* switch index where it failed, when not OK */
	uint8_t result;		/* enum dqr_walk_result */
	uint8_t hops;		/* links from this switch to the DLID when OK */
	uint8_t on_loop;	/* this switch's own entry closes a loop */
};

/*
 * Fills st[switch index] for DLID lid.  scratch must hold num_switches
 * entries.  A DLID owned by nobody makes every switch fail (WRONG_END at the
 * switch that delivers it, or whatever happens first).
 */
void dqr_walk_dlid(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t lid, struct dqr_walk_state *st, uint32_t *scratch);

/*
 * The switch a port belongs to or is cabled to: for a switch port, its own
 * switch index; for a CA port, the switch index of its peer.  DQR_NONE if
 * the CA port is not cabled to a switch.
 */
uint32_t dqr_ingress_switch(const struct dqr_fabric *f, uint32_t port);

/*
 * The switch of the port that owns lid (dqr_ingress_switch()), or
 * DQR_NONE when no port owns it or its CA is not cabled to a switch.
 */
uint32_t dqr_lid_switch(const struct dqr_fabric *f, uint32_t lid);

/*
 * Routes among a set of switches, those whose level[switch index] is at
 * least least: the (source switch, DLID) pairs with both the source and
 * the DLID's switch in the set (*pairs), and how many of them are not
 * delivered (returned).  A switch's end ports inject where it does, so
 * a source switch stands for them.  O(switches) per DLID; -1 when out
 * of memory.
 */
int64_t dqr_unrouted_among(const struct dqr_fabric *f,
			   const struct dqr_lfts *t, const uint8_t *level,
			   uint8_t least, uint64_t *pairs);

#endif
