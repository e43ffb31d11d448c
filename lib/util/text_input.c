/*
 * text_input.c - line reader and strict number parsing for the readers.
 */
#define _GNU_SOURCE		/* getc_unlocked */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "util/check.h"
#include "util/mem.h"
#include "util/text_input.h"

void dqr_text_input_init(struct dqr_text_input *in, FILE *fp,
			 const char *fname)
{
	memset(in, 0, sizeof(*in));
	in->fp = fp;
	in->fname = fname ? fname : "<input>";
}

void dqr_text_input_release(struct dqr_text_input *in)
{
	free(in->line);
	in->line = NULL;
	in->cap = 0;
	in->len = 0;
}

static void verror(const char *fname, unsigned long lineno, char *err,
		   size_t errlen, const char *fmt, va_list ap)
{
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s:%lu: ", fname, lineno);
	if (n < 0 || (size_t)n >= errlen)
		return;
	vsnprintf(err + n, errlen - n, fmt, ap);
}

void dqr_text_error(const struct dqr_text_input *in, char *err,
		    size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(in->fname, in->lineno, err, errlen, fmt, ap);
	va_end(ap);
}

void dqr_text_error_at(const char *fname, unsigned long lineno, char *err,
		       size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fname, lineno, err, errlen, fmt, ap);
	va_end(ap);
}

/* Room for one more byte and the terminating NUL; -1 when out of memory. */
static int line_room(struct dqr_text_input *in, size_t n)
{
	return dqr_grow((void **)&in->line, &in->cap, (uint32_t)n + 2, 1,
			128);
}

/*
 * Byte by byte rather than getline(): getline() keeps growing its buffer
 * on input without a newline (/dev/zero, a binary dump), so a NUL byte
 * or an overlong line must stop the read where it is found.  Unlocked:
 * one reader owns its stream.
 */
int dqr_text_input_next(struct dqr_text_input *in, char *err, size_t errlen)
{
	size_t n = 0;
	int c;

	errno = 0;
	while ((c = getc_unlocked(in->fp)) != EOF && c != '\n') {
		if (c == '\0' || n >= DQR_TEXT_LINE_MAX) {
			in->lineno++;
			in->len = 0;
			dqr_text_error(in, err, errlen, c == '\0' ?
				       "NUL byte in line (binary data?)" :
				       "line longer than %d bytes",
				       DQR_TEXT_LINE_MAX);
			return -1;
		}
		if (line_room(in, n)) {
			dqr_text_error(in, err, errlen, "out of memory");
			return -1;
		}
		in->line[n++] = (char)c;
	}
	if (c == EOF && ferror(in->fp)) {
		dqr_text_error(in, err, errlen, "read error: %s",
			       strerror(errno ? errno : EIO));
		return -1;
	}
	if (c == EOF && n == 0) {
		in->len = 0;
		return 0;
	}
	if (line_room(in, n)) {
		dqr_text_error(in, err, errlen, "out of memory");
		return -1;
	}
	in->lineno++;
	if (n > 0 && in->line[n - 1] == '\r')
		n--;
	in->line[n] = '\0';
	in->len = n;
	/* memory bounded whatever the input (text_input.h) */
	DQR_CHECK(n <= DQR_TEXT_LINE_MAX);
	return 1;
}

static int digit_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

int dqr_parse_uint(const char *s, size_t len, unsigned base, uint64_t max,
		   uint64_t *val)
{
	uint64_t v = 0, lim;
	size_t i;

	if (base == 0) {
		if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
			s += 2;
			len -= 2;
			base = 16;
		} else {
			base = 10;
		}
	}
	if (len == 0 || (base != 10 && base != 16))
		return -1;
	lim = max / base;	/* one division per number, not per digit */
	for (i = 0; i < len; i++) {
		int d = digit_value(s[i]);

		if (d >= (int)base || v > lim)
			return -1;
		v *= base;
		if ((uint64_t)d > max - v)
			return -1;
		v += (uint64_t)d;
	}
	*val = v;
	return 0;
}

int dqr_parse_guid(const char *s, size_t len, int need_0x, uint64_t *guid)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		s += 2;
		len -= 2;
	} else if (need_0x) {
		return -1;
	}
	if (len > DQR_GUID_HEX_MAX)
		return -1;
	return dqr_parse_uint(s, len, 16, UINT64_MAX, guid);
}
