/*
 * recon-internal.h - shared by recon.c, recon_change.c and recon_vlayers.c
 * only: noting what one update found changed (struct dqr_recon_change,
 * recon.h), and the torus's steps.
 */
#ifndef DQR_RECON_INTERNAL_H
#define DQR_RECON_INTERNAL_H

#include <stdint.h>

#include "recon/recon.h"

/*
 * Notes the cables of the switch ports fresh (newly down) and back (back
 * up), both ascending, and the switches lost or returned, in r->change.
 * r->down must still hold the ports down before this update, down (nd,
 * ascending) those down now.  Out of memory the lists stay empty: they
 * only serve the report.
 */
void dqr_recon_note_change(struct dqr_recon *r, const uint32_t *down,
			   uint32_t nd, const uint32_t *fresh, uint32_t nf,
			   const uint32_t *back, uint32_t nb);

/* Notes the entries the last reroute of r left without a legal route. */
void dqr_recon_note_cut(struct dqr_recon *r);
/* Frees c's lists and empties it: the next update notes afresh. */
void dqr_recon_change_release(struct dqr_recon_change *c);

/* A torus on layers (recon_vlayers.c): back to the original tables, with
 * layers built afresh for them; 0, or -1 when out of memory. */
int dqr_recon_vlayers_restart(struct dqr_recon *r);

/* Its repair of r->cur for what proj lacks, the cut noted; 0 or -1. */
int dqr_recon_vlayers_run(struct dqr_recon *r, const struct dqr_fabric *proj,
			  struct dqr_reroute_stats *rs);

#endif
