/*
 * id_tail.c - the last record id in the tail of a record file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/id_tail.h"

/* The id at p[0, n) after prefix, or 0 when the line has none. */
static uint64_t line_id(const char *p, size_t n, int whole,
			const char *prefix)
{
	size_t k = strlen(prefix), i;
	uint64_t v = 0;

	if (n < k || memcmp(p, prefix, k))
		return 0;
	for (i = k; i < n && p[i] >= '0' && p[i] <= '9'; i++) {
		v = v * 10 + (uint64_t)(p[i] - '0');
		/* no wrap: v stays below 2^54 before each step */
		if (v > DQR_ID_TAIL_MAX)
			return 0;
	}
	if (i == k || (i == n && !whole))
		return 0;
	return v;
}

uint64_t dqr_id_tail_scan(const char *buf, size_t len, int cut,
			  const char *prefix)
{
	const char *p = buf, *end = buf + len, *nl;
	uint64_t max = 0, id;

	if (!buf)
		return 0;
	if (cut) {
		nl = memchr(p, '\n', len);
		if (!nl)
			return 0;
		p = nl + 1;
	}
	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		id = line_id(p, nl ? (size_t)(nl - p) : (size_t)(end - p),
			     nl != NULL, prefix);
		if (id > max)
			max = id;
		if (!nl)
			break;
		p = nl + 1;
	}
	return max;
}

int dqr_id_tail_read(const char *path, size_t max, char **buf, size_t *len,
		     int *cut)
{
	struct stat st;
	off_t from = 0;
	size_t want, got = 0;
	ssize_t n;
	int fd, err;

	*buf = NULL;
	*len = 0;
	*cut = 0;
	/* O_NONBLOCK: a FIFO planted in its place must not hang the SM */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 1 : -1;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		err = fstat(fd, &st) ? errno : EINVAL;
		close(fd);
		errno = err;
		return -1;
	}
	want = (uint64_t)st.st_size > max ? max : (size_t)st.st_size;
	if ((uint64_t)st.st_size > max) {
		from = st.st_size - (off_t)max;
		*cut = 1;
	}
	*buf = malloc(want + 1);
	if (!*buf) {
		close(fd);
		errno = ENOMEM;
		return -1;
	}
	/* the file may shrink meanwhile: read what is there */
	while (got < want) {
		n = pread(fd, *buf + got, want - got, from + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			err = errno;
			free(*buf);
			*buf = NULL;
			close(fd);
			errno = err;
			return -1;
		}
		if (!n)
			break;
		got += (size_t)n;
	}
	close(fd);
	(*buf)[got] = '\0';
	*len = got;
	return 0;
}
