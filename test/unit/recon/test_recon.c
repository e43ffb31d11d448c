/*
 * test_recon.c - the reconfiguration state machine on a ring: successive
 * failures change only what broke, recovery of one cable reroutes only
 * what is still down, recovery of all returns the original tables, a
 * cyclic start is refused with its cycle, and an update past its time or
 * memory budget stops (and one within it is not changed by it).
 */
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "fabric/topo_diff.h"
#include "recon/recon.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

#define N 8

/*
 * Projects cur onto ref and runs an update within budget b (NULL: none);
 * returns its result code.
 */
static int update_within(struct dqr_recon *r, const struct dqr_fabric *cur,
			 struct dqr_budget *b, struct dqr_recon_result *res)
{
	struct dqr_reroute_opts o = { .budget = b };
	struct dqr_topo_diff d;
	struct dqr_fabric *p = dqr_fabric_project(r->ref, cur, &d);
	int ret;

	REQUIRE(p);
	CHECK(dqr_topo_diff_degraded_only(&d));
	ret = dqr_recon_update(r, p, &d, &o, res);
	if (ret == DQR_RECON_OK) {
		struct dqr_verify_report v;
		struct dqr_cdg *g = dqr_cdg_build(p, r->cur);

		REQUIRE(g && dqr_verify(p, r->cur, &v, NULL) == 0);
		CHECK(dqr_verify_ok(&v, DQR_PAIRS_ALL));
		CHECK(dqr_cl_covers(r->cl, g));
		dqr_verify_report_free(&v);
		dqr_cdg_free(g);
	}
	dqr_topo_diff_release(&d);
	dqr_fabric_free(p);
	return ret;
}

static int update(struct dqr_recon *r, const struct dqr_fabric *cur,
		  struct dqr_recon_result *res)
{
	return update_within(r, cur, NULL, res);
}

static int same(const struct dqr_lfts *a, const struct dqr_lfts *b)
{
	return !memcmp(a->port, b->port,
		       (size_t)a->num_switches * a->lid_count);
}

static void test_fail_fail_recover(void)
{
	struct dqr_fabric *f = ring_fabric(N), *cur;
	struct dqr_lfts *t;
	struct dqr_recon r;
	struct dqr_recon_result res;
	struct dqr_reroute_opts o = { 0 };
	struct dqr_lfts *after_one;

	REQUIRE(f);
	t = ring_as_line(f, N);
	CHECK_EQ(dqr_recon_start(&r, f, t, &o, &res), DQR_RECON_OK);
	CHECK_EQ(res.rs.changed, 0);	/* nothing unrouted */
	CHECK(same(r.cur, t));

	/* first failure: the link 3-4 */
	cur = dqr_fabric_clone(f);
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 3, 1));
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK_EQ(res.ports_failed, 2);
	CHECK(res.diff.entries > 0);
	CHECK_EQ(res.diff.entries, res.rs.changed);
	CHECK(!res.from_original);
	after_one = dqr_lfts_clone(r.cur);

	/* nothing new: nothing changes */
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK_EQ(res.diff.entries, 0);

	/* the ring splits: the far side is unreachable, not failed */
	dqr_fabric_unlink_port(cur, dqr_port_index(cur, 6, 1));
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK_EQ(res.ports_failed, 2);
	CHECK(res.rs.unreachable > 0);

	/* 6-7 comes back: from the original tables, only 3-4 rerouted */
	CHECK_EQ(dqr_fabric_link(cur, 6, 1, 7, 2), 0);
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK_EQ(res.ports_recovered, 2);
	CHECK(res.from_original);
	CHECK(same(r.cur, after_one));

	/* and 3-4: the original tables exactly */
	CHECK_EQ(dqr_fabric_link(cur, 3, 1, 4, 2), 0);
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK(same(r.cur, t));
	CHECK(same(r.cur, r.orig));

	dqr_lfts_free(after_one);
	dqr_fabric_free(cur);
	dqr_recon_release(&r);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void test_cyclic_start(void)
{
	struct dqr_fabric *f = ring_fabric(5);
	struct dqr_lfts *t;
	struct dqr_recon r;
	struct dqr_recon_result res;
	struct dqr_reroute_opts o = { 0 };

	REQUIRE(f);
	t = ring_clockwise(f, 5);
	CHECK_EQ(dqr_recon_start(&r, f, t, &o, &res), DQR_RECON_CYCLIC);
	CHECK_EQ(r.cycle.len, 5);
	dqr_recon_release(&r);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

/* A heap probe: calls counted, the heap as large as *arg says. */
static unsigned probes;

static size_t fake_heap(void *arg)
{
	probes++;
	return *(size_t *)arg;
}

/* An hour to spare, and the fake heap watched against limit. */
static void heap_budget(struct dqr_budget *b, size_t *heap, size_t limit)
{
	memset(b, 0, sizeof(*b));
	b->deadline_ms = dqr_now_ms() + 3600e3;
	b->mem_used = fake_heap;
	b->mem_arg = heap;
	b->mem_limit = limit;
	probes = 0;
}

/* A recon of the ring as a line, the cable 3-4 cut in cur. */
static void start_cut(struct dqr_recon *r, struct dqr_fabric **f,
		      struct dqr_lfts **t, struct dqr_fabric **cur, unsigned n)
{
	struct dqr_recon_result res;
	struct dqr_reroute_opts o = { 0 };

	*f = ring_fabric(n);
	REQUIRE(*f);
	*t = ring_as_line(*f, n);
	REQUIRE(*t);
	CHECK_EQ(dqr_recon_start(r, *f, *t, &o, &res), DQR_RECON_OK);
	*cur = dqr_fabric_clone(*f);
	REQUIRE(*cur);
	dqr_fabric_unlink_port(*cur, dqr_port_index(*cur, 3, 1));
}

static void finish(struct dqr_recon *r, struct dqr_fabric *f,
		   struct dqr_lfts *t, struct dqr_fabric *cur)
{
	dqr_fabric_free(cur);
	dqr_recon_release(r);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
}

static void test_budget(void)
{
	struct dqr_fabric *f, *cur;
	struct dqr_lfts *t, *free_run;
	struct dqr_recon r;
	struct dqr_recon_result res;
	struct dqr_budget b;
	size_t heap = 1000;

	/* no budget: the reference answer */
	start_cut(&r, &f, &t, &cur, 64);
	CHECK_EQ(update(&r, cur, &res), DQR_RECON_OK);
	CHECK(res.rs.lids_disconnected >= 2 * DQR_BUDGET_MEM_EVERY);
	free_run = dqr_lfts_clone(r.cur);
	REQUIRE(free_run);
	finish(&r, f, t, cur);

	/* time and memory to spare: the same answer, memory looked at */
	start_cut(&r, &f, &t, &cur, 64);
	heap_budget(&b, &heap, heap);
	CHECK_EQ(update_within(&r, cur, &b, &res), DQR_RECON_OK);
	CHECK_EQ(b.over, DQR_BUDGET_OK);
	CHECK(probes >= 2);
	CHECK(same(r.cur, free_run));
	finish(&r, f, t, cur);

	/* the deadline passed: stopped before the first DLID */
	start_cut(&r, &f, &t, &cur, 64);
	memset(&b, 0, sizeof(b));
	b.deadline_ms = dqr_now_ms() - 1;
	CHECK_EQ(update_within(&r, cur, &b, &res), DQR_RECON_OVER);
	CHECK_EQ(b.over, DQR_BUDGET_TIME);
	CHECK_EQ(res.rs.lids, 0);
	finish(&r, f, t, cur);

	/* the heap past its limit: stopped at the first look */
	start_cut(&r, &f, &t, &cur, 64);
	heap_budget(&b, &heap, heap - 1);
	CHECK_EQ(update_within(&r, cur, &b, &res), DQR_RECON_OVER);
	CHECK_EQ(b.over, DQR_BUDGET_MEMORY);
	CHECK_EQ(probes, 1);
	CHECK_EQ(res.rs.lids, DQR_BUDGET_MEM_EVERY - 1);
	/* spent stays spent */
	CHECK_EQ(dqr_budget_over(&b), DQR_BUDGET_MEMORY);
	CHECK_EQ(probes, 1);
	finish(&r, f, t, cur);
	dqr_lfts_free(free_run);
}

int main(void)
{
	test_fail_fail_recover();
	test_cyclic_start();
	test_budget();
	return unit_finish();
}
