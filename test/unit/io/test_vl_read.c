/*
 * test_vl_read.c - SL2VL tables and path SLs read for a fabric: both
 * formats, the lookups, and what the reader says about broken input.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/fabric.h"
#include "io/topo_read.h"
#include "io/vl_read.h"
#include "unit.h"
#include "util/text_input.h"

static int parse_len(const struct dqr_fabric *f, const char *text,
		     size_t len, struct dqr_vls *v, char *err, size_t errlen)
{
	FILE *fp = unit_text_file(text, len);
	int r;

	if (!fp)
		return -2;
	err[0] = '\0';
	r = dqr_parse_vls(f, fp, "inline", v, err, errlen);
	fclose(fp);
	return r;
}

static int parse(const struct dqr_fabric *f, const char *text,
		 struct dqr_vls *v, char *err, size_t errlen)
{
	return parse_len(f, text, strlen(text), v, err, errlen);
}

/* tiny.ibnd: Switch1 0x200000 (LID 1), Switch2 0x200001 (LID 3), 8
 * ports each; Hca1 0x100000 port 1 LID 2, Hca2 LID 4, Hca3 5, Hca4 6 */
static struct dqr_fabric *tiny(void)
{
	char path[4096], err[512];
	struct dqr_fabric *f;

	f = dqr_read_topology(unit_data_path("tiny.ibnd", path,
					     sizeof(path)), err, sizeof(err));
	if (!f)
		fprintf(stderr, "%s\n", err);
	return f;
}

#define VL16(a, b) " " #a " " #b " 0 0 0 0 0 0 0 0 0 0 0 0 0 0"
#define SMP(a, b) ": |" #a "|" #b "| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| 0| " \
		  "0| 0|\n"

static void test_formats(void)
{
	static const char text[] =
		"# both formats in one file\n"
		"sl2vl 0x0000000000200000 1 3" VL16(0, 1) "\n"
		"ca_sl2vl 0x100003 1" VL16(2, 3) "\n"
		"path_sl 2 4 1\n"
		"path_sl 4 2 15\n"
		"# SL2VL table: Lid 3\n"
		"#                 SL: | 0| 1| 2| 3| 4| 5| 6| 7| 8| 9|10|11|"
		"12|13|14|15|\n"
		"ports: in  0, out  1" SMP(4, 5)
		"ports: in  8, out  1" SMP(6, 14)
		"# SL2VL table: Lid 5\n"
		"ports: in  0, out  0" SMP(7, 7);
	struct dqr_fabric *f = tiny();
	struct dqr_vls v;
	uint32_t s1, s2, h2, h3;
	char err[512];

	REQUIRE(f);
	s1 = dqr_fabric_find_name(f, "Switch1");
	s2 = dqr_fabric_find_name(f, "Switch2");
	h2 = dqr_fabric_find_name(f, "Hca2");
	h3 = dqr_fabric_find_name(f, "Hca3");
	CHECK_EQ(parse(f, text, &v, err, sizeof(err)), 0);
	CHECK_EQ(err[0], '\0');
	CHECK_EQ(v.num_tables, 5);
	CHECK_EQ(v.num_paths, 2);
	CHECK_EQ(v.sl_mask, (1u << 1) | (1u << 15));
	CHECK_EQ(dqr_vls_vl(&v, s1, 1, 3, 0), 0);
	CHECK_EQ(dqr_vls_vl(&v, s1, 1, 3, 1), 1);
	CHECK_EQ(dqr_vls_vl(&v, s1, 3, 1, 1), 0);	/* not listed */
	CHECK_EQ(dqr_vls_vl(&v, h2, 0, 1, 0), 2);
	CHECK_EQ(dqr_vls_vl(&v, h2, 0, 1, 1), 3);
	CHECK_EQ(dqr_vls_vl(&v, s2, 0, 1, 0), 4);
	CHECK_EQ(dqr_vls_vl(&v, s2, 8, 1, 1), 14);
	CHECK_EQ(dqr_vls_vl(&v, h3, 0, 1, 1), 7);	/* LID 5 is Hca3 */
	CHECK_EQ(dqr_vls_sl(&v, 2, 4), 1);
	CHECK_EQ(dqr_vls_sl(&v, 4, 2), 15);
	CHECK_EQ(dqr_vls_sl(&v, 2, 6), 0);
	dqr_vls_release(&v);

	/* nothing listed: everything VL 0 and SL 0 */
	CHECK_EQ(parse(f, "", &v, err, sizeof(err)), 0);
	CHECK_EQ(v.num_tables + v.num_paths, 0);
	CHECK_EQ(dqr_vls_vl(&v, s1, 1, 3, 5), 0);
	CHECK_EQ(dqr_vls_sl(&v, 2, 4), 0);
	dqr_vls_release(&v);
	dqr_fabric_free(f);
}

struct bad_case {
	const char *text;
	unsigned line;
	const char *what;
};

static const struct bad_case bad_vls[] = {
	{ "sl2vl 0x300000 1 3" VL16(0, 1) "\n", 1,
	  "no node with GUID 0x0000000000300000" },
	{ "sl2vl 0x00000000000000200000 1 3" VL16(0, 1) "\n", 1,
	  "bad GUID" },
	{ "sl2vl 200000 1 3" VL16(0, 1) "\n", 1, "bad GUID" },
	{ "sl2vl 0x100000 0 1" VL16(0, 1) "\n", 1, "not a switch" },
	{ "ca_sl2vl 0x200000 1" VL16(0, 1) "\n", 1, "the switch 'Switch1'" },
	{ "ca_sl2vl 0x100000 3" VL16(0, 1) "\n", 1, "bad port '3' (1 .. 2)" },
	{ "sl2vl 0x200000 9 3" VL16(0, 1) "\n", 1, "bad in port '9' (0 .. 8)" },
	{ "sl2vl 0x200000 1 3" VL16(0, 16) "\n", 1, "bad VL '16' (0 .. 15)" },
	{ "sl2vl 0x200000 1 3 0 1\n", 1, "missing VL" },
	{ "sl2vl 0x200000 1 3" VL16(0, 1) " 0\n", 1, "more than 16 VLs" },
	{ "\nsl2vl 0x200000 1 3" VL16(0, 1) "\nsl2vl 0x200000 1 3"
	  VL16(0, 0) "\n", 3, "SL2VL table listed twice (first at line 2)" },
	{ "path_sl 2 4 1\npath_sl 2 4 1\n", 2, "path SL listed twice" },
	{ "path_sl 2 7 1\n", 1, "DLID 7 is no port's LID" },
	{ "path_sl 0 4 1\n", 1, "bad SLID '0'" },
	{ "path_sl 2 49152 1\n", 1, "bad DLID '49152'" },
	{ "path_sl 2 4 16\n", 1, "bad SL '16' (0 .. 15)" },
	{ "path_sl 2 4 1 x\n", 1, "unexpected 'x'" },
	{ "ports: in  0, out  1" SMP(0, 1), 1, "before any" },
	{ "# SL2VL table: DR path slid 0; dlid 0; 0,1\n", 1,
	  "only smpquery output addressed by LID" },
	{ "# SL2VL table: Lid 7\n", 1, "LID 7 is no port's LID" },
	{ "# SL2VL table: Lid 1\nports: in  9, out  1" SMP(0, 1), 2,
	  "bad in port '9' (0 .. 8)" },
	{ "# SL2VL table: Lid 2\nports: in  0, out  1" SMP(0, 1), 2,
	  "bad out port '1' (0 .. 0)" },
	{ "# SL2VL table: Lid 1\nports: in  1 out  1" SMP(0, 1), 2,
	  "expected ','" },
	{ "# SL2VL table: Lid 1\nports: in  1, out  3: | 0| 1|\n", 2,
	  "expected 16 VLs" },
	{ "# SL2VL table: Lid 1\nports: in  1, out  3: | 0|99| 0|\n", 2,
	  "bad VL '99'" },
	{ "hello\n", 1, "unrecognized line" },
};

static void test_malformed(void)
{
	static const char nul[] = "path_sl 2 4 1\npath_sl\0 2 5 1\n";
	struct dqr_fabric *f = tiny();
	struct dqr_vls v;
	char err[512];
	size_t i;

	REQUIRE(f);
	for (i = 0; i < sizeof(bad_vls) / sizeof(bad_vls[0]); i++) {
		memset(&v, 0x5a, sizeof(v));
		CHECK_EQ(parse(f, bad_vls[i].text, &v, err, sizeof(err)), -1);
		/* a refusal leaves nothing to release */
		CHECK(v.tables == NULL && v.paths == NULL);
		unit_check_error(err, "inline", bad_vls[i].line,
				 bad_vls[i].what, (int)i);
	}
	CHECK_EQ(parse_len(f, nul, sizeof(nul) - 1, &v, err, sizeof(err)),
		 -1);
	unit_check_error(err, "inline", 2, "NUL byte", -1);
	CHECK_EQ(dqr_read_vls(f, "/nonexistent/x.vls", &v, err, sizeof(err)),
		 -1);
	CHECK(strstr(err, "/nonexistent/x.vls: ") == err);
	dqr_fabric_free(f);
}

int main(void)
{
	test_formats();
	test_malformed();
	return unit_finish();
}
