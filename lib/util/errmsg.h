/*
 * errmsg.h - filling the caller's error buffer, the way every lib
 * function that can refuse its input reports why.
 */
#ifndef DQR_ERRMSG_H
#define DQR_ERRMSG_H

#include <stddef.h>

/* printf into err (errlen bytes); does nothing when err is NULL. */
void dqr_set_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
