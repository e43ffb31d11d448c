/*
 * text_input.h - the line reader and strict number parsers shared by the
 * topology and LFT readers.
 *
 * Every reader error is reported as "FILE:LINE: what is wrong" so that an
 * operator can jump straight to the offending line of a dump that may be
 * 10^5 lines long.
 */
#ifndef DQR_TEXT_INPUT_H
#define DQR_TEXT_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dqr_text_input {
	FILE *fp;
	const char *fname;	/* for messages only, not owned */
	char *line;		/* current line, without its end of line */
	size_t len;		/* strlen(line) */
	uint32_t cap;		/* bytes at line (dqr_grow) */
	unsigned long lineno;	/* 1-based number of the current line */
};

/*
 * A reader of fp (not owned; fname only names it in messages, NULL says
 * "<input>"); dqr_text_input_release() frees the line buffer, which
 * lives as long as the reader so that lines cost no allocation each.
 */
void dqr_text_input_init(struct dqr_text_input *in, FILE *fp,
			 const char *fname);
void dqr_text_input_release(struct dqr_text_input *in);

/*
 * No line of a topology, dump or record comes near this (the longest
 * real ones are ibnetdiscover port lines of ~200 bytes); /dev/zero or a
 * binary file stops here at the latest.
 */
#define DQR_TEXT_LINE_MAX 65536

/* An EUI-64 GUID: 64 bits, so at most 16 hex digits after any "0x". */
#define DQR_GUID_HEX_MAX 16

/*
 * Reads the next line and strips "\n" or "\r\n".  Returns 1 for a line,
 * 0 at end of file, -1 with a message in err on a read error, out of
 * memory, a NUL byte (binary data is never a valid line) or a line
 * longer than DQR_TEXT_LINE_MAX bytes.  Memory stays bounded by the
 * longest line, whatever the input.
 */
int dqr_text_input_next(struct dqr_text_input *in, char *err, size_t errlen);

/* Formats "FILE:LINE: message" for the current line. */
void dqr_text_error(const struct dqr_text_input *in, char *err,
		    size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* The same for an earlier line, e.g. when a link resolves at the end. */
void dqr_text_error_at(const char *fname, unsigned long lineno, char *err,
		       size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

/*
 * Parses exactly len characters of s as an unsigned number no larger than
 * max.  base is 10, 16 (no prefix) or 0 (hex after "0x" or "0X", else
 * decimal).  No sign, no blanks, no trailing junk.  Returns 0, or -1 on
 * an empty token, a bad digit or a value above max.
 */
int dqr_parse_uint(const char *s, size_t len, unsigned base, uint64_t max,
		   uint64_t *val);

/*
 * A GUID of len characters at s: hex digits, "0x" first when need_0x
 * (else optional), at most DQR_GUID_HEX_MAX digits even when they are
 * leading zeros.  0, or -1.
 */
int dqr_parse_guid(const char *s, size_t len, int need_0x, uint64_t *guid);

static inline int dqr_is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r';
}

static inline const char *dqr_skip_blanks(const char *s)
{
	while (dqr_is_blank(*s))
		s++;
	return s;
}

/* Length of the token at s: up to the next blank or end of string. */
static inline size_t dqr_token_len(const char *s)
{
	size_t n = 0;

	while (s[n] && !dqr_is_blank(s[n]))
		n++;
	return n;
}

static inline int dqr_is_hex_digit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
	       (c >= 'A' && c <= 'F');
}

#endif
