/*
 * grid_shape.h - meshes, tori and hypercubes recognised from the switch
 * graph alone (names, GUIDs and port numbers mean nothing), with each
 * switch's coordinates, so that lib's dimension-order and e-cube routings
 * (ref_routing.h) can route a discovered fabric.
 *
 * How: from a seed switch, its neighbours are sorted into dimensions (two
 * neighbours lie in one dimension when they are cabled to each other, a
 * ring of 3, or share no neighbour but the seed; in any other case they
 * span a square).  A straight walk along each dimension gives its size and
 * whether it wraps.  A BFS then places every switch from a placed
 * neighbour: across a square (positive evidence of a turn) or straight on
 * (no square, and a square with every other neighbour); a switch whose
 * candidates disagree waits for another neighbour, and only when nothing
 * else moves is a straight step without that evidence taken.  Finally
 * every cable must join coordinates that differ in one dimension by one
 * (or wrap), and no two switches may share coordinates.  Seeds spread over
 * the fabric are tried until one places everything (a cable or switch
 * missing near a seed breaks its lines), then a few more, and the
 * tightest grid wins: O(seeds * switches * degree^3), a few ms for 10^4
 * switches of a mesh or torus.
 *
 * Nothing passes without that final check.  A 2xN mesh less a cable is
 * often refused (every square of a ladder touches its rungs), and may
 * embed into a longer ladder with empty coordinates, which still routes
 * correctly (every cable is a grid link).
 *
 * A ring of 4 is two dimensions of size 2 by its cabling (C4 = Q2), so a
 * grid whose dimensions are all of size 2 is reported as the hypercube
 * (the 4x4 torus is the 4-cube, the 2x2x2 mesh the 3-cube), and a ring
 * of 4 among larger dimensions is a pair of size 2 (torus 4x5 is 2x2x5).
 * At most 3 dimensions otherwise: where there are more, pairs of size 2
 * fold back into rings of 4, as few as it takes (torus 4x4x5 is found as
 * 2x2x2x2x5 and reported as 4x4x5).  A mesh dimension and a wrapping one
 * may mix (spec kind torus, wrap[] says which).
 */
#ifndef DQR_GRID_SHAPE_H
#define DQR_GRID_SHAPE_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_gen.h"

enum dqr_grid_kind {
	DQR_GRID_MESH = 1,
	DQR_GRID_TORUS,		/* at least one dimension wraps */
	DQR_GRID_HYPERCUBE,
};

struct dqr_grid {
	enum dqr_grid_kind kind;
	unsigned ndims;		/* hypercube: D */
	unsigned dims[DQR_GEN_MAX_DIMS];	/* mesh, torus */
	uint8_t wrap[DQR_GEN_MAX_DIMS];		/* the dimension is a ring */
	/*
	 * As topo_gen.h would generate it (cas 0, lmc 0): kind mesh, torus
	 * or hypercube.  A mixed grid is a torus spec whose routing by
	 * DQR_REF_DOR never uses wrap cables anyway.
	 */
	struct dqr_gen_spec spec;
	struct dqr_gen_place *place;	/* per switch index of the fabric */
	uint32_t num_switches;
	uint32_t missing_switches;	/* coordinates no switch holds */
	uint32_t missing_cables;	/* between switches present */
};

/*
 * Recognises the grid of f (finished).  0 with *out set, or -1 with why
 * not in err (a short phrase for the log), or no memory.
 */
int dqr_grid_detect(const struct dqr_fabric *f, struct dqr_grid **out,
		    char *err, size_t errlen);
void dqr_grid_free(struct dqr_grid *g);

/* "2D mesh 4x4 (1 cable missing)", "4-cube", "3D torus 3x3x4". */
void dqr_grid_describe(const struct dqr_grid *g, char *buf, size_t len);

/* A grid's fabric with topo_gen's port numbers (dqr_grid_conform()). */
struct dqr_grid_conform {
	struct dqr_fabric *f;		/* the conformed copy */
	struct dqr_gen_place *places;	/* per switch index of f */
	uint8_t *to_real;	/* [sw * (max_ports + 1) + port]: f's port */
	unsigned max_ports;
};

/*
 * ref_routing.h's DOR and ECUBE go by topo_gen's port numbers (+d on port
 * 2d+1, -d on 2d+2; hypercube dimension d on port d+1) and want every
 * coordinate held.  A conformed copy of f has them: the same switch
 * indices, LIDs and GUIDs, grid cables renumbered to those ports (other
 * linked ports after them), and a switch without LID or cables in every
 * missing coordinate (switch indices from f->num_switches on).  Route it
 * with g->spec and *places, then dqr_grid_unconform() maps the tables
 * back.  0, or -1 with a message; dqr_grid_conform_free() releases c.
 */
int dqr_grid_conform(const struct dqr_fabric *f, const struct dqr_grid *g,
		     struct dqr_grid_conform *c, char *err, size_t errlen);
void dqr_grid_conform_free(struct dqr_grid_conform *c);

/*
 * Turns tables t of c->f into the tables of the real fabric, in place:
 * its port numbers, num_switches (f's) rows.
 */
void dqr_grid_unconform(const struct dqr_grid_conform *c,
			uint32_t num_switches, struct dqr_lfts *t);

#endif
