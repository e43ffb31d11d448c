/*
 * recon-internal.h - shared by recon.c and recon_change.c only: noting
 * what one update found changed (struct dqr_recon_change, recon.h).
 */
#ifndef DQR_RECON_INTERNAL_H
#define DQR_RECON_INTERNAL_H

#include <stdint.h>

#include "repair/recon.h"

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

void dqr_recon_change_release(struct dqr_recon_change *c);

#endif
