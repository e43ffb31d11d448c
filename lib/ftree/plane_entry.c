/*
 * plane_entry.c - one crossing into a lost switch's plane, enabled
 * before DQR's search (plane_entry.h says why).
 */
#include <stdlib.h>

#include "ftree/plane_entry.h"
#include "util/check.h"

struct dqr_plane_entry {
	const struct dqr_ftree *ft;
	/* per switch: reached from the anchor going up only */
	uint8_t *ancestor;
	/* per switch: the group of the cables below it, DQR_NONE on leaves */
	uint32_t *group_below;
};

void dqr_plane_entry_free(struct dqr_plane_entry *pe)
{
	if (!pe)
		return;
	free(pe->ancestor);
	free(pe->group_below);
	free(pe);
}

struct dqr_plane_entry *dqr_plane_entry_new(const struct dqr_fabric *ref,
					    const struct dqr_ftree *ft)
{
	struct dqr_plane_entry *pe = calloc(1, sizeof(*pe));
	uint32_t s = ft->num_switches, sw, i, nb, head = 0, tail = 0;
	uint32_t *queue = malloc(sizeof(uint32_t) * (s + 1));

	if (!pe || !queue)
		goto nomem;
	pe->ft = ft;
	pe->ancestor = calloc(s + 1, 1);
	pe->group_below = malloc(sizeof(uint32_t) * (s + 1));
	if (!pe->ancestor || !pe->group_below)
		goto nomem;
	for (sw = 0; sw < s; sw++) {
		pe->group_below[sw] = DQR_NONE;
		if (ft->down_off[sw] == ft->down_off[sw + 1])
			continue;
		nb = dqr_peer_switch(ref, ft->down[ft->down_off[sw]]);
		if (nb != DQR_NONE)
			pe->group_below[sw] = ft->group_up[nb];
	}
	if (ft->anchor < s) {
		pe->ancestor[ft->anchor] = 1;
		queue[tail++] = ft->anchor;
	}
	while (head < tail) {
		sw = queue[head++];
		for (i = ft->up_off[sw]; i < ft->up_off[sw + 1]; i++) {
			nb = dqr_peer_switch(ref, ft->up[i]);
			if (nb == DQR_NONE || pe->ancestor[nb])
				continue;
			pe->ancestor[nb] = 1;
			queue[tail++] = nb;
		}
	}
	free(queue);
	return pe;
nomem:
	free(queue);
	dqr_plane_entry_free(pe);
	return NULL;
}

static int lost(const struct dqr_fabric *f, uint32_t sw)
{
	return !dqr_next_linked_port(f, f->switches[sw], 0);
}

/* x's live up channel to the plane (group g) and to the nearest other. */
static void up_pair(const struct dqr_ftree *ft, const struct dqr_fabric *f,
		    uint32_t x, uint32_t g, uint32_t *in, uint32_t *other)
{
	uint32_t i, m;

	*in = DQR_NONE;
	*other = DQR_NONE;
	for (i = ft->up_off[x]; i < ft->up_off[x + 1]; i++) {
		m = dqr_peer_switch(f, ft->up[i]);
		if (m == DQR_NONE)
			continue;
		if (ft->group_up[m] == g) {
			if (*in == DQR_NONE)
				*in = ft->up[i];
		} else if (*other == DQR_NONE ||
			   ft->rank[m] < ft->rank[dqr_peer_switch(f, *other)]) {
			*other = ft->up[i];
		}
	}
}

/*
 * The crossing into d's plane: at the live switch one level below it,
 * outside d's group below, nearest the anchor (then of lowest GUID),
 * whose turn the list admits; each refusal costs another scan of the
 * switches, O(switches x ports).  0, or -1 when out of memory.
 */
static int enter_plane(const struct dqr_plane_entry *pe,
		       const struct dqr_fabric *f, struct dqr_dyn_order *cl,
		       uint32_t d)
{
	const struct dqr_ftree *ft = pe->ft;
	uint32_t s = ft->num_switches, x, in, other, best, bin = 0, bout = 0;
	uint8_t *tried = calloc(s + 1, 1);
	int r;

	if (!tried)
		return -1;
	for (;;) {
		best = DQR_NONE;
		for (x = 0; x < s; x++) {
			if (tried[x] || ft->level[x] + 1 != ft->level[d] ||
			    ft->group_up[x] == pe->group_below[d] ||
			    lost(f, x))
				continue;
			up_pair(ft, f, x, ft->group_up[d], &in, &other);
			if (in == DQR_NONE || other == DQR_NONE)
				continue;
			if (best != DQR_NONE && (ft->rank[x] > ft->rank[best] ||
			    (ft->rank[x] == ft->rank[best] &&
			     f->nodes[f->switches[x]].guid >
			     f->nodes[f->switches[best]].guid)))
				continue;
			best = x;
			bin = in;
			bout = other;
		}
		if (best == DQR_NONE)
			break;
		tried[best] = 1;
		/* the U-turn: down from the other switch into x, up into
		 * the plane */
		r = dqr_dyn_add(cl, dqr_peer_port(f, bout), bin);
		if (r == DQR_DYN_ENOMEM) {
			free(tried);
			return -1;
		}
		if (r >= 0)
			break;
	}
	free(tried);
	return 0;
}

int dqr_plane_entry(void *arg, const struct dqr_fabric *f,
		    const struct dqr_lfts *t, struct dqr_dyn_order *cl)
{
	const struct dqr_plane_entry *pe = arg;
	const struct dqr_ftree *ft = pe->ft;
	uint32_t d;

	(void)t;
	DQR_CHECK(f->num_switches == ft->num_switches);
	for (d = 0; d < ft->num_switches; d++) {
		if (!pe->ancestor[d] || !ft->level[d] ||
		    ft->level[d] + 1 >= ft->num_levels || !lost(f, d))
			continue;
		if (enter_plane(pe, f, cl, d))
			return -1;
	}
	dqr_dyn_commit(cl);
	return 0;
}
