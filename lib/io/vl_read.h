/*
 * vl_read.h - reads the SL2VL tables and path SLs a fabric runs with,
 * for judging dependencies per (channel, VL) instead of per channel.
 *
 * One file, any mix of these lines ('#' starts a comment):
 *
 *   sl2vl 0x<switch GUID> <in port> <out port> <VL of SL 0> .. <SL 15>
 *   ca_sl2vl 0x<node GUID> <port> <VL of SL 0> .. <VL of SL 15>
 *   path_sl <SLID> <DLID> <SL>
 *
 * (what dqr-check --vl-dump writes), and the output of infiniband-diags'
 * "smpquery sl2vl LID [PORT]", addressed by LID:
 *
 *   # SL2VL table: Lid 1
 *   #                 SL: | 0| 1| 2| ...|15|
 *   ports: in  0, out  1: | 0| 1| 0| ...| 0|
 *
 * where the LID names a switch (in and out are its ports) or a CA or
 * router port (in 0, out 0: the table that port injects with).  A table
 * not listed maps every SL to VL 0, a path not listed has SL 0: the
 * state of a fabric whose SM set up no VLs.
 *
 * Checked against the fabric, each a "FILE:LINE:" error: GUIDs and LIDs
 * the topology does not have, a switch table of a CA or the reverse,
 * ports beyond the node's count, VLs and SLs above 15, a LID above the
 * unicast space, a table or path listed twice.  Memory grows with the
 * lines read (at most one table or path per line), never with a number
 * read.
 */
#ifndef DQR_VL_READ_H
#define DQR_VL_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"

/* IB has 16 SLs and 4-bit VLs: data VLs 0..14, 15 the management VL */
#define DQR_VLS_NUM_SL 16
#define DQR_VLS_VL_MAX 15

struct dqr_vl_table {
	uint64_t key;		/* node << 16 | in << 8 | out */
	uint32_t line;
	uint8_t vl[DQR_VLS_NUM_SL];
};

struct dqr_vl_path {
	uint32_t key;		/* SLID << 16 | DLID */
	uint32_t line;
	uint8_t sl;
};

struct dqr_vls {
	uint32_t num_tables, num_paths;
	struct dqr_vl_table *tables;	/* sorted by key */
	struct dqr_vl_path *paths;	/* sorted by key */
	uint32_t sl_mask;		/* bit s: some path has SL s */
};

/*
 * Reads fp (named fname in messages) for the finished fabric f into *v.
 * 0, or -1 with "FILE:LINE: what is wrong" in err and *v empty.
 */
int dqr_parse_vls(const struct dqr_fabric *f, FILE *fp, const char *fname,
		  struct dqr_vls *v, char *err, size_t errlen);
int dqr_read_vls(const struct dqr_fabric *f, const char *path,
		 struct dqr_vls *v, char *err, size_t errlen);
void dqr_vls_release(struct dqr_vls *v);

/*
 * The VL of SL sl leaving node's port out after arriving on port in (0:
 * the switch itself; for a CA or router port in is 0 and out its port).
 * 0 when no table lists it.  O(log tables).
 */
uint8_t dqr_vls_vl(const struct dqr_vls *v, uint32_t node, uint8_t in,
		   uint8_t out, uint8_t sl);

/* The SL of the path from slid to dlid; 0 when not listed. */
uint8_t dqr_vls_sl(const struct dqr_vls *v, uint32_t slid, uint32_t dlid);

#endif
