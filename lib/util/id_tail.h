/*
 * id_tail.h - the last record id in an append-only record file, so that
 * ids continue across restarts of the subnet manager instead of starting
 * at 1 again (dqr-reconfig.log, dqr-transition.dump).
 *
 * Only a bounded tail of the file is read, and whatever it holds is
 * parsed defensively: a truncated, malformed or hostile file yields no
 * id or a smaller one, never a crash or an unbounded read.
 */
#ifndef DQR_ID_TAIL_H
#define DQR_ID_TAIL_H

#include <stddef.h>
#include <stdint.h>

/* ids above this are taken for garbage: JSON readers hold 2^53 exactly */
#define DQR_ID_TAIL_MAX ((UINT64_C(1) << 53) - 1)

/*
 * The largest decimal number, at most DQR_ID_TAIL_MAX, that follows
 * prefix at the start of a line of buf[0, len) and ends at a character
 * that is not a digit (the end of buf counts as one only after a
 * newline: a line cut short may have lost digits).  With cut set, buf
 * starts in the middle of a line and its first line is skipped.  0 when
 * no line has one.  buf may hold any bytes, NULs included.
 */
uint64_t dqr_id_tail_scan(const char *buf, size_t len, int cut,
			  const char *prefix);

/*
 * Reads the last at most max bytes of the file at path into *buf
 * (malloc'ed, *len bytes) and sets *cut when the file was longer.
 * Returns 0, 1 when there is no such file (*buf NULL), or -1 with errno
 * set (not a regular file, read error, no memory).
 */
int dqr_id_tail_read(const char *path, size_t max, char **buf, size_t *len,
		     int *cut);

#endif
