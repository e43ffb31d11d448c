/*
 * timing.h - a monotonic clock for the figures the tools and the plugin
 * print.
 */
#ifndef DQR_TIMING_H
#define DQR_TIMING_H

#include <time.h>

static inline double dqr_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

#endif
