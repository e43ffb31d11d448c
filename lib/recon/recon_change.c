/*
 * recon_change.c - what one update of the reconfiguration state found
 * changed, by name for the operator: the cables that failed or came
 * back, the switches lost or returned, the entries left cut off.  The
 * counts alone do not say where to send someone with a cable.
 */
#include <stdlib.h>
#include <string.h>

#include "recon/recon-internal.h"
#include "util/sort.h"

void dqr_recon_change_release(struct dqr_recon_change *c)
{
	free(c->links_failed);
	free(c->links_returned);
	free(c->lost);
	free(c->returned);
	free(c->cut);
	memset(c, 0, sizeof(*c));
}

static int has(const uint32_t *a, uint32_t n, uint32_t x)
{
	return n && bsearch(&x, a, n, sizeof(*a), dqr_cmp_u32) != NULL;
}

/*
 * One switch port per cable of ports (ascending) into out: of a cable
 * between two switches whose ends are both listed, the lower end.
 */
static uint32_t one_end_each(const struct dqr_fabric *f, const uint32_t *p,
			     uint32_t n, uint32_t *out)
{
	uint32_t i, q, k = 0;

	for (i = 0; i < n; i++) {
		q = dqr_peer_port(f, p[i]);
		if (q != DQR_NONE && q < p[i] &&
		    dqr_is_switch(f, f->ports[q].node) && has(p, n, q))
			continue;
		out[k++] = p[i];
	}
	return k;
}

/* 1 when every cabled port of switch node is in down (ascending). */
static int all_down(const struct dqr_fabric *f, uint32_t node,
		    const uint32_t *down, uint32_t nd)
{
	unsigned pn;
	int any = 0;

	dqr_for_each_linked_port(f, node, pn) {
		if (!has(down, nd, dqr_port_index(f, node, pn)))
			return 0;
		any = 1;
	}
	return any;
}

/*
 * The switches owning ports p (ascending, so a node's ports come
 * together) that are lost after (every cable in after) and were not
 * before, into out.
 */
static uint32_t switches_gone(const struct dqr_fabric *f, const uint32_t *p,
			      uint32_t n, const uint32_t *after, uint32_t na,
			      const uint32_t *before, uint32_t nb,
			      uint32_t *out)
{
	uint32_t i, node, last = DQR_NONE, k = 0;

	for (i = 0; i < n; i++) {
		node = f->ports[p[i]].node;
		if (node == last)
			continue;
		last = node;
		if (all_down(f, node, after, na) &&
		    !all_down(f, node, before, nb))
			out[k++] = node;
	}
	return k;
}

void dqr_recon_note_change(struct dqr_recon *r, const uint32_t *down,
			   uint32_t nd, const uint32_t *fresh, uint32_t nf,
			   const uint32_t *back, uint32_t nb)
{
	struct dqr_recon_change *c = &r->change;
	const struct dqr_fabric *f = r->ref;

	dqr_recon_change_release(c);
	c->links_failed = malloc(sizeof(uint32_t) * (nf + 1));
	c->links_returned = malloc(sizeof(uint32_t) * (nb + 1));
	c->lost = malloc(sizeof(uint32_t) * (nf + 1));
	c->returned = malloc(sizeof(uint32_t) * (nb + 1));
	if (!f || !c->links_failed || !c->links_returned || !c->lost ||
	    !c->returned) {
		dqr_recon_change_release(c);
		return;
	}
	c->num_links_failed = one_end_each(f, fresh, nf, c->links_failed);
	c->num_links_returned = one_end_each(f, back, nb, c->links_returned);
	c->num_lost = switches_gone(f, fresh, nf, down, nd, r->down,
				    r->num_down, c->lost);
	c->num_returned = switches_gone(f, back, nb, r->down, r->num_down,
					down, nd, c->returned);
}

void dqr_recon_note_cut(struct dqr_recon *r)
{
	struct dqr_recon_change *c = &r->change;
	const struct dqr_change *ch;
	uint32_t n, i;

	free(c->cut);
	c->cut = NULL;
	c->num_cut = 0;
	ch = dqr_reroute_changes(r->rr, &n);
	c->cut = malloc(sizeof(*c->cut) * (n + 1));
	if (!c->cut)
		return;
	/* a failed entry is dropped to no path; holes never had a route */
	for (i = 0; i < n; i++)
		if (ch[i].old != DQR_NO_PATH &&
		    dqr_lft_get(r->cur, ch[i].sw, ch[i].lid) == DQR_NO_PATH)
			c->cut[c->num_cut++] = (uint64_t)ch[i].lid << 32 |
					       ch[i].sw;
	if (c->num_cut)
		qsort(c->cut, c->num_cut, sizeof(*c->cut), dqr_cmp_u64);
}
