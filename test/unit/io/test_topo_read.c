/*
 * test_topo_read.c - ibnetdiscover and ibsim net file reading, the node
 * index, and what the reader says about broken input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/node_index.h"
#include "io/topo_read.h"
#include "small_fabrics.h"
#include "unit.h"
#include "util/text_input.h"

/* Parses text as if it were a file called "inline". */
static struct dqr_fabric *parse_len(const char *text, size_t len, char *err,
				    size_t errlen)
{
	struct dqr_fabric *f;
	FILE *fp = unit_text_file(text, len);

	if (!fp)
		return NULL;
	err[0] = '\0';
	f = dqr_parse_topology(fp, "inline", err, errlen);
	fclose(fp);
	return f;
}

static struct dqr_fabric *parse(const char *text, char *err, size_t errlen)
{
	return parse_len(text, strlen(text), err, errlen);
}

static uint32_t node(const struct dqr_fabric *f, const char *name)
{
	return dqr_fabric_find_name(f, name);
}

/* The node and port number at the other end of name[port]. */
static int peer(const struct dqr_fabric *f, const char *name, unsigned port,
		const char *rname, unsigned rport)
{
	uint32_t n = node(f, name), r;

	if (n == DQR_NONE || port > f->nodes[n].num_ports)
		return 0;
	r = f->ports[dqr_port_index(f, n, port)].remote;
	if (r == DQR_NONE)
		return rname == NULL;
	return rname && !strcmp(dqr_node_name(f, f->ports[r].node), rname) &&
	       f->ports[r].num == rport;
}

static unsigned count_links(const struct dqr_fabric *f)
{
	uint32_t i, n = 0;

	for (i = 0; i < f->num_ports; i++)
		n += f->ports[i].remote != DQR_NONE;
	return n / 2;
}

/* The cabling both tiny files describe: net.2sw2path4hca. */
static void check_tiny_links(const struct dqr_fabric *f)
{
	CHECK_EQ(f->num_nodes, 6);
	CHECK_EQ(f->num_switches, 2);
	CHECK_EQ(f->num_ports, 2 * 9 + 4 * 3);
	CHECK_EQ(count_links(f), 6);
	CHECK_EQ(dqr_fabric_count_end_ports(f), 4);
	CHECK(peer(f, "Switch1", 1, "Hca1", 1));
	CHECK(peer(f, "Switch1", 2, "Hca3", 1));
	CHECK(peer(f, "Switch1", 3, "Switch2", 3));
	CHECK(peer(f, "Switch1", 5, "Switch2", 5));
	CHECK(peer(f, "Switch1", 4, NULL, 0));
	CHECK(peer(f, "Switch2", 1, "Hca2", 1));
	CHECK(peer(f, "Switch2", 2, "Hca4", 1));
	CHECK(peer(f, "Switch2", 5, "Switch1", 5));
	CHECK(peer(f, "Hca4", 1, "Switch2", 2));
	CHECK(peer(f, "Hca4", 2, NULL, 0));
	CHECK(dqr_is_switch(f, node(f, "Switch2")));
	CHECK_EQ(f->nodes[node(f, "Hca1")].type, DQR_NODE_CA);
	CHECK_EQ(f->nodes[node(f, "Switch1")].num_ports, 8);
	CHECK_EQ(f->nodes[node(f, "Hca1")].num_ports, 2);
}

static unsigned lid_of(const struct dqr_fabric *f, const char *name,
		       unsigned port)
{
	uint32_t n = node(f, name);

	if (n == DQR_NONE)
		return 0;
	return f->ports[dqr_port_index(f, n, port)].base_lid;
}

static void test_tiny_ibnetdiscover(void)
{
	struct dqr_fabric *f = data_fabric("tiny.ibnd");
	uint32_t hca3;

	REQUIRE(f);
	CHECK(f->finished);
	check_tiny_links(f);
	CHECK_EQ(f->max_lid, 6);
	CHECK_EQ(lid_of(f, "Switch1", 0), 1);
	CHECK_EQ(lid_of(f, "Switch2", 0), 3);
	CHECK_EQ(lid_of(f, "Hca1", 1), 2);
	CHECK_EQ(lid_of(f, "Hca2", 1), 4);
	CHECK_EQ(lid_of(f, "Hca3", 1), 5);
	CHECK_EQ(lid_of(f, "Hca4", 1), 6);
	CHECK_EQ(lid_of(f, "Hca4", 2), 0);
	hca3 = node(f, "Hca3");
	REQUIRE(hca3 != DQR_NONE);
	CHECK_EQ(dqr_lid_owner(f, 5), dqr_port_index(f, hca3, 1));
	CHECK_EQ(dqr_lid_owner(f, 7), DQR_NONE);
	CHECK_EQ(f->ports[dqr_port_index(f, hca3, 1)].lmc, 0);

	/* node GUIDs from switchguid= / caguid=, port GUIDs from (...) */
	CHECK_EQ(f->nodes[node(f, "Switch1")].guid, 0x200000);
	CHECK_EQ(f->nodes[node(f, "Switch2")].guid, 0x200001);
	CHECK_EQ(f->nodes[hca3].guid, 0x100006);
	CHECK_EQ(f->nodes[node(f, "Hca4")].guid, 0x100009);
	CHECK_EQ(f->ports[dqr_port_index(f, hca3, 1)].guid, 0x100007);
	CHECK_EQ(f->ports[dqr_port_index(f, node(f, "Hca4"), 1)].guid,
		 0x10000a);
	CHECK_EQ(f->ports[dqr_port_index(f, node(f, "Switch1"), 0)].guid,
		 0x200000);
	CHECK_EQ(dqr_fabric_find_guid(f, 0x100003), node(f, "Hca2"));
	dqr_fabric_free(f);
}

static const char net_2sw2path4hca[] =
	"# Net configuration file example\n"
	"#\n"
	"Switch\t8 \"Switch1\"\n"
	"[1]\t\"Hca1\"[1]\n"
	"[2]\t\"Hca3\"[1]\n"
	"[3]\t\"Switch2\"[3]\n"
	"[5]\t\"Switch2\"[5]\n"
	"\n"
	"Switch 8 \"Switch2\"\n"
	"[1]\t\"Hca2\"[1]\n"
	"[2]\t\"Hca4\"[1]\n"
	"[3]\t\"Switch1\"[3]\n"
	"[5]\t\"Switch1\"[5]\n"
	"\n"
	"Hca\t2 \"Hca1\"\n"
	"[1]\t\"Switch1\"[1]\n"
	"\n"
	"Hca\t2 \"Hca2\"\n"
	"[1]\t\"Switch2\"[1]\n"
	"\n"
	"Hca\t2 \"Hca3\"\n"
	"[1]\t\"Switch1\"[2]\n"
	"\n"
	"Hca \t2 \"Hca4\"\n"
	"[1]\t\"Switch2\"[2]\n";

static void test_tiny_net(void)
{
	struct dqr_fabric *f = text_fabric(net_2sw2path4hca);
	uint32_t i;

	REQUIRE(f);
	check_tiny_links(f);
	/* no LIDs, no GUIDs in a plain net file */
	CHECK_EQ(f->max_lid, 0);
	for (i = 0; i < f->num_nodes; i++)
		CHECK_EQ(f->nodes[i].guid, 0);
	for (i = 0; i < f->num_ports; i++)
		CHECK_EQ(f->ports[i].base_lid, 0);
	dqr_fabric_free(f);
}

/*
 * A net file the way a generator may write it: LIDs in comments, LMC,
 * ibsim port options, links listed from one end only, forward references,
 * a router, a loopback cable.
 */
static void test_net_lids_lmc(void)
{
	static const char text[] =
		"Switch 6 \"sw1\" # lid 1\n"
		"[1] \"h1\"[1]\n"
		"[2] \"h2\"[1] w=4 s=2\n"
		"[3] \"r1\"[1]\n"
		"[5] \"sw1\"[6]\n"
		"Hca 1 \"h1\"\n"
		"[1] \"sw1\"[1] # lid 4 lmc 2\n"
		"Ca 2 \"h2\"\n"
		"  # a comment inside a record\n"
		"[1] \"sw1\"[2]\t# lid 2\n"
		"Rt 1 \"r1\"\n"
		"[1] \"sw1\"[3]\t# lid 8 lmc 1 \"sw1\" lid 1 4xSDR\n";
	struct dqr_fabric *f = text_fabric(text);
	uint32_t h1;

	REQUIRE(f);
	CHECK_EQ(f->num_nodes, 4);
	CHECK_EQ(f->num_switches, 1);
	CHECK_EQ(count_links(f), 4);
	CHECK(peer(f, "sw1", 5, "sw1", 6));
	CHECK(peer(f, "sw1", 3, "r1", 1));
	CHECK(peer(f, "h2", 1, "sw1", 2));
	CHECK(peer(f, "h2", 2, NULL, 0));
	CHECK_EQ(f->nodes[node(f, "r1")].type, DQR_NODE_ROUTER);
	CHECK_EQ(f->max_lid, 9);
	h1 = node(f, "h1");
	REQUIRE(h1 != DQR_NONE);
	CHECK_EQ(f->ports[dqr_port_index(f, h1, 1)].lmc, 2);
	CHECK_EQ(dqr_lid_owner(f, 4), dqr_port_index(f, h1, 1));
	CHECK_EQ(dqr_lid_owner(f, 7), dqr_port_index(f, h1, 1));
	CHECK_EQ(dqr_lid_owner(f, 3), DQR_NONE);
	CHECK_EQ(dqr_lid_owner(f, 1), dqr_port_index(f, node(f, "sw1"), 0));
	CHECK_EQ(lid_of(f, "r1", 1), 8);
	CHECK_EQ(f->ports[dqr_port_index(f, node(f, "r1"), 1)].lmc, 1);
	CHECK_EQ(lid_of(f, "h2", 1), 2);
	dqr_fabric_free(f);
}

/*
 * ibnetdiscover's rarer shapes: enhanced port 0 with LMC, a router, a
 * CA cabled straight to a CA, -g chassis lines and [ext N] ports,
 * duplicate and empty descriptions, GUIDs only from the ids.
 */
static void test_ibnd_variants(void)
{
	static const char text[] =
		"#\n# Topology file: generated on Sat Nov 21 18:27:53 2026\n#\n"
		"\nChassis 1 (guid 0x8f10400411f56)\n"
		"\n# Spine Nodes\n"
		"\nNon-Chassis Nodes\n"
		"\nvendid=0x2c9\ndevid=0xcf08\nsysimgguid=0xa00\t\t# x\n"
		"switchguid=0xa00(a00)\t# ISR9024 Spine 1 Chip 1\n"
		"Switch\t24 \"S-0000000000000a00\"\t\t# \"big \"quoted\" sw\" "
		"enhanced port 0 lid 16 lmc 2\n"
		"[1][ext 3]\t\"H-0000000000000b00\"[1](b01) \t\t# \"mlx5_0\" "
		"lid 2 4xEDR\n"
		"[2]\t\"H-0000000000000c00\"[2](c02) \t\t# \"mlx5_0\" lid 3 "
		"4xEDR\n"
		"[3]\t\"R-0000000000000e00\"[1](e01) \t\t# \"gw\" lid 9 4xEDR\n"
		"\n"
		"Ca\t2 \"H-0000000000000b00\"\t\t# \"mlx5_0\"\n"
		"[1](b01) \t\"S-0000000000000a00\"[1][ext 3]\t\t# lid 2 lmc 0 "
		"\"big sw\" lid 16 4xEDR\n"
		"[2](b02) \t\"H-0000000000000d00\"[1] (d01) \t\t# lid 5 lmc 0 "
		"\"\" lid 6 4xEDR\n"
		"\n"
		"Ca\t2 \"H-0000000000000c00\"\t\t# \"mlx5_0\"\n"
		"[2](c02) \t\"S-0000000000000a00\"[2]\t\t# lid 3 lmc 0 "
		"\"big sw\" lid 16 4xEDR\n"
		"\n"
		"Ca\t1 \"H-0000000000000d00\"\t\t# \"\"\n"
		"[1](d01) \t\"H-0000000000000b00\"[2] (b02) \t\t# lid 6 lmc 0 "
		"\"mlx5_0\" lid 5 4xEDR\n"
		"\n"
		"rtguid=0xe00\n"
		"Rt\t1 \"R-0000000000000e00\"\t\t# \"gw\"\n"
		"[1](e01) \t\"S-0000000000000a00\"[3]\t\t# lid 9 lmc 0 "
		"\"big sw\" lid 16 4xEDR\n";
	struct dqr_fabric *f = text_fabric(text);
	uint32_t sw, b, c, d;

	REQUIRE(f);
	CHECK_EQ(f->num_nodes, 5);
	sw = node(f, "big \"quoted\" sw");
	b = node(f, "mlx5_0");
	c = node(f, "H-0000000000000c00");	/* description taken */
	d = node(f, "H-0000000000000d00");	/* empty description */
	REQUIRE(sw != DQR_NONE && b != DQR_NONE && c != DQR_NONE &&
		d != DQR_NONE);
	CHECK_EQ(f->nodes[sw].guid, 0xa00);
	CHECK_EQ(f->nodes[b].guid, 0xb00);	/* from the id */
	CHECK_EQ(f->nodes[d].guid, 0xd00);
	CHECK_EQ(f->nodes[node(f, "gw")].type, DQR_NODE_ROUTER);
	CHECK_EQ(f->nodes[node(f, "gw")].guid, 0xe00);
	CHECK_EQ(lid_of(f, "big \"quoted\" sw", 0), 16);
	CHECK_EQ(f->ports[dqr_port_index(f, sw, 0)].lmc, 2);
	CHECK_EQ(dqr_lid_owner(f, 19), dqr_port_index(f, sw, 0));
	CHECK_EQ(f->max_lid, 19);
	CHECK(peer(f, "mlx5_0", 2, "H-0000000000000d00", 1));
	CHECK(peer(f, "H-0000000000000c00", 2, "big \"quoted\" sw", 2));
	CHECK(peer(f, "H-0000000000000c00", 1, NULL, 0));
	CHECK(peer(f, "gw", 1, "big \"quoted\" sw", 3));
	CHECK_EQ(f->ports[dqr_port_index(f, d, 1)].guid, 0xd01);
	CHECK_EQ(f->ports[dqr_port_index(f, b, 2)].guid, 0xb02);
	CHECK_EQ(f->ports[dqr_port_index(f, c, 2)].guid, 0xc02);
	CHECK_EQ(lid_of(f, "H-0000000000000d00", 1), 6);
	CHECK_EQ(count_links(f), 4);
	dqr_fabric_free(f);
}

struct bad_case {
	const char *text;
	unsigned line;
	const char *what;	/* a word the message must contain */
};

/* the usual first line of a broken file */
#define SW_A "Switch 8 \"a\"\n"
/* one byte more than a description or a node id may have */
#define X16 "xxxxxxxxxxxxxxxx"
#define X65 X16 X16 X16 X16 "y"

static const struct bad_case bad_topologies[] = {
	{ "Switch x \"a\"\n", 1, "port count" },
	{ "\nSwitch 0 \"a\"\n", 2, "port count" },
	{ "Switch 255 \"a\"\n", 1, "port count" },
	{ "Switch 8 a\n", 1, "quoted" },
	{ "Switch 8 \"a\" junk\n", 1, "junk" },
	{ SW_A "[0] \"b\"[1]\nHca 1 \"b\"\n", 2, "port 0" },
	{ SW_A "[9] \"b\"[1]\nHca 1 \"b\"\n", 2, "port 9" },
	{ SW_A "[1] \"b\"[1]\nHca 1 \"b\"\n[1] \"a\"[1]\n"
	  "\nSwitch 4 \"a\"\n", 6, "duplicate node id" },
	{ "Switch 8 \"abc\n", 1, "unterminated" },
	{ SW_A "[1] \"b[1]\n", 2, "unterminated" },
	{ SW_A "[1] \"b\"[1]\nHca 1 \"b\"\nhello world\n", 4,
	  "unrecognized" },
	{ "# only\n[1] \"b\"[1]\n", 2, "before any node" },
	{ SW_A "[1] \"b\"[1]\n\n[2] \"c\"[1]\n", 4,
	  "outside a node record" },
	{ "Switch 8 \"a\" # lid 1\n[1] \"b\"[1]\nHca 1 \"b\"\n"
	  "[1] \"a\"[1] # lid 1\n", 4, "LID 1 already used at line 1" },
	{ SW_A "[1] \"b\"[1]\n[2] \"c\"[1]\nHca 1 \"b\"\n"
	  "[1] \"a\"[1] # lid 4 lmc 1\nHca 1 \"c\"\n[1] \"a\"[2] # lid 5\n",
	  7, "LID 5 already used at line 5" },
	{ "", 1, "no node" },
	{ "# nothing\n#\n\n", 3, "no node" },
	{ SW_A "[1] \"b\"[1]\n[3] \"zz\"[1]\nHca 1 \"b\"\n", 3,
	  "never defined" },
	{ SW_A "[1] \"b\"[2]\nHca 2 \"b\"\n[2] \"c\"[1]\n"
	  "Hca 1 \"c\"\n", 2, "line 4" },
	{ SW_A "[1] \"b\"[3]\nHca 2 \"b\"\n", 2, "out of range" },
	{ SW_A "[1] \"b\"[1]\n[1] \"c\"[1]\nHca 1 \"b\"\n"
	  "Hca 1 \"c\"\n", 3, "listed twice (first at line 2)" },
	{ SW_A "[1] \"c\"[1]\n[2] \"c\"[1]\nHca 1 \"c\"\n", 3,
	  "already linked" },
	{ SW_A "[1] \"a\"[1]\n", 2, "itself" },
	{ "include \"other.net\"\n", 1, "not supported" },
	{ SW_A "\ndo Unlink \"a\"[1]\n", 3, "not supported" },
	{ "module=\"m\"\n", 1, "not supported" },
	{ SW_A "@[1] \"x\"\n", 2, "not supported" },
	{ "Switch 8 \"a\" # lid x\n", 1, "bad LID" },
	{ "Switch 8 \"a\" # lid 49151 lmc 1\n", 1, "invalid LID" },
	{ "Hca 1 \"b\"\n[1] \"b\"[1] # lid 99999\n", 2, "bad LID" },
	{ "switchguid=0x10\nSwitch 8 \"a\"\n\nswitchguid=0x10\n"
	  "Switch 8 \"b\"\n", 5, "duplicate node GUID" },
	{ "Switch 8 \"S-0000000000000001\"\n\nHca 1 \"H-0000000000000001\"\n",
	  3, "duplicate node GUID" },
	{ "caguid=0x10\nSwitch 8 \"a\"\n", 2, "caguid" },
	{ SW_A "\nswitchguid=0x11\n", 3, "without a node header" },
	{ "switchguid=0xzz\n", 1, "bad GUID" },
	{ SW_A "[1] \"b\"[1](xyz)\n", 2, "port GUID" },
	{ SW_A "[1] \"b\"[1] junk\n", 2, "junk" },
	{ SW_A "[1] \"b\"[0]\n", 2, "remote port" },
	{ SW_A "[1 \"b\"[1]\n", 2, "bad port number" },
	{ SW_A "[1 \"b\"\n", 2, "missing ']'" },
	{ SW_A "[1] \"\"[1]\n", 2, "empty" },
	{ "Hca 1 \"\"\n", 1, "empty node id" },
	{ SW_A "[1] b[1]\n", 2, "quoted" },
	{ "Switch 8 \"S-0000000000000001\" # \"x\n", 1, "unterminated" },
	/* the limits of topo_read.h */
	{ "Switch 8 \"a\" # \"" X65 "\" base port 0 lid 1\n", 1,
	  "node description of 65 bytes, longer than IB's 64" },
	{ "Switch 8 \"" X65 "\"\n", 1, "node id of 65 bytes" },
	{ SW_A "[1] \"" X65 "\"[1]\n", 2, "remote node id of 65 bytes" },
	{ "switchguid=0x00000000000000010\nSwitch 8 \"a\"\n", 1,
	  "bad GUID" },
	{ SW_A "[1](00000000000000001) \"b\"[1]\n", 2, "bad port GUID" },
	{ SW_A "[1] \"b\"[255]\n", 2, "remote port 255 out of range" },
	{ SW_A "[1] \"b\"[9]\n\nHca 2 \"b\"\n", 2,
	  "remote port 9 out of range: \"b\" has 2 ports" },
};

static void test_malformed(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_topologies) / sizeof(bad_topologies[0]);
	     i++) {
		const struct bad_case *c = &bad_topologies[i];
		struct dqr_fabric *f;
		char err[512];

		f = parse(c->text, err, sizeof(err));
		CHECK(f == NULL);
		dqr_fabric_free(f);
		unit_check_error(err, "inline", c->line, c->what, (int)i);
	}
}

/*
 * count headers "<kw> <ports> \"nN\"": the fabric refuses the first
 * that passes a limit, at its line.
 */
static void check_limit(const char *kw, unsigned ports, unsigned count,
			unsigned bad_line, const char *what)
{
	size_t cap = (size_t)count * 32, len = 0;
	char *text = malloc(cap), err[256];
	struct dqr_fabric *f;
	unsigned i;

	REQUIRE(text);
	for (i = 1; i <= count; i++)
		len += (size_t)snprintf(text + len, cap - len,
					"%s %u \"n%u\"\n", kw, ports, i);
	f = parse_len(text, len, err, sizeof(err));
	CHECK(f == NULL);
	dqr_fabric_free(f);
	unit_check_error(err, "inline", bad_line, what, -1);
	free(text);
}

/* Memory bounded by the input: nodes and ports, whatever headers say. */
static void test_limits(void)
{
	/* 4112 switches of 255 ports (port 0 too) fit in 2^20, not 4113 */
	check_limit("Switch", 254, 4113, 4113, "more than 1048576 ports");
	/* one LID each: 49151 nodes at most */
	check_limit("Ca", 1, DQR_TOPO_NODES_MAX + 1, DQR_TOPO_NODES_MAX + 1,
		    "more than 49151 nodes");
}

static void test_nul_and_missing_file(void)
{
	static const char text[] = "Switch 8 \"a\"\n[1] \"b\0\"[1]\n";
	struct dqr_fabric *f;
	char err[512];

	f = parse_len(text, sizeof(text) - 1, err, sizeof(err));
	CHECK(f == NULL);
	unit_check_error(err, "inline", 2, "NUL", -1);

	f = dqr_read_topology("/nonexistent/x.ibnd", err, sizeof(err));
	CHECK(f == NULL);
	CHECK(strstr(err, "/nonexistent/x.ibnd: ") == err);

	/* a tiny error buffer is truncated, never overrun */
	f = parse("junk\n", err, 8);
	CHECK(f == NULL);
	CHECK_EQ(strlen(err), 7);
}

/* Every prefix and a few thousand mutations of a real file: no crash. */
static void test_fuzz(void)
{
	static const char alphabet[] = "[]\"()#=0123456789abx \t\n-SHCa@";
	char err[256], *text, *buf;
	struct dqr_fabric *f;
	unsigned long long seed = 42;
	size_t len, i, ok = 0, bad = 0;

	text = unit_data_file("tiny.ibnd", &len);
	REQUIRE(text);
	buf = calloc(1, UNIT_FILE_MAX);
	REQUIRE(buf);

	/* every prefix, then 3000 mutants with 1 to 4 bytes changed */
	for (i = 0; i <= len + 3000; i++) {
		size_t n = unit_fuzz_text(buf, text, len, i,
					  1 + (int)((i - len - 1) % 4), &seed,
					  alphabet);

		f = parse_len(buf, n, err, sizeof(err));
		if (f)
			ok++;
		else
			bad += err[0] != '\0';
		dqr_fabric_free(f);
	}
	/* every failure explained itself */
	CHECK_EQ(ok + bad, len + 1 + 3000);
	CHECK(ok > 0 && bad > 0);
	free(text);
	free(buf);
}

static void test_node_index(void)
{
	struct dqr_node_index *ix = dqr_node_index_new();
	struct dqr_fabric *f = dqr_fabric_new();
	char name[32];
	uint32_t i, miss = 0;

	REQUIRE(ix && f);
	CHECK_EQ(dqr_node_index_name(ix, "x"), DQR_NONE);
	CHECK_EQ(dqr_node_index_guid(ix, 7), DQR_NONE);
	CHECK_EQ(dqr_node_index_guid(ix, 0), DQR_NONE);
	CHECK_EQ(dqr_node_index_add(ix, "a", 0x10, 3), 0);
	CHECK_EQ(dqr_node_index_add(ix, "a", 0x11, 4),
		 DQR_NODE_INDEX_DUP_NAME);
	CHECK_EQ(dqr_node_index_add(ix, "b", 0x10, 5),
		 DQR_NODE_INDEX_DUP_GUID);
	CHECK_EQ(dqr_node_index_add(ix, "a", 0x10, 6),
		 DQR_NODE_INDEX_DUP_NAME | DQR_NODE_INDEX_DUP_GUID);
	CHECK_EQ(dqr_node_index_add(ix, NULL, 0, 7), 0);
	CHECK_EQ(dqr_node_index_name(ix, "a"), 3);
	CHECK_EQ(dqr_node_index_name(ix, "b"), 5);
	CHECK_EQ(dqr_node_index_guid(ix, 0x10), 3);
	CHECK_EQ(dqr_node_index_guid(ix, 0x11), 4);
	dqr_node_index_free(ix);

	/* growth well past the first table, GUIDs that count up */
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "node-%u", i);
		miss += dqr_fabric_add_node(f, i % 8 ? DQR_NODE_CA :
					    DQR_NODE_SWITCH, 2,
					    0x0002c90300000000ULL + i,
					    name) != i;
	}
	REQUIRE(miss == 0);
	ix = dqr_node_index_build(f);
	REQUIRE(ix);
	for (i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "node-%u", i);
		miss += dqr_node_index_name(ix, name) != i;
		miss += dqr_node_index_guid(ix, 0x0002c90300000000ULL + i) != i;
	}
	CHECK_EQ(miss, 0);
	CHECK_EQ(dqr_node_index_name(ix, "node-20000"), DQR_NONE);
	CHECK_EQ(dqr_node_index_guid(ix, 0x0002c90300000000ULL + 20000),
		 DQR_NONE);
	dqr_node_index_free(ix);
	dqr_fabric_free(f);
}

static int num(const char *s, unsigned base, uint64_t max, uint64_t *v)
{
	return dqr_parse_uint(s, strlen(s), base, max, v);
}

static void test_text_input(void)
{
	static const char text[] = "one\r\n\nthree";
	struct dqr_text_input in;
	char err[128];
	uint64_t v = 1;
	FILE *fp;

	CHECK(num("0", 10, 5, &v) == 0 && v == 0);
	CHECK(num("255", 10, 255, &v) == 0 && v == 255);
	CHECK_EQ(num("256", 10, 255, &v), -1);
	CHECK(num("18446744073709551615", 10, UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	CHECK_EQ(num("18446744073709551616", 10, UINT64_MAX, &v), -1);
	CHECK(num("ffffffffffffffff", 16, UINT64_MAX, &v) == 0 &&
	      v == UINT64_MAX);
	CHECK_EQ(num("10000000000000000", 16, UINT64_MAX, &v), -1);
	CHECK(num("0xBfFf", 0, 0xbfff, &v) == 0 && v == 0xbfff);
	CHECK_EQ(num("0xc000", 0, 0xbfff, &v), -1);
	CHECK(num("017", 0, 100, &v) == 0 && v == 17);	/* not octal */
	CHECK_EQ(num("7", 10, 5, &v), -1);
	CHECK_EQ(num("", 10, 5, &v), -1);
	CHECK_EQ(num("0x", 0, 5, &v), -1);
	CHECK_EQ(num("12a", 10, 500, &v), -1);
	CHECK_EQ(num("a", 10, 500, &v), -1);
	CHECK_EQ(num(" 1", 10, 5, &v), -1);
	CHECK_EQ(num("1 ", 10, 5, &v), -1);
	CHECK_EQ(num("-1", 10, 5, &v), -1);
	CHECK_EQ(num("+1", 10, 5, &v), -1);
	CHECK_EQ(num("0x10", 16, 500, &v), -1);
	CHECK_EQ(num("1", 8, 5, &v), -1);

	fp = unit_text_file(text, sizeof(text) - 1);
	REQUIRE(fp);
	dqr_text_input_init(&in, fp, "t");
	CHECK_EQ(dqr_text_input_next(&in, err, sizeof(err)), 1);
	CHECK(!strcmp(in.line, "one") && in.len == 3 && in.lineno == 1);
	CHECK_EQ(dqr_text_input_next(&in, err, sizeof(err)), 1);
	CHECK(!strcmp(in.line, "") && in.lineno == 2);
	CHECK_EQ(dqr_text_input_next(&in, err, sizeof(err)), 1);
	CHECK(!strcmp(in.line, "three") && in.lineno == 3);
	dqr_text_error(&in, err, sizeof(err), "bad %s", "thing");
	CHECK(!strcmp(err, "t:3: bad thing"));
	dqr_text_error_at("u", 9, err, sizeof(err), "x");
	CHECK(!strcmp(err, "u:9: x"));
	CHECK_EQ(dqr_text_input_next(&in, err, sizeof(err)), 0);
	CHECK_EQ(dqr_text_input_next(&in, err, sizeof(err)), 0);
	dqr_text_input_release(&in);
	fclose(fp);
}

int main(void)
{
	test_text_input();
	test_tiny_ibnetdiscover();
	test_tiny_net();
	test_net_lids_lmc();
	test_ibnd_variants();
	test_malformed();
	test_limits();
	test_nul_and_missing_file();
	test_fuzz();
	test_node_index();
	return unit_finish();
}
