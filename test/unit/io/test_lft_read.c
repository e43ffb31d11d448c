/*
 * test_lft_read.c - dump_fts and opensm-lfts.dump reading, the dump_fts
 * top-block quirk, and what the reader says about broken input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"
#include "io/lft_read.h"
#include "small_fabrics.h"
#include "unit.h"
#include "util/text_input.h"

static struct dqr_lfts *parse_len(const struct dqr_fabric *f,
				  const char *text, size_t len,
				  struct dqr_lft_read_info *info,
				  char *err, size_t errlen)
{
	struct dqr_lfts *t;
	FILE *fp = unit_text_file(text, len);

	if (!fp)
		return NULL;
	err[0] = '\0';
	t = dqr_parse_lfts(f, fp, "inline", info, err, errlen);
	fclose(fp);
	return t;
}

static struct dqr_lfts *parse(const struct dqr_fabric *f, const char *text,
			      struct dqr_lft_read_info *info, char *err,
			      size_t errlen)
{
	return parse_len(f, text, strlen(text), info, err, errlen);
}

/* The tables in test/data/name for f, the reader's complaint on stderr. */
static struct dqr_lfts *read_data(const struct dqr_fabric *f,
				  const char *name,
				  struct dqr_lft_read_info *info)
{
	char path[4096], err[512];
	struct dqr_lfts *t;

	t = dqr_read_lfts(f, unit_data_path(name, path, sizeof(path)), info,
			  err, sizeof(err));
	if (!t)
		fprintf(stderr, "%s\n", err);
	return t;
}

static uint32_t sw_of(const struct dqr_fabric *f, const char *name)
{
	uint32_t n = dqr_fabric_find_name(f, name);

	return n == DQR_NONE ? DQR_NONE : f->nodes[n].sw_index;
}

/* What OpenSM's minhop put into the two switches of tiny. */
static void check_tiny_table(const struct dqr_fabric *f,
			     const struct dqr_lfts *t)
{
	static const uint8_t sw1[] = { 255, 0, 1, 3, 3, 2, 5 };
	static const uint8_t sw2[] = { 255, 3, 3, 0, 1, 5, 2 };

	CHECK_EQ(t->num_switches, 2);
	CHECK_EQ(t->lid_count, 7);
	CHECK(!memcmp(dqr_lft_row(t, sw_of(f, "Switch1")), sw1, 7));
	CHECK(!memcmp(dqr_lft_row(t, sw_of(f, "Switch2")), sw2, 7));
}

static void test_tiny(void)
{
	struct dqr_lft_read_info info, info2;
	struct dqr_fabric *f = data_fabric("tiny.ibnd");
	struct dqr_lfts *a, *b;

	REQUIRE(f);
	a = read_data(f, "tiny.fts", &info);
	REQUIRE(a);
	check_tiny_table(f, a);
	CHECK_EQ(info.format, DQR_LFT_FORMAT_DUMP_FTS);
	CHECK(!strcmp(dqr_lft_format_name(info.format), "dump_fts"));
	CHECK_EQ(info.switches_seen, 2);
	CHECK_EQ(info.switches_missing, 0);
	CHECK(info.missing == NULL);
	CHECK_EQ(info.entries, 12);
	CHECK_EQ(info.top_lid, 6);
	CHECK_EQ(info.max_lid_seen, 6);
	CHECK_EQ(info.quirk_missing_top_lid, 0);

	b = read_data(f, "tiny.osm-lfts", &info2);
	REQUIRE(b);
	check_tiny_table(f, b);
	CHECK_EQ(info2.format, DQR_LFT_FORMAT_OPENSM);
	CHECK_EQ(info2.switches_seen, 2);
	CHECK_EQ(info2.entries, 12);
	CHECK_EQ(info2.top_lid, 6);
	/* both formats give the very same tables */
	CHECK_EQ(a->lid_count, b->lid_count);
	CHECK(!memcmp(a->port, b->port, (size_t)a->num_switches *
		      a->lid_count));
	dqr_lft_read_info_release(&info);
	dqr_lft_read_info_release(&info2);
	dqr_lfts_free(a);
	dqr_lfts_free(b);

	/* info is optional */
	a = read_data(f, "tiny.fts", NULL);
	CHECK(a != NULL);
	dqr_lfts_free(a);
	dqr_fabric_free(f);
}

/*
 * dump_fts variants: a "Lid N" port id, a name with blanks, parentheses
 * and " guid ", -n (no destination), -a (invalid entries as 255),
 * OpenSM's "unknown node and type", a LID above the fabric's, a switch
 * missing from the dump.
 */
static void test_variants(void)
{
	static const char text[] =
		"Unicast lids [0x0-0x20] of switch Lid 3 guid "
		"0x0000000000200001 (my (odd) guid 0x1 sw):\n"
		"  Lid  Out   Destination\n"
		"       Port     Info \n"
		"0x0000 255 : (illegal port)\n"
		"0x0001 003 \n"
		"0x0002 004 : unknown node and type\n"
		"0x0020 001 : (node info not available fabric scan)\n"
		"4 lids dumped \n"
		"\n";
	struct dqr_lft_read_info info;
	struct dqr_fabric *f = data_fabric("tiny.ibnd");
	struct dqr_lfts *t;
	char err[512];
	uint32_t s1, s2;

	REQUIRE(f);
	s1 = sw_of(f, "Switch1");
	s2 = sw_of(f, "Switch2");
	t = parse(f, text, &info, err, sizeof(err));
	if (!t)
		fprintf(stderr, "%s\n", err);
	REQUIRE(t);
	CHECK_EQ(t->lid_count, 0x21);	/* widened past max_lid 6 */
	CHECK_EQ(dqr_lft_get(t, s2, 0), 255);
	CHECK_EQ(dqr_lft_get(t, s2, 1), 3);
	CHECK_EQ(dqr_lft_get(t, s2, 2), 4);
	CHECK_EQ(dqr_lft_get(t, s2, 3), DQR_NO_PATH);
	CHECK_EQ(dqr_lft_get(t, s2, 0x20), 1);
	CHECK_EQ(dqr_lft_get(t, s1, 1), DQR_NO_PATH);
	CHECK_EQ(info.switches_seen, 1);
	CHECK_EQ(info.switches_missing, 1);
	REQUIRE(info.missing);
	CHECK_EQ(info.missing[0], s1);
	CHECK_EQ(info.entries, 4);
	CHECK_EQ(info.top_lid, 0x20);
	CHECK_EQ(info.max_lid_seen, 0x20);
	/* 0x20 is no multiple of 64 */
	CHECK_EQ(info.quirk_missing_top_lid, 0);
	dqr_lft_read_info_release(&info);
	CHECK(info.missing == NULL);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* Two CAs at LIDs 2 and 64: LinearFDBTop is 64. */
static const char quirk_topology[] =
	"switchguid=0x100\n"
	"Switch 3 \"sw1\" # lid 1\n"
	"[1] \"h1\"[1]\n"
	"[2] \"h2\"[1]\n"
	"\n"
	"caguid=0x200\n"
	"Hca 1 \"h1\"\n"
	"[1] \"sw1\"[1] # lid 2\n"
	"\n"
	"caguid=0x300\n"
	"Hca 1 \"h2\"\n"
	"[1] \"sw1\"[2] # lid 64\n";

static void quirk_case(const struct dqr_fabric *f, const char *text,
		       uint32_t want)
{
	struct dqr_lft_read_info info;
	struct dqr_lfts *t;
	char err[512];

	t = parse(f, text, &info, err, sizeof(err));
	if (!t)
		fprintf(stderr, "%s\n", err);
	REQUIRE(t);
	CHECK_EQ(t->lid_count, 65);
	CHECK_EQ(info.top_lid, 64);
	CHECK_EQ(info.quirk_missing_top_lid, want);
	dqr_lft_read_info_release(&info);
	dqr_lfts_free(t);
}

static void test_quirk(void)
{
	struct dqr_fabric *f = text_fabric(quirk_topology);

	REQUIRE(f);
	CHECK_EQ(f->max_lid, 64);
	/* dump_fts 44.0: the block at LID 64 never read */
	quirk_case(f,
		   "Unicast lids [0x0-0x40] of switch DR path slid 0; dlid 0;"
		   " 0 guid 0x0000000000000100 (sw1):\n"
		   "0x0001 000 : (Switch portguid 0x0000000000000100: 'sw1')\n"
		   "0x0002 001 : (Channel Adapter portguid 0x201: 'h1')\n"
		   "2 valid lids dumped \n", 64);
	/* a dump_fts that did print it */
	quirk_case(f,
		   "Unicast lids [0x0-0x40] of switch Lid 1 guid "
		   "0x0000000000000100 (sw1):\n"
		   "0x0001 000 : (Switch portguid 0x0000000000000100: 'sw1')\n"
		   "0x0040 002 : (Channel Adapter portguid 0x301: 'h2')\n"
		   "2 valid lids dumped \n", 0);
	/* OpenSM's own dump has no such bug: a missing 64 is a hole */
	quirk_case(f,
		   "Unicast lids [0-64] of switch Lid 1 guid "
		   "0x0000000000000100 ('sw1'):\n"
		   "0x0001 000 # Switch portguid 0x0000000000000100: 'sw1'\n"
		   "64 lids dumped\n", 0);
	dqr_fabric_free(f);
}

struct bad_case {
	const char *text;
	unsigned line;
	const char *what;
};

/* dump_fts's header of a table of LIDs range, the rest after "Lid 1 " */
#define LID1(range, rest) "Unicast lids [" range "] of switch Lid 1 " rest
#define SW1(range) LID1(range, "guid 0x0000000000200000 (Switch1):\n")
#define HDR1 SW1("0x0-0x6")
#define HDR2 "Unicast lids [0x0-0x6] of switch Lid 3 guid " \
	     "0x0000000000200001 (Switch2):\n"

static const struct bad_case bad_dumps[] = {
	{ "0x0001 000 : (Switch)\n", 1, "before any switch header" },
	{ HDR1 "0x00g1 000\n", 2, "bad LID" },
	{ HDR1 "0x0001 000\n0x1\n", 3, "bad output port" },
	{ HDR1 "0xc000 001\n", 2, "above 0xbfff" },
	{ HDR1 "0x0001 256\n", 2, "bad output port" },
	{ HDR1 "0x0001 -1\n", 2, "bad output port" },
	{ HDR1 "0x0001 001 junk\n", 2, "unexpected" },
	{ LID1("0x0-0x6", "guid 0x0000000000abcdef (x):\n"), 1,
	  "0x0000000000abcdef is not in the topology" },
	{ LID1("0x0-0x6", "guid 0x0000000000100006 (Hca3):\n"), 1,
	  "the CA 'Hca3', not a switch" },
	{ HDR1 "0x0001 000\n\n" HDR2 HDR1, 5, "second table of switch "
	  "'Switch1' (first at line 1)" },
	{ HDR1 "hello\n", 2, "unrecognized" },
	{ HDR1 "0x0001 000\n0x0002 001\n0x0001 003\n", 4, "listed twice" },
	{ SW1("0x0-"), 1, "LID range" },
	{ SW1("0x6-0x1"), 1, "LID range" },
	{ SW1("0x0-0xc000"), 1, "LID range" },
	{ "Unicast lids [0x0-0x6 of switch\n", 1, "range" },
	{ HDR1 "Unicast lids [0-6] of switch Lid 3 guid 0x0000000000200001 "
	  "('Switch2'):\n", 2, "opensm-lfts header in a dump_fts file" },
	{ LID1("0x0-0x6", "guid 0x0000000000200000\n"), 1, "(name):" },
	{ LID1("0x0-0x6", "guid 200000 (Switch1):\n"), 1, "bad switch GUID" },
	{ "Unicast lids [0x0-0x6] of Lid 1 (Switch1):\n", 1, "of switch" },
	/* counts checked against the header and the fabric */
	{ HDR1 "0x0001 000\n0x0007 001\n", 3,
	  "LID 0x0007 is above the top 0x0006 of its switch header" },
	{ HDR1 "0x0002 009\n", 2,
	  "output port 9 is beyond the 8 ports of switch 'Switch1'" },
	{ LID1("0x0-0x6", "guid 0x00000000000200000 (Switch1):\n"), 1,
	  "bad switch GUID" },
	{ "Multicast mlids [0xc000-0xc001] of switch Lid 1 guid "
	  "0x0000000000200000 (Switch1):\n", 1, "multicast" },
	{ "", 1, "no unicast switch table" },
	{ "\n6 valid lids dumped\n", 2, "no unicast switch table" },
	{ HDR1 "6 valid lids\n", 2, "unrecognized" },
};

static void test_malformed(void)
{
	struct dqr_lft_read_info info;
	struct dqr_fabric *f = data_fabric("tiny.ibnd"), *g;
	struct dqr_lfts *t;
	char err[512];
	size_t i;

	REQUIRE(f);
	for (i = 0; i < sizeof(bad_dumps) / sizeof(bad_dumps[0]); i++) {
		memset(&info, 0x5a, sizeof(info));
		t = parse(f, bad_dumps[i].text, &info, err, sizeof(err));
		CHECK(t == NULL);
		/* a failed read leaves nothing to release */
		CHECK(info.missing == NULL && info.switches_seen == 0);
		dqr_lfts_free(t);
		unit_check_error(err, "inline", bad_dumps[i].line,
				 bad_dumps[i].what, (int)i);
	}

	t = parse_len(f, HDR1 "0x0001\0 000\n", sizeof(HDR1 "0x0001\0 000\n")
		      - 1, NULL, err, sizeof(err));
	CHECK(t == NULL);
	unit_check_error(err, "inline", 2, "NUL", -1);

	/*
	 * A line without end (a binary file, /dev/zero without its NULs):
	 * refused at the limit, not read to the end of memory.
	 */
	{
		size_t hl = sizeof(HDR1) - 1, n = hl + DQR_TEXT_LINE_MAX + 10;
		char *text = malloc(n);

		REQUIRE(text);
		memcpy(text, HDR1, hl);
		memset(text + hl, '0', n - hl);
		t = parse_len(f, text, n, NULL, err, sizeof(err));
		CHECK(t == NULL);
		unit_check_error(err, "inline", 2, "line longer than", -1);
		free(text);
	}

	t = dqr_read_lfts(f, "/nonexistent/x.fts", &info, err, sizeof(err));
	CHECK(t == NULL);
	CHECK(strstr(err, "/nonexistent/x.fts: ") == err);

	/* a fabric still being built cannot be matched against */
	g = dqr_fabric_new();
	REQUIRE(g);
	t = parse(g, HDR1, NULL, err, sizeof(err));
	CHECK(t == NULL);
	CHECK(strstr(err, "not finished") != NULL);
	dqr_fabric_free(g);
	dqr_fabric_free(f);
}

/* Every prefix and a few thousand mutations of a real dump: no crash. */
static void test_fuzz(void)
{
	static const char alphabet[] = "0123456789abcdefx[]():#-' \t\nLU";
	struct dqr_lft_read_info info;
	struct dqr_fabric *f = data_fabric("tiny.ibnd");
	unsigned long long seed = 7;
	size_t len, i, ok = 0, bad = 0, narrow = 0;
	struct dqr_lfts *t;
	char err[256], *text, *buf;

	REQUIRE(f);
	text = unit_data_file("tiny.fts", &len);
	REQUIRE(text);
	buf = calloc(1, UNIT_FILE_MAX);
	REQUIRE(buf);

	for (i = 0; i <= len + 3000; i++) {
		size_t n = unit_fuzz_text(buf, text, len, i, 1 + (int)(i % 4),
					  &seed, alphabet);

		t = parse_len(f, buf, n, &info, err, sizeof(err));
		if (t) {
			ok++;
			narrow += t->lid_count < 7;
			dqr_lft_read_info_release(&info);
		} else {
			bad += err[0] != '\0';
		}
		dqr_lfts_free(t);
	}
	CHECK_EQ(ok + bad, len + 1 + 3000);
	CHECK(ok > 0 && bad > 0);
	CHECK_EQ(narrow, 0);
	free(text);
	free(buf);
	dqr_fabric_free(f);
}

int main(void)
{
	test_tiny();
	test_variants();
	test_quirk();
	test_malformed();
	test_fuzz();
	return unit_finish();
}
