/*
 * tolerance.h - the fault-tolerance report of a state: every single
 * fault it could meet next (each switch-to-switch cable that is up,
 * each switch with a cable up), tried one by one on a copy of the
 * reactor (what_if.h) and counted by what it would cost the fabric:
 *
 *   absorbed   every pair stays reachable, and every stage of the
 *              change goes to the switches at once
 *   drained    every pair stays reachable, but a stage waits a drain
 *   cut        a pair that a cable path still joins is lost, or the
 *              answer is not safe: these are named
 *
 * The walk is the caller's, one fault per call, so that the plugin's
 * background thread can stop between two faults when the state changes
 * or its CPU is spent; dqr-sim's --what-if all gives the same verdicts.
 */
#ifndef DQR_TOLERANCE_H
#define DQR_TOLERANCE_H

#include <stddef.h>
#include <stdint.h>

#include "reaction/reaction.h"

/* a fault that is a whole switch: its node index, with this bit */
#define DQR_FAULT_SWITCH 0x80000000u

enum dqr_fault_fate {
	DQR_FATE_ABSORBED = 0,
	DQR_FATE_DRAINED,
	DQR_FATE_CUT,
	DQR_FATE_NUM
};

struct dqr_tolerance {
	/* cables by a switch port of the reference, then switches */
	uint32_t *faults;
	uint32_t num_faults, num_cables;
	/* tried so far: faults[k * stride % num_faults] for k < judged */
	uint32_t judged, stride;
	uint32_t fate[DQR_FATE_NUM];	/* of those */
	uint32_t quick;			/* proven where they changed alone */
	uint32_t *cut;			/* the faults that cut, in order */
	uint32_t num_cut;
};

/*
 * The single faults x's state could meet next, into t (released by
 * dqr_tolerance_release()).  0, or -1 when out of memory.
 */
int dqr_tolerance_begin(const struct dqr_reactor *x, struct dqr_tolerance *t);

/*
 * Tries the next fault on a copy of x, which it leaves as it was, and
 * counts it: in an order that spreads over the fabric, so that a walk
 * cut short still samples all of it.  0; 1 when x has no copy
 * (dqr_reactor_clone()); -1 when out of memory.  Nothing is counted
 * unless 0.
 */
int dqr_tolerance_next(const struct dqr_reactor *x, struct dqr_tolerance *t);

/* Frees t's lists and empties it. */
void dqr_tolerance_release(struct dqr_tolerance *t);

/* "sw-L2-0003[5]" for a cable, "sw-L2-0003" for a switch. */
void dqr_fault_name(const struct dqr_fabric *f, uint32_t fault, char *buf,
		    size_t len);

#endif
