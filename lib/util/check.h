/*
 * check.h - run-time checks of the invariants lib/'s comments state.
 *
 * A comment that says "never" or "always" is a promise the next change
 * can break without a test noticing; DQR_CHECK() makes the promise fail
 * loudly where it breaks, in every build from the source tree and its
 * tests (configure's default), and costs nothing with --disable-checks,
 * as OpenSM's CL_ASSERT costs nothing outside its debug builds.  A check
 * must be cheap (O(1), or no more than the work around it) and must
 * never judge input: bad input gets an error, a broken invariant is a
 * bug of ours.
 */
#ifndef DQR_UTIL_CHECK_H
#define DQR_UTIL_CHECK_H

/* Says which invariant broke, where, and aborts. */
void dqr_check_failed(const char *what, const char *file, int line)
	__attribute__((noreturn));

#ifdef DQR_CHECKS
#define DQR_CHECK(cond) \
	((cond) ? (void)0 : dqr_check_failed(#cond, __FILE__, __LINE__))
#else
/* not evaluated, but still compiled: what only a check reads stays used */
#define DQR_CHECK(cond) ((void)sizeof(!(cond)))
#endif

#endif
