/*
 * trap_ports.h - which ports of the switches that sent trap 128 went
 * down: their PortInfo, asked through OpenSM's own request path.
 *
 * A hook in front of OpenSM's PortInfo receiver (installed before
 * OpenSM binds) notes the answers to the plugin's own Gets, and hands
 * those that say Down to the receiver, so that OpenSM's model unlinks
 * the ports that went down as its sweep would (trap_ports.c says why
 * not the others).  The Gets take directed routes over the cabling as
 * known before the trap: OpenSM's own route to a trapping switch may
 * cross the cable that just went down.  Called by dqr_fast.c, under
 * OpenSM's lock unless said otherwise.
 */
#ifndef DQR_TRAP_PORTS_H
#define DQR_TRAP_PORTS_H

#include <stdint.h>

/* first: it decides the layout of OpenSM's structs (perfmgr, pthread) */
#include <opensm/osm_config.h>
#include <opensm/osm_opensm.h>

#include "dqr_wait.h"
#include "fabric/fabric.h"

/* One port asked for its PortInfo. */
struct dqr_port_ask {
	uint32_t node;		/* its switch, a node of cur (and ref) */
	uint64_t guid;		/* its node GUID, host order */
	uint8_t port;
	uint8_t answered;
	uint8_t state;		/* PortInfo's PortState; 0: an error */
	uint8_t again;		/* asked by the second route too */
	double t_sent;		/* when asked by the first */
	uint32_t seq;		/* its place in asks, in the order sent */
};

/* A trapping switch asked, and its second route (see .c). */
struct dqr_asked_switch {
	uint32_t node;		/* a node of cur (and ref) */
	uint64_t guid;
	int routed;		/* first (and second) set */
	int has_second;
	osm_dr_path_t first, second;
	/* asked for every port (a trapping switch, the far end of a
	 * cable found down): its neighbours are asked around it when it
	 * stays silent, at once when the SM does not reach it (around);
	 * around_asked once they were (.c: ask_far_end) */
	uint8_t whole, around, around_asked;
};

struct dqr_trap_ports {
	osm_opensm_t *osm;
	/* sync.lock guards asks, num_asks, unanswered and quit: the hook
	 * runs on OpenSM's dispatcher threads */
	struct dqr_wait sync;
	struct dqr_port_ask *asks;
	uint32_t num_asks, cap_asks, unanswered;
	uint32_t answered_upto;		/* 1 + the last seq answered */
	double t_answer;		/* when the last answer came */
	int quit;
	/* the routes, over the cabling before the trap less what the
	 * answers found down so far (work) */
	const struct dqr_fabric *cur;
	struct dqr_fabric *work;
	uint32_t root;			/* the SM's port in cur */
	uint32_t *via, *via2;		/* the tree, and the second's */
	uint8_t *avoid;			/* ports the second keeps off */
	struct dqr_asked_switch *sws;
	uint32_t num_sws, cap_sws;
	uint32_t answers_widened;	/* answers the last widening saw */
};

/* 0, or -1 (nothing to destroy then). */
int dqr_trap_ports_init(struct dqr_trap_ports *t, osm_opensm_t *osm);
void dqr_trap_ports_destroy(struct dqr_trap_ports *t);

/*
 * Puts the hook in front of OpenSM's PortInfo receiver; before OpenSM
 * binds (from the plugin's create), when no MAD can cross.  OpenSM
 * unregisters it at shutdown, before the plugin goes.  0, or -1 with
 * OpenSM's own receiver back in place.
 */
int dqr_trap_ports_hook(struct dqr_trap_ports *t);

/*
 * A new round over cur (the cabling before the trap; the caller keeps
 * it until dqr_trap_ports_end): forgets the answers of the last one.
 * 0, or -1 (out of memory, or the SM's port is not in cur).
 */
int dqr_trap_ports_begin(struct dqr_trap_ports *t,
			 const struct dqr_fabric *cur);
void dqr_trap_ports_end(struct dqr_trap_ports *t);

/*
 * Asks the switch at lid for the PortInfo of its every port, by its
 * shortest route.  0; 1 when the cables known down cut it off from the
 * SM (nothing to ask); -1 with why (a LID no switch of cur has).
 */
int dqr_trap_ports_ask(struct dqr_trap_ports *t, uint16_t lid, char *why,
		       size_t len);

/*
 * After a wait: the routes keep off the cables found down, and the far
 * end of each (a switch) is asked for every port and its neighbours
 * for the port that faces it, since a dying switch's other neighbours
 * may never trap.  The ports newly asked (0: the picture is complete),
 * or -1 when out of memory.
 */
int dqr_trap_ports_widen(struct dqr_trap_ports *t);

/*
 * Lets OpenSM's lock go and waits until every port asked is answered,
 * at most timeout_ms and per_ask_ms for each port asked (they share
 * OpenSM's queue of SMPs): what is not answered after a short grace is
 * asked again by the second route.  Takes the lock again.  1 when all are, or
 * when those that are not are on switches that answered nothing and
 * that the ports found down cut off from the SM (a dying switch's own
 * trap): their ports stay unanswered in asks.
 */
int dqr_trap_ports_wait(struct dqr_trap_ports *t, unsigned timeout_ms,
			double per_ask_ms);

/* What the answers said beside the ports that are down. */
struct dqr_trap_seen {
	int coming_up;		/* a port Init or Armed: only a sweep
				 * activates it */
	uint32_t errors;	/* answers with an error status */
	uint64_t error_guid;	/* the first of them */
	uint8_t error_port;
};

/*
 * The ports answered not Active, as ports of f (the reference, or a
 * projection of it), into *down (the caller frees it), and what else
 * the answers said.  Their count, or -1 when out of memory.  Any
 * thread: answers may still come.
 */
int64_t dqr_trap_ports_down(struct dqr_trap_ports *t,
			    const struct dqr_fabric *f, uint32_t **down,
			    struct dqr_trap_seen *seen);

/* Ends a wait at once (any thread): the plugin is going. */
void dqr_trap_ports_quit(struct dqr_trap_ports *t);

#endif
