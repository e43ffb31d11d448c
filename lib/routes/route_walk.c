/*
 * route_walk.c - the outcome of every switch's route towards one DLID.
 */
#include <stdlib.h>

#include "routes/route_walk.h"
#include "util/check.h"

/* results beyond the real ones mark work in progress */
#define WALK_UNKNOWN 0xff
#define WALK_ACTIVE 0xfe

static const char *const result_names[DQR_WALK_NUM_RESULTS] = {
	DQR_WALK_RESULTS(DQR_ENUM_NAME)
};

const char *dqr_walk_result_name(enum dqr_walk_result r)
{
	return dqr_name_of(result_names, DQR_WALK_NUM_RESULTS, r);
}

uint32_t dqr_ingress_switch(const struct dqr_fabric *f, uint32_t port)
{
	uint32_t node = f->ports[port].node;

	if (dqr_is_switch(f, node))
		return f->nodes[node].sw_index;
	return dqr_peer_switch(f, port);
}

uint32_t dqr_lid_switch(const struct dqr_fabric *f, uint32_t lid)
{
	uint32_t port = dqr_lid_owner(f, lid);

	return port == DQR_NONE ? DQR_NONE : dqr_ingress_switch(f, port);
}

static void settle(struct dqr_walk_state *s, uint8_t result, uint8_t hops,
		   uint32_t fail_sw)
{
	s->result = result;
	s->hops = hops;
	s->fail_sw = fail_sw;
}

/*
 * One step from switch sw: either a final outcome (returns DQR_NONE and
 * fills *out), or the switch index the packet moves to.
 */
static uint32_t step(const struct dqr_fabric *f, const struct dqr_lfts *t,
		     uint32_t lid, uint32_t owner, uint32_t sw,
		     struct dqr_walk_state *out)
{
	uint8_t p = dqr_lft_get(t, sw, lid);
	uint32_t ch, next;

	if (p == 0) {
		if (owner == dqr_port_index(f, f->switches[sw], 0))
			settle(out, DQR_WALK_OK, 0, DQR_NONE);
		else
			settle(out, DQR_WALK_WRONG_END, 0, sw);
		return DQR_NONE;
	}
	if (p == DQR_NO_PATH) {
		settle(out, DQR_WALK_NO_PATH, 0, sw);
		return DQR_NONE;
	}
	ch = dqr_next_channel(f, t, sw, lid);
	if (ch == DQR_NONE) {
		settle(out, DQR_WALK_DEAD_PORT, 0, sw);
		return DQR_NONE;
	}
	next = dqr_peer_switch(f, ch);
	if (next != DQR_NONE)
		return next;
	if (dqr_peer_port(f, ch) == owner)
		settle(out, DQR_WALK_OK, 1, DQR_NONE);
	else
		settle(out, DQR_WALK_WRONG_END, 0, sw);
	return DQR_NONE;
}

void dqr_walk_dlid(const struct dqr_fabric *f, const struct dqr_lfts *t,
		   uint32_t lid, struct dqr_walk_state *st, uint32_t *stack)
{
	uint32_t owner = dqr_lid_owner(f, lid), s, n, top, i, walked = 0;
	struct dqr_walk_state end = { DQR_NONE, DQR_WALK_LOOP, 0, 0 };

	for (s = 0; s < f->num_switches; s++) {
		st[s].result = WALK_UNKNOWN;
		st[s].on_loop = 0;
	}

	for (s = 0; s < f->num_switches; s++) {
		if (st[s].result != WALK_UNKNOWN)
			continue;
		/* follow the route until something already known */
		top = 0;
		n = s;
		for (;;) {
			st[n].result = WALK_ACTIVE;
			stack[top++] = n;
			n = step(f, t, lid, owner, n, &end);
			if (n == DQR_NONE || st[n].result != WALK_UNKNOWN)
				break;
		}
		if (n != DQR_NONE && st[n].result == WALK_ACTIVE) {
			/* n is on this stack: the entries from n on loop */
			for (i = top; i-- > 0;) {
				st[stack[i]].on_loop = 1;
				if (stack[i] == n)
					break;
			}
			settle(&end, DQR_WALK_LOOP, 0, n);
		} else if (n != DQR_NONE) {
			end = st[n];
			if (end.result == DQR_WALK_OK)
				end.hops = end.hops < 255 ? end.hops + 1 : 255;
		}
		/* unwind: each switch is one hop further than its successor */
		walked += top;
		st[stack[--top]].result = end.result;
		st[stack[top]].hops = end.hops;
		st[stack[top]].fail_sw = end.fail_sw;
		while (top > 0) {
			struct dqr_walk_state *prev = &st[stack[top]];
			struct dqr_walk_state *cur = &st[stack[--top]];

			cur->result = prev->result;
			cur->fail_sw = prev->fail_sw;
			cur->hops = prev->result != DQR_WALK_OK ? 0 :
				    prev->hops < 255 ? prev->hops + 1 : 255;
		}
	}
	/* every switch walked once: O(switches) per DLID (route_walk.h) */
	DQR_CHECK(walked == f->num_switches);
}

int64_t dqr_unrouted_among(const struct dqr_fabric *f,
			   const struct dqr_lfts *t, const uint8_t *level,
			   uint8_t least, uint64_t *pairs)
{
	struct dqr_walk_state *st;
	uint32_t *scratch, lid, sw, dsw;
	int64_t bad = 0;

	*pairs = 0;
	st = malloc(sizeof(*st) * (f->num_switches + 1));
	scratch = malloc(sizeof(*scratch) * (f->num_switches + 1));
	if (!st || !scratch) {
		free(st);
		free(scratch);
		return -1;
	}
	for (lid = 1; lid <= f->max_lid; lid++) {
		dsw = dqr_lid_switch(f, lid);
		if (dsw == DQR_NONE || level[dsw] < least)
			continue;
		dqr_walk_dlid(f, t, lid, st, scratch);
		for (sw = 0; sw < f->num_switches; sw++) {
			if (level[sw] < least)
				continue;
			(*pairs)++;
			bad += st[sw].result != DQR_WALK_OK;
		}
	}
	free(st);
	free(scratch);
	return bad;
}
