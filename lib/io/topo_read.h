/*
 * topo_read.h - reads a fabric from ibnetdiscover output or an ibsim net
 * file.
 *
 * Both formats share one grammar (ibsim reads ibnetdiscover output), so
 * one reader takes either, line by line:
 *
 *   switchguid=0x200000(200000)        node GUID (port 0 GUID) of the next
 *   caguid=0x100006 / rtguid=...       header; else the GUID comes from an
 *                                      "S-/H-/R-<16 hex>" id, else it is 0
 *   Switch 8 "id"  # "desc" base port 0 lid 1 lmc 0
 *   Ca|Hca|Rt 2 "id"  # "desc"
 *   [1](portguid)  "remote id"[2](remote portguid)  # lid 5 lmc 0 ...
 *
 * A node is named by its description when its id is an ibnetdiscover
 * GUID id and the description is not taken yet, else by its id (an ibsim
 * net file's ids are what ibsim's console commands take).  LIDs come from
 * the switch header comment and from the leading "lid N lmc M" of a CA or
 * router port line comment; LID 0 means unassigned.  A blank line ends a
 * node's record.  Every link may be listed from one or both ends; both
 * ends must agree.  ibsim's include, do, module and '@' aliases are
 * rejected.
 */
#ifndef DQR_TOPO_READ_H
#define DQR_TOPO_READ_H

#include <stddef.h>
#include <stdio.h>

#include "fabric/fabric.h"

/*
 * Limits, each checked before anything is sized by it, so that memory
 * stays bounded by the input's size whatever the file holds:
 *
 * DQR_TOPO_DESC_MAX: IB's NodeDescription is 64 bytes (IBA 14.2.5.2),
 *   and ibnetdiscover prints it as it is.
 * DQR_TOPO_ID_MAX: ibsim keeps node ids in 64 bytes and a NUL
 *   (NODEIDLEN); ibnetdiscover's "S-<16 hex>" ids are 18.
 * DQR_TOPO_NODES_MAX: every routed node needs a LID of its own, and
 *   there are 0xbfff unicast LIDs.
 * DQR_TOPO_PORTS_MAX: ports of all nodes together (a header may declare
 *   254 ports in 20 bytes of text): 2^20, four times the ports of a
 *   fabric that fills the LID space with 36-port switches and dual-port
 *   CAs, and 24 MiB of port records.
 * Port numbers are 1..DQR_MAX_PORTS (254) and within the node's count;
 * LIDs 1..DQR_MAX_LID (0 is "unassigned"), LMC 0..7; GUIDs at most 16
 * hex digits (DQR_GUID_HEX_MAX).
 */
#define DQR_TOPO_DESC_MAX 64
#define DQR_TOPO_ID_MAX 64
#define DQR_TOPO_NODES_MAX DQR_MAX_LID
#define DQR_TOPO_PORTS_MAX (1u << 20)

/*
 * Returns a finished fabric, or NULL with "FILE:LINE: what is wrong" in
 * err.  fname names fp in messages.
 */
struct dqr_fabric *dqr_parse_topology(FILE *fp, const char *fname,
				      char *err, size_t errlen);

/* The same for a file path. */
struct dqr_fabric *dqr_read_topology(const char *path, char *err,
				     size_t errlen);

#endif
