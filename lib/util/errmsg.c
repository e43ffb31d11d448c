/*
 * errmsg.c - the error buffer helper.
 */
#include <stdarg.h>
#include <stdio.h>

#include "util/errmsg.h"

void dqr_set_err(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
