/*
 * soak_run.c - what a soak run's two answers share (soak.c's one-layer
 * DQR, soak_torus.c's virtual layers): its messages, the cabling its
 * events left, and the tables the switches hold.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "transition/plan.h"
#include "dqr_sim.h"

void soak_log(struct soak_run *w, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	size_t n;
	char *p;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	n = strlen(buf);
	if (w->log_len + n + 1 > w->log_cap) {
		size_t cap = (w->log_cap + n + 1) * 2;

		p = realloc(w->log, cap);
		if (!p)
			return;	/* the message loses the sequence, no more */
		w->log = p;
		w->log_cap = cap;
	}
	memcpy(w->log + w->log_len, buf, n + 1);
	w->log_len += n;
}

/*
 * A failure: counted, said on standard error with everything needed to
 * replay it (seed, run, the events so far), and the first one kept.
 */
void soak_complain(struct soak_run *w, const char *fmt, ...)
{
	struct soak_tally *t = w->t;
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	t->failures++;
	fprintf(stderr, PROG ": SOAK FAILURE: %s, seed %" PRIu64 ", run %u, "
		"event %u: %s; events:%s\n", w->s->in.name, w->s->o->seed,
		w->run, w->event, what, w->log ? w->log : "");
	if (t->failures == 1) {
		t->first_run = w->run;
		t->first_event = w->event;
		snprintf(t->first, sizeof(t->first), "%s", what);
	}
}

/* The input fabric without the failed cables and switches. */
struct dqr_fabric *soak_cabling(const struct soak_run *w)
{
	const struct dqr_fabric *in = w->s->in.f;
	struct dqr_fabric *f = dqr_fabric_clone(in);
	uint32_t i, port;
	unsigned pn;

	if (!f)
		return NULL;
	for (i = 0; i < w->s->sc.num_cand; i++)
		if (w->cable_down[i])
			dqr_fabric_unlink_port(f, w->s->sc.cand[i]);
	for (i = 0; i < in->num_nodes; i++) {
		if (!w->node_down[i])
			continue;
		for (pn = 1; pn <= in->nodes[i].num_ports; pn++) {
			port = dqr_port_index(f, i, pn);
			if (dqr_peer_port(f, port) != DQR_NONE)
				dqr_fabric_unlink_port(f, port);
		}
	}
	return f;
}

int soak_same_tables(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	uint32_t sw, lid, n = a->lid_count > b->lid_count ? a->lid_count :
			      b->lid_count;

	if (a->num_switches != b->num_switches)
		return 0;
	for (sw = 0; sw < a->num_switches; sw++)
		for (lid = 0; lid < n; lid++)
			if (dqr_lft_get(a, sw, lid) != dqr_lft_get(b, sw, lid))
				return 0;
	return 1;
}

/* from with the entries of p's stages before stage k applied */
struct dqr_lfts *soak_state_before(const struct dqr_lfts *from,
				   const struct dqr_plan *p, uint32_t k)
{
	struct dqr_lfts *t = dqr_lfts_clone(from);
	uint32_t i;

	if (!t)
		return NULL;
	for (i = 0; i < p->stage_off[k]; i++)
		if (p->entries[i].lid < t->lid_count)
			dqr_lft_set(t, p->entries[i].sw, p->entries[i].lid,
				    p->entries[i].new_port);
	return t;
}

int soak_first_withdrawal(struct soak_run *w, const struct dqr_plan *p,
			  struct dqr_lfts **s1)
{
	*s1 = NULL;
	if (!p->num_stages || !dqr_plan_stage_withdraws(p, 0)) {
		w->t->unsafe++;
		soak_complain(w, "UNSAFE: the tables held are bad on this "
			      "cabling and stage 1 does not only withdraw");
		return 1;
	}
	*s1 = soak_state_before(w->held, p, 1);
	return *s1 ? 0 : -1;
}

/*
 * The switches take plan p, ending at recon's tables; cut: a flap's
 * failure, whose transition the return leaves after a random number of
 * stages.  0, or -1 when out of memory.
 */
int soak_upload(struct soak_run *w, const struct dqr_plan *p, int cut)
{
	struct dqr_lfts *next;
	uint32_t upto = p->num_stages;

	if (cut && p->num_stages)
		upto = 1 + rng_below(&w->rng, p->num_stages);
	next = upto < p->num_stages ? soak_state_before(w->held, p, upto) :
	       dqr_lfts_clone(w->x.recon.cur);
	if (!next)
		return -1;
	if (upto < p->num_stages) {
		w->t->cut++;
		soak_log(w, " (left after stage %u of %u)", upto,
			 p->num_stages);
	}
	dqr_lfts_free(w->held);
	w->held = next;
	w->held_is_recon = upto == p->num_stages;
	return 0;
}
