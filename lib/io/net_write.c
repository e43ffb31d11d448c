/*
 * net_write.c - writes a fabric as an ibsim net file (see net_write.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/net_write.h"

/* ibsim's first GUIDs per node type; routers start from 0 */
#define IBSIM_SWITCH_GUID 0x200000ull
#define IBSIM_CA_GUID 0x100000ull
/*
 * ibsim 0.10 parses a port line's remark as ibnetdiscover's "lid N 4xSDR"
 * and warns on every line without it; 4xSDR is its default link anyway.
 */
#define IBSIM_LINK "4xSDR"

void dqr_ibsim_needs(const struct dqr_fabric *f, struct dqr_ibsim_needs *n)
{
	uint32_t i;

	memset(n, 0, sizeof(*n));
	n->nodes = f->num_nodes;
	for (i = 0; i < f->num_nodes; i++) {
		const struct dqr_node *nd = &f->nodes[i];

		/* ibsim keeps port 0 of a switch only */
		n->ports += nd->num_ports + (nd->type == DQR_NODE_SWITCH);
		n->switches += nd->type == DQR_NODE_SWITCH;
	}
}

int dqr_ibsim_over_limits(const struct dqr_ibsim_needs *n)
{
	return n->nodes > DQR_IBSIM_MAX_NODES ||
	       n->switches > DQR_IBSIM_MAX_SWITCHES ||
	       n->ports > DQR_IBSIM_MAX_PORTS;
}

static int name_ok(const char *name)
{
	size_t len = strlen(name);
	const unsigned char *p;

	if (len < 1 || len > DQR_IBSIM_MAX_NAME)
		return 0;
	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f || *p == '"' || *p == '#' ||
		    *p == '@')
			return 0;
	return 1;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int dqr_net_check_names(const struct dqr_fabric *f, char *err,
			size_t errlen)
{
	const char **names;
	uint32_t i;
	int r = 0;

	for (i = 0; i < f->num_nodes; i++) {
		if (name_ok(dqr_node_name(f, i)))
			continue;
		snprintf(err, errlen, "node %u: name \"%s\" cannot be an ibsim "
			 "node id (1 to %d characters, no '\"', '#', '@')", i,
			 dqr_node_name(f, i), DQR_IBSIM_MAX_NAME);
		return -1;
	}
	if (f->num_nodes < 2)
		return 0;
	names = malloc(sizeof(*names) * f->num_nodes);
	if (!names) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (i = 0; i < f->num_nodes; i++)
		names[i] = dqr_node_name(f, i);
	qsort(names, f->num_nodes, sizeof(*names), cmp_str);
	for (i = 1; i < f->num_nodes; i++) {
		if (strcmp(names[i - 1], names[i]))
			continue;
		snprintf(err, errlen, "two nodes are named \"%s\"", names[i]);
		r = -1;
		break;
	}
	free(names);
	return r;
}

/* The next GUID ibsim hands out, per node type, as it reads the file. */
struct guid_track {
	uint64_t next[4];
};

static void write_guid(FILE *out, struct guid_track *t,
		       const struct dqr_node *nd)
{
	static const char *const key[4] = {
		NULL, "switchguid", "caguid", "rtguid",
	};
	uint64_t *next = &t->next[nd->type];

	if (nd->guid && nd->guid != *next) {
		fprintf(out, "%s=0x%016" PRIx64 "\n", key[nd->type], nd->guid);
		*next = nd->guid;
	}
	*next += nd->type == DQR_NODE_SWITCH ? 1 : nd->num_ports + 1u;
}

/* The LID a port answers to: port 0's for a switch. */
static unsigned remote_lid(const struct dqr_fabric *f,
			   const struct dqr_port *rp)
{
	if (dqr_is_switch(f, rp->node))
		return f->ports[f->nodes[rp->node].port_base].base_lid;
	return rp->base_lid;
}

/*
 * One node's record in ibsim's net format: its GUID line when it does not
 * follow from the last (write_guid()), its kind line, a line per cabled
 * port naming the peer by name and port, and the LIDs as comments where
 * ibsim reads them (a switch's on its kind line, an end node's on its
 * ports).  The empty line after it keeps ibsim from swallowing the next.
 */
static void write_node(const struct dqr_fabric *f, FILE *out,
		       struct guid_track *t, uint32_t n)
{
	const struct dqr_node *nd = &f->nodes[n];
	const struct dqr_port *p0 = &f->ports[nd->port_base];
	const char *name = dqr_node_name(f, n);
	unsigned p;

	write_guid(out, t, nd);
	switch (nd->type) {
	case DQR_NODE_SWITCH:
		fprintf(out, "Switch\t%u \"%s\"", nd->num_ports, name);
		if (p0->base_lid)
			fprintf(out, "\t# \"%s\" lid %u lmc %u", name,
				p0->base_lid, p0->lmc);
		break;
	case DQR_NODE_ROUTER:
		fprintf(out, "Rt\t%u \"%s\"", nd->num_ports, name);
		break;
	default:
		fprintf(out, "Hca\t%u \"%s\"", nd->num_ports, name);
		break;
	}
	fputc('\n', out);
	dqr_for_each_linked_port(f, n, p) {
		uint32_t own = dqr_port_index(f, n, p);
		const struct dqr_port *pt = &f->ports[own];
		const struct dqr_port *rp = &f->ports[dqr_peer_port(f, own)];
		const char *rname;

		rname = dqr_node_name(f, rp->node);
		fprintf(out, "[%u]\t\"%s\"[%u]\t#", p, rname, rp->num);
		/* ibsim reads a port's own LID on end nodes only */
		if (nd->type != DQR_NODE_SWITCH)
			fprintf(out, " lid %u lmc %u", pt->base_lid, pt->lmc);
		fprintf(out, " \"%s\" lid %u %s\n", rname, remote_lid(f, rp),
			IBSIM_LINK);
	}
	/* ends the record: ibsim swallows the line after a short one */
	fputc('\n', out);
}

static int has_cable(const struct dqr_fabric *f, uint32_t n)
{
	return dqr_next_linked_port(f, n, 0) != 0;
}

int dqr_write_ibsim_net(const struct dqr_fabric *f, FILE *out)
{
	struct guid_track t = {
		.next = { 0, IBSIM_SWITCH_GUID, IBSIM_CA_GUID, 0 },
	};
	uint32_t first = DQR_NONE, i;
	char err[160];

	if (dqr_net_check_names(f, err, sizeof(err))) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < f->num_nodes && first == DQR_NONE; i++)
		if (f->nodes[i].type == DQR_NODE_CA && has_cable(f, i))
			first = i;
	if (first != DQR_NONE)
		write_node(f, out, &t, first);
	for (i = 0; i < f->num_nodes; i++)
		if (i != first)
			write_node(f, out, &t, i);
	errno = 0;
	if (fflush(out) == EOF || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return 0;
}
