/*
 * union_loops.c - the loop search of union_loops.h: an iterative
 * depth-first search over (switch, entry) pairs, vertex 2 * sw + e.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/relay.h"
#include "routes/union_loops.h"
#include "util/check.h"

int dqr_loop_search_init(struct dqr_loop_search *s, uint32_t num_switches)
{
	size_t n = 2 * (size_t)num_switches + 1;

	memset(s, 0, sizeof(*s));
	s->num_switches = num_switches;
	s->seen = calloc(n, sizeof(uint32_t));
	s->done = calloc(n, sizeof(uint32_t));
	s->it = malloc(n);
	s->stack = malloc(n * sizeof(uint32_t));
	if (s->seen && s->done && s->it && s->stack)
		return 0;
	dqr_loop_search_release(s);
	return -1;
}

void dqr_loop_search_release(struct dqr_loop_search *s)
{
	free(s->seen);
	free(s->done);
	free(s->it);
	free(s->stack);
	memset(s, 0, sizeof(*s));
}

void dqr_loop_search_begin(struct dqr_loop_search *s)
{
	size_t n = 2 * (size_t)s->num_switches + 1;

	if (++s->epoch)
		return;
	/* wrapped: stamps of 2^32 searches ago would pass for this one's */
	memset(s->seen, 0, n * sizeof(uint32_t));
	memset(s->done, 0, n * sizeof(uint32_t));
	s->epoch = 1;
}

/* The switch a packet reaches from sw by port p, and the channel. */
static uint32_t hop(const struct dqr_fabric *f, uint32_t sw, uint8_t p,
		    uint32_t *c)
{
	*c = dqr_out_channel(f, sw, p);
	return *c == DQR_NONE ? DQR_NONE : dqr_peer_switch(f, *c);
}

/* The loop on the stack from vertex w up, as switches, into loop[]. */
static void note_loop(const struct dqr_loop_search *s, uint32_t top,
		      uint32_t w, uint32_t *loop, uint32_t max, uint32_t *len)
{
	uint32_t j, k;

	for (j = 0; s->stack[j] != w; j++)
		;
	*len = top - j;
	for (k = 0; loop && j + k < top && k < max; k++)
		loop[k] = s->stack[j + k] >> 1;
}

int dqr_union_loop_from(struct dqr_loop_search *s, const struct dqr_fabric *f,
			dqr_union_entries_fn entries, const void *ctx,
			uint32_t lid, uint32_t sw, uint32_t *loop,
			uint32_t max, uint32_t *len)
{
	const uint32_t ep = s->epoch;
	uint32_t top, v, w, x, y, c;
	uint8_t q[2], q2[2];
	unsigned e, n, m, t;

	DQR_CHECK(sw < s->num_switches && ep);
	*len = 0;
	n = entries(ctx, sw, lid, q);
	for (e = 0; e < n; e++) {
		v = 2 * sw + e;
		if (s->seen[v] == ep)
			continue;
		top = 0;
		s->seen[v] = ep;
		s->it[v] = 0;
		s->stack[top++] = v;
		while (top) {
			v = s->stack[top - 1];
			x = v >> 1;
			entries(ctx, x, lid, q);
			y = hop(f, x, q[v & 1], &c);
			m = y == DQR_NONE ? 0 : entries(ctx, y, lid, q2);
			if (s->it[v] >= m) {
				s->done[v] = ep;
				top--;
				continue;
			}
			t = s->it[v]++;
			if (!dqr_relays(f, c, dqr_out_channel(f, y, q2[t])))
				continue;	/* discarded, or delivered */
			w = 2 * y + t;
			if (s->done[w] == ep)
				continue;
			if (s->seen[w] == ep) {
				/* on the stack: the packet comes back */
				note_loop(s, top, w, loop, max, len);
				return 1;
			}
			s->seen[w] = ep;
			s->it[w] = 0;
			s->stack[top++] = w;
		}
	}
	return 0;
}
