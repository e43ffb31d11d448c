/*
 * unit.h - the few macros the unit tests share.
 *
 * Each CHECK counts as one assertion; the program ends with the plain
 * "N passed, N failed" line and exits non-zero when anything failed.
 */
#ifndef DQR_UNIT_H
#define DQR_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned unit_passed, unit_failed;

#define CHECK(cond) do { \
	if (cond) { \
		unit_passed++; \
	} else { \
		unit_failed++; \
		fprintf(stderr, "%s:%d: CHECK failed: %s\n", \
			__FILE__, __LINE__, #cond); \
	} \
} while (0)

#define CHECK_EQ(a, b) do { \
	long long unit_a_ = (long long)(a), unit_b_ = (long long)(b); \
	if (unit_a_ == unit_b_) { \
		unit_passed++; \
	} else { \
		unit_failed++; \
		fprintf(stderr, "%s:%d: CHECK_EQ failed: %s == %lld, " \
			"%s == %lld\n", __FILE__, __LINE__, #a, unit_a_, \
			#b, unit_b_); \
	} \
} while (0)

/* Stops the test program: later checks would only dereference NULL. */
#define REQUIRE(cond) do { \
	int unit_ok_ = !!(cond); \
	CHECK(unit_ok_); \
	if (!unit_ok_) { \
		printf("%u passed, %u failed\n", unit_passed, unit_failed); \
		exit(1); \
	} \
} while (0)

static inline int unit_finish(void)
{
	printf("%u passed, %u failed\n", unit_passed, unit_failed);
	return unit_failed ? 1 : (unit_passed ? 0 : 1);
}

/* name under test/data, found through $top_srcdir when make check runs */
static inline const char *unit_data_path(const char *name, char *buf,
					 size_t len)
{
	const char *top = getenv("top_srcdir");

	snprintf(buf, len, "%s/test/data/%s", top && *top ? top : ".", name);
	return buf;
}

/* The len bytes of text in a temporary file, read from the start. */
static inline FILE *unit_text_file(const char *text, size_t len)
{
	FILE *fp = tmpfile();

	if (!fp)
		return NULL;
	if (len && fwrite(text, 1, len, fp) != len) {
		fclose(fp);
		return NULL;
	}
	rewind(fp);
	return fp;
}

/*
 * The file name under test/data, NUL-terminated in a buffer of
 * UNIT_FILE_MAX bytes (the rest zero), its length in *len; NULL when it
 * cannot be read.
 */
#define UNIT_FILE_MAX (1 << 16)
static inline char *unit_data_file(const char *name, size_t *len)
{
	char path[4096], *text;
	FILE *fp = fopen(unit_data_path(name, path, sizeof(path)), "r");

	if (!fp)
		return NULL;
	text = calloc(1, UNIT_FILE_MAX);
	if (text)
		*len = fread(text, 1, UNIT_FILE_MAX - 1, fp);
	fclose(fp);
	return text;
}

/*
 * A reader fuzzer's input i in buf, its length returned: for i <= len the
 * first i bytes of text[0..len), then text with count bytes at random
 * (seed, advanced) made random letters of alphabet.
 */
static inline size_t unit_fuzz_text(char *buf, const char *text, size_t len,
				    size_t i, int count,
				    unsigned long long *seed,
				    const char *alphabet)
{
	size_t n = strlen(alphabet);
	int k;

	memcpy(buf, text, len);
	if (i <= len)
		return i;
	for (k = 0; k < count; k++) {
		*seed = *seed * 6364136223846793005ULL + 1442695040888963407ULL;
		buf[(*seed >> 33) % len] = alphabet[(*seed >> 17) % n];
	}
	return len;
}

/*
 * One check: a reader's message err starts "fname:line: " and names what;
 * case idx is said when it does not.
 */
static inline void unit_check_error(const char *err, const char *fname,
				    unsigned line, const char *what, int idx)
{
	char want[64];

	snprintf(want, sizeof(want), "%s:%u: ", fname, line);
	if (strncmp(err, want, strlen(want)) || !strstr(err, what)) {
		fprintf(stderr, "case %d: want \"%s...%s\", got \"%s\"\n",
			idx, want, what, err);
		CHECK(0);
	} else {
		CHECK(1);
	}
}

#endif
