/*
 * state.c - the state dqr_recon_start() leaves, built once and copied
 * for every run and benchmark trial.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/timing.h"
#include "dqr_sim.h"

void pristine_release(struct pristine *p)
{
	dqr_fabric_free(p->ref);
	dqr_lfts_free(p->orig);
	dqr_cdg_free(p->g);
	dqr_channel_list_free(&p->list);
	free(p->added);
	memset(p, 0, sizeof(*p));
}

/* Keeps what a copy of r needs; -1 when out of memory. */
static int pristine_keep(struct pristine *p, const struct dqr_recon *r,
			 const struct dqr_lfts *input)
{
	const struct dqr_dyn_order *cl = r->cl;
	uint32_t i;

	p->ref = dqr_fabric_clone(r->ref);
	p->orig = dqr_lfts_clone(r->orig);
	p->g = dqr_cdg_build(r->ref, input);
	p->added = malloc(sizeof(uint32_t) * 2 * (cl->num_added + 1));
	if (!p->ref || !p->orig || !p->g || !p->added ||
	    dqr_dyn_export(cl, &p->list))
		return -1;
	for (i = 0; i < cl->num_added; i++) {
		p->added[2 * i] = cl->edges[i].from;
		p->added[2 * i + 1] = cl->edges[i].to;
	}
	p->num_added = cl->num_added;
	return 0;
}

/*
 * Runs dqr_recon_start on the input and keeps its state.  Returns 0; the
 * exit status after a message when DQR cannot start: 2 for cyclic input
 * tables, 1 when DQR could not route all of them; -1 when out of memory.
 */
int start(struct sim *s)
{
	struct dqr_reroute_opts o;
	struct dqr_reactor x;
	struct dqr_recon r;
	double t0;
	int ret;

	/* the reroute of the topology the plugin would hold (its plug-in
	 * lives in x: released after the start) */
	if (sim_reactor(s, &x)) {
		dqr_reactor_release(&x);
		return -1;
	}
	dqr_react_reroute_opts(&x, &o);
	ret = dqr_recon_start(&r, s->in.f, s->in.t, &o, &s->p.start);
	dqr_reactor_release(&x);
	if (ret == DQR_RECON_NOMEM)
		return -1;
	if (ret == DQR_RECON_CYCLIC) {
		fprintf(stderr, PROG ": the input tables have a channel "
			"dependency cycle (%u channels): they are not deadlock "
			"free, DQR cannot start from them\n", r.cycle.len);
		dqr_recon_release(&r);
		return 2;
	}
	if (ret == DQR_RECON_FAILED || s->p.start.rs.holes) {
		fprintf(stderr, PROG ": DQR could not complete the input "
			"tables: %" PRIu64 " connected entries left without a "
			"legal route\n", s->p.start.rs.failed +
			s->p.start.rs.holes);
		dqr_recon_release(&r);
		return 1;
	}
	ret = pristine_keep(&s->p, &r, s->in.t);
	dqr_recon_release(&r);
	if (ret)
		return -1;
	/* a first copy proves the restore valid and says what it costs */
	t0 = dqr_now_ms();
	if (restore(&r, &s->p)) {
		fprintf(stderr, PROG ": cannot copy the start state (out of "
			"memory, or start's channel list does not fit its "
			"tables)\n");
		return -1;
	}
	s->p.ms_copy = dqr_now_ms() - t0;
	dqr_recon_release(&r);
	return 0;
}

/*
 * What a run or a trial starts from: x the plugin's reactor with a copy
 * of the start state, *cur a copy of its cabling for the faults to cut.
 * -1 when out of memory.
 */
int fresh_state(const struct sim *s, struct dqr_reactor *x,
		struct dqr_fabric **cur)
{
	*cur = NULL;
	if (sim_reactor_start(s, x))
		goto fail;
	*cur = dqr_fabric_clone(s->p.ref);
	if (*cur)
		return 0;
fail:
	dqr_reactor_release(x);
	return -1;
}
