/*
 * test_text_input.c - the GUID parser the readers share (the line
 * reader itself is tested with the readers in test/unit/io/).
 */
#include <stdint.h>
#include <string.h>

#include "unit.h"
#include "util/text_input.h"

static int guid(const char *s, int need_0x, uint64_t *g)
{
	*g = 0x5a5a;
	return dqr_parse_guid(s, strlen(s), need_0x, g);
}

static void test_parse_guid(void)
{
	uint64_t g;

	CHECK_EQ(guid("0x0002c90300a1b2c3", 1, &g), 0);
	CHECK(g == UINT64_C(0x0002c90300a1b2c3));
	CHECK_EQ(guid("0XFFFFFFFFFFFFFFFF", 1, &g), 0);
	CHECK(g == UINT64_MAX);
	CHECK_EQ(guid("200000", 0, &g), 0);
	CHECK(g == 0x200000);
	CHECK_EQ(guid("0x200000", 0, &g), 0);
	CHECK(g == 0x200000);
	/* 17 digits are no EUI-64, even when the first is a zero */
	CHECK_EQ(guid("0x00000000000200000", 1, &g), -1);
	CHECK_EQ(guid("00000000000000001", 0, &g), -1);
	CHECK(g == 0x5a5a);	/* untouched on refusal */
	CHECK_EQ(guid("200000", 1, &g), -1);	/* "0x" wanted */
	CHECK_EQ(guid("0x", 1, &g), -1);
	CHECK_EQ(guid("", 0, &g), -1);
	CHECK_EQ(guid("0x12g4", 1, &g), -1);
	CHECK_EQ(guid("0x-1", 1, &g), -1);
	CHECK_EQ(guid(" 0x1", 1, &g), -1);
	/* exactly len characters are read */
	CHECK_EQ(dqr_parse_guid("0x12zz", 4, 1, &g), 0);
	CHECK(g == 0x12);
}

int main(void)
{
	test_parse_guid();
	return unit_finish();
}
