/*
 * small_fabrics.h - hand-built fabrics with known routes for unit tests.
 */
#ifndef DQR_SMALL_FABRICS_H
#define DQR_SMALL_FABRICS_H

#include "fabric/fabric.h"
#include "fabric/lft.h"

/*
 * A ring of n switches, switch i with LID i + 1, port 1 towards i + 1,
 * port 2 towards i - 1, and one CA on port 3 with LID n + i + 1.
 */
struct dqr_fabric *ring_fabric(unsigned n);

/* Ring tables: every switch sends clockwise (port 1): cyclic for n >= 3. */
struct dqr_lfts *ring_clockwise(const struct dqr_fabric *f, unsigned n);

/*
 * Ring tables that never use the link n-1 -> 0 nor 0 -> n-1 (a line in a
 * ring): acyclic.
 */
struct dqr_lfts *ring_as_line(const struct dqr_fabric *f, unsigned n);

/* Switch index and CA port of ring position i. */
static inline uint32_t ring_ca_port(const struct dqr_fabric *f, unsigned n,
				    unsigned i)
{
	return dqr_port_index(f, n + i, 1);
}

#endif
