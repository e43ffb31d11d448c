/*
 * lft_read.h - reads every switch's linear forwarding table from a dump.
 *
 * Two formats, recognised by their section headers:
 *
 *   dump_fts / ibroute (infiniband-diags):
 *     Unicast lids [0x0-0x6] of switch Lid 1 guid 0x0000000000200000 (sw):
 *       Lid  Out   Destination
 *            Port     Info
 *     0x0001 000 : (Switch portguid 0x0000000000200000: 'sw')
 *     6 valid lids dumped
 *
 *   OpenSM's opensm-lfts.dump:
 *     Unicast lids [0-6] of switch Lid 1 guid 0x0000000000200000 ('sw'):
 *     0x0001 000 # Switch portguid 0x0000000000200000: 'sw'
 *     6 lids dumped
 *
 * Sections are matched to the fabric's switches by node GUID.  LIDs not
 * listed stay DQR_NO_PATH.  A switch without a section is not an error:
 * it is counted in the info so that a checker can report it.
 *
 * Checked against the fabric, each a "FILE:LINE:" error: a section of a
 * GUID the topology does not have (unless _known() skips it) or of a CA,
 * a second section of one switch, an output port beyond the switch's
 * port count (DQR_NO_PATH, 255, excepted), a LID above the unicast space
 * (DQR_MAX_LID) or above the top of its own section's range, and a LID
 * listed twice in one section.  A LID above the topology's highest LID
 * is kept (tables read back while a node is gone still route to it).
 * Memory: the tables are switches x (highest LID + 1) bytes, both
 * bounded (the fabric was read, the LID checked) before anything grows.
 */
#ifndef DQR_LFT_READ_H
#define DQR_LFT_READ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "fabric/fabric.h"
#include "fabric/lft.h"

enum dqr_lft_format {
	DQR_LFT_FORMAT_NONE = 0,	/* no section read */
	DQR_LFT_FORMAT_DUMP_FTS,	/* dump_fts or ibroute */
	DQR_LFT_FORMAT_OPENSM,		/* opensm-lfts.dump */
};

struct dqr_lft_read_info {
	int format;			/* enum dqr_lft_format */
	uint32_t switches_seen;		/* sections read */
	uint32_t switches_missing;	/* fabric switches without a section */
	uint32_t switches_unknown;	/* sections skipped, see _known() */
	uint32_t *missing;		/* their switch indices, ascending */
	uint64_t entries;		/* entry lines read */
	uint32_t top_lid;		/* highest top of the header ranges */
	uint32_t max_lid_seen;		/* highest LID with an entry */
	/*
	 * dump_fts 44.0 skips the LFT block that starts at LinearFDBTop
	 * when that is a multiple of 64.  When the top LID is such a
	 * multiple and no section lists it, this is that LID (else 0): its
	 * entries are unknown, not missing routes.
	 */
	uint32_t quirk_missing_top_lid;
};

/* The name of a DQR_LFT_FORMAT_*, for messages; "?" for another value. */
const char *dqr_lft_format_name(int format);

/* Frees info->missing; info may be reused afterwards. */
void dqr_lft_read_info_release(struct dqr_lft_read_info *info);

/*
 * Returns f->num_switches rows of max(f->max_lid, highest LID listed) + 1
 * entries, or NULL with "FILE:LINE: what is wrong" in err.  f must be
 * finished.  info may be NULL; when given it is filled on success (call
 * dqr_lft_read_info_release() afterwards) and zeroed on failure.
 */
struct dqr_lfts *dqr_parse_lfts(const struct dqr_fabric *f, FILE *fp,
				const char *fname,
				struct dqr_lft_read_info *info,
				char *err, size_t errlen);

/* The same for a file path. */
struct dqr_lfts *dqr_read_lfts(const struct dqr_fabric *f, const char *path,
			       struct dqr_lft_read_info *info,
			       char *err, size_t errlen);

/*
 * As dqr_read_lfts(), but the tables of switches f does not have are
 * skipped (counted in info->switches_unknown): tables read before a
 * switch failed, compared with the fabric after.
 */
struct dqr_lfts *dqr_read_lfts_known(const struct dqr_fabric *f,
				     const char *path,
				     struct dqr_lft_read_info *info,
				     char *err, size_t errlen);

#endif
