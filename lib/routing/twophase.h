/*
 * twophase.h - two-phase randomised routing of a hypercube, deadlock free
 * on one VL, after the HC paper's Algorithm B, expressed as destination
 * trees.
 *
 * The n-cube's labels are cut along dimensions 0 and 1 into four
 * (n-2)-cubes C00, C01, C10, C11 (Cjk: bit 0 = j, bit 1 = k).  The
 * paper sends every packet clockwise into C00, bit-fixes there to a
 * random intermediate, crosses to C01, bit-fixes there to the
 * destination's copy, and goes counter-clockwise home, so that all first
 * stages share one subcube and all second stages another.  Here the
 * subcubes are paired instead: C00 and C11 carry the first stages (the
 * source side), C01 and C10 the second (the destination side).  A source
 * on the destination side first steps across dimension 0; a destination
 * on the source side is reached by a last step across dimension 1.  Each
 * side then holds a 2-relation of a permutation where the paper's one
 * subcube holds a 4-relation, which halves its busiest links, and a
 * route has at most 2n - 1 links (the paper's 2n + 3).
 *
 * Every channel gets a rank, and every route climbs in rank, so the
 * channel dependency graph of any tables made here is acyclic (the
 * paper's Figure 5, for the paired subcubes):
 *
 *   A  dimension 0, destination side to source side      (phase 1)
 *   B  inside C00 and C11, by dimension                  (phase 2)
 *   C  dimensions 0 and 1, source side to destination side (phase 3)
 *   D  inside C01 and C10, by dimension                  (phase 4)
 *   E  dimension 1, destination side to source side      (phase 5)
 *
 * InfiniBand forwards by destination LID, so the random intermediate is
 * chosen per DLID, not per packet: every LID (each of a port's 2^LMC
 * LIDs) gets an intermediate label, drawn from a seed so that the tables
 * are reproducible and balanced (every label serves as many LIDs, give
 * or take one).  A switch on the destination side whose entry lies on
 * the path from the intermediate to the destination forwards along it;
 * its own end ports then skip the first stage, which keeps the route
 * climbing.  An intermediate is never farther from the destination than
 * keeps every route within n + sqrt(2n ln 6n) links.
 *
 * Faults: a switch or cable missing from the fabric breaks the routes
 * through it.  A switch whose route is broken is re-attached to the
 * switch that lets it climb the longest (its out channel of highest rank
 * whose next switch goes on above it); where none does, switches ahead
 * move to later channels of their own (a raise), which keeps every route
 * through them climbing.  Only what is left without a climbing route
 * stays DQR_NO_PATH, for DQR.  The paper's active nodes
 * (dqr_twophase_active()) say which switches the scheme answers for.
 */
#ifndef DQR_TWOPHASE_H
#define DQR_TWOPHASE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"

/* Dimensions: 2 cut ones and at least one inside the subcubes. */
#define DQR_TWOPHASE_MIN_DIMS 3
#define DQR_TWOPHASE_MAX_DIMS 16

struct dqr_twophase;

struct dqr_twophase_stats {
	uint32_t lids;		/* DLIDs routed */
	uint32_t lids_broken;	/* of them, whose default tree a fault broke */
	uint64_t reattached;	/* entries re-attached off the default tree */
	uint64_t raised;	/* entries moved to a later channel for them */
	uint64_t unrouted;	/* entries without a climbing route */
};

/*
 * The scheme for the n-cube whose switch sw of f (the reference
 * topology) has label place[sw].pos (as topo_gen.h's and grid_shape.h's
 * places give it), intermediates drawn from seed.  The LIDs of f get
 * their intermediates here, once, so that every projection of f keeps
 * them.  0 with *out set, or -1 with a message in err (n out of range, a
 * label twice or out of range, no memory).
 */
int dqr_twophase_new(const struct dqr_fabric *f, unsigned n,
		     const struct dqr_gen_place *place, uint64_t seed,
		     struct dqr_twophase **out, char *err, size_t errlen);
void dqr_twophase_free(struct dqr_twophase *tp);
/* A copy of tp; NULL when out of memory. */
struct dqr_twophase *dqr_twophase_clone(const struct dqr_twophase *tp);

/*
 * Routes f, the reference topology or a projection of it (same indices),
 * into *out (new tables, f->num_switches rows).  Cables that join no
 * two labels one bit apart are not used.  st may be NULL.  0, or -1 when
 * out of memory.
 */
int dqr_twophase_route(const struct dqr_twophase *tp,
		       const struct dqr_fabric *f, struct dqr_lfts **out,
		       struct dqr_twophase_stats *st);

/*
 * What the HC paper's criteria make of a switch (dqr_twophase_active()),
 * in rising order: level >= DQR_TWOPHASE_WHOLE is a switch of a whole
 * group (routes/route_walk.h dqr_unrouted_among() takes that).
 */
enum dqr_twophase_level {
	DQR_TWOPHASE_LEFT_OUT = 0,	/* its group is broken, or absent */
	DQR_TWOPHASE_WHOLE,		/* whole group, too many faulty paths */
	DQR_TWOPHASE_ACTIVE,		/* active by every criterion */
};

/*
 * The paper's active nodes on f, per switch index in level[] (enum
 * dqr_twophase_level).  A label is marked faulty when a switch of its
 * group (the four labels equal but in bits 0 and 1) or a cable between
 * two of them is missing: the scheme leaves it out.  A bit-fixing path
 * inside a subcube is faulty when it visits a marked label or lacks a
 * cable.  Active: at most N / (12 (n-2)) faulty paths from the switch's
 * source-side copy into its subcube, and as many into its
 * destination-side copy.  That bound suits the paper's fault count,
 * N / (12 n (n-2)^2), less than one fault up to n = 14: on the cubes
 * a cluster has, every fault leaves most switches of whole groups
 * short of it.  Returns the active count (*whole: the switches of whole
 * groups, active or not), or -1 when out of memory.
 */
long dqr_twophase_active(const struct dqr_twophase *tp,
			 const struct dqr_fabric *f, uint8_t *level,
			 uint32_t *whole);

/*
 * The rank of the channel of switch sw (of the reference topology)
 * across dimension dim: every route of dqr_twophase_route() climbs in
 * rank (the tests check it).  DQR_NONE when sw has no label.
 */
uint32_t dqr_twophase_rank(const struct dqr_twophase *tp, uint32_t sw,
			   unsigned dim);

/* The label of switch index sw, DQR_NONE when it has none. */
uint32_t dqr_twophase_label(const struct dqr_twophase *tp, uint32_t sw);

/* The paper's bound on faulty paths of an active node: N / (12 (n-2)). */
double dqr_twophase_path_bound(const struct dqr_twophase *tp);

/* n + sqrt(2n ln 6n), rounded down: the longest route the paper allows. */
unsigned dqr_twophase_length_bound(unsigned n);

#endif
