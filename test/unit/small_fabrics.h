/*
 * small_fabrics.h - hand-built fabrics with known routes for unit tests.
 */
#ifndef DQR_SMALL_FABRICS_H
#define DQR_SMALL_FABRICS_H

#include "deps/dyn_order.h"
#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "fabric/topo_diff.h"
#include "fabric/topo_gen.h"
#include "routing/ref_routing.h"
#include "shape/grid_shape.h"

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

/* A ring of n switches and its tables. */
struct ring {
	unsigned n;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
};

/* Builds r with route's tables: 0, or -1 when out of memory. */
int ring_open(struct ring *r, unsigned n,
	      struct dqr_lfts *(*route)(const struct dqr_fabric *, unsigned));
void ring_close(struct ring *r);

/* Switch index and CA port of ring position i. */
static inline uint32_t ring_ca_port(const struct dqr_fabric *f, unsigned n,
				    unsigned i)
{
	return dqr_port_index(f, n + i, 1);
}

/*
 * The fabric of a generator spec (places as dqr_gen_build_places()), or
 * NULL with the reason on stderr.
 */
struct dqr_fabric *gen_fabric(const char *spec, struct dqr_gen_spec *s,
			      struct dqr_gen_place **places);

/* The port number of switch a whose cable leads to switch b; 0: none. */
unsigned switch_port_to(const struct dqr_fabric *f, uint32_t a, uint32_t b);

/*
 * Every switch-to-switch cable of f once, as the port at its lower switch
 * index: a malloc'ed array in *out, its length returned (NULL: no memory).
 */
uint32_t switch_links(const struct dqr_fabric *f, uint32_t **out);

/*
 * f without the cables at the ports cut[0 .. n) (port indices), in f's
 * shape as the plug-in sees it after a sweep (dqr_fabric_project).  With
 * d, what changed goes there for the caller to release; without, the n
 * cables must be all that is missing.  A failure stops the test.
 */
struct dqr_fabric *cut_cables(const struct dqr_fabric *f,
			      const uint32_t *cut, unsigned n,
			      struct dqr_topo_diff *d);

/*
 * The grid f was generated as (s, places), as the recogniser reads one:
 * a torus's rings of more than 2 switches wrap.  A hypercube's
 * dimensions are bits, not grid dimensions: it gets none.
 */
void gen_grid(struct dqr_grid *g, const struct dqr_fabric *f,
	      const struct dqr_gen_spec *s, struct dqr_gen_place *places);

/*
 * A generated fabric routed by a reference routing, the grid it was
 * generated as and its switch-to-switch cables (switch_links()).
 */
struct gen_world {
	struct dqr_gen_spec s;
	struct dqr_gen_place *places;
	struct dqr_fabric *f;
	struct dqr_lfts *t;
	struct dqr_grid g;
	uint32_t *links, num_links;
};

/* Builds w of spec routed by kind; a failure stops the test. */
void gen_world_open(struct gen_world *w, const char *spec,
		    enum dqr_ref_kind kind);
void gen_world_close(struct gen_world *w);

/*
 * Fisher-Yates over a[0 .. n) with rnd(k) in [0, k): each test passes its
 * own generator, so that its sequence stays what its cases were chosen by.
 */
void shuffle(uint32_t *a, uint32_t n, uint32_t (*rnd)(uint32_t));

/*
 * The topology of test/data/name, or of text read as a file "inline"; NULL
 * with the reader's complaint on stderr.
 */
struct dqr_fabric *data_fabric(const char *name);
struct dqr_fabric *text_fabric(const char *text);

/*
 * The dynamic channel list of the dependencies t induces on f.  Returns
 * as dqr_channel_list_of_tables(); *d is the list when that is 0 and
 * memory lasts, else NULL.  When gp is not NULL, *gp keeps the graph for
 * the caller to dqr_cdg_free().
 */
int dyn_order_of_tables(const struct dqr_fabric *f, const struct dqr_lfts *t,
			struct dqr_dyn_order **d, struct dqr_cdg **gp);

#endif
