/*
 * small_fabrics.c - rings with clockwise and line routing, fabrics from
 * generator specs and topology files, their switch-to-switch cables, the
 * grids and routes of generated ones, and the channel list of a routing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/channel_list.h"
#include "io/topo_read.h"
#include "small_fabrics.h"
#include "unit.h"

/*
 * Only REQUIRE here: unit.h's counts are each file's own, so a failed
 * CHECK in this file would not fail the test that called it.
 */

struct dqr_fabric *ring_fabric(unsigned n)
{
	struct dqr_fabric *f = dqr_fabric_new();
	char name[32], err[128];
	unsigned i;

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "sw%u", i);
		dqr_fabric_add_node(f, DQR_NODE_SWITCH, 4, 0x100 + i, name);
	}
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "ca%u", i);
		dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0x200 + i, name);
	}
	for (i = 0; i < n; i++) {
		dqr_fabric_link(f, i, 1, (i + 1) % n, 2);
		dqr_fabric_link(f, i, 3, n + i, 1);
		dqr_fabric_set_lid(f, i, 0, i + 1, 0);
		dqr_fabric_set_lid(f, n + i, 1, n + i + 1, 0);
	}
	if (dqr_fabric_finish(f, err, sizeof(err))) {
		fprintf(stderr, "ring_fabric: %s\n", err);
		dqr_fabric_free(f);
		return NULL;
	}
	return f;
}

int ring_open(struct ring *r, unsigned n,
	      struct dqr_lfts *(*route)(const struct dqr_fabric *, unsigned))
{
	r->n = n;
	r->t = NULL;
	r->f = ring_fabric(n);
	if (!r->f)
		return -1;
	r->t = route(r->f, n);
	return 0;
}

void ring_close(struct ring *r)
{
	dqr_lfts_free(r->t);
	dqr_fabric_free(r->f);
}

/* The ring position a LID belongs to. */
static unsigned lid_pos(unsigned lid, unsigned n)
{
	return (lid - 1) % n;
}

static void local_entries(struct dqr_lfts *t, unsigned n)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		dqr_lft_set(t, i, i + 1, 0);
		dqr_lft_set(t, i, n + i + 1, 3);
	}
}

struct dqr_lfts *ring_clockwise(const struct dqr_fabric *f, unsigned n)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid;

	for (sw = 0; sw < n; sw++)
		for (lid = 1; lid <= 2 * n; lid++)
			dqr_lft_set(t, sw, lid, 1);
	local_entries(t, n);
	return t;
}

struct dqr_lfts *ring_as_line(const struct dqr_fabric *f, unsigned n)
{
	struct dqr_lfts *t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	unsigned sw, lid;

	for (sw = 0; sw < n; sw++)
		for (lid = 1; lid <= 2 * n; lid++)
			dqr_lft_set(t, sw, lid, lid_pos(lid, n) > sw ? 1 : 2);
	local_entries(t, n);
	return t;
}

int dyn_order_of_tables(const struct dqr_fabric *f, const struct dqr_lfts *t,
			struct dqr_dyn_order **d, struct dqr_cdg **gp)
{
	const struct dqr_lfts *ts[1] = { t };
	struct dqr_channel_list cl;
	struct dqr_cdg *g;
	int ret = dqr_channel_list_of_tables(f, ts, 1, &cl, NULL, &g);

	*d = NULL;
	if (ret == 0) {
		*d = dqr_dyn_new(g, &cl);
		dqr_channel_list_free(&cl);
	}
	if (gp)
		*gp = g;
	else
		dqr_cdg_free(g);
	return ret;
}

struct dqr_fabric *gen_fabric(const char *spec, struct dqr_gen_spec *s,
			      struct dqr_gen_place **places)
{
	struct dqr_fabric *f = NULL;
	char err[256] = "";

	if (!dqr_gen_parse(spec, s, err, sizeof(err)))
		f = dqr_gen_build_places(s, places, err, sizeof(err));
	if (!f)
		fprintf(stderr, "%s: %s\n", spec, err);
	return f;
}

unsigned switch_port_to(const struct dqr_fabric *f, uint32_t a, uint32_t b)
{
	uint32_t node = f->switches[a];
	unsigned pn;

	dqr_for_each_linked_port(f, node, pn)
		if (dqr_peer_switch(f, dqr_port_index(f, node, pn)) == b)
			return pn;
	return 0;
}

struct dqr_fabric *cut_cables(const struct dqr_fabric *f,
			      const uint32_t *cut, unsigned n,
			      struct dqr_topo_diff *d)
{
	struct dqr_fabric *cur = dqr_fabric_clone(f), *p;
	struct dqr_topo_diff own;
	unsigned i;

	REQUIRE(cur);
	for (i = 0; i < n; i++)
		dqr_fabric_unlink_port(cur, cut[i]);
	p = dqr_fabric_project(f, cur, d ? d : &own);
	REQUIRE(p);
	dqr_fabric_free(cur);
	if (!d) {
		REQUIRE(own.links_missing == n);
		dqr_topo_diff_release(&own);
	}
	return p;
}

void gen_grid(struct dqr_grid *g, const struct dqr_fabric *f,
	      const struct dqr_gen_spec *s, struct dqr_gen_place *places)
{
	unsigned k;

	memset(g, 0, sizeof(*g));
	g->kind = s->kind == DQR_GEN_TORUS ? DQR_GRID_TORUS : DQR_GRID_MESH;
	g->ndims = s->ndims;
	for (k = 0; s->kind != DQR_GEN_HYPERCUBE && k < s->ndims &&
	     k < DQR_GEN_MAX_DIMS; k++) {
		g->dims[k] = s->dims[k];
		g->wrap[k] = s->kind == DQR_GEN_TORUS && s->dims[k] > 2;
	}
	g->spec = *s;
	g->place = places;
	g->num_switches = f->num_switches;
}

void gen_world_open(struct gen_world *w, const char *spec,
		    enum dqr_ref_kind kind)
{
	char err[256];

	memset(w, 0, sizeof(*w));
	w->f = gen_fabric(spec, &w->s, &w->places);
	REQUIRE(w->f);
	REQUIRE(dqr_ref_route(w->f, &w->s, w->places, kind, &w->t, err,
			      sizeof(err)) == 0);
	gen_grid(&w->g, w->f, &w->s, w->places);
	w->num_links = switch_links(w->f, &w->links);
	REQUIRE(w->links);
}

void gen_world_close(struct gen_world *w)
{
	free(w->links);
	dqr_lfts_free(w->t);
	free(w->places);
	dqr_fabric_free(w->f);
}

uint32_t switch_links(const struct dqr_fabric *f, uint32_t **out)
{
	uint32_t a, b, gp, n = 0;
	unsigned pn;

	*out = malloc(sizeof(uint32_t) * (f->num_ports + 1));
	if (!*out)
		return 0;
	for (a = 0; a < f->num_switches; a++)
		dqr_for_each_linked_port(f, f->switches[a], pn) {
			gp = dqr_port_index(f, f->switches[a], pn);
			b = dqr_peer_switch(f, gp);
			if (b != DQR_NONE && b > a)
				(*out)[n++] = gp;
		}
	return n;
}

void shuffle(uint32_t *a, uint32_t n, uint32_t (*rnd)(uint32_t))
{
	uint32_t i, j, x;

	for (i = n; i > 1; i--) {
		j = rnd(i);
		x = a[i - 1];
		a[i - 1] = a[j];
		a[j] = x;
	}
}

struct dqr_fabric *data_fabric(const char *name)
{
	char path[4096], err[512];
	struct dqr_fabric *f;

	f = dqr_read_topology(unit_data_path(name, path, sizeof(path)), err,
			      sizeof(err));
	if (!f)
		fprintf(stderr, "%s\n", err);
	return f;
}

struct dqr_fabric *text_fabric(const char *text)
{
	struct dqr_fabric *f = NULL;
	char err[512] = "";
	FILE *fp = unit_text_file(text, strlen(text));

	if (fp) {
		f = dqr_parse_topology(fp, "inline", err, sizeof(err));
		fclose(fp);
	}
	if (!f)
		fprintf(stderr, "%s\n", err);
	return f;
}
