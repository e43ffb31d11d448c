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
 * Returns a finished fabric, or NULL with "FILE:LINE: what is wrong" in
 * err.  fname names fp in messages.
 */
struct dqr_fabric *dqr_parse_topology(FILE *fp, const char *fname,
				      char *err, size_t errlen);

/* The same for a file path. */
struct dqr_fabric *dqr_read_topology(const char *path, char *err,
				     size_t errlen);

#endif
