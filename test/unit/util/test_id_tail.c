/*
 * test_id_tail.c - finding the last record id in the tail of a record
 * file: good records, an empty file, garbage, a cut tail.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"
#include "util/id_tail.h"

#define JSON_ID "{\"id\":"
#define JSON_TR "{\"transition\":"

static uint64_t scan(const char *s, int cut, const char *prefix)
{
	return dqr_id_tail_scan(s, strlen(s), cut, prefix);
}

static void test_good(void)
{
	const char *log =
		"{\"id\":1,\"time\":\"x\",\"outcome\":\"ok\"}\n"
		"{\"transition\":1,\"time\":\"x\"}\n"
		"{\"id\":12,\"time\":\"x\",\"outcome\":\"ok\"}\n"
		"{\"transition\":7,\"time\":\"x\"}\n"
		"{\"id\":3,\"time\":\"x\"}\n";
	const char *dump =
		"# reconfiguration 4: 2 stages, 3 entries\n"
		"4 1 0x0000000000200000 5 1 2\n"
		"9 1 0x0000000000200000 6 1 2\n"
		"5 2 0x0000000000200010 5 3 255\n";

	CHECK_EQ(scan(log, 0, JSON_ID), 12);
	CHECK_EQ(scan(log, 0, JSON_TR), 7);
	CHECK_EQ(scan(dump, 0, ""), 9);
	/* the comment names a reconfiguration but is no record */
	CHECK_EQ(scan("# 99 1 0x1 1 1 1\n", 0, ""), 0);
	/* no newline at the end of a complete JSON record */
	CHECK_EQ(scan("{\"id\":5,\"time\":\"x\"}", 0, JSON_ID), 5);
}

static void test_empty(void)
{
	CHECK_EQ(scan("", 0, JSON_ID), 0);
	CHECK_EQ(scan("", 1, ""), 0);
	CHECK_EQ(dqr_id_tail_scan(NULL, 0, 0, JSON_ID), 0);
	CHECK_EQ(scan("\n\n\n", 0, ""), 0);
}

static void test_garbage(void)
{
	char bin[256];
	size_t i;

	CHECK_EQ(scan("{\"id\":x1}\n{\"id\":-4}\n{\"id\": 5}\n", 0, JSON_ID),
		 0);
	/* the id must begin the line */
	CHECK_EQ(scan(" {\"id\":8}\nxx{\"id\":9}\n", 0, JSON_ID), 0);
	/* too large for a JSON reader, or for 64 bits: ignored */
	CHECK_EQ(scan("{\"id\":9007199254740992}\n", 0, JSON_ID), 0);
	CHECK_EQ(scan("{\"id\":9007199254740991}\n", 0, JSON_ID),
		 9007199254740991LL);
	CHECK_EQ(scan("99999999999999999999999999 1\n3 1\n", 0, ""), 3);
	/* a last line cut short may have lost digits: not believed */
	CHECK_EQ(scan("4 1 0x1 1 1 1\n123", 0, ""), 4);
	/* a cut tail starts inside a line: "12 ..." may be "512 ..." */
	CHECK_EQ(scan("12 1 0x1 1 1 1\n3 1 0x1 1 1 1\n", 1, ""), 3);
	CHECK_EQ(scan("12 1 0x1 1 1 1", 1, ""), 0);
	/* NULs and every other byte */
	for (i = 0; i < sizeof(bin); i++)
		bin[i] = (char)(i * 7 + 3);
	memcpy(bin + 100, "\n{\"id\":42,\n", 11);
	bin[50] = '\0';
	CHECK_EQ(dqr_id_tail_scan(bin, sizeof(bin), 0, JSON_ID), 42);
	CHECK_EQ(dqr_id_tail_scan(bin, 100, 0, JSON_ID), 0);
}

static void test_read(void)
{
	char path[] = "/tmp/test_id_tail_XXXXXX", *buf;
	size_t len;
	int fd, cut;

	fd = mkstemp(path);
	REQUIRE(fd >= 0);
	REQUIRE(write(fd, "{\"id\":1}\n{\"id\":2}\n", 18) == 18);
	close(fd);
	CHECK_EQ(dqr_id_tail_read(path, 64, &buf, &len, &cut), 0);
	CHECK_EQ(len, 18);
	CHECK_EQ(cut, 0);
	CHECK_EQ(dqr_id_tail_scan(buf, len, cut, JSON_ID), 2);
	free(buf);
	/* the last 10 bytes: "\n{\"id\":2}\n" */
	CHECK_EQ(dqr_id_tail_read(path, 10, &buf, &len, &cut), 0);
	CHECK_EQ(len, 10);
	CHECK_EQ(cut, 1);
	CHECK_EQ(dqr_id_tail_scan(buf, len, cut, JSON_ID), 2);
	free(buf);
	/* 8 bytes start inside the last record: nothing believed */
	CHECK_EQ(dqr_id_tail_read(path, 8, &buf, &len, &cut), 0);
	CHECK_EQ(dqr_id_tail_scan(buf, len, cut, JSON_ID), 0);
	free(buf);
	unlink(path);
	CHECK_EQ(dqr_id_tail_read(path, 64, &buf, &len, &cut), 1);
	CHECK(buf == NULL);
	/* a directory is no record file */
	CHECK_EQ(dqr_id_tail_read("/tmp", 64, &buf, &len, &cut), -1);
	CHECK(buf == NULL);
}

int main(void)
{
	test_good();
	test_empty();
	test_garbage();
	test_read();
	return unit_finish();
}
