/*
 * base_choice.h - the base routing of a full routing, and the topology
 * it sets (topology.h).  base=uturn and base=auto try lib's fat-tree
 * routing; base=auto then lib's routing of a recognised mesh, torus or
 * hypercube; the rest is OpenSM's, and lash's layers on a grid are
 * taken for DQR.  Each function clears x->notes and says there what it
 * chose or why not.
 */
#ifndef DQR_BASE_CHOICE_H
#define DQR_BASE_CHOICE_H

#include <stddef.h>
#include <stdint.h>

#include "reaction/reaction.h"

/*
 * f a fat tree: 0 with *t lib's uturn routing and the fat-tree topology
 * set; 1 when it is none (said: ERR DQ24 when base=uturn was asked for).
 */
int dqr_choose_fat_tree(struct dqr_reactor *x, const struct dqr_fabric *f,
			struct dqr_lfts **t);
/* The same refusal for a reason the caller found (no model of f). */
void dqr_choose_no_fat_tree(struct dqr_reactor *x, const char *why);

/*
 * f a mesh, torus or hypercube: 0 with *t lib's routing of it (with qos,
 * a torus by e-cube on virtual layers where the ports carry them; else
 * a mesh or torus by up*\/down* from its corner, or dimension order with
 * mesh_routing=dor; a hypercube by e-cube, or with base=twophase by
 * two-phase routing, which takes nothing else) and its topology set; 1
 * when it is none or lib's routing failed (said).
 */
int dqr_choose_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_lfts **t);

/*
 * OpenSM's lash routed f: whether its layers can serve DQR.  First
 * dqr_choose_lash_grid(): 0 with the grid *g and its description in desc
 * (the caller then reads lash's SLs), or 1 (said).  Then
 * dqr_choose_lash() with lash's SL for every pair of switches (sl[s * S
 * + d], n layers) and its tables t: 0 with the topology on those layers,
 * or 1 (said); g is taken either way.  dqr_choose_lash_refused() says
 * why DQR cannot keep them, for a reason found by the caller.
 */
int dqr_choose_lash_grid(struct dqr_reactor *x, const struct dqr_fabric *f,
			 struct dqr_grid **g, char *desc, size_t len);
int dqr_choose_lash(struct dqr_reactor *x, const struct dqr_fabric *f,
		    struct dqr_grid *g, const struct dqr_lfts *t,
		    const uint8_t *sl, unsigned n, const char *desc);
void dqr_choose_lash_refused(struct dqr_reactor *x, const char *desc,
			     const char *why);

#endif
