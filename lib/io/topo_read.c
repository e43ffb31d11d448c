/*
 * topo_read.c - ibnetdiscover / ibsim net file reader.
 *
 * Nodes are added to the fabric as their headers are read.  Port lines
 * may name nodes defined further down, so they are kept and resolved in
 * file order once the whole file is read; errors found then still name
 * the line they came from.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "io/topo_read.h"
#include "util/mem.h"
#include "util/text_input.h"

/* how much of a user string goes into a message */
#define SHOW 80

struct port_line {
	unsigned long lineno;
	size_t rid;		/* remote node id, offset into the pool */
	uint64_t rguid;		/* remote port GUID, 0 when not given */
	uint32_t node, rnode;	/* rnode is set while resolving */
	uint8_t port, rport;
};

struct node_info {
	unsigned long lineno;	/* of the header */
	size_t id;		/* offset into the pool */
};

struct reader {
	struct dqr_text_input in;
	char *err;
	size_t errlen;

	struct dqr_fabric *f;
	struct dqr_node_index *ids;	/* node id and node GUID -> node */
	struct dqr_node_index *names;	/* fabric name -> node */
	struct node_info *nodes;
	uint32_t cap_nodes;

	struct port_line *links;
	size_t num_links, cap_links;

	char *pool;
	size_t pool_len, pool_cap;

	uint32_t *lid_line;	/* LID -> line that claimed it, 0 if free */

	uint32_t cur;		/* node of the current record, or DQR_NONE */
	uint32_t last;		/* last node read, for messages */

	/* a switchguid= / caguid= / rtguid= line waiting for its header */
	unsigned long guid_line;
	const char *guid_key;
	int guid_type;
	uint64_t guid, port0_guid;
};

static int oom(struct reader *r)
{
	dqr_text_error(&r->in, r->err, r->errlen, "out of memory");
	return -1;
}

static int pool_add(struct reader *r, const char *s, size_t len, size_t *off)
{
	return dqr_pool_add(&r->pool, &r->pool_len, &r->pool_cap, s, len, off);
}

static const char *node_id(const struct reader *r, uint32_t node)
{
	return r->pool + r->nodes[node].id;
}

/*
 * Reads a quoted string at s (which must point at '"').  Returns the
 * character after the closing quote, or NULL when it is unterminated.
 */
static const char *quoted(const char *s, const char **start, size_t *len)
{
	const char *e = strchr(s + 1, '"');

	if (!e)
		return NULL;
	*start = s + 1;
	*len = (size_t)(e - s - 1);
	return e + 1;
}

/*
 * The quoted field at s (after blanks), what it is named in messages:
 * "missing quoted <what><ctx>" or "unterminated quote in <what>".
 * Returns the rest of the line, or NULL with the message in r->err.
 */
static const char *quoted_field(struct reader *r, const char *s,
				const char *what, const char *ctx,
				const char **start, size_t *len)
{
	s = dqr_skip_blanks(s);
	if (*s != '"') {
		dqr_text_error(&r->in, r->err, r->errlen, "missing quoted %s%s",
			       what, ctx);
		return NULL;
	}
	s = quoted(s, start, len);
	if (!s)
		dqr_text_error(&r->in, r->err, r->errlen,
			       "unterminated quote in %s", what);
	return s;
}

/* "[123]" at s: the number and the character after ']'. */
static const char *bracket_num(struct reader *r, const char *s,
			       const char *what, uint64_t max, uint64_t *v)
{
	const char *e = strchr(s + 1, ']');

	if (!e) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "missing ']' after %s", what);
		return NULL;
	}
	if (dqr_parse_uint(s + 1, (size_t)(e - s - 1), 10, max, v)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad %s '%.*s'", what,
			       (int)(e - s - 1 < SHOW ? e - s - 1 : SHOW),
			       s + 1);
		return NULL;
	}
	return e + 1;
}

/* ibnetdiscover -g prints "[ext N]" after port numbers: skip it. */
static const char *skip_ext(const char *s)
{
	const char *e;

	if (strncmp(s, "[ext ", 5))
		return s;
	e = strchr(s, ']');
	return e ? e + 1 : s;
}

/* "(hex)" at s, if any: a port GUID. */
static const char *paren_guid(struct reader *r, const char *s, uint64_t *g)
{
	const char *d = s + 1, *e;

	*g = 0;
	if (*s != '(')
		return s;
	e = strchr(d, ')');
	/* ibnetdiscover prints these in hex without "0x" */
	if (e && e - d > 2 && d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
		d += 2;
	if (!e || dqr_parse_guid(d, (size_t)(e - d), 0, g)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad port GUID '%.*s'", SHOW, s);
		return NULL;
	}
	return e + 1;
}

/* The number token at s, which must be one; advances *s past it. */
static int number_token(struct reader *r, const char **s, unsigned base,
			uint64_t max, const char *what, uint64_t *v)
{
	const char *t = dqr_skip_blanks(*s);
	size_t n = dqr_token_len(t);

	if (dqr_parse_uint(t, n, base, max, v)) {
		dqr_text_error(&r->in, r->err, r->errlen, "bad %s '%.*s'",
			       what, (int)(n < SHOW ? n : SHOW), t);
		return -1;
	}
	*s = t + n;
	return 0;
}

static int word_is(const char *s, size_t n, const char *w)
{
	return strlen(w) == n && !strncmp(s, w, n);
}

/*
 * Gives node's port the LIDs lid .. lid + 2^lmc - 1, refusing any the file
 * gave before with the line that did: the fabric's own check would only
 * say so at the end, without the line.  LID 0 is an unconfigured port and
 * claims nothing.  0, or -1 with "FILE:LINE: what".
 */
static int claim_lids(struct reader *r, uint32_t node, unsigned port,
		      uint64_t lid, uint64_t lmc)
{
	uint32_t l, end;

	if (lid == 0)
		return 0;	/* unassigned: an unconfigured subnet */
	if (lmc > 7 || dqr_fabric_set_lid(r->f, node, port, (unsigned)lid,
					  (unsigned)lmc)) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "invalid LID %" PRIu64 " with LMC %" PRIu64,
			       lid, lmc);
		return -1;
	}
	if (!r->lid_line) {
		r->lid_line = calloc(DQR_MAX_LID + 1, sizeof(*r->lid_line));
		if (!r->lid_line)
			return oom(r);
	}
	end = (uint32_t)lid + (1u << lmc);
	for (l = (uint32_t)lid; l < end; l++) {
		if (r->lid_line[l]) {
			dqr_text_error(&r->in, r->err, r->errlen,
				       "LID %u already used at line %" PRIu32,
				       l, r->lid_line[l]);
			return -1;
		}
	}
	for (l = (uint32_t)lid; l < end; l++)
		r->lid_line[l] = (uint32_t)r->in.lineno;
	return 0;
}

/* "lid N" and an optional "lmc M" at s. */
static int lid_lmc(struct reader *r, const char *s, uint64_t *lid,
		   uint64_t *lmc)
{
	const char *t;

	if (number_token(r, &s, 10, DQR_MAX_LID, "LID", lid))
		return -1;
	*lmc = 0;
	t = dqr_skip_blanks(s);
	if (!strncmp(t, "lmc", 3) && dqr_is_blank(t[3])) {
		s = t + 3;
		if (number_token(r, &s, 10, 255, "LMC", lmc))
			return -1;
	}
	return 0;
}

/*
 * A header comment: '# "desc" ...'.  For switches also "lid N lmc M"
 * anywhere after the description.
 */
static int header_comment(struct reader *r, const char *c, int is_switch,
			  const char **desc, size_t *desc_len,
			  uint64_t *lid, uint64_t *lmc)
{
	const char *s = dqr_skip_blanks(c), *e;

	*desc = NULL;
	*desc_len = 0;
	*lid = 0;
	*lmc = 0;
	if (*s == '"') {
		e = NULL;
		/* descriptions may hold quotes: anchor on what follows */
		if (is_switch) {
			e = strstr(s + 1, "\" base port 0");
			if (!e)
				e = strstr(s + 1, "\" enhanced port 0");
		}
		if (!e)
			e = strrchr(s + 1, '"');
		if (!e) {
			dqr_text_error(&r->in, r->err, r->errlen,
				       "unterminated quote in comment");
			return -1;
		}
		*desc = s + 1;
		*desc_len = (size_t)(e - s - 1);
		s = e + 1;
	}
	if (!is_switch)
		return 0;
	while (*(s = dqr_skip_blanks(s))) {
		size_t n = dqr_token_len(s);

		if (word_is(s, n, "lid"))
			return lid_lmc(r, s + n, lid, lmc);
		s += n;
	}
	return 0;
}

/* "S-0123456789abcdef": ibnetdiscover's id, which carries the GUID */
static int guid_id(const char *id, size_t len, uint64_t *g)
{
	if (len != 18 || id[1] != '-' ||
	    (id[0] != 'S' && id[0] != 'H' && id[0] != 'R'))
		return 0;
	return !dqr_parse_uint(id + 2, 16, 16, UINT64_MAX, g);
}

static int add_node_info(struct reader *r, uint32_t node, size_t id)
{
	if (dqr_grow((void **)&r->nodes, &r->cap_nodes, node + 1,
		     sizeof(*r->nodes), 256))
		return -1;
	r->nodes[node].lineno = r->in.lineno;
	r->nodes[node].id = id;
	return 0;
}

/* Picks a unique fabric name: the description if usable, else the id. */
static const char *pick_name(struct reader *r, const char *id,
			     const char *desc, int id_is_guid)
{
	uint32_t other;

	if (desc && *desc && id_is_guid &&
	    dqr_node_index_name(r->names, desc) == DQR_NONE)
		return desc;
	other = dqr_node_index_name(r->names, id);
	if (other != DQR_NONE) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "node id \"%.*s\" is already the name of the "
			       "node at line %lu", SHOW, id,
			       r->nodes[other].lineno);
		return NULL;
	}
	return id;
}

/*
 * A node header, "Switch|Ca|Rt N "id" # "desc" lid L lmc M": every limit
 * (ports, id and description length, nodes, ports in all) is checked
 * before anything is sized by it, a node id or GUID seen before is
 * refused with its first line, and the node is added with its name and
 * indexed by id, GUID and name for the port lines that name it.  A
 * switch's LIDs come from the header comment.  0, or -1 with the message.
 */
static int parse_header(struct reader *r, const char *s, size_t kw_len,
			enum dqr_node_type type)
{
	const char *id, *desc = NULL, *name, *kw = s;
	size_t id_len, desc_len = 0, id_off;
	uint64_t nports, guid = 0, lid = 0, lmc = 0;
	uint32_t node, other;
	char *desc_z = NULL, ctx[64];
	int id_is_guid, rc = -1;

	s += kw_len;
	if (number_token(r, &s, 10, 255, "port count", &nports))
		return -1;
	if (nports < 1 || nports > DQR_MAX_PORTS) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "port count %" PRIu64 " out of range 1..%d",
			       nports, DQR_MAX_PORTS);
		return -1;
	}
	/* kw is Switch, Ca or Rt: the context always fits */
	snprintf(ctx, sizeof(ctx), " after %.*s %" PRIu64, (int)kw_len, kw,
		 nports);
	s = quoted_field(r, s, "node id", ctx, &id, &id_len);
	if (!s)
		return -1;
	if (!id_len || id_len > DQR_TOPO_ID_MAX) {
		dqr_text_error(&r->in, r->err, r->errlen, id_len ?
			       "node id of %zu bytes, longer than %d" :
			       "empty node id", id_len, DQR_TOPO_ID_MAX);
		return -1;
	}
	s = dqr_skip_blanks(s);
	if (*s && *s != '#') {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "unexpected '%.*s' after the node id", SHOW, s);
		return -1;
	}
	if (*s == '#' &&
	    header_comment(r, s + 1, type == DQR_NODE_SWITCH, &desc,
			   &desc_len, &lid, &lmc))
		return -1;
	if (desc_len > DQR_TOPO_DESC_MAX) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "node description of %zu bytes, longer than "
			       "IB's %d", desc_len, DQR_TOPO_DESC_MAX);
		return -1;
	}
	if (r->f->num_nodes >= DQR_TOPO_NODES_MAX ||
	    r->f->num_ports + nports + 1 > DQR_TOPO_PORTS_MAX) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "more than %u %s in one fabric",
			       r->f->num_nodes >= DQR_TOPO_NODES_MAX ?
			       DQR_TOPO_NODES_MAX : DQR_TOPO_PORTS_MAX,
			       r->f->num_nodes >= DQR_TOPO_NODES_MAX ?
			       "nodes (one LID each)" : "ports");
		return -1;
	}

	if (pool_add(r, id, id_len, &id_off))
		return oom(r);
	id = r->pool + id_off;	/* now NUL-terminated */
	other = dqr_node_index_name(r->ids, id);
	if (other != DQR_NONE) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "duplicate node id \"%.*s\" (first at line %lu)",
			       SHOW, id, r->nodes[other].lineno);
		return -1;
	}

	id_is_guid = guid_id(id, id_len, &guid);
	if (r->guid_line) {
		if (r->guid_type != (int)type) {
			dqr_text_error(&r->in, r->err, r->errlen,
				       "%s= at line %lu does not fit a %.*s "
				       "header", r->guid_key, r->guid_line,
				       (int)kw_len, kw);
			return -1;
		}
		guid = r->guid;
	}
	other = dqr_node_index_guid(r->ids, guid);
	if (other != DQR_NONE) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "duplicate node GUID 0x%016" PRIx64
			       " (first at line %lu)", guid,
			       r->nodes[other].lineno);
		return -1;
	}

	if (desc) {
		desc_z = strndup(desc, desc_len);
		if (!desc_z)
			return oom(r);
	}
	name = pick_name(r, id, desc_z, id_is_guid);
	if (!name)
		goto out;
	node = dqr_fabric_add_node(r->f, type, (unsigned)nports, guid, name);
	if (node == DQR_NONE || add_node_info(r, node, id_off) ||
	    dqr_node_index_add(r->ids, id, guid, node) < 0 ||
	    dqr_node_index_add(r->names, name, 0, node) < 0) {
		oom(r);
		goto out;
	}
	if (type == DQR_NODE_SWITCH) {
		if (claim_lids(r, node, 0, lid, lmc))
			goto out;
		if (r->guid_line && r->port0_guid)
			dqr_fabric_set_port_guid(r->f, node, 0, r->port0_guid);
	}
	r->guid_line = 0;
	r->cur = node;
	r->last = node;
	rc = 0;
out:
	free(desc_z);
	return rc;
}

/* "0x" and at most 16 hex digits, or (as ibsim takes it) decimal */
static int guid_value(const char *s, size_t len, uint64_t *g)
{
	if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		return dqr_parse_guid(s, len, 1, g);
	return dqr_parse_uint(s, len, 10, UINT64_MAX, g);
}

/* switchguid=0x200000(200000), caguid=0x100006, rtguid=... */
static int parse_guid_line(struct reader *r, const char *s, size_t kw_len,
			   int type)
{
	const char *e;
	uint64_t g;

	r->guid_key = type == DQR_NODE_SWITCH ? "switchguid" :
		      type == DQR_NODE_CA ? "caguid" : "rtguid";
	s += kw_len + 1;	/* the '=' */
	for (e = s; *e && *e != '(' && !dqr_is_blank(*e) && *e != '#'; e++)
		;
	if (guid_value(s, (size_t)(e - s), &g) || !g) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "bad GUID '%.*s'", (int)(e - s < SHOW ?
			       e - s : SHOW), s);
		return -1;
	}
	r->guid = g;
	s = paren_guid(r, e, &r->port0_guid);
	if (!s)
		return -1;
	s = dqr_skip_blanks(s);
	if (*s && *s != '#') {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "unexpected '%.*s' after the GUID", SHOW, s);
		return -1;
	}
	r->guid_type = type;
	r->guid_line = r->in.lineno;
	r->cur = DQR_NONE;
	return 0;
}

/* ibsim port options after the remote port: "w=4 s=2 e=0" */
static int port_options(struct reader *r, const char **sp)
{
	const char *s = *sp;

	while (*(s = dqr_skip_blanks(s)) && *s != '#') {
		size_t n = dqr_token_len(s), k = 0;

		while (k < n && ((s[k] >= 'a' && s[k] <= 'z') ||
				 (s[k] >= 'A' && s[k] <= 'Z')))
			k++;
		if (!k || k >= n || s[k] != '=') {
			dqr_text_error(&r->in, r->err, r->errlen,
				       "unexpected '%.*s' in port line",
				       (int)(n < SHOW ? n : SHOW), s);
			return -1;
		}
		s += n;
	}
	*sp = s;
	return 0;
}

/*
 * A port line, "[p](guid) "remote id"[q](guid) # ...": the port within
 * its node, the remote id kept for resolve_links() (the remote node may
 * come later in the file), an end node's own LID from the comment.  ibsim's
 * aliases are refused rather than guessed.  0, or -1 with the message.
 */
static int parse_port_line(struct reader *r, const char *s)
{
	const struct dqr_node *n;
	struct port_line *pl;
	const char *rid;
	size_t rid_len, rid_off;
	uint64_t port, rport = 1, guid, rguid, lid, lmc;

	if (r->cur == DQR_NONE) {
		if (r->last == DQR_NONE)
			dqr_text_error(&r->in, r->err, r->errlen,
				       "port line before any node header");
		else
			dqr_text_error(&r->in, r->err, r->errlen,
				       "port line outside a node record (the "
				       "record of \"%.*s\" ended before it)",
				       SHOW, node_id(r, r->last));
		return -1;
	}
	n = &r->f->nodes[r->cur];
	s = bracket_num(r, s, "port number", 255, &port);
	if (!s)
		return -1;
	if (port < 1 || port > n->num_ports) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "port %" PRIu64 " out of range 1..%u of "
			       "\"%.*s\"", port, n->num_ports, SHOW,
			       node_id(r, r->cur));
		return -1;
	}
	s = paren_guid(r, skip_ext(s), &guid);
	if (!s)
		return -1;
	s = quoted_field(r, s, "remote node id", "", &rid, &rid_len);
	if (!s)
		return -1;
	if (!rid_len || memchr(rid, '@', rid_len)) {
		dqr_text_error(&r->in, r->err, r->errlen, rid_len ?
			       "ibsim port aliases ('@') are not supported" :
			       "empty remote node id");
		return -1;
	}
	if (rid_len > DQR_TOPO_ID_MAX) {
		dqr_text_error(&r->in, r->err, r->errlen,
			       "remote node id of %zu bytes, longer than %d",
			       rid_len, DQR_TOPO_ID_MAX);
		return -1;
	}
	/* a missing remote port means port 1, as ibsim reads it */
	if (*s == '[') {
		s = bracket_num(r, s, "remote port number", 255, &rport);
		if (!s)
			return -1;
		if (rport < 1 || rport > DQR_MAX_PORTS) {
			dqr_text_error(&r->in, r->err, r->errlen,
				       "remote port %" PRIu64 " out of range",
				       rport);
			return -1;
		}
		s = skip_ext(s);
	}
	s = paren_guid(r, dqr_skip_blanks(s), &rguid);
	if (!s || port_options(r, &s))
		return -1;

	/* a CA or router port line starts its comment with its own LID */
	if (*s == '#' && n->type != DQR_NODE_SWITCH) {
		const char *c = dqr_skip_blanks(s + 1);

		if (!strncmp(c, "lid", 3) && dqr_is_blank(c[3])) {
			if (lid_lmc(r, c + 3, &lid, &lmc) ||
			    claim_lids(r, r->cur, (unsigned)port, lid, lmc))
				return -1;
		}
	}
	if (guid)
		dqr_fabric_set_port_guid(r->f, r->cur, (unsigned)port, guid);

	if (pool_add(r, rid, rid_len, &rid_off))
		return oom(r);
	if (r->num_links == r->cap_links) {
		size_t ncap = r->cap_links ? r->cap_links * 2 : 1024;

		pl = realloc(r->links, sizeof(*pl) * ncap);
		if (!pl)
			return oom(r);
		r->links = pl;
		r->cap_links = ncap;
	}
	pl = &r->links[r->num_links++];
	pl->lineno = r->in.lineno;
	pl->rid = rid_off;
	pl->rguid = rguid;
	pl->node = r->cur;
	pl->rnode = DQR_NONE;
	pl->port = (uint8_t)port;
	pl->rport = (uint8_t)rport;
	return 0;
}

static int unsupported(struct reader *r, const char *what)
{
	dqr_text_error(&r->in, r->err, r->errlen,
		       "ibsim '%s' lines are not supported", what);
	return -1;
}

/*
 * Dispatches one line by its first word: a node header, a port line, a
 * GUID line, or a known line that carries nothing we need (skipped);
 * ibsim's include, do and aliases are refused, anything else is an error,
 * so that a reader never builds a fabric from a file it misread.  A blank
 * line ends the node's record.
 */
static int parse_line(struct reader *r)
{
	static const char *const ignored[] = {
		/* ibnetdiscover */
		"vendid", "devid", "sysimgguid",
		/* ibnetdiscover -g */
		"Chassis", "Non-Chassis", "Hostname:",
		/* ibsim link parameters and GUID bases */
		"width", "speed", "extspeed", "pdebug", "hcaguids",
		NULL
	};
	const char *s = dqr_skip_blanks(r->in.line);
	size_t n;
	int i;

	if (!*s) {
		r->cur = DQR_NONE;
		return 0;
	}
	if (*s == '#')
		return 0;
	if (*s == '[')
		return parse_port_line(r, s);
	if (*s == '@')
		return unsupported(r, "@alias");

	for (n = 0; s[n] && !dqr_is_blank(s[n]) && s[n] != '=' &&
	     s[n] != '"'; n++)
		;
	if (dqr_is_blank(s[n])) {
		if (word_is(s, n, "Switch"))
			return parse_header(r, s, n, DQR_NODE_SWITCH);
		if (word_is(s, n, "Ca") || word_is(s, n, "Hca"))
			return parse_header(r, s, n, DQR_NODE_CA);
		if (word_is(s, n, "Rt"))
			return parse_header(r, s, n, DQR_NODE_ROUTER);
	}
	if (s[n] == '=') {
		if (word_is(s, n, "switchguid"))
			return parse_guid_line(r, s, n, DQR_NODE_SWITCH);
		if (word_is(s, n, "caguid"))
			return parse_guid_line(r, s, n, DQR_NODE_CA);
		if (word_is(s, n, "rtguid") || word_is(s, n, "routerguid"))
			return parse_guid_line(r, s, n, DQR_NODE_ROUTER);
	}
	if (word_is(s, n, "include") || word_is(s, n, "do") ||
	    word_is(s, n, "module")) {
		char w[8];

		memcpy(w, s, n);
		w[n] = '\0';
		return unsupported(r, w);
	}
	for (i = 0; ignored[i]; i++) {
		if (word_is(s, n, ignored[i])) {
			r->cur = DQR_NONE;
			return 0;
		}
	}
	dqr_text_error(&r->in, r->err, r->errlen, "unrecognized line '%.*s'",
		       SHOW, s);
	return -1;
}

static void link_error(struct reader *r, const struct port_line *pl,
		       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void link_error(struct reader *r, const struct port_line *pl,
		       const char *fmt, ...)
{
	char tail[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(tail, sizeof(tail), fmt, ap);
	va_end(ap);
	dqr_text_error_at(r->in.fname, pl->lineno, r->err, r->errlen,
			  "\"%.*s\"[%u] -> \"%.*s\"[%u]: %s", SHOW,
			  node_id(r, pl->node), pl->port, SHOW,
			  r->pool + pl->rid, pl->rport, tail);
}

/* Resolves the port lines into links, in file order. */
static int resolve_links(struct reader *r)
{
	struct dqr_fabric *f = r->f;
	uint32_t *line_of;	/* global port -> its port line */
	size_t i;
	int rc = -1;

	line_of = malloc(sizeof(*line_of) * (f->num_ports ? f->num_ports : 1));
	if (!line_of)
		return oom(r);
	for (i = 0; i < f->num_ports; i++)
		line_of[i] = DQR_NONE;

	for (i = 0; i < r->num_links; i++) {
		struct port_line *pl = &r->links[i];
		uint32_t p = dqr_port_index(f, pl->node, pl->port);

		pl->rnode = dqr_node_index_name(r->ids, r->pool + pl->rid);
		if (pl->rnode == DQR_NONE) {
			link_error(r, pl, "remote node is never defined");
			goto out;
		}
		if (pl->rport > f->nodes[pl->rnode].num_ports) {
			dqr_text_error_at(r->in.fname, pl->lineno, r->err,
					  r->errlen, "remote port %u out of "
					  "range: \"%.*s\" has %u ports",
					  pl->rport, SHOW,
					  r->pool + pl->rid,
					  f->nodes[pl->rnode].num_ports);
			goto out;
		}
		if (line_of[p] != DQR_NONE) {
			link_error(r, pl, "port listed twice (first at line "
				   "%lu)", r->links[line_of[p]].lineno);
			goto out;
		}
		line_of[p] = (uint32_t)i;
	}

	for (i = 0; i < r->num_links; i++) {
		const struct port_line *pl = &r->links[i], *o;
		uint32_t rp = dqr_port_index(f, pl->rnode, pl->rport);

		if (pl->rnode == pl->node && pl->rport == pl->port) {
			link_error(r, pl, "port linked to itself");
			goto out;
		}
		if (line_of[rp] != DQR_NONE) {
			o = &r->links[line_of[rp]];
			if (o->rnode != pl->node || o->rport != pl->port) {
				link_error(r, pl, "the other end (line %lu) "
					   "links elsewhere", o->lineno);
				goto out;
			}
		}
		if (dqr_fabric_link(f, pl->node, pl->port, pl->rnode,
				    pl->rport)) {
			link_error(r, pl, "remote port is already linked "
				   "to another port");
			goto out;
		}
		if (pl->rguid && !f->ports[rp].guid)
			f->ports[rp].guid = pl->rguid;
	}
	rc = 0;
out:
	free(line_of);
	return rc;
}

/*
 * Reads the whole file, then resolves the links (both ends must agree)
 * and finishes the fabric, so that a reader hands out a finished fabric or
 * nothing (ARCHITECTURE.md, io).  0, or -1 with the message in r->err.
 */
static int read_all(struct reader *r)
{
	char msg[256];
	int rc;

	while ((rc = dqr_text_input_next(&r->in, r->err, r->errlen)) > 0) {
		if (parse_line(r))
			return -1;
	}
	if (rc < 0)
		return -1;
	if (r->guid_line) {
		dqr_text_error_at(r->in.fname, r->guid_line, r->err,
				  r->errlen, "%s= line without a node header "
				  "after it", r->guid_key);
		return -1;
	}
	if (!r->f->num_nodes) {
		dqr_text_error_at(r->in.fname, r->in.lineno ? r->in.lineno : 1,
				  r->err, r->errlen, "no node found");
		return -1;
	}
	if (resolve_links(r))
		return -1;
	if (dqr_fabric_finish(r->f, msg, sizeof(msg))) {
		snprintf(r->err, r->errlen, "%s: %s", r->in.fname, msg);
		return -1;
	}
	return 0;
}

struct dqr_fabric *dqr_parse_topology(FILE *fp, const char *fname,
				      char *err, size_t errlen)
{
	struct reader r;
	struct dqr_fabric *f = NULL;

	memset(&r, 0, sizeof(r));
	dqr_text_input_init(&r.in, fp, fname);
	r.err = err;
	r.errlen = errlen;
	r.cur = DQR_NONE;
	r.last = DQR_NONE;
	r.f = dqr_fabric_new();
	r.ids = dqr_node_index_new();
	r.names = dqr_node_index_new();
	if (!r.f || !r.ids || !r.names)
		oom(&r);
	else if (!read_all(&r))
		f = r.f;
	if (!f)
		dqr_fabric_free(r.f);
	dqr_node_index_free(r.ids);
	dqr_node_index_free(r.names);
	DQR_FREE_ALL(r.nodes, r.links, r.pool, r.lid_line);
	dqr_text_input_release(&r.in);
	return f;
}

struct dqr_fabric *dqr_read_topology(const char *path, char *err,
				     size_t errlen)
{
	struct dqr_fabric *f;
	FILE *fp = fopen(path, "r");

	if (!fp) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	f = dqr_parse_topology(fp, path, err, errlen);
	fclose(fp);
	return f;
}
