/*
 * tolerance.c - every single fault of a state, tried on a copy and
 * counted (tolerance.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reaction/tolerance.h"
#include "reaction/what_if.h"
#include "util/check.h"

void dqr_tolerance_release(struct dqr_tolerance *t)
{
	free(t->faults);
	free(t->cut);
	memset(t, 0, sizeof(*t));
}

/* 1 for a switch port whose cable to another switch is up in r */
static int cable_up(const struct dqr_recon *r, const uint8_t *down,
		    uint32_t p)
{
	const struct dqr_fabric *f = r->ref;
	uint32_t q = dqr_peer_port(f, p);

	return q != DQR_NONE && !down[p] && !down[q] &&
	       dqr_is_switch(f, f->ports[p].node) &&
	       dqr_is_switch(f, f->ports[q].node);
}

static uint32_t gcd(uint32_t a, uint32_t b)
{
	while (b) {
		uint32_t r = a % b;

		a = b;
		b = r;
	}
	return a;
}

int dqr_tolerance_begin(const struct dqr_reactor *x, struct dqr_tolerance *t)
{
	const struct dqr_recon *r = &x->recon;
	const struct dqr_fabric *f = r->ref;
	uint32_t i, p, n = 0;
	uint8_t *down, *live;
	unsigned pn;

	memset(t, 0, sizeof(*t));
	if (!x->ready)
		return 0;
	down = calloc(f->num_ports + 1, 1);
	live = calloc(f->num_nodes + 1, 1);
	t->faults = malloc(sizeof(uint32_t) *
			   (f->num_ports + f->num_switches + 1));
	t->cut = malloc(sizeof(uint32_t) *
			(f->num_ports + f->num_switches + 1));
	if (!down || !live || !t->faults || !t->cut) {
		free(down);
		free(live);
		dqr_tolerance_release(t);
		return -1;
	}
	for (i = 0; i < r->num_down; i++)
		down[r->down[i]] = 1;
	/* each cable once, by its end of the lower index */
	for (i = 0; i < f->num_nodes; i++)
		dqr_for_each_linked_port(f, i, pn) {
			p = dqr_port_index(f, i, pn);
			if (!cable_up(r, down, p))
				continue;
			live[i] = 1;
			if (p < dqr_peer_port(f, p))
				t->faults[n++] = p;
		}
	t->num_cables = n;
	for (i = 0; i < f->num_switches; i++)
		if (live[f->switches[i]])
			t->faults[n++] = DQR_FAULT_SWITCH | f->switches[i];
	t->num_faults = n;
	/* a walk cut short still samples the whole fabric: the faults
	 * in steps of about 0.618 n, coprime to n, visit each once */
	t->stride = n ? (uint32_t)(n * 0.618) | 1 : 1;
	while (n && gcd(t->stride, n) != 1)
		t->stride += 2;
	free(down);
	free(live);
	return 0;
}

static enum dqr_fault_fate fate_of(const struct dqr_what_if *w)
{
	if (!dqr_what_if_survived(w))
		return DQR_FATE_CUT;
	return w->drains ? DQR_FATE_DRAINED : DQR_FATE_ABSORBED;
}

/* The ports fault cuts into *ports (the caller frees it); -1 or count. */
static int64_t fault_ports(const struct dqr_fabric *f, uint32_t fault,
			   uint32_t **ports)
{
	uint32_t node = fault & ~DQR_FAULT_SWITCH;

	if (!(fault & DQR_FAULT_SWITCH)) {
		*ports = malloc(sizeof(uint32_t));
		if (!*ports)
			return -1;
		(*ports)[0] = fault;
		return 1;
	}
	*ports = malloc(sizeof(uint32_t) * (f->nodes[node].num_ports + 1));
	if (!*ports)
		return -1;
	return dqr_what_if_node_ports(f, node, *ports);
}

int dqr_tolerance_next(const struct dqr_reactor *x, struct dqr_tolerance *t)
{
	uint32_t fault, *ports = NULL;
	struct dqr_reactor y;
	struct dqr_what_if w;
	enum dqr_fault_fate fate;
	int64_t n;
	int ret;

	DQR_CHECK(t->judged < t->num_faults);
	fault = t->faults[(uint64_t)t->judged * t->stride % t->num_faults];
	n = fault_ports(x->recon.ref, fault, &ports);
	if (n < 0)
		return -1;
	ret = dqr_reactor_clone(x, &y);
	if (ret)
		goto out;
	ret = dqr_what_if(&y, ports, (uint32_t)n, DQR_WHAT_IF_QUICK, &w);
	if (!ret) {
		fate = fate_of(&w);
		t->fate[fate]++;
		t->quick += w.quick;
		if (fate == DQR_FATE_CUT)
			t->cut[t->num_cut++] = fault;
		t->judged++;
	}
	dqr_what_if_release(&w);
out:
	dqr_reactor_release(&y);
	free(ports);
	return ret;
}

void dqr_fault_name(const struct dqr_fabric *f, uint32_t fault, char *buf,
		    size_t len)
{
	if (fault & DQR_FAULT_SWITCH) {
		snprintf(buf, len, "%s",
			 dqr_node_name(f, fault & ~DQR_FAULT_SWITCH));
		return;
	}
	snprintf(buf, len, "%s[%u]", dqr_node_name(f, f->ports[fault].node),
		 f->ports[fault].num);
}
