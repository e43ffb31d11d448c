/*
 * topo_gen.c - generated fabrics (see topo_gen.h for the spec grammar and
 * the port numbering of every topology).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/topo_gen.h"
#include "util/errmsg.h"

/* ibsim's first GUIDs; the writer then needs no guid lines (topo_gen.h) */
#define GEN_SWITCH_GUID 0x200000ull
#define GEN_CA_GUID 0x100000ull

/* keeps every product below in 64 bits while parsing */
#define GEN_MAX_NUMBER 1000000u

struct gen;
static int build_kary(struct gen *g);
static int build_fattree2(struct gen *g);
static int build_fattree3(struct gen *g);
static int build_grid(struct gen *g);
static int build_hypercube(struct gen *g);

/*
 * What the code needs to know of a kind beyond its parameters, in one
 * place: a new kind is one more row (and its parameters' cases).
 */
static const struct kind_info {
	const char *name;		/* in specs */
	int (*build)(struct gen *g);
	int direct;	/* switches hold the CAs: cas= applies */
} kinds[] = {
	[DQR_GEN_KARY] = { "kary", build_kary, 0 },
	[DQR_GEN_FATTREE2] = { "fattree2", build_fattree2, 0 },
	[DQR_GEN_FATTREE3] = { "fattree3", build_fattree3, 0 },
	[DQR_GEN_MESH] = { "mesh", build_grid, 1 },
	[DQR_GEN_TORUS] = { "torus", build_grid, 1 },
	[DQR_GEN_HYPERCUBE] = { "hypercube", build_hypercube, 1 },
};

#define NUM_KINDS (sizeof(kinds) / sizeof(kinds[0]))

static const char *kind_name(enum dqr_gen_kind kind)
{
	return (unsigned)kind < NUM_KINDS ? kinds[kind].name : NULL;
}

static int is_direct(enum dqr_gen_kind kind)
{
	return kind_name(kind) && kinds[kind].direct;
}

/* ---------------------------------------------------------------- counts */

/* Switch ports of every switch; 0 when the spec is unusable. */
static unsigned switch_ports(const struct dqr_gen_spec *s)
{
	switch (s->kind) {
	case DQR_GEN_KARY:
		return 2 * s->k;
	case DQR_GEN_FATTREE2:
	case DQR_GEN_FATTREE3:
		return s->radix;
	case DQR_GEN_MESH:
	case DQR_GEN_TORUS:
		return 2 * s->ndims + s->cas;
	case DQR_GEN_HYPERCUBE:
		return s->ndims + s->cas;
	}
	return 0;
}

/*
 * Counts of a fat tree (kary, fattree2, fattree3), or -1 with the reason:
 * every limit (radix, ports, LIDs) is checked before anything is built, so
 * a spec either builds whole or says why not.
 */
static int check_tree(const struct dqr_gen_spec *s, struct dqr_gen_counts *c,
		      char *err, size_t errlen)
{
	uint64_t kn1 = 1, h = s->radix / 2;
	unsigned i;

	if (s->kind == DQR_GEN_KARY) {
		if (s->k < 2) {
			dqr_set_err(err, errlen,
				"kary: K must be at least 2 (got %u)", s->k);
			return -1;
		}
		if (s->n < 1) {
			dqr_set_err(err, errlen,
				"kary: N must be at least 1 (got %u)", s->n);
			return -1;
		}
		if (2 * s->k > DQR_MAX_PORTS) {
			dqr_set_err(err, errlen,
				"kary: K=%u needs %u-port switches, at most %u",
				s->k, 2 * s->k, DQR_MAX_PORTS);
			return -1;
		}
		/* K >= 2: N > 16 is beyond the LID space anyway */
		for (i = 1; i < s->n; i++) {
			kn1 *= s->k;
			if (kn1 > DQR_MAX_LID)
				break;
		}
		if (kn1 > DQR_MAX_LID || s->n > 16) {
			dqr_set_err(err, errlen,
				"kary:%u,%u has more nodes than the %u unicast "
				"LIDs", s->k, s->n, DQR_MAX_LID);
			return -1;
		}
		c->switches = s->n * kn1;
		c->cas = kn1 * s->k;
		c->links = c->cas + (uint64_t)(s->n - 1) * c->cas;
		return 0;
	}
	if (s->radix < 2 || s->radix % 2) {
		dqr_set_err(err, errlen,
			"%s: R must be even and at least 2 (got %u)",
			kind_name(s->kind), s->radix);
		return -1;
	}
	if (s->radix > DQR_MAX_PORTS) {
		dqr_set_err(err, errlen, "%s: R=%u exceeds %u switch ports",
			kind_name(s->kind), s->radix, DQR_MAX_PORTS);
		return -1;
	}
	if (s->kind == DQR_GEN_FATTREE2) {
		c->switches = s->radix + h;
		c->cas = s->radix * h;
		c->links = 2 * c->cas;
	} else {
		c->switches = 2 * s->radix * h + h * h;
		c->cas = s->radix * h * h;
		c->links = 3 * c->cas;
	}
	return 0;
}

/*
 * The same for a direct network (mesh, torus, hypercube): switches and
 * cables from the dimensions (a torus ring of 2 is a mesh's, one cable),
 * refused when a switch needs more ports than a node may have or the
 * switches alone exceed the LIDs.
 */
static int check_direct(const struct dqr_gen_spec *s,
			struct dqr_gen_counts *c, char *err, size_t errlen)
{
	const char *name = kind_name(s->kind);
	uint64_t n = 1, links = 0;
	unsigned d;

	if (s->kind == DQR_GEN_HYPERCUBE) {
		if (s->ndims < 1) {
			dqr_set_err(err, errlen,
				"hypercube: D must be at least 1 (got %u)",
				s->ndims);
			return -1;
		}
		/* 2^16 switches alone exceed the LID space */
		if (s->ndims > 15) {
			dqr_set_err(err, errlen,
				"hypercube:%u has more switches than the %u "
				"unicast LIDs", s->ndims, DQR_MAX_LID);
			return -1;
		}
		n = 1ull << s->ndims;
		links = s->ndims * (n / 2);
	} else {
		if (s->ndims < 1 || s->ndims > DQR_GEN_MAX_DIMS) {
			dqr_set_err(err, errlen,
				"%s: 1 to %u dimensions, got %u", name,
				DQR_GEN_MAX_DIMS, s->ndims);
			return -1;
		}
		for (d = 0; d < s->ndims; d++) {
			if (s->dims[d] < 1 || s->dims[d] > GEN_MAX_NUMBER) {
				dqr_set_err(err, errlen,
					"%s: size %u of dimension %u out of "
					"range", name, s->dims[d], d + 1);
				return -1;
			}
			n *= s->dims[d];
		}
		for (d = 0; d < s->ndims; d++) {
			unsigned sz = s->dims[d];

			if (s->kind == DQR_GEN_TORUS && sz > 2)
				links += n;
			else
				links += n / sz * (sz - 1);
		}
	}
	if (switch_ports(s) < 1 || switch_ports(s) > DQR_MAX_PORTS) {
		dqr_set_err(err, errlen,
			"%s: %u CAs per switch need %u switch ports, at "
			"most %u", name, s->cas, switch_ports(s),
			DQR_MAX_PORTS);
		return -1;
	}
	if (n > DQR_MAX_LID) {
		dqr_set_err(err, errlen,
			"%s: %llu switches exceed the %u unicast LIDs", name,
			(unsigned long long)n, DQR_MAX_LID);
		return -1;
	}
	c->switches = n;
	c->cas = n * s->cas;
	c->links = links + c->cas;
	return 0;
}

int dqr_gen_count(const struct dqr_gen_spec *s, struct dqr_gen_counts *c,
		  char *err, size_t errlen)
{
	uint64_t block, first;
	int r;

	memset(c, 0, sizeof(*c));
	if (!kind_name(s->kind)) {
		dqr_set_err(err, errlen, "unknown topology kind %d",
			    (int)s->kind);
		return -1;
	}
	if (s->lmc > 7) {
		dqr_set_err(err, errlen, "lmc=%u: LMC is 0 to 7", s->lmc);
		return -1;
	}
	if (!is_direct(s->kind) && s->cas != 0) {
		dqr_set_err(err, errlen,
			"%s: the CA count is fixed by the topology, cas= is "
			"for mesh, torus and hypercube", kind_name(s->kind));
		return -1;
	}
	if (is_direct(s->kind))
		r = check_direct(s, c, err, errlen);
	else
		r = check_tree(s, c, err, errlen);
	if (r)
		return r;

	block = 1ull << s->lmc;
	first = (c->switches + 1 + block - 1) / block * block;
	c->max_lid = c->cas ? first + c->cas * block - 1 : c->switches;
	if (c->max_lid > DQR_MAX_LID) {
		dqr_set_err(err, errlen,
			"%llu switches and %llu CAs (LMC %u) need LIDs up to "
			"%llu, beyond the last unicast LID %u",
			(unsigned long long)c->switches,
			(unsigned long long)c->cas, s->lmc,
			(unsigned long long)c->max_lid, DQR_MAX_LID);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------- parse */

/* Reads a decimal number; -1 when there is none or it is absurdly large. */
static int parse_num(const char **pp, unsigned *v)
{
	const char *p = *pp;
	unsigned long x = 0;

	if (*p < '0' || *p > '9')
		return -1;
	while (*p >= '0' && *p <= '9') {
		x = x * 10 + (unsigned long)(*p - '0');
		if (x > GEN_MAX_NUMBER)
			return -1;
		p++;
	}
	*v = (unsigned)x;
	*pp = p;
	return 0;
}

/*
 * The parameters after "KIND:" into s, *pp past them; -1 with a message
 * that shows the kind's own syntax, since that is what the user got wrong.
 */
static int parse_params(const char **pp, struct dqr_gen_spec *s,
			char *err, size_t errlen)
{
	const char *p = *pp, *name = kind_name(s->kind);
	unsigned d;

	switch (s->kind) {
	case DQR_GEN_KARY:
		if (parse_num(&p, &s->k) || *p++ != ',' ||
		    parse_num(&p, &s->n)) {
			dqr_set_err(err, errlen, "kary wants kary:K,N, e.g. "
				"kary:4,3");
			return -1;
		}
		break;
	case DQR_GEN_FATTREE2:
	case DQR_GEN_FATTREE3:
		if (parse_num(&p, &s->radix)) {
			dqr_set_err(err, errlen, "%s wants %s:R, e.g. %s:36",
				name, name, name);
			return -1;
		}
		break;
	case DQR_GEN_MESH:
	case DQR_GEN_TORUS:
		for (d = 0; ; d++) {
			if (d == DQR_GEN_MAX_DIMS) {
				dqr_set_err(err, errlen,
					"%s: at most %u dimensions", name,
					DQR_GEN_MAX_DIMS);
				return -1;
			}
			if (parse_num(&p, &s->dims[d])) {
				dqr_set_err(err, errlen, "%s wants %s:AxB or "
					"%s:AxBxC, e.g. %s:4x4", name, name,
					name, name);
				return -1;
			}
			if (*p != 'x')
				break;
			p++;
		}
		s->ndims = d + 1;
		break;
	case DQR_GEN_HYPERCUBE:
		if (parse_num(&p, &s->ndims)) {
			dqr_set_err(err, errlen, "hypercube wants hypercube:D, "
				"e.g. hypercube:4");
			return -1;
		}
		break;
	}
	*pp = p;
	return 0;
}

/*
 * The ",cas=N" and ",lmc=N" options after the parameters, each at most
 * once; a direct network without cas= gets one CA per switch.  -1 with a
 * message on anything else.
 */
static int parse_options(const char *p, struct dqr_gen_spec *s,
			 char *err, size_t errlen)
{
	int seen_cas = 0, seen_lmc = 0;

	while (*p) {
		unsigned *v;
		int *seen;

		if (*p != ',') {
			dqr_set_err(err, errlen, "unexpected \"%s\"", p);
			return -1;
		}
		p++;
		if (!strncmp(p, "cas=", 4)) {
			v = &s->cas;
			seen = &seen_cas;
		} else if (!strncmp(p, "lmc=", 4)) {
			v = &s->lmc;
			seen = &seen_lmc;
		} else {
			dqr_set_err(err, errlen, "unknown option \"%s\" "
				    "(cas=N or lmc=N)", p);
			return -1;
		}
		if (*seen) {
			dqr_set_err(err, errlen, "option %.3s given twice", p);
			return -1;
		}
		*seen = 1;
		p += 4;
		if (parse_num(&p, v) || (*p && *p != ',')) {
			dqr_set_err(err, errlen, "option %.3s wants a number",
				p - 4);
			return -1;
		}
	}
	/* direct networks default to one CA per switch */
	if (is_direct(s->kind) && !seen_cas)
		s->cas = 1;
	return 0;
}

int dqr_gen_parse(const char *spec, struct dqr_gen_spec *s,
		  char *err, size_t errlen)
{
	struct dqr_gen_counts c;
	const char *colon, *p;
	size_t i, len;

	memset(s, 0, sizeof(*s));
	if (!spec || !(colon = strchr(spec, ':'))) {
		dqr_set_err(err, errlen, "spec \"%s\" is not KIND:PARAMS "
			    "(kinds: kary, fattree2, fattree3, mesh, torus, "
			    "hypercube)", spec ? spec : "");
		return -1;
	}
	len = (size_t)(colon - spec);
	for (i = 0; i < NUM_KINDS; i++) {
		const char *name = kinds[i].name;

		if (name && strlen(name) == len && !strncmp(spec, name, len)) {
			s->kind = (enum dqr_gen_kind)i;
			break;
		}
	}
	if (!s->kind) {
		dqr_set_err(err, errlen, "unknown topology kind \"%.*s\" "
			    "(kinds: kary, fattree2, fattree3, mesh, torus, "
			    "hypercube)", (int)len, spec);
		return -1;
	}
	p = colon + 1;
	if (parse_params(&p, s, err, errlen) ||
	    parse_options(p, s, err, errlen))
		return -1;
	return dqr_gen_count(s, &c, err, errlen);
}

/* ---------------------------------------------------------------- build */

struct gen {
	const struct dqr_gen_spec *s;
	struct dqr_gen_counts c;
	struct dqr_fabric *f;
	struct dqr_gen_place *places;
	unsigned sw_ports;
	unsigned sw_width, ca_width;	/* digits in names */
	uint32_t num_sw, num_ca;	/* added so far */
	uint32_t first_ca_lid;
	char *err;
	size_t errlen;
};

static unsigned digits(uint64_t v)
{
	unsigned d = 1;

	while (v >= 10) {
		v /= 10;
		d++;
	}
	return d;
}

static unsigned name_width(uint64_t count)
{
	unsigned d = digits(count ? count - 1 : 0);

	return d < 4 ? 4 : d;
}

/*
 * Adds switch number num_sw with LID num_sw + 1 and ibsim's GUID for it,
 * and records its place: switch indices, LIDs and GUIDs then follow the
 * order of the build, which is what topo_gen.h promises.  0, or -1 with a
 * message.
 */
static int add_switch(struct gen *g, const char *name,
		      const struct dqr_gen_place *pl)
{
	uint32_t node, j = g->num_sw;

	node = dqr_fabric_add_node(g->f, DQR_NODE_SWITCH, g->sw_ports,
				   GEN_SWITCH_GUID + j, name);
	if (node == DQR_NONE || node != j ||
	    dqr_fabric_set_lid(g->f, node, 0, j + 1, 0)) {
		dqr_set_err(g->err, g->errlen, "cannot add switch %s", name);
		return -1;
	}
	dqr_fabric_set_port_guid(g->f, node, 0, GEN_SWITCH_GUID + j);
	if (g->places)
		g->places[j] = *pl;
	g->num_sw++;
	return 0;
}

static int add_tree_switch(struct gen *g, unsigned level, uint32_t pos,
			   unsigned group)
{
	struct dqr_gen_place pl = { 0 };
	char name[64];

	pl.level = (uint16_t)level;
	pl.group = (uint16_t)group;
	pl.pos = pos;
	snprintf(name, sizeof(name), "sw-L%u-%0*u", level, (int)g->sw_width,
		 (unsigned)pos);
	return add_switch(g, name, &pl);
}

/* The next CA, cabled by its port 1 to port sw_port of switch node sw. */
static int add_ca(struct gen *g, uint32_t sw, unsigned sw_port)
{
	uint32_t c = g->num_ca, node;
	uint64_t guid = GEN_CA_GUID + 2ull * c;
	char name[64];

	snprintf(name, sizeof(name), "ca-%0*u", (int)g->ca_width, (unsigned)c);
	node = dqr_fabric_add_node(g->f, DQR_NODE_CA, 1, guid, name);
	if (node == DQR_NONE ||
	    dqr_fabric_set_lid(g->f, node, 1,
			       g->first_ca_lid + (c << g->s->lmc),
			       g->s->lmc) ||
	    dqr_fabric_link(g->f, node, 1, sw, sw_port)) {
		dqr_set_err(g->err, g->errlen, "cannot add CA %s", name);
		return -1;
	}
	dqr_fabric_set_port_guid(g->f, node, 1, guid + 1);
	g->num_ca++;
	return 0;
}

static int cable(struct gen *g, uint32_t a, unsigned pa, uint32_t b,
		 unsigned pb)
{
	if (!dqr_fabric_link(g->f, a, pa, b, pb))
		return 0;
	dqr_set_err(g->err, g->errlen, "cannot cable %s[%u] to %s[%u]",
		dqr_node_name(g->f, a), pa, dqr_node_name(g->f, b), pb);
	return -1;
}

/*
 * A k-ary n-tree (the FT paper, definition 1): k^(n-1) switches per level,
 * k CAs per leaf; the switch at position w of level l has up port k+1+d
 * cabled to the one that differs from w in digit l-1 only, by d there.
 * 0, or -1 with a message.
 */
static int build_kary(struct gen *g)
{
	unsigned k = g->s->k, n = g->s->n, l, d, j;
	uint32_t per_level = (uint32_t)(g->c.switches / n), w, stride;

	for (l = 1; l <= n; l++)
		for (w = 0; w < per_level; w++)
			if (add_tree_switch(g, l, w, 0))
				return -1;
	for (w = 0; w < per_level; w++)
		for (j = 0; j < k; j++)
			if (add_ca(g, w, j + 1))
				return -1;
	/* <w, l> up port k+1+d -> <w with digit l-1 = d, l+1> */
	stride = 1;
	for (l = 1; l < n; l++, stride *= k) {
		uint32_t lo = (l - 1) * per_level, hi = l * per_level;

		for (w = 0; w < per_level; w++) {
			unsigned digit = w / stride % k;
			uint32_t base = w - digit * stride;

			for (d = 0; d < k; d++)
				if (cable(g, lo + w, k + 1 + d,
					  hi + base + d * stride, 1 + digit))
					return -1;
		}
	}
	return 0;
}

/*
 * Two tiers of radix-R switches: R leaves of R/2 CAs each, R/2 spines,
 * every leaf cabled once to every spine (leaf i's port R/2+1+j to spine
 * j's port i+1).  0, or -1 with a message.
 */
static int build_fattree2(struct gen *g)
{
	unsigned r = g->s->radix, h = r / 2, i, j;

	for (i = 0; i < r; i++)
		if (add_tree_switch(g, 1, i, 0))
			return -1;
	for (i = 0; i < h; i++)
		if (add_tree_switch(g, 2, i, 0))
			return -1;
	for (i = 0; i < r; i++)
		for (j = 0; j < h; j++)
			if (add_ca(g, i, j + 1))
				return -1;
	for (i = 0; i < r; i++)
		for (j = 0; j < h; j++)
			if (cable(g, i, h + 1 + j, r + j, i + 1))
				return -1;
	return 0;
}

/*
 * Three tiers: R pods of R/2 leaves and R/2 middle switches, fully cabled
 * within the pod, and (R/2)^2 cores, middle switch j of every pod cabled
 * to cores j*R/2 .. j*R/2+R/2-1.  0, or -1 with a message.
 */
static int build_fattree3(struct gen *g)
{
	unsigned r = g->s->radix, h = r / 2, p, i, j, c;
	uint32_t leaf0 = 0, mid0 = r * h, core0 = 2 * r * h;

	for (i = 0; i < r * h; i++)
		if (add_tree_switch(g, 1, i, i / h))
			return -1;
	for (i = 0; i < r * h; i++)
		if (add_tree_switch(g, 2, i, i / h))
			return -1;
	for (i = 0; i < h * h; i++)
		if (add_tree_switch(g, 3, i, 0))
			return -1;
	for (i = 0; i < r * h; i++)
		for (j = 0; j < h; j++)
			if (add_ca(g, leaf0 + i, j + 1))
				return -1;
	for (p = 0; p < r; p++) {
		for (i = 0; i < h; i++)
			for (j = 0; j < h; j++)
				if (cable(g, leaf0 + p * h + i, h + 1 + j,
					  mid0 + p * h + j, i + 1))
					return -1;
		for (j = 0; j < h; j++)
			for (c = 0; c < h; c++)
				if (cable(g, mid0 + p * h + j, h + 1 + c,
					  core0 + j * h + c, p + 1))
					return -1;
	}
	return 0;
}

static void grid_name(const struct gen *g, const struct dqr_gen_place *pl,
		      char *name, size_t len)
{
	static const char axis[DQR_GEN_MAX_DIMS] = { 'x', 'y', 'z' };
	unsigned d, max = 1, w;
	size_t off;

	for (d = 0; d < g->s->ndims; d++)
		if (g->s->dims[d] > max)
			max = g->s->dims[d];
	w = digits(max - 1);
	off = (size_t)snprintf(name, len, "sw");
	for (d = 0; d < g->s->ndims && off < len; d++)
		off += (size_t)snprintf(name + off, len - off, "-%c%0*u",
					axis[d], (int)w, pl->coord[d]);
}

/*
 * A mesh or torus: switch pos has coordinates pos / stride[d] mod dims[d];
 * port 2d+1 goes up dimension d and 2d+2 down (the numbering lib's DOR and
 * the grid detector rely on), a torus adds the wrap cable of every ring of
 * 3 or more.  CAs on the ports after 2 x dimensions.  0, or -1.
 */
static int build_grid(struct gen *g)
{
	const struct dqr_gen_spec *s = g->s;
	uint32_t n = (uint32_t)g->c.switches, pos, stride[DQR_GEN_MAX_DIMS];
	unsigned d, j, ca_port = 2 * s->ndims + 1;
	char name[64];

	stride[0] = 1;
	for (d = 1; d < s->ndims; d++)
		stride[d] = stride[d - 1] * s->dims[d - 1];
	for (pos = 0; pos < n; pos++) {
		struct dqr_gen_place pl = { 0 };

		pl.pos = pos;
		for (d = 0; d < s->ndims; d++)
			pl.coord[d] = (uint16_t)(pos / stride[d] % s->dims[d]);
		grid_name(g, &pl, name, sizeof(name));
		if (add_switch(g, name, &pl))
			return -1;
	}
	for (pos = 0; pos < n; pos++)
		for (j = 0; j < s->cas; j++)
			if (add_ca(g, pos, ca_port + j))
				return -1;
	for (pos = 0; pos < n; pos++) {
		for (d = 0; d < s->ndims; d++) {
			unsigned sz = s->dims[d], c = pos / stride[d] % sz;
			uint32_t nb;

			if (c + 1 < sz)
				nb = pos + stride[d];
			else if (s->kind == DQR_GEN_TORUS && sz > 2)
				nb = pos - c * stride[d];
			else
				continue;
			if (cable(g, pos, 2 * d + 1, nb, 2 * d + 2))
				return -1;
		}
	}
	return 0;
}

/*
 * A D-cube: switch b's port d+1 cabled to switch b with bit d flipped, so
 * e-cube's port is the lowest differing bit plus one; names are the labels
 * in binary.  0, or -1 with a message.
 */
static int build_hypercube(struct gen *g)
{
	unsigned dims = g->s->ndims, d, j;
	uint32_t n = (uint32_t)g->c.switches, b;
	char name[64];

	for (b = 0; b < n; b++) {
		struct dqr_gen_place pl = { 0 };

		pl.pos = b;
		memcpy(name, "sw-", 3);
		for (d = 0; d < dims; d++)
			name[3 + d] = (char)('0' + ((b >> (dims - 1 - d)) & 1));
		name[3 + dims] = '\0';
		if (add_switch(g, name, &pl))
			return -1;
	}
	for (b = 0; b < n; b++)
		for (j = 0; j < g->s->cas; j++)
			if (add_ca(g, b, dims + 1 + j))
				return -1;
	for (b = 0; b < n; b++)
		for (d = 0; d < dims; d++)
			if (b < (b ^ (1u << d)) &&
			    cable(g, b, d + 1, b ^ (1u << d), d + 1))
				return -1;
	return 0;
}

struct dqr_fabric *dqr_gen_build_places(const struct dqr_gen_spec *s,
					struct dqr_gen_place **places,
					char *err, size_t errlen)
{
	struct gen g = { 0 };
	uint32_t block;

	if (places)
		*places = NULL;
	if (dqr_gen_count(s, &g.c, err, errlen))
		return NULL;
	g.s = s;
	g.err = err;
	g.errlen = errlen;
	g.sw_ports = switch_ports(s);
	g.sw_width = name_width(g.c.switches);
	g.ca_width = name_width(g.c.cas);
	block = 1u << s->lmc;
	g.first_ca_lid = ((uint32_t)g.c.switches + block) / block * block;
	g.f = dqr_fabric_new();
	if (places)
		g.places = calloc(g.c.switches, sizeof(*g.places));
	if (!g.f || (places && !g.places)) {
		dqr_set_err(err, errlen, "out of memory");
		goto fail;
	}
	/* dqr_gen_count() above refused an unknown kind */
	if (kinds[s->kind].build(&g) || dqr_fabric_finish(g.f, err, errlen))
		goto fail;
	if (places)
		*places = g.places;
	return g.f;
fail:
	free(g.places);
	dqr_fabric_free(g.f);
	return NULL;
}

struct dqr_fabric *dqr_gen_build(const struct dqr_gen_spec *s,
				 char *err, size_t errlen)
{
	return dqr_gen_build_places(s, NULL, err, errlen);
}

/* ---------------------------------------------------------------- text */

void dqr_gen_format(const struct dqr_gen_spec *s, char *buf, size_t len)
{
	size_t off = 0;
	unsigned d;

	if (!len)
		return;
	buf[0] = '\0';
	if (!kind_name(s->kind))
		return;
#define OUT(...) do { \
	if (off < len) \
		off += (size_t)snprintf(buf + off, len - off, __VA_ARGS__); \
} while (0)
	OUT("%s:", kind_name(s->kind));
	switch (s->kind) {
	case DQR_GEN_KARY:
		OUT("%u,%u", s->k, s->n);
		break;
	case DQR_GEN_FATTREE2:
	case DQR_GEN_FATTREE3:
		OUT("%u", s->radix);
		break;
	case DQR_GEN_MESH:
	case DQR_GEN_TORUS:
		for (d = 0; d < s->ndims && d < DQR_GEN_MAX_DIMS; d++)
			OUT("%s%u", d ? "x" : "", s->dims[d]);
		break;
	case DQR_GEN_HYPERCUBE:
		OUT("%u", s->ndims);
		break;
	}
	if (is_direct(s->kind) && s->cas != 1)
		OUT(",cas=%u", s->cas);
	if (s->lmc)
		OUT(",lmc=%u", s->lmc);
#undef OUT
}

void dqr_gen_describe(const struct dqr_gen_spec *s, char *buf, size_t len)
{
	struct dqr_gen_counts c;
	char err[160], what[96];
	unsigned d;
	size_t off;

	if (!len)
		return;
	if (dqr_gen_count(s, &c, err, sizeof(err))) {
		snprintf(buf, len, "invalid spec: %s", err);
		return;
	}
	switch (s->kind) {
	case DQR_GEN_KARY:
		snprintf(what, sizeof(what), "%u-ary %u-tree", s->k, s->n);
		break;
	case DQR_GEN_FATTREE2:
		snprintf(what, sizeof(what),
			 "2-tier fat tree of %u-port switches (%u leaves, "
			 "%u spines)", s->radix, s->radix, s->radix / 2);
		break;
	case DQR_GEN_FATTREE3:
		snprintf(what, sizeof(what),
			 "3-tier fat tree of %u-port switches (%u pods, "
			 "%u cores)", s->radix, s->radix,
			 s->radix / 2 * (s->radix / 2));
		break;
	case DQR_GEN_MESH:
	case DQR_GEN_TORUS:
		off = 0;
		for (d = 0; d < s->ndims && off < sizeof(what); d++)
			off += (size_t)snprintf(what + off, sizeof(what) - off,
						"%s%u", d ? "x" : "",
						s->dims[d]);
		if (off < sizeof(what))
			snprintf(what + off, sizeof(what) - off, " %s",
				 kind_name(s->kind));
		break;
	case DQR_GEN_HYPERCUBE:
		snprintf(what, sizeof(what), "%u-dimensional hypercube",
			 s->ndims);
		break;
	}
	snprintf(buf, len, "%s: %llu switches of %u ports, %llu CAs, "
		 "%llu links, LIDs 1-%llu, CA LMC %u", what,
		 (unsigned long long)c.switches, switch_ports(s),
		 (unsigned long long)c.cas, (unsigned long long)c.links,
		 (unsigned long long)c.max_lid, s->lmc);
}
