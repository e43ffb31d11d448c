/*
 * topo_gen.h - generated fabrics: k-ary n-trees, 2- and 3-tier fat trees,
 * meshes, tori and hypercubes.
 *
 * Spec grammar (no spaces):
 *
 *   spec    := kind ':' params { ',' option }
 *   params  := 'kary:' K ',' N          k-ary n-tree, K >= 2, N >= 1
 *            | 'fattree2:' R            2-tier fat tree of R-port switches
 *            | 'fattree3:' R            3-tier fat tree of R-port switches
 *            | 'mesh:' A [ 'x' B [ 'x' C ] ]
 *            | 'torus:' A [ 'x' B [ 'x' C ] ]
 *            | 'hypercube:' D           2^D switches, D >= 1
 *   option  := 'cas=' N                 CAs per switch (mesh, torus,
 *                                       hypercube only; default 1, 0 ok)
 *            | 'lmc=' N                 LMC of the CA ports, 0..7
 *
 * The generated fabric is finished (dqr_fabric_finish called).  Node order:
 * every switch first, then every CA, so a switch's node index equals its
 * switch index.  LIDs: switches 1 .. S (LMC 0), then the CAs in node order,
 * each on a 2^lmc aligned block.  GUIDs follow ibsim's own numbering for a
 * file written by dqr_write_ibsim_net (switch j: 0x200000 + j; CA c:
 * 0x100000 + 2c, its port 1: node GUID + 1), so the emulator and the model
 * agree on them.
 *
 * Names and port numbers
 * ----------------------
 * Trees: switches "sw-L<level>-<index>", level 1 = the switches holding
 * CAs, index within the level; CAs "ca-<index>" (at least 4 digits).
 *
 * kary:K,N  N levels of K^(N-1) switches with 2K ports.  Switch <w, l>
 *   (l = 1..N, w a word of N-1 base-K digits w_0 .. w_(N-2), index =
 *   sum w_i K^i) has down ports 1..K and up ports K+1..2K.  Up port K+1+d
 *   of <w, l> is cabled to down port 1 + w_(l-1) of <w', l+1>, where w'
 *   is w with digit l-1 replaced by d (Petrini & Vanneschi's butterfly).
 *   Leaf <w, 1> down port j+1 holds CA w*K + j.  The top level's up ports
 *   stay free.  Every leaf reaches every top switch by exactly one up path.
 *
 * fattree2:R (R even)  R leaves, R/2 spines.  Leaf ports 1..R/2: CAs (leaf
 *   i port j+1 holds CA i*R/2 + j); leaf port R/2+1+s: spine s, whose port
 *   i+1 is leaf i.
 *
 * fattree3:R (R even, h = R/2)  R pods of h leaves (level 1) and h middle
 *   switches (level 2); h^2 cores (level 3).  Leaf index p*h + i, middle
 *   index p*h + j for pod p.  Leaf ports 1..h: CAs; leaf port h+1+j:
 *   middle j of its pod, on that middle's port i+1.  Middle j port h+1+c:
 *   core j*h + c, on the core's port p+1.
 *
 * Direct networks: switches "sw-x<X>-y<Y>-z<Z>" (as many coordinates as
 * dimensions) or, for hypercubes, "sw-<D binary digits>" with bit 0 last;
 * CAs "ca-<index>", CA index = switch position * cas + j.
 *
 * mesh / torus  One switch per coordinate, 2*dims + cas ports.  Dimension
 *   d (0 = x, 1 = y, 2 = z): port 2d+1 goes to +d (coordinate + 1), port
 *   2d+2 to -d; port 2d+1 of one switch is always cabled to port 2d+2 of
 *   the other.  CAs on ports 2*dims+1 .. 2*dims+cas.  A mesh leaves the
 *   border ports free.  A torus wraps: +d of the last coordinate reaches -d
 *   of coordinate 0, except in a dimension of size 2 (the wrap would
 *   double the one link; it is left out, so that dimension is a mesh) or
 *   size 1.  Switch position = x + X*(y + Y*z).
 *
 * hypercube:D  Switch label b (0 .. 2^D - 1), D + cas ports.  Port d+1
 *   (d = 0..D-1) goes to label b ^ (1 << d), on its port d+1.  CAs on
 *   ports D+1 .. D+cas.
 */
#ifndef DQR_TOPO_GEN_H
#define DQR_TOPO_GEN_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric.h"

#define DQR_GEN_MAX_DIMS 3

enum dqr_gen_kind {
	DQR_GEN_KARY = 1,
	DQR_GEN_FATTREE2,
	DQR_GEN_FATTREE3,
	DQR_GEN_MESH,
	DQR_GEN_TORUS,
	DQR_GEN_HYPERCUBE,
};

struct dqr_gen_spec {
	enum dqr_gen_kind kind;
	unsigned k, n;		/* kary: arity and levels */
	unsigned radix;		/* fattree2, fattree3: switch ports */
	unsigned ndims;		/* mesh, torus: 1..3; hypercube: D */
	unsigned dims[DQR_GEN_MAX_DIMS];
	unsigned cas;		/* CAs per switch (direct networks) */
	unsigned lmc;
};

struct dqr_gen_counts {
	uint64_t switches, cas;
	uint64_t links;		/* cables, CA cables included */
	uint64_t max_lid;	/* highest LID assigned */
};

/* Where a switch sits in the generated topology. */
struct dqr_gen_place {
	uint16_t level;		/* trees: 1 = CA level .. top; 0 otherwise */
	uint16_t group;		/* fattree3: pod of a leaf or middle; else 0 */
	/* trees: index in the level; mesh, torus: x + X*(y + Y*z);
	 * hypercube: the label */
	uint32_t pos;
	uint16_t coord[DQR_GEN_MAX_DIMS];	/* mesh, torus */
};

/*
 * 1 when places a and b of a mesh or torus (ndims <= DQR_GEN_MAX_DIMS)
 * lie more than one step apart in some dimension: a cable between them
 * joins a ring's two ends, a wrap cable.
 */
static inline int dqr_gen_wrap_between(const struct dqr_gen_place *a,
				       const struct dqr_gen_place *b,
				       unsigned ndims)
{
	unsigned k;

	for (k = 0; k < ndims; k++)
		if (a->coord[k] > b->coord[k] + 1 ||
		    b->coord[k] > a->coord[k] + 1)
			return 1;
	return 0;
}

/* Fills s from spec; -1 with a message in err when the spec is bad. */
int dqr_gen_parse(const char *spec, struct dqr_gen_spec *s,
		  char *err, size_t errlen);

/*
 * Counts what s would build; -1 with a message when it cannot be built
 * (bad parameters, more LIDs than unicast LIDs exist, too many ports).
 */
int dqr_gen_count(const struct dqr_gen_spec *s, struct dqr_gen_counts *c,
		  char *err, size_t errlen);

/*
 * The fabric s describes, finished, with the port numbers and names above
 * (the same spec always gives the same indices, so runs compare); NULL
 * with a message when s cannot be built or memory is short.
 */
struct dqr_fabric *dqr_gen_build(const struct dqr_gen_spec *s,
				 char *err, size_t errlen);

/*
 * As dqr_gen_build; when places is not NULL it receives a malloc'ed array
 * indexed by switch index (free() it).
 */
struct dqr_fabric *dqr_gen_build_places(const struct dqr_gen_spec *s,
					struct dqr_gen_place **places,
					char *err, size_t errlen);

/* The canonical spec string, e.g. "kary:4,3" or "torus:4x4,cas=2". */
void dqr_gen_format(const struct dqr_gen_spec *s, char *buf, size_t len);

/* One line for humans, e.g. "4-ary 3-tree: 48 switches, 64 CAs, ...". */
void dqr_gen_describe(const struct dqr_gen_spec *s, char *buf, size_t len);

#endif
