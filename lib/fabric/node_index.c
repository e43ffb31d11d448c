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

#define MIN_SLOTS 64

struct name_slot {
	uint32_t node;		/* DQR_NONE when empty */
	uint32_t hash;
	size_t off;		/* into the pool */
};

struct guid_slot {
	uint64_t guid;		/* 0 when empty: GUID 0 is not indexed */
	uint32_t node;
};

struct dqr_node_index {
	struct name_slot *names;
	uint32_t name_mask, name_count;

	struct guid_slot *guids;
	uint32_t guid_mask, guid_count;

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

static struct name_slot *alloc_name_slots(uint32_t n)
{
	struct name_slot *s = malloc(sizeof(*s) * n);
	uint32_t i;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		s[i].node = DQR_NONE;
	return s;
}

struct dqr_node_index *dqr_node_index_new(void)
{
	struct dqr_node_index *ix = calloc(1, sizeof(*ix));

	if (!ix)
		return NULL;
	ix->names = alloc_name_slots(MIN_SLOTS);
	ix->guids = calloc(MIN_SLOTS, sizeof(*ix->guids));
	if (!ix->names || !ix->guids) {
		dqr_node_index_free(ix);
		return NULL;
	}
	ix->name_mask = MIN_SLOTS - 1;
	ix->guid_mask = MIN_SLOTS - 1;
	return ix;
}

void dqr_node_index_free(struct dqr_node_index *ix)
{
	if (!ix)
		return;
	free(ix->names);
	free(ix->guids);
	free(ix->pool);
	free(ix);
}

static int grow_names(struct dqr_node_index *ix)
{
	uint32_t n = (ix->name_mask + 1) * 2, i;
	struct name_slot *s;

	if (n == 0)
		return -1;
	s = alloc_name_slots(n);
	if (!s)
		return -1;
	for (i = 0; i <= ix->name_mask; i++) {
		const struct name_slot *o = &ix->names[i];
		uint32_t j;

		if (o->node == DQR_NONE)
			continue;
		for (j = o->hash & (n - 1); s[j].node != DQR_NONE;
		     j = (j + 1) & (n - 1))
			;
		s[j] = *o;
	}
	free(ix->names);
	ix->names = s;
	ix->name_mask = n - 1;
	return 0;
}

static int grow_guids(struct dqr_node_index *ix)
{
	uint32_t n = (ix->guid_mask + 1) * 2, i;
	struct guid_slot *s;

	if (n == 0)
		return -1;
	s = calloc(n, sizeof(*s));
	if (!s)
		return -1;
	for (i = 0; i <= ix->guid_mask; i++) {
		const struct guid_slot *o = &ix->guids[i];
		uint32_t j;

		if (!o->guid)
			continue;
		for (j = hash_guid(o->guid) & (n - 1); s[j].guid;
		     j = (j + 1) & (n - 1))
			;
		s[j] = *o;
	}
	free(ix->guids);
	ix->guids = s;
	ix->guid_mask = n - 1;
	return 0;
}

static int pool_add(struct dqr_node_index *ix, const char *name, size_t *off)
{
	size_t len = strlen(name) + 1, ncap;
	char *p;

	if (ix->pool_len + len > ix->pool_cap) {
		ncap = ix->pool_cap ? ix->pool_cap : 4096;
		while (ncap < ix->pool_len + len)
			ncap *= 2;
		p = realloc(ix->pool, ncap);
		if (!p)
			return -1;
		ix->pool = p;
		ix->pool_cap = ncap;
	}
	*off = ix->pool_len;
	memcpy(ix->pool + ix->pool_len, name, len);
	ix->pool_len += len;
	return 0;
}

/* The slot holding name, or the empty slot where it would go. */
static struct name_slot *find_name(const struct dqr_node_index *ix,
				   const char *name, uint32_t h)
{
	uint32_t j;

	for (j = h & ix->name_mask; ix->names[j].node != DQR_NONE;
	     j = (j + 1) & ix->name_mask) {
		const struct name_slot *s = &ix->names[j];

		if (s->hash == h && !strcmp(ix->pool + s->off, name))
			break;
	}
	return &ix->names[j];
}

static struct guid_slot *find_guid(const struct dqr_node_index *ix,
				   uint64_t guid)
{
	uint32_t j;

	for (j = hash_guid(guid) & ix->guid_mask;
	     ix->guids[j].guid && ix->guids[j].guid != guid;
	     j = (j + 1) & ix->guid_mask)
		;
	return &ix->guids[j];
}

static int add_name(struct dqr_node_index *ix, const char *name,
		    uint32_t node)
{
	uint32_t h = hash_name(name);
	struct name_slot *s;
	size_t off;

	if ((ix->name_count + 1) * 2 > ix->name_mask + 1 && grow_names(ix))
		return -1;
	s = find_name(ix, name, h);
	if (s->node != DQR_NONE)
		return DQR_NODE_INDEX_DUP_NAME;
	if (pool_add(ix, name, &off))
		return -1;
	s->node = node;
	s->hash = h;
	s->off = off;
	ix->name_count++;
	return 0;
}

static int add_guid(struct dqr_node_index *ix, uint64_t guid, uint32_t node)
{
	struct guid_slot *s;

	if ((ix->guid_count + 1) * 2 > ix->guid_mask + 1 && grow_guids(ix))
		return -1;
	s = find_guid(ix, guid);
	if (s->guid)
		return DQR_NODE_INDEX_DUP_GUID;
	s->guid = guid;
	s->node = node;
	ix->guid_count++;
	return 0;
}

int dqr_node_index_add(struct dqr_node_index *ix, const char *name,
		       uint64_t guid, uint32_t node)
{
	int r = 0, t;

	if (node == DQR_NONE)
		return -1;
	if (name) {
		t = add_name(ix, name, node);
		if (t < 0)
			return -1;
		r |= t;
	}
	if (guid) {
		t = add_guid(ix, guid, node);
		if (t < 0)
			return -1;
		r |= t;
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
	return find_name(ix, name, hash_name(name))->node;
}

uint32_t dqr_node_index_guid(const struct dqr_node_index *ix, uint64_t guid)
{
	const struct guid_slot *s;

	if (!guid)
		return DQR_NONE;
	s = find_guid(ix, guid);
	return s->guid ? s->node : DQR_NONE;
}
