/*
 * verify_print.h - the verifier's report as text and as JSON.
 */
#ifndef DQR_VERIFY_PRINT_H
#define DQR_VERIFY_PRINT_H

#include <stddef.h>
#include <stdio.h>

#include "verify/verify.h"

/* "0x<node guid>[<port>] (<name>)" into buf; returns buf. */
const char *dqr_format_channel(const struct dqr_fabric *f, uint32_t channel,
			       char *buf, size_t len);

/* The cycle as "a -> b -> ... -> a", at most len bytes (ends in "...") */
void dqr_format_cycle(const struct dqr_fabric *f, const struct dqr_cycle *c,
		      char *buf, size_t len);

/* s as a JSON string, quotes and escapes included. */
void dqr_json_string(FILE *out, const char *s);

/*
 * r as dqr-check prints it: text lines, or one JSON object (with timings
 * under "ms", which tests mask).  kinds selects the pair kinds judged
 * (1 << DQR_PAIR_*): the others are counted but said not judged.  One
 * printer for both, so the text and the JSON never disagree on a figure.
 */
void dqr_print_report_text(FILE *out, const struct dqr_fabric *f,
			   const struct dqr_verify_report *r, unsigned kinds);
void dqr_print_report_json(FILE *out, const struct dqr_fabric *f,
			   const struct dqr_verify_report *r, unsigned kinds);

#endif
