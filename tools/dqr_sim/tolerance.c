/*
 * tolerance.c - dqr-sim --what-if tolerance: the plugin's fault-
 * tolerance report (tolerance_s=, reaction/tolerance.h) of the start
 * state, walked as the plugin's thread walks it: one copy of the
 * reactor taken, every single fault tried on a copy of that copy.
 * What it costs (the copy, CPU per fault, peak memory) is what the
 * plugin's thread spends; --faults M stops after M faults (in the walk's
 * order, spread over the fabric) and says what all of them would take.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reaction/tolerance.h"
#include "util/timing.h"
#include "dqr_sim.h"

static void print_names(const struct dqr_fabric *f,
			const struct dqr_tolerance *t)
{
	char name[128];
	uint32_t i;

	for (i = 0; i < t->num_cut; i++) {
		dqr_fault_name(f, t->cut[i], name, sizeof(name));
		printf("  cuts pairs off: %s\n", name);
	}
}

int what_if_tolerance(struct sim *s)
{
	struct dqr_tolerance t;
	struct dqr_reactor x, y;
	double t0, copy_ms, *ms = NULL, all = 0;
	struct dist d;
	uint32_t n, i;
	int ret = -1;

	memset(&t, 0, sizeof(t));
	if (sim_reactor_start(s, &x))
		goto out_x;
	t0 = dqr_now_ms();
	if (dqr_reactor_clone(&x, &y)) {
		fprintf(stderr, PROG ": no copy of this reactor's state (a "
			"torus on virtual layers)\n");
		ret = 2;
		goto out_y;
	}
	copy_ms = dqr_now_ms() - t0;
	if (dqr_tolerance_begin(&y, &t))
		goto out_y;
	n = t.num_faults;
	if (s->o->faults_set && s->o->faults < n)
		n = s->o->faults;
	ms = malloc(sizeof(double) * (n + 1));
	if (!ms)
		goto out_y;
	for (i = 0; i < n; i++) {
		t0 = dqr_now_ms();
		if (dqr_tolerance_next(&y, &t))
			goto out_y;
		ms[i] = dqr_now_ms() - t0;
		all += ms[i];
	}
	d = distribution(ms, n);
	print_header(s, stdout);
	printf("tolerance: %u single faults (%u cables, %u switches), %u "
	       "judged: %u absorbed at once, %u after a drain, %u cut pairs "
	       "off\n", t.num_faults, t.num_cables,
	       t.num_faults - t.num_cables, t.judged,
	       t.fate[DQR_FATE_ABSORBED], t.fate[DQR_FATE_DRAINED],
	       t.fate[DQR_FATE_CUT]);
	print_names(y.recon.ref, &t);
	printf("judged where the tables changed alone: %u of %u (the others "
	       "whole)\n", t.quick, t.judged);
	printf("cost: copy of the state %.2f ms; per fault median %.2f ms, "
	       "worst %.2f ms; %u faults %.2f s, all %u about %.1f s; peak "
	       "memory (RSS) %.1f MiB\n", copy_ms, d.median, d.max, n,
	       all / 1e3, t.num_faults,
	       n ? all / 1e3 * t.num_faults / n : 0.0,
	       peak_rss_kib() / 1024.0);
	ret = t.fate[DQR_FATE_CUT] ? 1 : 0;
out_y:
	free(ms);
	dqr_tolerance_release(&t);
	dqr_reactor_release(&y);
out_x:
	dqr_reactor_release(&x);
	return ret;
}
