/*
 * node_index.c - open-addressing hash tables from name and GUID to node.
 *
 * Linear probing over power-of-two tables kept at most half full, so a
 * lookup touches one or two cache lines.  Names live in one pool and
 * slots hold offsets, which keeps slots small and the pool realloc-safe.
 */
#include <stdlib.h>
#include <string.h>

#include "fabric/node_index.h"
#include "util/mem.h"

#define MIN_SLOTS 64

/*
 * Both tables use one slot layout (16 bytes either way): key is the GUID,
 * or the name's offset into the pool.  node is never DQR_NONE in a used
 * slot (dqr_node_index_add refuses it), so it marks the empty ones.
 */
struct slot {
	uint32_t node;
	uint32_t hash;		/* of the key, kept for growing */
	uint64_t key;
};

struct table {
	struct slot *s;
	uint32_t mask, count;
};

struct dqr_node_index {
	struct table names, guids;
	char *pool;
	size_t pool_len, pool_cap;
};

/* FNV-1a: short keys, good enough spread for linear probing */
static uint32_t hash_name(const char *s)
{
	uint32_t h = 2166136261u;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 16777619u;
	}
	return h;
}

/* GUIDs share vendor prefixes and count up: mix all bits into the low */
static uint32_t hash_guid(uint64_t g)
{
	g ^= g >> 33;
	g *= 0xff51afd7ed558ccdULL;
	g ^= g >> 33;
	g *= 0xc4ceb9fe1a85ec53ULL;
	g ^= g >> 33;
	return (uint32_t)g;
}

static int table_init(struct table *t, uint32_t n)
{
	uint32_t i;

	t->s = malloc(sizeof(*t->s) * n);
	if (!t->s)
		return -1;
	for (i = 0; i < n; i++)
		t->s[i].node = DQR_NONE;
	t->mask = n - 1;
	t->count = 0;
	return 0;
}

struct dqr_node_index *dqr_node_index_new(void)
{
	struct dqr_node_index *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	if (table_init(&ix->names, MIN_SLOTS) ||
	    table_init(&ix->guids, MIN_SLOTS)) {
		dqr_node_index_free(ix);
		return NULL;
	}
	return ix;
}

void dqr_node_index_free(struct dqr_node_index *ix)
{
	if (!ix)
		return;
	DQR_FREE_ALL(ix->names.s, ix->guids.s, ix->pool, ix);
}

/* Twice the slots, every entry again where its hash puts it. */
static int table_grow(struct table *t)
{
	struct table n;
	uint32_t i, j;

	if (t->mask + 1 > UINT32_MAX / 2)
		return -1;
	if (table_init(&n, (t->mask + 1) * 2))
		return -1;
	for (i = 0; i <= t->mask; i++) {
		if (t->s[i].node == DQR_NONE)
			continue;
		for (j = t->s[i].hash & n.mask; n.s[j].node != DQR_NONE;
		     j = (j + 1) & n.mask)
			;
		n.s[j] = t->s[i];
	}
	n.count = t->count;
	free(t->s);
	*t = n;
	return 0;
}

/*
 * The slot holding the key, or the empty slot where it would go.  The key
 * is name when that is not NULL (names table), else guid.
 */
static struct slot *probe(const struct dqr_node_index *ix,
			  const struct table *t, uint32_t h, const char *name,
			  uint64_t guid)
{
	uint32_t j;

	for (j = h & t->mask; t->s[j].node != DQR_NONE;
	     j = (j + 1) & t->mask) {
		const struct slot *s = &t->s[j];

		if (s->hash == h && (name ? !strcmp(ix->pool + s->key, name) :
					    s->key == guid))
			break;
	}
	return &t->s[j];
}

/* 0 when added, 1 when the key is there already, -1 out of memory. */
static int put(struct dqr_node_index *ix, struct table *t, uint32_t h,
	       const char *name, uint64_t guid, uint32_t node)
{
	struct slot *s;
	size_t off;

	/* at most half full: probes stay short */
	if ((t->count + 1) * 2 > t->mask + 1 && table_grow(t))
		return -1;
	s = probe(ix, t, h, name, guid);
	if (s->node != DQR_NONE)
		return 1;
	if (name) {
		if (dqr_pool_add(&ix->pool, &ix->pool_len, &ix->pool_cap,
				 name, strlen(name), &off))
			return -1;
		guid = off;
	}
	s->node = node;
	s->hash = h;
	s->key = guid;
	t->count++;
	return 0;
}

int dqr_node_index_add(struct dqr_node_index *ix, const char *name,
		       uint64_t guid, uint32_t node)
{
	int r = 0, t;

	if (node == DQR_NONE)
		return -1;
	if (name) {
		t = put(ix, &ix->names, hash_name(name), name, 0, node);
		if (t < 0)
			return -1;
		r |= t ? DQR_NODE_INDEX_DUP_NAME : 0;
	}
	if (guid) {
		t = put(ix, &ix->guids, hash_guid(guid), NULL, guid, node);
		if (t < 0)
			return -1;
		r |= t ? DQR_NODE_INDEX_DUP_GUID : 0;
	}
	return r;
}

struct dqr_node_index *dqr_node_index_build(const struct dqr_fabric *f)
{
	struct dqr_node_index *ix = dqr_node_index_new();
	uint32_t i;

	if (!ix)
		return NULL;
	for (i = 0; i < f->num_nodes; i++) {
		if (dqr_node_index_add(ix, dqr_node_name(f, i),
				       f->nodes[i].guid, i) < 0) {
			dqr_node_index_free(ix);
			return NULL;
		}
	}
	return ix;
}

uint32_t dqr_node_index_name(const struct dqr_node_index *ix,
			     const char *name)
{
	return probe(ix, &ix->names, hash_name(name), name, 0)->node;
}

uint32_t dqr_node_index_guid(const struct dqr_node_index *ix, uint64_t guid)
{
	if (!guid)
		return DQR_NONE;
	return probe(ix, &ix->guids, hash_guid(guid), NULL, guid)->node;
}
