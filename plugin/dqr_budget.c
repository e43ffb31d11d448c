/*
 * dqr_budget.c - what one DQR pass may spend inside OpenSM's sweep.
 *
 * While the plugin computes, OpenSM's sweep waits: no other switch is
 * configured, no SA record refreshed.  A fault that costs far more than
 * usual (a fabric much larger than the defaults were made for, or a
 * pathological search) must not hold it without limit; past the budget
 * the pass gives up and the fallback routes, loudly (dqr_reconfig.c).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dqr_budget.h"

/*
 * auto: a second for any fabric, and one more ms per 10^5 forwarding
 * entries (switches x LIDs), which is about ten times what the reroute,
 * plan and verifier of the worst measured fault cost (doc/scale.md).
 */
#define AUTO_MS_BASE 1000u
#define AUTO_ENTRIES_PER_MS 100000u
/*
 * auto: 256 MiB, and 4 bytes per forwarding entry (the reroute, the plan
 * and the verifier each hold a copy of the tables or less)
 */
#define AUTO_MB_BASE 256u
#define AUTO_BYTES_PER_ENTRY 4u

/*
 * The process's resident bytes, from /proc/self/statm; 0 when unknown.
 * Not the allocator's own count: mallinfo2() walks every free chunk,
 * which took 65 ms on a heap with 10^6 of them, while this costs about
 * 5 us whatever the heap.  Pages the reroute fills are resident, so the
 * growth bounds what it allocated and touched.
 */
static size_t resident_bytes(void *arg)
{
	char buf[128], *end;
	unsigned long long pages;
	ssize_t n;
	long page = sysconf(_SC_PAGESIZE);
	int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);

	(void)arg;
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0 || page <= 0)
		return 0;
	buf[n] = '\0';
	strtoull(buf, &end, 10);	/* the size; resident comes next */
	pages = strtoull(end, NULL, 10);
	return (size_t)pages * (size_t)page;
}

static uint64_t table_entries(const struct dqr_ctx *ctx)
{
	const struct dqr_fabric *f = ctx->react.recon.ref;

	return f ? (uint64_t)f->num_switches * (f->max_lid + 1) : 0;
}

void dqr_budget_start(struct dqr_ctx *ctx, double t0)
{
	struct dqr_budget *b = &ctx->budget;
	uint64_t entries = table_entries(ctx), v;

	v = ctx->react.opts.budget_ms;
	if (v == DQR_BUDGET_AUTO)
		v = AUTO_MS_BASE + entries / AUTO_ENTRIES_PER_MS;
	ctx->budget_ms = v > DQR_BUDGET_MS_MAX ? DQR_BUDGET_MS_MAX :
			 (unsigned)v;
	v = ctx->react.opts.budget_mb;
	if (v == DQR_BUDGET_AUTO)
		v = AUTO_MB_BASE + (entries * AUTO_BYTES_PER_ENTRY >> 20);
	ctx->budget_mb = v > DQR_BUDGET_MB_MAX ? DQR_BUDGET_MB_MAX :
			 (unsigned)v;

	memset(b, 0, sizeof(*b));
	b->deadline_ms = t0 + ctx->budget_ms;
	ctx->rss_at_start = resident_bytes(NULL);
	if (ctx->rss_at_start) {
		b->mem_used = resident_bytes;
		b->mem_limit = ctx->rss_at_start +
			       ((size_t)ctx->budget_mb << 20);
	}
}

void dqr_budget_fmt_over(const struct dqr_ctx *ctx, char *buf, size_t len)
{
	const struct dqr_budget *b = &ctx->budget;
	size_t now;

	if (b->over == DQR_BUDGET_MEMORY) {
		now = resident_bytes(NULL);
		snprintf(buf, len, "memory: grew %zu MiB resident, budget %u "
			 "MiB", (now > ctx->rss_at_start ?
				 now - ctx->rss_at_start : 0) >> 20,
			 ctx->budget_mb);
		return;
	}
	snprintf(buf, len, "time: %.1f ms, budget %u ms",
		 dqr_now_ms() - (b->deadline_ms - ctx->budget_ms),
		 ctx->budget_ms);
}
