/*
 * test_topo_gen.c - generated fabrics and the ibsim net writer.
 */
#define _GNU_SOURCE		/* open_memstream */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/topo_gen.h"
#include "io/net_write.h"
#include "small_fabrics.h"
#include "unit.h"
#include "util/timing.h"

static struct dqr_fabric *gen(const char *spec, struct dqr_gen_spec *s,
			      struct dqr_gen_place **places)
{
	struct dqr_fabric *f = gen_fabric(spec, s, places);

	REQUIRE(f != NULL);
	REQUIRE(f->finished);
	return f;
}

static const struct dqr_port *port_of(const struct dqr_fabric *f,
				      uint32_t node, unsigned p)
{
	return &f->ports[dqr_port_index(f, node, p)];
}

/* The node and port number behind port p of node, or DQR_NONE. */
static uint32_t peer(const struct dqr_fabric *f, uint32_t node, unsigned p,
		     unsigned *rport)
{
	const struct dqr_port *pt = port_of(f, node, p);

	if (rport)
		*rport = 0;
	if (pt->remote == DQR_NONE)
		return DQR_NONE;
	if (rport)
		*rport = f->ports[pt->remote].num;
	return f->ports[pt->remote].node;
}

static unsigned degree(const struct dqr_fabric *f, uint32_t node)
{
	unsigned p, d = 0;

	for (p = 1; p <= f->nodes[node].num_ports; p++)
		d += port_of(f, node, p)->remote != DQR_NONE;
	return d;
}

static int connected(const struct dqr_fabric *f)
{
	uint32_t *queue, head = 0, tail = 0, seen_count = 1, n, p;
	char *seen;

	if (!f->num_nodes)
		return 1;
	queue = malloc(sizeof(*queue) * f->num_nodes);
	seen = calloc(f->num_nodes, 1);
	if (!queue || !seen) {
		free(queue);
		free(seen);
		return 0;
	}
	queue[tail++] = 0;
	seen[0] = 1;
	while (head < tail) {
		n = queue[head++];
		for (p = 1; p <= f->nodes[n].num_ports; p++) {
			uint32_t r = peer(f, n, p, NULL);

			if (r == DQR_NONE || seen[r])
				continue;
			seen[r] = 1;
			seen_count++;
			queue[tail++] = r;
		}
	}
	free(queue);
	free(seen);
	return seen_count == f->num_nodes;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* What every generated fabric must satisfy, whatever its kind. */
static void check_common(const struct dqr_fabric *f,
			 const struct dqr_gen_spec *s)
{
	struct dqr_gen_counts c;
	uint32_t i, links = 0, cas = 0, bad_lid = 0, bad_ca = 0, dup = 0;
	const char **names;
	uint64_t *guids;
	char *lid_seen;
	unsigned l;

	REQUIRE(dqr_gen_count(s, &c, NULL, 0) == 0);
	CHECK_EQ(f->num_switches, c.switches);
	CHECK_EQ(f->max_lid, c.max_lid);
	for (i = 0; i < f->num_ports; i++)
		if (f->ports[i].remote != DQR_NONE) {
			links++;
			/* both ends agree */
			if (f->ports[f->ports[i].remote].remote != i)
				dup++;
		}
	CHECK_EQ(dup, 0);
	CHECK_EQ(links, 2 * c.links);

	lid_seen = calloc(f->max_lid + 1, 1);
	REQUIRE(lid_seen != NULL);
	for (i = 0; i < f->num_nodes; i++) {
		const struct dqr_port *lp;

		if (dqr_is_switch(f, i)) {
			CHECK_EQ(f->nodes[i].sw_index, i);
			lp = port_of(f, i, 0);
			bad_lid += lp->lmc != 0;
		} else {
			cas++;
			lp = port_of(f, i, 1);
			/* one CA port, cabled to a switch */
			bad_ca += f->nodes[i].num_ports != 1 ||
				  degree(f, i) != 1 ||
				  !dqr_is_switch(f, peer(f, i, 1, NULL));
			bad_lid += lp->lmc != s->lmc ||
				   lp->base_lid % (1u << s->lmc) != 0;
			bad_lid += lp->guid != f->nodes[i].guid + 1;
		}
		if (!lp->base_lid) {
			bad_lid++;
			continue;
		}
		for (l = lp->base_lid; l < lp->base_lid + (1u << lp->lmc);
		     l++) {
			if (l > f->max_lid || lid_seen[l]) {
				bad_lid++;
				continue;
			}
			lid_seen[l] = 1;
			bad_lid += dqr_lid_owner(f, l) !=
				   (uint32_t)(lp - f->ports);
		}
	}
	free(lid_seen);
	CHECK_EQ(bad_lid, 0);
	CHECK_EQ(bad_ca, 0);
	CHECK_EQ(cas, c.cas);
	CHECK_EQ(dqr_fabric_count_end_ports(f), c.cas);
	CHECK(connected(f));

	/* names and GUIDs unique */
	names = malloc(sizeof(*names) * f->num_nodes);
	guids = malloc(sizeof(*guids) * f->num_nodes);
	REQUIRE(names && guids);
	for (i = 0; i < f->num_nodes; i++) {
		names[i] = dqr_node_name(f, i);
		guids[i] = f->nodes[i].guid;
	}
	qsort(names, f->num_nodes, sizeof(*names), cmp_str);
	qsort(guids, f->num_nodes, sizeof(*guids), cmp_u64);
	for (dup = 0, i = 1; i < f->num_nodes; i++)
		dup += !strcmp(names[i - 1], names[i]) ||
		       guids[i - 1] == guids[i];
	CHECK_EQ(dup, 0);
	free(names);
	free(guids);
	CHECK(dqr_net_check_names(f, NULL, 0) == 0);
}

/* ---------------------------------------------------------------- trees */

static void test_kary(const char *spec, unsigned k, unsigned n,
		      unsigned nsw, unsigned nca)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	uint32_t per = nsw / n, i, leaf, bad = 0, bad_paths = 0;
	uint32_t *paths;
	unsigned p;

	CHECK_EQ(f->num_switches, nsw);
	CHECK_EQ(f->num_nodes - f->num_switches, nca);
	check_common(f, &s);

	for (i = 0; i < f->num_switches; i++) {
		unsigned level = pl[i].level, stride = 1, l, digit;

		bad += pl[i].level != i / per + 1 || pl[i].pos != i % per;
		bad += f->nodes[i].num_ports != 2 * k;
		for (l = 1; l < level; l++)
			stride *= k;
		digit = pl[i].pos / stride % k;
		/* down ports: CAs at level 1, else level - 1 */
		for (p = 1; p <= k; p++) {
			uint32_t r = peer(f, i, p, NULL);

			if (r == DQR_NONE)
				bad++;
			else if (level == 1)	/* CA w*k + p-1 */
				bad += r != nsw + pl[i].pos * k + p - 1;
			else
				bad += !dqr_is_switch(f, r) ||
				       pl[r].level != level - 1;
		}
		/* up port k+1+d: digit level-1 replaced by d */
		for (p = k + 1; p <= 2 * k; p++) {
			unsigned d = p - k - 1, rp;
			uint32_t r = peer(f, i, p, &rp);

			if (level == n) {
				bad += r != DQR_NONE;
				continue;
			}
			if (r == DQR_NONE || !dqr_is_switch(f, r)) {
				bad++;
				continue;
			}
			bad += pl[r].level != level + 1;
			bad += pl[r].pos != pl[i].pos - digit * stride +
					    d * stride;
			bad += rp != 1 + digit;
		}
		bad += degree(f, i) != (level == n ? k : 2 * k);
	}
	CHECK_EQ(bad, 0);

	/* every leaf reaches every top switch by exactly one up path */
	paths = calloc(f->num_switches, sizeof(*paths));
	REQUIRE(paths != NULL);
	for (leaf = 0; leaf < per; leaf++) {
		memset(paths, 0, sizeof(*paths) * f->num_switches);
		paths[leaf] = 1;
		for (i = 0; i < (n - 1) * per; i++) {
			if (!paths[i])
				continue;
			for (p = k + 1; p <= 2 * k; p++)
				paths[peer(f, i, p, NULL)] += paths[i];
		}
		for (i = (n - 1) * per; i < nsw; i++)
			bad_paths += paths[i] != 1;
	}
	CHECK_EQ(bad_paths, 0);
	free(paths);
	free(pl);
	dqr_fabric_free(f);
}

static void test_fattree2(unsigned r)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f;
	unsigned h = r / 2, i, j, rp, bad = 0;
	char spec[32];

	snprintf(spec, sizeof(spec), "fattree2:%u", r);
	f = gen(spec, &s, &pl);
	CHECK_EQ(f->num_switches, r + h);
	CHECK_EQ(f->num_nodes - f->num_switches, r * h);
	check_common(f, &s);
	for (i = 0; i < r; i++) {
		bad += pl[i].level != 1 || degree(f, i) != r;
		for (j = 0; j < h; j++) {
			uint32_t ca = peer(f, i, j + 1, NULL);
			uint32_t sp = peer(f, i, h + 1 + j, &rp);

			bad += ca != r + h + i * h + j;
			bad += sp != r + j || rp != i + 1;
		}
	}
	for (i = r; i < r + h; i++)
		bad += pl[i].level != 2 || degree(f, i) != r;
	CHECK_EQ(bad, 0);
	free(pl);
	dqr_fabric_free(f);
}

static void test_fattree3(unsigned r, int timed)
{
	unsigned h = r / 2, i, j, p, rp, bad = 0;
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f;
	uint32_t mid0 = r * h, core0 = 2 * r * h;
	char spec[32];
	double t0 = dqr_now_ms();

	snprintf(spec, sizeof(spec), "fattree3:%u", r);
	f = gen(spec, &s, &pl);
	if (timed) {
		double ms = dqr_now_ms() - t0;

		printf("%s: %u switches, %u nodes built in %.1f ms\n", spec,
		       f->num_switches, f->num_nodes, ms);
		/* loose: sanitizers and valgrind slow it down a lot */
		CHECK(ms < 10000);
	}
	CHECK_EQ(f->num_switches, 2 * r * h + h * h);
	CHECK_EQ(f->num_nodes - f->num_switches, r * h * h);
	check_common(f, &s);
	for (i = 0; i < r * h; i++) {
		uint32_t leaf = i, mid = mid0 + i;

		p = i / h;
		bad += pl[leaf].level != 1 || pl[leaf].group != p;
		bad += pl[mid].level != 2 || pl[mid].group != p;
		bad += degree(f, leaf) != r || degree(f, mid) != r;
		for (j = 0; j < h; j++)
			bad += peer(f, leaf, j + 1, NULL) !=
			       f->num_switches + i * h + j;
		/* full bipartite inside the pod */
		for (j = 0; j < h; j++)
			bad += peer(f, leaf, h + 1 + j, &rp) !=
				       mid0 + p * h + j ||
			       rp != i % h + 1;
		/* middle j's up port h+1+c: core j*h + c, port pod+1 */
		for (j = 0; j < h; j++)
			bad += peer(f, mid, h + 1 + j, &rp) !=
				       core0 + (i % h) * h + j ||
			       rp != p + 1;
	}
	/* a core has one link per pod */
	for (i = core0; i < core0 + h * h; i++) {
		bad += pl[i].level != 3 || degree(f, i) != r;
		for (p = 1; p <= r; p++) {
			uint32_t m = peer(f, i, p, NULL);

			bad += m == DQR_NONE || pl[m].level != 2 ||
			       pl[m].group != p - 1;
		}
	}
	CHECK_EQ(bad, 0);
	free(pl);
	dqr_fabric_free(f);
}

/* ------------------------------------------------------ direct networks */

static void test_grid(const char *spec, int torus, unsigned ndims,
		      const unsigned *dims, unsigned cas, unsigned links)
{
	uint32_t stride[DQR_GEN_MAX_DIMS], i, r, n = 1, bad = 0;
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, &pl);
	struct dqr_gen_counts c;
	unsigned d, p, rp;

	for (d = 0; d < ndims; d++) {
		stride[d] = n;
		n *= dims[d];
	}
	CHECK_EQ(f->num_switches, n);
	CHECK_EQ(f->num_nodes - f->num_switches, n * cas);
	REQUIRE(dqr_gen_count(&s, &c, NULL, 0) == 0);
	CHECK_EQ(c.links, links);
	check_common(f, &s);
	for (i = 0; i < n; i++) {
		unsigned deg = cas;

		bad += f->nodes[i].num_ports != 2 * ndims + cas;
		bad += pl[i].pos != i;
		for (d = 0; d < ndims; d++) {
			unsigned co = i / stride[d] % dims[d];
			uint32_t up = DQR_NONE, down = DQR_NONE;

			bad += pl[i].coord[d] != co;
			if (co + 1 < dims[d])
				up = i + stride[d];
			else if (torus && dims[d] > 2)
				up = i - co * stride[d];
			if (co > 0)
				down = i - stride[d];
			else if (torus && dims[d] > 2)
				down = i + (dims[d] - 1) * stride[d];
			r = peer(f, i, 2 * d + 1, &rp);
			bad += r != up || (r != DQR_NONE && rp != 2 * d + 2);
			r = peer(f, i, 2 * d + 2, &rp);
			bad += r != down || (r != DQR_NONE && rp != 2 * d + 1);
			deg += (up != DQR_NONE) + (down != DQR_NONE);
		}
		/* CA i*cas + j on port 2*ndims+1+j; CAs follow the switches */
		for (p = 2 * ndims + 1; p <= 2 * ndims + cas; p++)
			bad += peer(f, i, p, NULL) !=
			       n + i * cas + (p - 2 * ndims - 1);
		bad += degree(f, i) != deg;
	}
	CHECK_EQ(bad, 0);
	free(pl);
	dqr_fabric_free(f);
}

static void test_torus_wrap(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen("torus:4x3", &s, NULL);
	uint32_t a, b;
	unsigned rp;

	/* sw-x3-y1 +x wraps to sw-x0-y1 -x; sw-x2-y2 +y to sw-x2-y0 -y */
	a = dqr_fabric_find_name(f, "sw-x3-y1");
	b = dqr_fabric_find_name(f, "sw-x0-y1");
	REQUIRE(a != DQR_NONE && b != DQR_NONE);
	CHECK_EQ(peer(f, a, 1, &rp), b);
	CHECK_EQ(rp, 2);
	a = dqr_fabric_find_name(f, "sw-x2-y2");
	b = dqr_fabric_find_name(f, "sw-x2-y0");
	REQUIRE(a != DQR_NONE && b != DQR_NONE);
	CHECK_EQ(peer(f, a, 3, &rp), b);
	CHECK_EQ(rp, 4);
	/* the mesh of the same size does not wrap */
	dqr_fabric_free(f);
	f = gen("mesh:4x3", &s, NULL);
	a = dqr_fabric_find_name(f, "sw-x3-y1");
	REQUIRE(a != DQR_NONE);
	CHECK_EQ(peer(f, a, 1, NULL), DQR_NONE);
	CHECK_EQ(peer(f, a, 2, NULL), dqr_fabric_find_name(f, "sw-x2-y1"));
	dqr_fabric_free(f);

	/* size 2: one link between the two, no parallel wrap link */
	f = gen("torus:2x2", &s, NULL);
	a = dqr_fabric_find_name(f, "sw-x1-y0");
	b = dqr_fabric_find_name(f, "sw-x0-y0");
	REQUIRE(a != DQR_NONE && b != DQR_NONE);
	CHECK_EQ(peer(f, a, 1, NULL), DQR_NONE);
	CHECK_EQ(peer(f, a, 2, NULL), b);
	CHECK_EQ(peer(f, b, 2, NULL), DQR_NONE);
	dqr_fabric_free(f);
}

static unsigned popcount32(uint32_t v)
{
	unsigned c = 0;

	for (; v; v &= v - 1)
		c++;
	return c;
}

static void test_hypercube(unsigned dims, unsigned cas)
{
	struct dqr_gen_place *pl;
	struct dqr_gen_spec s;
	struct dqr_fabric *f;
	uint32_t i, n = 1u << dims, bad = 0;
	unsigned d, rp;
	char spec[48];

	snprintf(spec, sizeof(spec), "hypercube:%u,cas=%u", dims, cas);
	f = gen(spec, &s, &pl);
	CHECK_EQ(f->num_switches, n);
	CHECK_EQ(f->num_nodes - f->num_switches, n * cas);
	check_common(f, &s);
	for (i = 0; i < n; i++) {
		bad += pl[i].pos != i || degree(f, i) != dims + cas;
		for (d = 0; d < cas; d++)
			bad += peer(f, i, dims + 1 + d, NULL) !=
			       n + i * cas + d;
		for (d = 0; d < dims; d++) {
			uint32_t r = peer(f, i, d + 1, &rp);

			if (r == DQR_NONE) {
				bad++;
				continue;
			}
			/* neighbours differ in exactly bit d */
			bad += popcount32(pl[r].pos ^ pl[i].pos) != 1;
			bad += (pl[r].pos ^ pl[i].pos) != 1u << d;
			bad += rp != d + 1;
		}
	}
	CHECK_EQ(bad, 0);
	/* the name spells the label, bit 0 last */
	if (dims == 4)
		CHECK_EQ(dqr_fabric_find_name(f, "sw-0101"), 5);
	free(pl);
	dqr_fabric_free(f);
}

static void test_lmc(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen("kary:2,2,lmc=2", &s, NULL);
	uint32_t ca = dqr_fabric_find_name(f, "ca-0000");

	check_common(f, &s);
	REQUIRE(ca != DQR_NONE);
	/* 4 switch LIDs, then CAs on blocks of 4 from 8 */
	CHECK_EQ(port_of(f, ca, 1)->base_lid, 8);
	CHECK_EQ(port_of(f, ca, 1)->lmc, 2);
	CHECK_EQ(f->max_lid, 8 + 4 * 4 - 1);
	CHECK_EQ(dqr_lid_owner(f, 11), dqr_port_index(f, ca, 1));
	CHECK_EQ(dqr_lid_owner(f, 5), DQR_NONE);
	dqr_fabric_free(f);
}

static void test_large(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f;
	double t0 = dqr_now_ms(), ms;

	f = gen("mesh:100x100", &s, NULL);
	ms = dqr_now_ms() - t0;
	printf("mesh:100x100: %u nodes built in %.1f ms\n", f->num_nodes, ms);
	CHECK(ms < 10000);
	CHECK_EQ(f->num_switches, 10000);
	CHECK(connected(f));
	dqr_fabric_free(f);
	test_fattree3(36, 1);
}

/* ------------------------------------------------------------ spec text */

static void test_parse(void)
{
	static const char *const bad[] = {
		"", ":", "kary", "kary:", "foo:1", "Kary:4,3", " kary:4,3",
		"kary:1,3", "kary:4", "kary:4,0", "kary:4,3x", "kary:+4,3",
		"kary:4,,3", "kary:-4,3", "kary:128,2", "kary:2,16",
		"kary:4,3,cas=2", "kary:4,3,lmc=8", "kary:4,3,lmc=",
		"kary:4,3,lmc=1,lmc=1", "kary:4,3,foo=1", "kary:4,3,",
		"kary:99999999999,3", "fattree2:35", "fattree2:0",
		"fattree2:256", "fattree3:254", "fattree3:", "mesh:0x4",
		"mesh:4x0", "mesh:4x", "mesh:x4", "mesh:4x4x4x4", "torus:4x4,",
		"torus:4x4,cas=300", "mesh:300x300", "hypercube:0",
		"hypercube:16", "hypercube:15,cas=1", "hypercube:4,cas=251",
		"torus:4x4;cas=1",
	};
	static const char *const good[] = {
		"kary:4,3", "kary:2,6", "kary:3,1", "fattree2:36",
		"fattree3:36", "mesh:8x8", "mesh:4x4x4,cas=2", "torus:4x4x4",
		"torus:8,cas=0", "hypercube:4,lmc=1", "hypercube:15,cas=0",
		"mesh:4x4,lmc=3,cas=3", "kary:2,12",
	};
	struct dqr_gen_spec s, s2;
	char err[256], buf[128];
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (dqr_gen_parse(bad[i], &s, err, sizeof(err)) != -1)
			fprintf(stderr, "accepted bad spec \"%s\"\n", bad[i]);
		CHECK(dqr_gen_parse(bad[i], &s, err, sizeof(err)) == -1);
		CHECK(err[0] != '\0');
	}
	CHECK(dqr_gen_parse(NULL, &s, err, sizeof(err)) == -1);
	CHECK(dqr_gen_parse("fattree2:35", &s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "even") != NULL);
	CHECK(dqr_gen_parse("cube:3", &s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "unknown") != NULL);
	CHECK(dqr_gen_parse("mesh:300x300", &s, err, sizeof(err)) == -1);
	CHECK(strstr(err, "LID") != NULL);

	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (dqr_gen_parse(good[i], &s, err, sizeof(err)))
			fprintf(stderr, "rejected \"%s\": %s\n", good[i], err);
		CHECK(dqr_gen_parse(good[i], &s, err, sizeof(err)) == 0);
		/* the canonical form parses back to the same spec */
		dqr_gen_format(&s, buf, sizeof(buf));
		CHECK(dqr_gen_parse(buf, &s2, err, sizeof(err)) == 0);
		CHECK(!memcmp(&s, &s2, sizeof(s)));
	}
	dqr_gen_parse("torus:4x4x4", &s, err, sizeof(err));
	dqr_gen_format(&s, buf, sizeof(buf));
	CHECK(!strcmp(buf, "torus:4x4x4"));
	CHECK_EQ(s.cas, 1);
	dqr_gen_parse("mesh:4x4,lmc=3,cas=3", &s, err, sizeof(err));
	dqr_gen_format(&s, buf, sizeof(buf));
	CHECK(!strcmp(buf, "mesh:4x4,cas=3,lmc=3"));

	dqr_gen_parse("kary:4,3", &s, err, sizeof(err));
	dqr_gen_describe(&s, buf, sizeof(buf));
	CHECK(strstr(buf, "4-ary 3-tree") != NULL);
	CHECK(strstr(buf, "48 switches") != NULL);
	CHECK(strstr(buf, "64 CAs") != NULL);
	s.k = 1;
	dqr_gen_describe(&s, buf, sizeof(buf));
	CHECK(strstr(buf, "invalid") != NULL);
	CHECK(dqr_gen_build(&s, err, sizeof(err)) == NULL);
}

/* ----------------------------------------------------------- net writer */

/*
 * A tiny reader of what dqr_write_ibsim_net writes: enough to rebuild the
 * shape and the LIDs and compare them with the model.
 */
struct net_stats {
	unsigned headers, port_lines, guid_lines;
	int first_is_ca;
};

static struct dqr_fabric *read_net(char *text, struct net_stats *st)
{
	struct dqr_fabric *g = dqr_fabric_new();
	char *line, *save = NULL, name[128], rname[128], *p;
	uint32_t node = DQR_NONE;
	unsigned ports, port, rport, lid, lmc;
	int pass;

	memset(st, 0, sizeof(*st));
	if (!g)
		return NULL;
	/* pass 0 makes the nodes, pass 1 cables them */
	for (pass = 0; pass < 2; pass++) {
		char *copy = strdup(text);

		if (!copy)
			break;
		for (line = strtok_r(copy, "\n", &save); line;
		     line = strtok_r(NULL, "\n", &save)) {
			int sw = !strncmp(line, "Switch\t", 7);

			if (sw || !strncmp(line, "Hca\t", 4)) {
				p = line + (sw ? 7 : 4);
				if (sscanf(p, "%u \"%127[^\"]\"", &ports,
					   name) != 2)
					goto bad;
				if (pass) {
					node = dqr_fabric_find_name(g, name);
					continue;
				}
				if (!st->headers)
					st->first_is_ca = !sw;
				st->headers++;
				node = dqr_fabric_add_node(g, sw ?
					DQR_NODE_SWITCH : DQR_NODE_CA, ports,
					0, name);
				if (node == DQR_NONE)
					goto bad;
				p = strstr(p, "lid ");
				if (sw && p && sscanf(p, "lid %u lmc %u",
						      &lid, &lmc) == 2 &&
				    dqr_fabric_set_lid(g, node, 0, lid, lmc))
					goto bad;
				continue;
			}
			if (strstr(line, "guid="))
				st->guid_lines += !pass;
			if (line[0] != '[')
				continue;
			if (sscanf(line, "[%u]\t\"%127[^\"]\"[%u]", &port,
				   rname, &rport) != 3 || node == DQR_NONE)
				goto bad;
			if (!pass) {
				st->port_lines++;
				if (dqr_is_switch(g, node))
					continue;
				p = strstr(line, "# lid ");
				if (!p || sscanf(p, "# lid %u lmc %u", &lid,
						 &lmc) != 2)
					goto bad;
				if (lid && dqr_fabric_set_lid(g, node, port,
							      lid, lmc))
					goto bad;
				continue;
			}
			/* both ends must name each other the same way */
			if (dqr_fabric_link(g, node, port,
					    dqr_fabric_find_name(g, rname),
					    rport))
				goto bad;
		}
		free(copy);
		continue;
bad:
		fprintf(stderr, "cannot read net line <%s>\n", line);
		free(copy);
		dqr_fabric_free(g);
		return NULL;
	}
	if (dqr_fabric_finish(g, NULL, 0)) {
		dqr_fabric_free(g);
		return NULL;
	}
	return g;
}

/* Same nodes by name, same cables port for port, same LIDs. */
static unsigned same_shape(const struct dqr_fabric *a,
			   const struct dqr_fabric *b)
{
	unsigned diff = 0, p;
	uint32_t i;

	if (a->num_nodes != b->num_nodes)
		return 1;
	for (i = 0; i < a->num_nodes; i++) {
		uint32_t j = dqr_fabric_find_name(b, dqr_node_name(a, i));

		if (j == DQR_NONE || a->nodes[i].type != b->nodes[j].type ||
		    a->nodes[i].num_ports != b->nodes[j].num_ports) {
			diff++;
			continue;
		}
		for (p = 0; p <= a->nodes[i].num_ports; p++) {
			const struct dqr_port *pa = port_of(a, i, p);
			const struct dqr_port *pb = port_of(b, j, p);
			unsigned ra, rb;
			uint32_t na = peer(a, i, p, &ra);
			uint32_t nb = peer(b, j, p, &rb);

			diff += pa->base_lid != pb->base_lid ||
				pa->lmc != pb->lmc;
			if (!p)
				continue;
			if (na == DQR_NONE || nb == DQR_NONE) {
				diff += na != nb;
				continue;
			}
			diff += ra != rb || strcmp(dqr_node_name(a, na),
						   dqr_node_name(b, nb));
		}
	}
	return diff;
}

static char *write_net(const struct dqr_fabric *f, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	REQUIRE(out != NULL);
	*rc = dqr_write_ibsim_net(f, out);
	fclose(out);
	return buf;
}

static void test_writer_roundtrip(const char *spec)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen(spec, &s, NULL), *g;
	struct net_stats st;
	uint32_t i, cabled;
	char *text;
	int rc;

	text = write_net(f, &rc);
	CHECK_EQ(rc, 0);
	g = read_net(text, &st);
	CHECK(g != NULL);
	if (g) {
		CHECK_EQ(same_shape(f, g), 0);
		dqr_fabric_free(g);
	}
	CHECK_EQ(st.headers, f->num_nodes);
	/* every cable on both ends */
	for (i = 0, cabled = 0; i < f->num_ports; i++)
		cabled += f->ports[i].remote != DQR_NONE;
	CHECK_EQ(st.port_lines, cabled);
	CHECK(st.first_is_ca || f->num_nodes == f->num_switches);
	/* GUIDs are ibsim's own numbering: no guid lines */
	CHECK_EQ(st.guid_lines, 0);
	free(text);
	dqr_fabric_free(f);
}

static void test_writer_lines(void)
{
	struct dqr_gen_spec s;
	struct dqr_fabric *f = gen("kary:4,3", &s, NULL);
	static const char want[] =
		"Hca\t1 \"ca-0000\"\n"
		"[1]\t\"sw-L1-0000\"[1]\t# lid 49 lmc 0 \"sw-L1-0000\" lid 1 "
		"4xSDR\n"
		"\n"
		"Switch\t8 \"sw-L1-0000\"\t# \"sw-L1-0000\" lid 1 lmc 0\n"
		"[1]\t\"ca-0000\"[1]\t# \"ca-0000\" lid 49 4xSDR\n";
	unsigned headers = 0, ports = 0, blank = 0;
	char *text, *p;
	int rc;

	text = write_net(f, &rc);
	CHECK_EQ(rc, 0);
	for (p = text; *p; p = strchr(p, '\n') + 1) {
		headers += !strncmp(p, "Switch\t", 7) ||
			   !strncmp(p, "Hca\t", 4);
		ports += *p == '[';
		blank += *p == '\n';
		if (!strchr(p, '\n'))
			break;
	}
	/* 112 nodes, 192 cables seen from both ends, a blank after each */
	CHECK_EQ(headers, 112);
	CHECK_EQ(ports, 2 * 192);
	CHECK_EQ(blank, 112);
	CHECK(!strncmp(text, want, strlen(want)));
	free(text);
	dqr_fabric_free(f);
}

/* A fabric of one CA called name, which ibsim cannot take: one check. */
static struct dqr_fabric *bad_name_fabric(const char *name, char *err,
					  size_t len)
{
	struct dqr_fabric *f = dqr_fabric_new();

	REQUIRE(f != NULL);
	dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0, name);
	CHECK(dqr_net_check_names(f, err, len) == -1);
	return f;
}

static void test_writer_errors(void)
{
	static const char first[] =
		"caguid=0x0000000000005000\nHca\t2 \"h1\"\n";
	struct dqr_fabric *f = dqr_fabric_new();
	struct net_stats st;
	struct dqr_fabric *g;
	uint32_t a, b, c;
	char err[160], *text;
	int rc;

	REQUIRE(f != NULL);
	a = dqr_fabric_add_node(f, DQR_NODE_SWITCH, 4, 0x1234, "s1");
	b = dqr_fabric_add_node(f, DQR_NODE_CA, 2, 0x5000, "h1");
	c = dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0, "h2");
	REQUIRE(a != DQR_NONE && b != DQR_NONE && c != DQR_NONE);
	CHECK(dqr_fabric_link(f, a, 1, b, 2) == 0);
	CHECK(dqr_fabric_link(f, a, 2, c, 1) == 0);
	/* GUIDs ibsim would not pick get a guid line; no LIDs: lid 0 */
	text = write_net(f, &rc);
	CHECK_EQ(rc, 0);
	CHECK(strstr(text, "switchguid=0x0000000000001234\n") != NULL);
	CHECK(strstr(text, "caguid=0x0000000000005000\n") != NULL);
	CHECK(!strncmp(text, first, strlen(first)));
	g = read_net(text, &st);
	CHECK(g != NULL);
	CHECK_EQ(st.guid_lines, 2);
	if (g) {
		CHECK_EQ(peer(g, dqr_fabric_find_name(g, "h1"), 2, NULL),
			 dqr_fabric_find_name(g, "s1"));
		dqr_fabric_free(g);
	}
	free(text);

	/* names ibsim cannot take */
	c = dqr_fabric_add_node(f, DQR_NODE_CA, 1, 0, "h1");
	CHECK(dqr_net_check_names(f, err, sizeof(err)) == -1);
	CHECK(strstr(err, "h1") != NULL);
	text = write_net(f, &rc);
	CHECK_EQ(rc, -1);
	free(text);
	dqr_fabric_free(f);

	f = bad_name_fabric("a#b", err, sizeof(err));
	errno = 0;
	text = write_net(f, &rc);
	CHECK_EQ(rc, -1);
	CHECK_EQ(errno, EINVAL);
	free(text);
	dqr_fabric_free(f);

	f = bad_name_fabric("", err, sizeof(err));
	dqr_fabric_free(f);
}

static void test_ibsim_limits(void)
{
	struct dqr_ibsim_needs n;
	struct dqr_gen_spec s;
	struct dqr_fabric *f;

	f = gen("fattree2:36", &s, NULL);
	dqr_ibsim_needs(f, &n);
	CHECK_EQ(n.nodes, 702);
	CHECK_EQ(n.switches, 54);
	CHECK_EQ(n.ports, 54 * 37 + 648);
	CHECK(!dqr_ibsim_over_limits(&n));
	dqr_fabric_free(f);

	f = gen("kary:2,6", &s, NULL);
	dqr_ibsim_needs(f, &n);
	CHECK(!dqr_ibsim_over_limits(&n));
	dqr_fabric_free(f);

	f = gen("mesh:17x16", &s, NULL);
	dqr_ibsim_needs(f, &n);
	CHECK_EQ(n.switches, 272);
	CHECK(dqr_ibsim_over_limits(&n));
	dqr_fabric_free(f);
}

int main(void)
{
	static const unsigned d44[] = { 4, 4 }, d444[] = { 4, 4, 4 };
	static const unsigned d23[] = { 2, 3 }, d73[] = { 7, 1, 3 };
	static const unsigned d8[] = { 8 };

	test_parse();

	test_kary("kary:4,3", 4, 3, 48, 64);
	test_kary("kary:2,6", 2, 6, 192, 64);
	test_kary("kary:2,3", 2, 3, 12, 8);
	test_kary("kary:3,1", 3, 1, 1, 3);
	test_kary("kary:5,2", 5, 2, 10, 25);
	test_fattree2(36);
	test_fattree2(4);
	test_fattree2(2);
	test_fattree3(4, 0);
	test_fattree3(6, 0);

	/* links: switch-switch cables + CA cables */
	test_grid("mesh:4x4", 0, 2, d44, 1, 24 + 16);
	test_grid("torus:4x4", 1, 2, d44, 1, 32 + 16);
	test_grid("torus:4x4x4,cas=2", 1, 3, d444, 2, 192 + 128);
	test_grid("mesh:4x4x4,cas=0", 0, 3, d444, 0, 144);
	test_grid("torus:2x3", 1, 2, d23, 1, 3 + 6 + 6);
	test_grid("mesh:7x1x3", 0, 3, d73, 1, 6 * 3 + 7 * 2 + 21);
	test_grid("torus:8", 1, 1, d8, 1, 8 + 8);
	test_torus_wrap();
	test_hypercube(4, 1);
	test_hypercube(1, 1);
	test_hypercube(6, 2);
	test_hypercube(3, 0);
	test_lmc();
	test_large();

	test_writer_roundtrip("kary:4,3");
	test_writer_roundtrip("fattree2:36");
	test_writer_roundtrip("torus:4x4x4,cas=2");
	test_writer_roundtrip("hypercube:4,lmc=2");
	test_writer_roundtrip("mesh:3x3,cas=0");
	test_writer_lines();
	test_writer_errors();
	test_ibsim_limits();
	return unit_finish();
}
