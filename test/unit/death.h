/*
 * death.h - death tests: a check that stops the program can only be seen
 * stopping it from outside, so the test runs it in a child process and
 * judges how the child ended and what it said.  Apart from unit.h because
 * it brings the POSIX process headers, whose names (dup, link, ...) the
 * other tests are free to use.
 */
#ifndef DQR_DEATH_H
#define DQR_DEATH_H

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/*
 * Runs fn(arg) in a child process, its standard error in out
 * (NUL-terminated, cut at len - 1 bytes).  Returns the child's waitpid()
 * status, or -1 when no child could be made.  The child dumps no core.
 */
static inline int unit_child(void (*fn)(void *), void *arg, char *out,
			     size_t len)
{
	int fd[2], status;
	size_t n = 0;
	ssize_t r;
	char sink[256];
	pid_t pid;

	if (!len || pipe(fd))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (pid == 0) {
		struct rlimit no_core = { 0, 0 };

		setrlimit(RLIMIT_CORE, &no_core);
		close(fd[0]);
		dup2(fd[1], 2);
		close(fd[1]);
		fn(arg);
		_exit(0);
	}
	close(fd[1]);
	/* read to the end, keeping what fits: a full pipe blocks the child */
	while ((r = n + 1 < len ? read(fd[0], out + n, len - 1 - n) :
		    read(fd[0], sink, sizeof(sink))) > 0)
		if (n + 1 < len)
			n += (size_t)r;
	out[n] = '\0';
	close(fd[0]);
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return status;
}

/*
 * 1 when fn(arg) aborts (SIGABRT) and says what on standard error; else
 * 0, and how the child ended on ours.
 */
static inline int unit_dies(void (*fn)(void *), void *arg, const char *what)
{
	char out[4096];
	int status = unit_child(fn, arg, out, sizeof(out));

	if (status != -1 && WIFSIGNALED(status) &&
	    WTERMSIG(status) == SIGABRT && strstr(out, what))
		return 1;
	fprintf(stderr, "death test: want an abort saying \"%s\", got "
		"status %d and \"%s\"\n", what, status, out);
	return 0;
}

#endif
