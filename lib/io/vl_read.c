/*
 * vl_read.c - SL2VL tables and path SLs (vl_read.h): dqr-check's own
 * lines and smpquery's sl2vl output.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "io/vl_read.h"
#include "util/mem.h"
#include "util/text_input.h"

/* how much of a bad token goes into a message */
#define SHOWN(n) ((int)((n) < 40 ? (n) : 40))

struct reader {
	struct dqr_text_input in;
	char *err;
	size_t errlen;
	const struct dqr_fabric *f;
	struct dqr_node_index *ix;
	struct dqr_vls *v;
	uint32_t cap_tables, cap_paths;
	uint32_t lid;		/* of the last "# SL2VL table: Lid N", or 0 */
};

void dqr_vls_release(struct dqr_vls *v)
{
	free(v->tables);
	free(v->paths);
	memset(v, 0, sizeof(*v));
}

static int fail(struct reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct reader *r, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	dqr_text_error(&r->in, r->err, r->errlen, "%s", msg);
	return -1;
}

/* The next blank-separated token of *s: its start, length in *n. */
static const char *token(const char **s, size_t *n)
{
	const char *t = dqr_skip_blanks(*s);

	*n = dqr_token_len(t);
	*s = t + *n;
	return t;
}

static int number(struct reader *r, const char **s, uint64_t min,
		  uint64_t max, const char *what, uint64_t *val)
{
	size_t n;
	const char *t = token(s, &n);

	if (!dqr_parse_uint(t, n, 10, max, val) && *val >= min)
		return 0;
	if (!n)
		return fail(r, "missing %s", what);
	return fail(r, "bad %s '%.*s' (%" PRIu64 " .. %" PRIu64 ")", what,
		    SHOWN(n), t, min, max);
}

/*
 * One SL2VL table of node (in port -> out port), keyed for the sort and
 * the bisection that look it up later, with its line for a message about
 * a duplicate.  0, or -1 when out of memory.
 */
static int add_table(struct reader *r, uint32_t node, unsigned in,
		     unsigned out, const uint8_t *vl)
{
	struct dqr_vls *v = r->v;
	struct dqr_vl_table *t;

	if (dqr_grow((void **)&v->tables, &r->cap_tables, v->num_tables + 1,
		     sizeof(*v->tables), 64)) {
		dqr_text_error(&r->in, r->err, r->errlen, "out of memory");
		return -1;
	}
	t = &v->tables[v->num_tables++];
	t->key = (uint64_t)node << 16 | in << 8 | out;
	t->line = (uint32_t)r->in.lineno;
	memcpy(t->vl, vl, DQR_VLS_NUM_SL);
	return 0;
}

/* A node GUID token of f: its node index, or DQR_NONE after a message. */
static uint32_t guid_node(struct reader *r, const char **s)
{
	size_t n;
	const char *t = token(s, &n);
	uint64_t g;
	uint32_t node;

	if (dqr_parse_guid(t, n, 1, &g)) {
		fail(r, "bad GUID '%.*s' (0x and at most 16 hex digits)",
		     SHOWN(n), t);
		return DQR_NONE;
	}
	node = dqr_node_index_guid(r->ix, g);
	if (node == DQR_NONE)
		dqr_text_error(&r->in, r->err, r->errlen, "no node with GUID "
			       "0x%016" PRIx64 " in the topology", g);
	return node;
}

/* 16 VLs as blank-separated numbers, then the end of the line. */
static int vl_list(struct reader *r, const char *s, uint8_t *vl)
{
	uint64_t x;
	unsigned i;

	for (i = 0; i < DQR_VLS_NUM_SL; i++) {
		if (number(r, &s, 0, DQR_VLS_VL_MAX, "VL", &x))
			return -1;
		vl[i] = (uint8_t)x;
	}
	s = dqr_skip_blanks(s);
	if (*s)
		return fail(r, "more than 16 VLs: '%.*s'", SHOWN(strlen(s)),
			    s);
	return 0;
}

/* sl2vl 0x<GUID> <in> <out> <16 VLs> */
static int parse_sl2vl(struct reader *r, const char *s)
{
	uint32_t node = guid_node(r, &s);
	uint8_t vl[DQR_VLS_NUM_SL];
	uint64_t in, out;
	unsigned np;

	if (node == DQR_NONE)
		return -1;
	if (!dqr_is_switch(r->f, node)) {
		dqr_text_error(&r->in, r->err, r->errlen, "sl2vl of '%.*s', "
			       "not a switch (ca_sl2vl is for CAs)", 64,
			       dqr_node_name(r->f, node));
		return -1;
	}
	np = r->f->nodes[node].num_ports;
	if (number(r, &s, 0, np, "in port", &in) ||
	    number(r, &s, 0, np, "out port", &out) || vl_list(r, s, vl))
		return -1;
	return add_table(r, node, (unsigned)in, (unsigned)out, vl);
}

/* ca_sl2vl 0x<GUID> <port> <16 VLs> */
static int parse_ca_sl2vl(struct reader *r, const char *s)
{
	uint32_t node = guid_node(r, &s);
	uint8_t vl[DQR_VLS_NUM_SL];
	uint64_t port;

	if (node == DQR_NONE)
		return -1;
	if (dqr_is_switch(r->f, node)) {
		dqr_text_error(&r->in, r->err, r->errlen, "ca_sl2vl of the "
			       "switch '%.*s' (sl2vl is for switches)", 64,
			       dqr_node_name(r->f, node));
		return -1;
	}
	if (number(r, &s, 1, r->f->nodes[node].num_ports, "port", &port) ||
	    vl_list(r, s, vl))
		return -1;
	return add_table(r, node, 0, (unsigned)port, vl);
}

/* A LID of the fabric's: 1 .. DQR_MAX_LID and owned by a port. */
static int fabric_lid(struct reader *r, const char **s, const char *what,
		      uint64_t *lid)
{
	if (number(r, s, 1, DQR_MAX_LID, what, lid))
		return -1;
	if (dqr_lid_owner(r->f, (unsigned)*lid) != DQR_NONE)
		return 0;
	dqr_text_error(&r->in, r->err, r->errlen, "%s %" PRIu64 " is no "
		       "port's LID in the topology", what, *lid);
	return -1;
}

/* path_sl <SLID> <DLID> <SL> */
static int parse_path_sl(struct reader *r, const char *s)
{
	struct dqr_vls *v = r->v;
	struct dqr_vl_path *p;
	uint64_t slid, dlid, sl;

	if (fabric_lid(r, &s, "SLID", &slid) ||
	    fabric_lid(r, &s, "DLID", &dlid) ||
	    number(r, &s, 0, DQR_VLS_NUM_SL - 1, "SL", &sl))
		return -1;
	s = dqr_skip_blanks(s);
	if (*s)
		return fail(r, "unexpected '%.*s' after the SL",
			    SHOWN(strlen(s)), s);
	if (dqr_grow((void **)&v->paths, &r->cap_paths, v->num_paths + 1,
		     sizeof(*v->paths), 64)) {
		dqr_text_error(&r->in, r->err, r->errlen, "out of memory");
		return -1;
	}
	p = &v->paths[v->num_paths++];
	p->key = (uint32_t)(slid << 16 | dlid);
	p->line = (uint32_t)r->in.lineno;
	p->sl = (uint8_t)sl;
	v->sl_mask |= 1u << sl;
	return 0;
}

/* "# SL2VL table: Lid 1": the node the "ports:" lines below are of */
static int parse_smp_header(struct reader *r, const char *s)
{
	uint64_t lid;

	s = dqr_skip_blanks(s);
	if (strncmp(s, "Lid", 3) || !dqr_is_blank(s[3]))
		return fail(r, "SL2VL table of '%.*s': only smpquery output "
			    "addressed by LID is read", SHOWN(strlen(s)), s);
	s += 3;
	if (fabric_lid(r, &s, "LID", &lid))
		return -1;
	r->lid = (uint32_t)lid;
	return 0;
}

/*
 * The number up to stop (blanks around it allowed), 0 .. max; the
 * character after stop, or NULL after a message.
 */
static const char *port_upto(struct reader *r, const char *s, char stop,
			     const char *what, unsigned max, uint64_t *v)
{
	size_t n = strcspn(s, (char[]){ stop, '\0' }), e = n;

	while (e && dqr_is_blank(s[e - 1]))
		e--;
	if (!s[n]) {
		fail(r, "expected '%c' after the %s", stop, what);
		return NULL;
	}
	if (dqr_parse_uint(s, e, 10, max, v)) {
		fail(r, "bad %s '%.*s' (0 .. %u)", what, SHOWN(e), s, max);
		return NULL;
	}
	return s + n + 1;
}

/* "ports: in  0, out  1: | 0| 1| ...|15|" */
static int parse_smp_ports(struct reader *r, const char *s)
{
	const struct dqr_fabric *f = r->f;
	uint8_t vl[DQR_VLS_NUM_SL];
	uint32_t port, node;
	uint64_t in, out, x;
	unsigned i, np;
	size_t n;

	if (!r->lid) {
		dqr_text_error(&r->in, r->err, r->errlen, "ports: line before "
			       "any \"# SL2VL table: Lid N\" line");
		return -1;
	}
	port = dqr_lid_owner(f, r->lid);
	node = f->ports[port].node;
	/* a CA or router port's one table is "in 0, out 0" */
	np = dqr_is_switch(f, node) ? f->nodes[node].num_ports : 0;
	s = dqr_skip_blanks(s);
	if (strncmp(s, "in", 2))
		return fail(r, "expected 'in' after 'ports:'");
	s = port_upto(r, dqr_skip_blanks(s + 2), ',', "in port", np, &in);
	if (!s)
		return -1;
	s = dqr_skip_blanks(s);
	if (strncmp(s, "out", 3))
		return fail(r, "expected 'out' after the in port");
	s = port_upto(r, dqr_skip_blanks(s + 3), ':', "out port", np, &out);
	if (!s)
		return -1;
	s = dqr_skip_blanks(s);
	for (i = 0; i < DQR_VLS_NUM_SL; i++) {
		if (*s != '|' || !*dqr_skip_blanks(s + 1))
			return fail(r, "expected 16 VLs as '| v| v|...|', "
				    "found %u", i);
		s = dqr_skip_blanks(s + 1);
		n = strcspn(s, "|");
		while (n && dqr_is_blank(s[n - 1]))
			n--;
		if (dqr_parse_uint(s, n, 10, DQR_VLS_VL_MAX, &x))
			return fail(r, "bad VL '%.*s' (0 .. 15)", SHOWN(n), s);
		vl[i] = (uint8_t)x;
		s = dqr_skip_blanks(s + n);
	}
	if (*s != '|' || *dqr_skip_blanks(s + 1))
		return fail(r, "expected '|' and the end of the line after "
			    "the 16th VL");
	if (!np)
		return add_table(r, node, 0, f->ports[port].num, vl);
	return add_table(r, node, (unsigned)in, (unsigned)out, vl);
}

static int word(const char *s, const char *w, const char **rest)
{
	size_t n = strlen(w);

	if (strncmp(s, w, n) || (s[n] && !dqr_is_blank(s[n])))
		return 0;
	*rest = s + n;
	return 1;
}

/*
 * Dispatches one line by its first word: our own sl2vl, ca_sl2vl and
 * path_sl lines, or smpquery's "# SL2VL table:" header and "ports:" rows;
 * comments and blank lines are skipped, anything else refused by name.
 */
static int parse_line(struct reader *r)
{
	static const char smp[] = "SL2VL table:";
	const char *s = dqr_skip_blanks(r->in.line), *rest;

	if (*s == '#') {
		s = dqr_skip_blanks(s + 1);
		if (!strncmp(s, smp, strlen(smp)))
			return parse_smp_header(r, s + strlen(smp));
		return 0;
	}
	if (!*s)
		return 0;
	if (word(s, "sl2vl", &rest))
		return parse_sl2vl(r, rest);
	if (word(s, "ca_sl2vl", &rest))
		return parse_ca_sl2vl(r, rest);
	if (word(s, "path_sl", &rest))
		return parse_path_sl(r, rest);
	if (!strncmp(s, "ports:", 6))
		return parse_smp_ports(r, s + 6);
	return fail(r, "unrecognized line '%.*s'", SHOWN(strlen(s)), s);
}

static int cmp_table(const void *pa, const void *pb)
{
	const struct dqr_vl_table *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

static int cmp_path(const void *pa, const void *pb)
{
	const struct dqr_vl_path *a = pa, *b = pb;

	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* Sorts both lists; a key listed twice is an error at its second line. */
static int finish(struct reader *r)
{
	struct dqr_vls *v = r->v;
	const char *fn = r->in.fname;
	uint32_t i;

	/* qsort() of NULL is undefined even for no elements */
	if (v->num_tables)
		qsort(v->tables, v->num_tables, sizeof(*v->tables),
		      cmp_table);
	if (v->num_paths)
		qsort(v->paths, v->num_paths, sizeof(*v->paths), cmp_path);
	for (i = 1; i < v->num_tables; i++)
		if (v->tables[i].key == v->tables[i - 1].key) {
			dqr_text_error_at(fn, v->tables[i].line, r->err,
					  r->errlen, "SL2VL table listed "
					  "twice (first at line %u)",
					  v->tables[i - 1].line);
			return -1;
		}
	for (i = 1; i < v->num_paths; i++)
		if (v->paths[i].key == v->paths[i - 1].key) {
			dqr_text_error_at(fn, v->paths[i].line, r->err,
					  r->errlen, "path SL listed twice "
					  "(first at line %u)",
					  v->paths[i - 1].line);
			return -1;
		}
	return 0;
}

int dqr_parse_vls(const struct dqr_fabric *f, FILE *fp, const char *fname,
		  struct dqr_vls *v, char *err, size_t errlen)
{
	struct reader r;
	int rc = -1;

	memset(&r, 0, sizeof(r));
	memset(v, 0, sizeof(*v));
	dqr_text_input_init(&r.in, fp, fname);
	r.err = err;
	r.errlen = errlen;
	r.f = f;
	r.v = v;
	if (!f->finished) {
		snprintf(err, errlen, "%s: the fabric is not finished",
			 r.in.fname);
		return -1;
	}
	r.ix = dqr_node_index_build(f);
	if (!r.ix) {
		snprintf(err, errlen, "%s: out of memory", r.in.fname);
		return -1;
	}
	while ((rc = dqr_text_input_next(&r.in, err, errlen)) > 0)
		if (parse_line(&r)) {
			rc = -1;
			break;
		}
	if (!rc)
		rc = finish(&r);
	dqr_node_index_free(r.ix);
	dqr_text_input_release(&r.in);
	if (rc)
		dqr_vls_release(v);
	return rc ? -1 : 0;
}

int dqr_read_vls(const struct dqr_fabric *f, const char *path,
		 struct dqr_vls *v, char *err, size_t errlen)
{
	FILE *fp = fopen(path, "r");
	int rc;

	if (!fp) {
		memset(v, 0, sizeof(*v));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	rc = dqr_parse_vls(f, fp, path, v, err, errlen);
	fclose(fp);
	return rc;
}

uint8_t dqr_vls_vl(const struct dqr_vls *v, uint32_t node, uint8_t in,
		   uint8_t out, uint8_t sl)
{
	uint64_t key = (uint64_t)node << 16 | (unsigned)in << 8 | out;
	uint32_t lo = 0, hi = v->num_tables, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v->tables[mid].key == key)
			return v->tables[mid].vl[sl & (DQR_VLS_NUM_SL - 1)];
		if (v->tables[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}

uint8_t dqr_vls_sl(const struct dqr_vls *v, uint32_t slid, uint32_t dlid)
{
	uint32_t key = slid << 16 | dlid, lo = 0, hi = v->num_paths, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (v->paths[mid].key == key)
			return v->paths[mid].sl;
		if (v->paths[mid].key < key)
			lo = mid + 1;
		else
			hi = mid;
	}
	return 0;
}
