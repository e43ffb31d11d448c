/*
 * lft_read.c - dump_fts / opensm-lfts.dump reader.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "io/lft_read.h"
#include "util/text_input.h"

#define SHOW 80

struct reader {
	struct dqr_text_input in;
	char *err;
	size_t errlen;

	const struct dqr_fabric *f;
	struct dqr_node_index *ix;
	struct dqr_lfts *t;
	struct dqr_lft_read_info info;

	uint32_t *section_line;	/* switch index -> its header line, 0 */
	uint32_t *seen;		/* LID -> last section listing it, 0 */
	uint32_t section;	/* 1-based number of the current section */
	uint32_t sw;		/* the current section's switch, or NONE */
	uint32_t top;		/* the top of its header's LID range */
	int skip_unknown;	/* sections of unknown switches: skip them */
	int skipping;		/* in such a section */
};

const char *dqr_lft_format_name(int format)
{
	switch (format) {
	case DQR_LFT_FORMAT_DUMP_FTS:
		return "dump_fts";
	case DQR_LFT_FORMAT_OPENSM:
		return "opensm-lfts";
	default:
		return "none";
	}
}

void dqr_lft_read_info_release(struct dqr_lft_read_info *info)
{
	if (!info)
		return;
	free(info->missing);
	info->missing = NULL;
}

static int oom(struct reader *r)
{
	dqr_text_error(&r->in, r->err, r->errlen, "out of memory");
	return -1;
}

/* Re-lays the table out with rows of width entries. */
static int resize(struct reader *r, uint32_t width)
{
	struct dqr_lfts *n = dqr_lfts_new(r->t->num_switches, width);
	uint32_t keep = width < r->t->lid_count ? width : r->t->lid_count;
	uint32_t sw;

	if (!n)
		return -1;
	for (sw = 0; sw < n->num_switches; sw++)
		memcpy(dqr_lft_row(n, sw), dqr_lft_row(r->t, sw), keep);
	dqr_lfts_free(r->t);
	r->t = n;
	return 0;
}

/* Strict "0x<hex>": both formats print LIDs and GUIDs that way. */
static int hex_token(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	if (n < 3 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X'))
		return -1;
	return dqr_parse_uint(s + 2, n - 2, 16, max, v);
}

/* "[0x0-0x6]" or "[0-6]": the range of a header, and its format. */
static const char *header_range(struct reader *r, const char *s, int *format,
				uint64_t *top)
{
	const char *dash = strchr(s, '-'), *end = strchr(s, ']');
	uint64_t start;

	if (!dash || !end || dash > end) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "malformed LID range in switch header");
		return NULL;
	}
	*format = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ?
		  DQR_LFT_FORMAT_DUMP_FTS : DQR_LFT_FORMAT_OPENSM;
	if (dqr_parse_uint(s, (size_t)(dash - s), 0, DQR_MAX_LID, &start) ||
	    dqr_parse_uint(dash + 1, (size_t)(end - dash - 1), 0, DQR_MAX_LID,
			   top) || start > *top) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad LID range [%.*s]", (int)(end - s < SHOW ?
			       end - s : SHOW), s);
		return NULL;
	}
	return end + 1;
}

/*
 * A section header, "Unicast lids [0x0-0xN] of switch ... guid G (name):":
 * the switch is found by GUID alone (its name may hold anything), and a
 * switch gets one section; with skip_unknown a GUID the topology lacks
 * skips its section instead of failing (tables read before a switch
 * failed, judged against the fabric after).
 * 0, or -1 with "FILE:LINE: what".
 */
static int parse_header(struct reader *r, const char *s)
{
	static const char of_switch[] = " of switch ";
	const struct dqr_fabric *f = r->f;
	const char *g, *e;
	uint64_t top, guid;
	uint32_t node, sw;
	size_t n;
	int format;

	s = header_range(r, s + strlen("Unicast lids ["), &format, &top);
	if (!s)
		return -1;
	if (r->info.format && r->info.format != format) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "%s header in a %s file",
			       dqr_lft_format_name(format),
			       dqr_lft_format_name(r->info.format));
		return -1;
	}
	/* the name may hold anything; the port id before it never " guid " */
	g = strncmp(s, of_switch, strlen(of_switch)) ? NULL :
	    strstr(s, " guid ");
	if (!g) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "switch header without \"of switch ... guid\"");
		return -1;
	}
	g += strlen(" guid ");
	n = dqr_token_len(g);
	if (dqr_parse_guid(g, n, 1, &guid)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad switch GUID '%.*s'",
			       (int)(n < SHOW ? n : SHOW), g);
		return -1;
	}
	e = r->in.line + r->in.len;
	while (e > g + n && dqr_is_blank(e[-1]))
		e--;
	if (g[n] != ' ' || g[n + 1] != '(' || e - (g + n) < 4 ||
	    e[-2] != ')' || e[-1] != ':') {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "switch header does not end in \" (name):\"");
		return -1;
	}

	node = dqr_node_index_guid(r->ix, guid);
	r->skipping = node == DQR_NONE && r->skip_unknown;
	if (r->skipping) {
		r->info.switches_unknown++;
		return 0;
	}
	if (node == DQR_NONE) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "switch GUID 0x%016" PRIx64
			       " is not in the topology", guid);
		return -1;
	}
	if (!dqr_is_switch(f, node)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "GUID 0x%016" PRIx64 " is %s '%.*s', not a "
			       "switch", guid, f->nodes[node].type ==
			       DQR_NODE_ROUTER ? "the router" : "the CA",
			       SHOW, dqr_node_name(f, node));
		return -1;
	}
	sw = f->nodes[node].sw_index;
	if (r->section_line[sw]) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "second table of switch '%.*s' (first at line "
			       "%" PRIu32 ")", SHOW, dqr_node_name(f, node),
			       r->section_line[sw]);
		return -1;
	}
	r->section_line[sw] = (uint32_t)r->in.lineno;
	r->sw = sw;
	r->top = (uint32_t)top;
	r->section++;
	r->info.format = format;
	r->info.switches_seen++;
	if (top > r->info.top_lid)
		r->info.top_lid = (uint32_t)top;
	return 0;
}

/*
 * One "0xLID PORT ..." entry of the current section: the LID within the
 * header's range and listed once, the port one the switch has (or 255).
 * The table widens by doubling as higher LIDs come, so a dump listing
 * them upwards costs O(entries).  0, or -1 with "FILE:LINE: what".
 */
static int parse_entry(struct reader *r, const char *s)
{
	size_t n = dqr_token_len(s);
	uint64_t lid, port;

	if (r->skipping)
		return 0;
	if (hex_token(s, n, UINT64_MAX, &lid)) {
		dqr_text_error(&r->in, r->err, r->errlen, "bad LID '%.*s'",
			       (int)(n < SHOW ? n : SHOW), s);
		return -1;
	}
	if (lid > DQR_MAX_LID) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "LID 0x%" PRIx64 " is above 0x%x", lid,
			       DQR_MAX_LID);
		return -1;
	}
	s = dqr_skip_blanks(s + n);
	n = dqr_token_len(s);
	if (dqr_parse_uint(s, n, 10, 255, &port)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad output port '%.*s'",
			       (int)(n < SHOW ? n : SHOW), s);
		return -1;
	}
	s = dqr_skip_blanks(s + n);
	/* dump_fts -n prints nothing after the port */
	if (*s && *s != ':' && *s != '#') {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "unexpected '%.*s' after the output port",
			       SHOW, s);
		return -1;
	}
	if (r->sw == DQR_NONE) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "LFT entry before any switch header");
		return -1;
	}
	if (lid > r->top) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "LID 0x%04" PRIx64 " is above the top 0x%04x "
			       "of its switch header", lid, r->top);
		return -1;
	}
	if (port > r->f->nodes[r->f->switches[r->sw]].num_ports &&
	    port != DQR_NO_PATH) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "output port %" PRIu64 " is beyond the %u "
			       "ports of switch '%.*s'", port,
			       r->f->nodes[r->f->switches[r->sw]].num_ports,
			       SHOW,
			       dqr_node_name(r->f, r->f->switches[r->sw]));
		return -1;
	}
	if (r->seen[lid] == r->section) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "LID 0x%04" PRIx64 " listed twice for switch "
			       "'%.*s'", lid, SHOW,
			       dqr_node_name(r->f, r->f->switches[r->sw]));
		return -1;
	}
	r->seen[lid] = r->section;
	if (lid >= r->t->lid_count) {
		/* double, so that a dump listing LIDs upwards costs O(n) */
		uint64_t w = (uint64_t)r->t->lid_count * 2;

		if (w < lid + 1)
			w = lid + 1;
		if (w > DQR_MAX_LID + 1)
			w = DQR_MAX_LID + 1;
		if (resize(r, (uint32_t)w))
			return oom(r);
	}
	dqr_lft_set(r->t, r->sw, (uint32_t)lid, (uint8_t)port);
	r->info.entries++;
	if (lid > r->info.max_lid_seen)
		r->info.max_lid_seen = (uint32_t)lid;
	return 0;
}

/* Whether the blank-separated words of s are exactly those of words. */
static int words_are(const char *s, const char *const *words)
{
	for (; *words; words++) {
		size_t n;

		s = dqr_skip_blanks(s);
		n = dqr_token_len(s);
		if (strlen(*words) != n || strncmp(s, *words, n))
			return 0;
		s += n;
	}
	return !*dqr_skip_blanks(s);
}

/* "6 valid lids dumped " (dump_fts) or "6 lids dumped" (OpenSM) */
static int is_trailer(const char *s)
{
	static const char *const valid[] = { "valid", "lids", "dumped", NULL };
	static const char *const all[] = { "lids", "dumped", NULL };
	size_t n = dqr_token_len(s);
	uint64_t v;

	if (dqr_parse_uint(s, n, 10, UINT64_MAX, &v))
		return 0;
	return words_are(s + n, valid) || words_are(s + n, all);
}

/*
 * Dispatches one line: an entry (nearly every line, tested first), a
 * title, trailer or blank line (skipped), a section header; a multicast
 * table or anything else is refused by name, never skipped silently.
 */
static int parse_line(struct reader *r)
{
	static const char *const title1[] = { "Lid", "Out", "Destination",
					      NULL };
	static const char *const title2[] = { "Port", "Info", NULL };
	const char *s = dqr_skip_blanks(r->in.line);

	/* entries are nearly every line: test for them first */
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return parse_entry(r, s);
	if (!*s || words_are(s, title1) || words_are(s, title2) ||
	    is_trailer(s))
		return 0;
	if (!strncmp(s, "Unicast lids [", strlen("Unicast lids [")))
		return parse_header(r, s);
	if (!strncmp(s, "Multicast mlids", strlen("Multicast mlids"))) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "multicast tables are not supported (dump "
			       "without -M)");
		return -1;
	}
	dqr_text_error(&r->in, r->err, r->errlen, "unrecognized line '%.*s'",
		       SHOW, s);
	return -1;
}

/*
 * After the last line: the table made as wide as the fabric's LIDs (or the
 * highest listed), dump_fts's lost top block noted rather than taken for
 * missing routes, and the switches without a section listed.  0, or -1.
 */
static int finish(struct reader *r)
{
	const struct dqr_fabric *f = r->f;
	struct dqr_lft_read_info *info = &r->info;
	uint32_t sw, n = 0, width, top = info->top_lid;

	if (!info->switches_seen && f->num_switches) {
		dqr_text_error_at(r->in.fname, r->in.lineno ? r->in.lineno : 1,
				  r->err, r->errlen,
				  "no unicast switch table found");
		return -1;
	}
	width = f->max_lid + 1;
	if (info->entries && info->max_lid_seen + 1 > width)
		width = info->max_lid_seen + 1;
	if (width != r->t->lid_count && resize(r, width))
		return oom(r);

	if (info->format == DQR_LFT_FORMAT_DUMP_FTS && top &&
	    top % DQR_LFT_BLOCK == 0 && !r->seen[top])
		info->quirk_missing_top_lid = top;

	info->switches_missing = f->num_switches - info->switches_seen;
	if (!info->switches_missing)
		return 0;
	info->missing = malloc(sizeof(*info->missing) *
			       info->switches_missing);
	if (!info->missing)
		return oom(r);
	for (sw = 0; sw < f->num_switches; sw++)
		if (!r->section_line[sw])
			info->missing[n++] = sw;
	return 0;
}

/*
 * The reader behind dqr_parse_lfts() and dqr_read_lfts_known() (which
 * skips unknown switches): line by line into tables of f (which must be
 * finished), everything the reader allocated released on every way out.
 * NULL with the message in err.
 */
static struct dqr_lfts *parse_lfts(const struct dqr_fabric *f, FILE *fp,
				   const char *fname,
				   struct dqr_lft_read_info *info,
				   int skip_unknown, char *err, size_t errlen)
{
	struct reader r;
	struct dqr_lfts *t = NULL;
	int rc;

	memset(&r, 0, sizeof(r));
	r.skip_unknown = skip_unknown;
	dqr_text_input_init(&r.in, fp, fname);
	r.err = err;
	r.errlen = errlen;
	r.f = f;
	r.sw = DQR_NONE;
	if (info)
		memset(info, 0, sizeof(*info));
	if (!f->finished) {
		snprintf(err, errlen, "%s: the fabric is not finished",
			 r.in.fname);
		return NULL;
	}
	r.ix = dqr_node_index_build(f);
	r.t = dqr_lfts_new(f->num_switches, f->max_lid + 1);
	r.section_line = calloc(f->num_switches ? f->num_switches : 1,
				sizeof(*r.section_line));
	r.seen = calloc(DQR_MAX_LID + 1, sizeof(*r.seen));
	if (!r.ix || !r.t || !r.section_line || !r.seen) {
		oom(&r);
		goto out;
	}
	while ((rc = dqr_text_input_next(&r.in, err, errlen)) > 0) {
		if (parse_line(&r))
			goto out;
	}
	if (rc < 0 || finish(&r))
		goto out;
	t = r.t;
	r.t = NULL;
	if (info) {
		*info = r.info;
		r.info.missing = NULL;
	}
out:
	dqr_lft_read_info_release(&r.info);
	dqr_lfts_free(r.t);
	dqr_node_index_free(r.ix);
	free(r.section_line);
	free(r.seen);
	dqr_text_input_release(&r.in);
	return t;
}

struct dqr_lfts *dqr_parse_lfts(const struct dqr_fabric *f, FILE *fp,
				const char *fname,
				struct dqr_lft_read_info *info,
				char *err, size_t errlen)
{
	return parse_lfts(f, fp, fname, info, 0, err, errlen);
}

static struct dqr_lfts *read_lfts(const struct dqr_fabric *f,
				  const char *path,
				  struct dqr_lft_read_info *info,
				  int skip_unknown, char *err, size_t errlen)
{
	struct dqr_lfts *t;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		if (info)
			memset(info, 0, sizeof(*info));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	t = parse_lfts(f, fp, path, info, skip_unknown, err, errlen);
	fclose(fp);
	return t;
}

struct dqr_lfts *dqr_read_lfts(const struct dqr_fabric *f, const char *path,
			       struct dqr_lft_read_info *info,
			       char *err, size_t errlen)
{
	return read_lfts(f, path, info, 0, err, errlen);
}

struct dqr_lfts *dqr_read_lfts_known(const struct dqr_fabric *f,
				     const char *path,
				     struct dqr_lft_read_info *info,
				     char *err, size_t errlen)
{
	return read_lfts(f, path, info, 1, err, errlen);
}
