/*
 * record_read.c - records read back (record.h): parsed against a fabric,
 * every field checked with "FILE:LINE: ..." for what is wrong, and a
 * reconfiguration's records turned into a plan again.  Separate from the
 * writer, which needs none of this.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "transition/record.h"
#include "util/text_input.h"

/* how much of a bad field goes into a message */
#define SHOWN(len) ((int)((len) < 40 ? (len) : 40))

void dqr_plan_file_release(struct dqr_plan_file *pf)
{
	free(pf->fname);
	free(pf->rec);
	free(pf->ids);
	free(pf->id_of);
	memset(pf, 0, sizeof(*pf));
}

struct guid_sw {
	uint64_t guid;
	uint32_t sw;
};

static int cmp_guid(const void *pa, const void *pb)
{
	const struct guid_sw *a = pa, *b = pb;

	return a->guid < b->guid ? -1 : a->guid > b->guid;
}

static uint32_t find_switch(const struct guid_sw *idx, uint32_t n,
			    uint64_t guid)
{
	uint32_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx[mid].guid == guid)
			return idx[mid].sw;
		if (idx[mid].guid < guid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return DQR_NONE;
}

/* ids -> their index in pf->ids: open addressing, at most half full */
struct id_hash {
	uint32_t *slot;		/* index + 1, 0 when free */
	uint32_t cap;		/* a power of two */
};

static uint32_t hash_pos(uint64_t id, uint32_t cap)
{
	id *= UINT64_C(0x9e3779b97f4a7c15);
	return (uint32_t)(id >> 32) & (cap - 1);
}

/*
 * Doubles the open-addressing hash of reconfiguration ids (ids 1-based in
 * slots, 0 empty) and pf->ids with it, so that a file of many records
 * costs O(records) to index whatever ids they carry.  0, or -1 when out
 * of memory (both as they were).
 */
static int hash_grow(struct dqr_plan_file *pf, struct id_hash *h)
{
	uint32_t cap = h->cap ? h->cap * 2 : 64, i, k;
	uint32_t *slot = calloc(cap, sizeof(*slot));
	uint64_t *ids = slot ? realloc(pf->ids, sizeof(*ids) * (cap / 2)) :
			NULL;

	if (!ids) {
		free(slot);
		return -1;
	}
	pf->ids = ids;	/* room for as many ids as the hash takes */
	for (i = 0; i < pf->num_ids; i++) {
		for (k = hash_pos(pf->ids[i], cap); slot[k];
		     k = (k + 1) & (cap - 1))
			;
		slot[k] = i + 1;
	}
	free(h->slot);
	h->slot = slot;
	h->cap = cap;
	return 0;
}

/* The index of id in pf->ids, added when new; DQR_NONE when no memory. */
static uint32_t id_index(struct dqr_plan_file *pf, struct id_hash *h,
			 uint64_t id)
{
	uint32_t k;

	/* records of one reconfiguration come in runs: try the last first */
	if (pf->num_ids && pf->ids[pf->num_ids - 1] == id)
		return pf->num_ids - 1;
	if ((pf->num_ids + 1) * 2 > h->cap && hash_grow(pf, h))
		return DQR_NONE;
	for (k = hash_pos(id, h->cap); h->slot[k]; k = (k + 1) & (h->cap - 1))
		if (pf->ids[h->slot[k] - 1] == id)
			return h->slot[k] - 1;
	pf->ids[pf->num_ids] = id;
	h->slot[k] = pf->num_ids + 1;
	return pf->num_ids++;
}

static const char *const field_names[6] = {
	"reconfiguration id", "stage", "switch GUID", "DLID", "old port",
	"new port",
};

/* Parses one record line (comment already cut) into *r; -1 with err. */
/*
 * One record into r and *id; 0, 1 when it belongs to another id than
 * *only (checked for form only: its switch may be gone from f), or -1.
 */
static int parse_record(const struct dqr_fabric *f,
			const struct dqr_text_input *in,
			const struct guid_sw *idx, uint32_t nidx,
			const char *s, const uint64_t *only,
			struct dqr_plan_record *r, uint64_t *id, char *err,
			size_t errlen)
{
	const char *tok[7];
	size_t len[7];
	uint64_t v[6], max;
	unsigned k, np;
	uint32_t node;

	for (k = 0; k < 7; k++) {
		s = dqr_skip_blanks(s);
		if (!*s)
			break;
		tok[k] = s;
		len[k] = dqr_token_len(s);
		s += len[k];
	}
	if (k != 6) {
		dqr_text_error(in, err, errlen, "%s fields: expected "
			       "<reconfiguration-id> <stage> 0x<switch-guid> "
			       "<dlid> <old-port> <new-port>",
			       k < 6 ? "too few" : "too many");
		return -1;
	}
	for (k = 0; k < 6; k++) {
		const char *t = tok[k];
		size_t l = len[k];
		unsigned base = 10;

		uint64_t min = k == 1 || k == 3;

		max = k == 0 ? UINT64_MAX : k == 1 ? DQR_RECORD_STAGE_MAX :
		      k == 3 ? DQR_MAX_LID : 255;
		if (k == 2) {
			if (l < 3 || t[0] != '0' || (t[1] != 'x' &&
						     t[1] != 'X')) {
				dqr_text_error(in, err, errlen, "switch GUID "
					       "'%.*s' is not 0x<hex>",
					       SHOWN(l), t);
				return -1;
			}
			if (dqr_parse_guid(t, l, 1, &v[k])) {
				dqr_text_error(in, err, errlen, "bad switch "
					       "GUID '%.*s' (at most %d hex "
					       "digits)", SHOWN(l), t,
					       DQR_GUID_HEX_MAX);
				return -1;
			}
			continue;
		}
		if (dqr_parse_uint(t, l, base, max, &v[k]) || v[k] < min) {
			dqr_text_error(in, err, errlen, "bad %s '%.*s'%s",
				       field_names[k], SHOWN(l), t,
				       k == 1 ? " (1 .. 4294967294)" :
				       k == 3 ? " (1 .. 49151)" :
				       k >= 4 ? " (0 .. 255)" : "");
			return -1;
		}
	}
	*id = v[0];
	if (only && v[0] != *only)
		return 1;
	r->sw = find_switch(idx, nidx, v[2]);
	if (r->sw == DQR_NONE) {
		node = dqr_fabric_find_guid(f, v[2]);
		dqr_text_error(in, err, errlen, node == DQR_NONE ?
			       "no node with GUID 0x%016" PRIx64 " in the "
			       "topology" : "node GUID 0x%016" PRIx64 " is "
			       "not a switch", v[2]);
		return -1;
	}
	np = f->nodes[f->switches[r->sw]].num_ports;
	for (k = 4; k < 6; k++)
		if (v[k] > np && v[k] != DQR_NO_PATH) {
			dqr_text_error(in, err, errlen, "%s %" PRIu64 " is "
				       "beyond the %u ports of switch 0x%016"
				       PRIx64, field_names[k], v[k], np, v[2]);
			return -1;
		}
	*id = v[0];
	r->reconf_id = v[0];
	r->stage = (uint32_t)v[1];
	r->lid = (uint32_t)v[3];
	r->line = (uint32_t)in->lineno;
	r->old_port = (uint8_t)v[4];
	r->new_port = (uint8_t)v[5];
	return 0;
}

/*
 * Reads every record of a dump into pf, switches resolved by GUID against
 * f: the records of only (when not NULL) are kept, the others' ids only
 * noted, so that asking for an absent id can name the ones the file has.
 * 0, or -1 with "FILE:LINE: what" (pf released).
 */
static int parse_file(const struct dqr_fabric *f, FILE *fp,
		      const char *fname, const uint64_t *only,
		      struct dqr_plan_file *pf, char *err, size_t errlen)
{
	struct dqr_text_input in;
	struct guid_sw *idx;
	struct dqr_plan_record r;
	struct id_hash h = { NULL, 0 };
	uint32_t cap = 0, i, *io;
	uint64_t id;
	char *hash;
	const char *s;
	int ret;

	memset(pf, 0, sizeof(*pf));
	pf->f = f;
	idx = malloc(sizeof(*idx) * (f->num_switches ? f->num_switches : 1));
	pf->fname = strdup(fname);
	if (!idx || !pf->fname) {
		free(idx);
		dqr_plan_file_release(pf);
		snprintf(err, errlen, "%s: out of memory", fname);
		return -1;
	}
	for (i = 0; i < f->num_switches; i++) {
		idx[i].guid = f->nodes[f->switches[i]].guid;
		idx[i].sw = i;
	}
	qsort(idx, f->num_switches, sizeof(*idx), cmp_guid);
	dqr_text_input_init(&in, fp, fname);
	while ((ret = dqr_text_input_next(&in, err, errlen)) == 1) {
		hash = strchr(in.line, '#');
		if (hash)
			*hash = '\0';
		s = dqr_skip_blanks(in.line);
		if (!*s)
			continue;
		ret = parse_record(f, &in, idx, f->num_switches, s, only, &r,
				   &id, err, errlen);
		if (ret < 0)
			break;
		if (ret == 1) {
			/* another id's: named when the one asked for is not */
			ret = id_index(pf, &h, id) == DQR_NONE ? -1 : 1;
			if (ret < 0) {
				dqr_text_error(&in, err, errlen,
					       "out of memory");
				break;
			}
			continue;
		}
		ret = 1;
		if (pf->num == cap) {
			struct dqr_plan_record *nr;

			if (cap > UINT32_MAX / 2) {
				/* 2^31 records: 25 GB of input at least */
				dqr_text_error(&in, err, errlen,
					       "more than %u records", cap);
				ret = -1;
				break;
			}
			cap = cap ? 2 * cap : 256;
			nr = realloc(pf->rec, sizeof(*nr) * cap);
			io = realloc(pf->id_of, sizeof(*io) * cap);
			if (nr)
				pf->rec = nr;
			if (io)
				pf->id_of = io;
			if (!nr || !io) {
				dqr_text_error(&in, err, errlen,
					       "out of memory");
				ret = -1;
				break;
			}
		}
		pf->id_of[pf->num] = id_index(pf, &h, id);
		if (pf->id_of[pf->num] == DQR_NONE) {
			dqr_text_error(&in, err, errlen, "out of memory");
			ret = -1;
			break;
		}
		pf->rec[pf->num++] = r;
	}
	dqr_text_input_release(&in);
	free(idx);
	free(h.slot);
	if (ret < 0) {
		dqr_plan_file_release(pf);
		return -1;
	}
	return 0;
}

int dqr_plan_parse(const struct dqr_fabric *f, FILE *fp, const char *fname,
		   struct dqr_plan_file *pf, char *err, size_t errlen)
{
	return parse_file(f, fp, fname, NULL, pf, err, errlen);
}

int dqr_plan_read(const struct dqr_fabric *f, const char *path,
		  const uint64_t *only, struct dqr_plan_file *pf, char *err,
		  size_t errlen)
{
	FILE *fp = fopen(path, "r");
	int ret;

	if (!fp) {
		memset(pf, 0, sizeof(*pf));
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	ret = parse_file(f, fp, path, only, pf, err, errlen);
	fclose(fp);
	return ret;
}

static int cmp_entry(const void *pa, const void *pb)
{
	const struct dqr_plan_entry *a = pa, *b = pb;

	if (a->sw != b->sw)
		return a->sw < b->sw ? -1 : 1;
	if (a->lid != b->lid)
		return a->lid < b->lid ? -1 : 1;
	return a->line < b->line ? -1 : a->line > b->line;
}

/* One stage must not change an entry twice: its union would be vague. */
static int stage_twice(const struct dqr_plan_file *pf,
		       const struct dqr_plan *p, uint32_t s,
		       struct dqr_plan_entry *tmp, char *err, size_t errlen)
{
	const struct dqr_fabric *f = pf->f;
	uint32_t lo = p->stage_off[s], n = p->stage_off[s + 1] - lo, i;

	memcpy(tmp, p->entries + lo, sizeof(*tmp) * n);
	qsort(tmp, n, sizeof(*tmp), cmp_entry);
	for (i = 1; i < n; i++)
		if (tmp[i].sw == tmp[i - 1].sw &&
		    tmp[i].lid == tmp[i - 1].lid) {
			dqr_text_error_at(pf->fname, tmp[i].line, err, errlen,
					  "switch 0x%016" PRIx64 " DLID %u is "
					  "changed twice in stage %u (line %u "
					  "too)",
					  f->nodes[f->switches[tmp[i].sw]].guid,
					  tmp[i].lid, p->stage_num[s],
					  tmp[i - 1].line);
			return -1;
		}
	return 0;
}

/* "FILE: no records of reconfiguration 9 (it has 1, 2, ...)" */
static void no_such_id(const struct dqr_plan_file *pf, uint64_t id,
		       char *err, size_t errlen)
{
	size_t used;
	uint32_t i;
	int n;

	n = snprintf(err, errlen, "%s: no records of reconfiguration %"
		     PRIu64 " (it has %s", pf->fname, id,
		     pf->num_ids ? "" : "none");
	for (i = 0; n > 0 && i < pf->num_ids; i++) {
		used = strlen(err);
		if (i == 8) {
			snprintf(err + used, errlen - used, ", ...");
			break;
		}
		snprintf(err + used, errlen - used, "%s%" PRIu64,
			 i ? ", " : "", pf->ids[i]);
	}
	used = strlen(err);
	snprintf(err + used, errlen - used, ")");
}

int dqr_plan_select(const struct dqr_plan_file *pf, const uint64_t *id,
		    struct dqr_plan *p, char *err, size_t errlen)
{
	struct dqr_plan_entry *tmp = NULL;
	uint32_t i, n = 0, s, *last = NULL, prev = DQR_NONE, ns;

	for (i = 0; i < pf->num; i++)
		n += !id || pf->rec[i].reconf_id == *id;
	if (id && !n) {
		no_such_id(pf, *id, err, errlen);
		return -1;
	}
	last = malloc(sizeof(uint32_t) * (pf->num_ids ? pf->num_ids : 1));
	tmp = malloc(sizeof(*tmp) * (n ? n : 1));
	if (!last || !tmp || dqr_plan_alloc(p, n)) {
		snprintf(err, errlen, "%s: out of memory", pf->fname);
		goto fail;
	}
	for (i = 0; i < pf->num_ids; i++)
		last[i] = DQR_NONE;
	for (i = 0; i < pf->num; i++) {
		const struct dqr_plan_record *r = &pf->rec[i];
		struct dqr_plan_entry *e;
		uint32_t k = pf->id_of[i];

		if (id && r->reconf_id != *id)
			continue;
		if (prev == DQR_NONE ||
		    r->reconf_id != pf->rec[prev].reconf_id ||
		    r->stage != pf->rec[prev].stage) {
			/* a new stage: it must come after its id's last one */
			if (last[k] != DQR_NONE && r->stage <= last[k]) {
				dqr_text_error_at(pf->fname, r->line, err,
						  errlen, "stage %u of "
						  "reconfiguration %" PRIu64
						  " after its stage %u",
						  r->stage, r->reconf_id,
						  last[k]);
				goto fail;
			}
			last[k] = r->stage;
			ns = p->num_stages++;
			p->stage_off[ns + 1] = p->stage_off[ns];
			p->stage_reconf[ns] = r->reconf_id;
			p->stage_num[ns] = r->stage;
		}
		prev = i;
		e = &p->entries[p->num_entries++];
		e->sw = r->sw;
		e->lid = r->lid;
		e->line = r->line;
		e->old_port = r->old_port;
		e->new_port = r->new_port;
		p->stage_off[p->num_stages]++;
	}
	for (s = 0; s < p->num_stages; s++)
		if (stage_twice(pf, p, s, tmp, err, errlen))
			goto fail;
	dqr_plan_check(p);
	free(last);
	free(tmp);
	return 0;
fail:
	free(last);
	free(tmp);
	dqr_plan_release(p);
	return -1;
}
