/*
 * relay.h - what an InfiniBand switch does with a unicast packet: the one
 * model every judgement of old and new routes together rests on (the
 * union check, the proof of DQR's plans, the drains, dqr-check's replay,
 * dqr-sim's soak and what-if).  Four rules of the InfiniBand Architecture
 * Specification, vol. 1:
 *
 *   1. the switch looks the packet's DLID up in its linear forwarding
 *      table when the packet arrives (the switch relay's forwarding
 *      decision), so a packet meets the entries in force at that moment,
 *      and keeps waiting for the port they chose when they change;
 *   2. a packet whose output port is not Active is discarded (counted in
 *      PortCounters:PortXmitDiscards);
 *   3. a unicast packet whose output port is the port it came in on is
 *      discarded (PortCounters:PortRcvSwitchRelayErrors, whose reasons
 *      are "DLID mapping, VL mapping, looping (output port = input
 *      port)");
 *   4. a packet older than the switch's LifeTime (SwitchInfo:
 *      LifeTimeValue, 4.096 us x 2^value) is discarded.
 *
 * Rules 2 and 3 say which hops a packet can make: dqr_relays().  Rules 1
 * and 4 are about time: a stage's entries meet the packets of the states
 * before it until two LifeTimes after it was answered (the drain,
 * doc/transitions.md), which the planner's time order and the plugin's
 * drain delay keep.
 *
 * A channel is named by the global index of its sending port; a switch's
 * out channel for port p is the index of that port when it is cabled.
 */
#ifndef DQR_RELAY_H
#define DQR_RELAY_H

#include <stdint.h>

#include "fabric/fabric.h"

/* Switch sw's channel out of port p, or DQR_NONE (port 0, no cable). */
static inline uint32_t dqr_out_channel(const struct dqr_fabric *f,
				       uint32_t sw, uint8_t p)
{
	const struct dqr_node *n = &f->nodes[f->switches[sw]];

	if (p == 0 || p > n->num_ports ||
	    dqr_peer_port(f, n->port_base + p) == DQR_NONE)
		return DQR_NONE;
	return n->port_base + p;
}

/*
 * 1 when a packet that came in over channel in leaves the switch it
 * entered over channel out: out is a cabled port of that switch (rule 2)
 * and not the cable the packet came by (rule 3).  in may be DQR_NONE for
 * a packet the switch itself sends.
 */
static inline int dqr_relays(const struct dqr_fabric *f, uint32_t in,
			     uint32_t out)
{
	return out != DQR_NONE &&
	       (in == DQR_NONE || out != dqr_peer_port(f, in));
}

#endif
