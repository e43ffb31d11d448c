/*
 * dqr_wait.h - a lock and the condition that wakes those who wait on
 * it, for the plugin's threads and OpenSM's that hand them answers, and
 * the deadline of such a wait.  Data and inline helpers only.
 */
#ifndef DQR_WAIT_H
#define DQR_WAIT_H

#include <pthread.h>
#include <time.h>

struct dqr_wait {
	pthread_mutex_t lock;
	pthread_cond_t cond;
};

/* 0, or -1 (nothing to destroy then). */
static inline int dqr_wait_init(struct dqr_wait *w)
{
	if (pthread_mutex_init(&w->lock, NULL))
		return -1;
	if (!pthread_cond_init(&w->cond, NULL))
		return 0;
	pthread_mutex_destroy(&w->lock);
	return -1;
}

static inline void dqr_wait_destroy(struct dqr_wait *w)
{
	pthread_cond_destroy(&w->cond);
	pthread_mutex_destroy(&w->lock);
}

/* Waits (lock held) for a signal or until; 0 when signalled. */
static inline int dqr_wait_until(struct dqr_wait *w,
				 const struct timespec *until)
{
	return pthread_cond_timedwait(&w->cond, &w->lock, until);
}

/* ms from now, as dqr_wait_until() takes it. */
static inline struct timespec dqr_deadline(double ms)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	t.tv_nsec += (long)(ms * 1e6);
	t.tv_sec += t.tv_nsec / 1000000000L;
	t.tv_nsec %= 1000000000L;
	return t;
}

#endif
