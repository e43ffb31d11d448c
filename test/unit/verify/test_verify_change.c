/*
 * test_verify_change.c - judging a change by the routes it touches: a
 * change that loops, that closes a dependency cycle, or that leaves a
 * connected pair without route is refused; a change DQR made after a
 * random fault is judged as the whole-fabric verifier judges the tables;
 * old and new entries that loop together are counted.
 */
#include <stdlib.h>
#include <string.h>

#include "deps/channel_list.h"
#include "fabric/topo_diff.h"
#include "recon/recon.h"
#include "routing/ref_routing.h"
#include "small_fabrics.h"
#include "unit.h"
#include "verify/verify.h"

#define N 6

/* A ring routed as a line, its channel list, and a workspace. */
struct bed {
	struct ring line;
	struct dqr_lfts *to;
	struct dqr_channel_list cl;
	struct dqr_change_check *w;
	struct dqr_entry_ref e[8];
	uint32_t ne;
};

static void bed_open(struct bed *b)
{
	const struct dqr_lfts *ts[1];

	memset(b, 0, sizeof(*b));
	REQUIRE(ring_open(&b->line, N, ring_as_line) == 0);
	ts[0] = b->line.t;
	REQUIRE(dqr_channel_list_of_tables(b->line.f, ts, 1, &b->cl, NULL,
					   NULL) == 0);
	b->to = dqr_lfts_clone(b->line.t);
	b->w = dqr_change_check_new(b->line.f);
	REQUIRE(b->to && b->w);
}

static void bed_close(struct bed *b)
{
	dqr_change_check_free(b->w);
	dqr_lfts_free(b->to);
	dqr_channel_list_free(&b->cl);
	ring_close(&b->line);
}

static void bed_set(struct bed *b, uint32_t sw, uint32_t lid, uint8_t port)
{
	dqr_lft_set(b->to, sw, lid, port);
	b->e[b->ne].sw = sw;
	b->e[b->ne++].lid = lid;
}

static void bed_judge(struct bed *b, struct dqr_change_report *r)
{
	struct dqr_change_set c = {
		.from = b->line.t, .to = b->to, .entries = b->e,
		.num_entries = b->ne, .pos = b->cl.pos,
		.num_pos = b->cl.num_vertices,
	};

	REQUIRE(dqr_verify_change(b->w, b->line.f, &c, r) == 0);
}

/* 1 when the whole verifier accepts b->to. */
static int whole_ok(const struct dqr_fabric *f, const struct dqr_lfts *t)
{
	struct dqr_verify_report v;
	int ok;

	REQUIRE(dqr_verify(f, t, &v, NULL) == 0);
	ok = dqr_verify_ok(&v, DQR_PAIRS_ALL);
	dqr_verify_report_free(&v);
	return ok;
}

static void test_no_change(void)
{
	struct dqr_change_report r;
	struct bed b;

	bed_open(&b);
	bed_judge(&b, &r);
	CHECK(r.ok);
	CHECK_EQ(r.dlids, 0);
	CHECK_EQ(r.union_loop_dlids, 0);
	bed_close(&b);
}

/*
 * Switch 2 sends LID 1 (switch 0) back up the line to 3, which sends it
 * down to 2: a loop.  The ring's wrap link is unused, so only the loop
 * and what it strands are wrong.
 */
static void test_loop_refused(void)
{
	struct dqr_change_report r;
	struct bed b;

	bed_open(&b);
	CHECK_EQ(dqr_lft_get(b.line.t, 2, 1), 2);	/* towards 1 */
	bed_set(&b, 2, 1, 1);				/* towards 3 */
	bed_judge(&b, &r);
	CHECK(!r.ok);
	CHECK_EQ(r.loop_entries, 2);
	CHECK(r.unreachable > 0);
	CHECK(r.union_loop_dlids == 1);
	CHECK(strstr(r.reason, "loop") != NULL);
	CHECK(!whole_ok(b.line.f, b.to));
	bed_close(&b);
}

/*
 * Switches 4 and 5 send LID 1 (switch 0) clockwise over the wrap link,
 * and 5 sends LID 2 (switch 1) that way too: loop free and connected,
 * but 4->5->0 and 5->0->1 join the line's own 0->1->...->4->5 into a
 * dependency cycle round the ring.
 */
static void test_cycle_refused(void)
{
	struct dqr_change_report r;
	struct bed b;

	bed_open(&b);
	CHECK_EQ(dqr_lft_get(b.line.t, 4, 1), 2);
	bed_set(&b, 4, 1, 1);
	bed_set(&b, 5, 1, 1);
	bed_set(&b, 5, 2, 1);
	bed_judge(&b, &r);
	CHECK(!r.ok);
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.unreachable, 0);
	CHECK(r.deps_down > 0);
	CHECK(strstr(r.reason, "dependency") != NULL);
	CHECK(!whole_ok(b.line.f, b.to));
	bed_close(&b);
}

/* An entry emptied: the pairs behind it are lost though cables join. */
static void test_unreachable_refused(void)
{
	struct dqr_change_report r;
	struct bed b;

	bed_open(&b);
	bed_set(&b, 3, 1, DQR_NO_PATH);
	bed_judge(&b, &r);
	CHECK(!r.ok);
	CHECK(r.unreachable >= 2);	/* switch 3 and its CA, and 4, 5 */
	CHECK_EQ(r.loop_entries, 0);
	CHECK_EQ(r.deps_down, 0);
	CHECK(!whole_ok(b.line.f, b.to));
	bed_close(&b);
}

/* A change that keeps the line: LID 1 from 0's CA port is the same. */
static void test_harmless_change(void)
{
	struct dqr_change_report r;
	struct bed b;

	bed_open(&b);
	/* rewrite an entry with its own value: judged, nothing new */
	bed_set(&b, 4, 2, dqr_lft_get(b.line.t, 4, 2));
	bed_judge(&b, &r);
	CHECK(r.ok);
	CHECK_EQ(r.entries, 1);
	CHECK(r.routes >= 2);	/* 4 and 5 upstream of it */
	CHECK(r.deps > 0);
	CHECK(whole_ok(b.line.f, b.to));
	bed_close(&b);
}

/*
 * Random single cable faults on generated fat trees, repaired by DQR:
 * the change's verdict is the whole verifier's, and the old and new
 * entries that loop together are counted.
 */
static void test_random_faults(const char *spec, enum dqr_ref_kind kind,
			       unsigned faults, unsigned *union_loops)
{
	struct dqr_reroute_opts o = { 0 };
	struct dqr_gen_place *pl = NULL;
	struct dqr_recon_result res;
	struct dqr_gen_spec gs;
	struct dqr_change_check *w;
	struct dqr_fabric *f = gen_fabric(spec, &gs, &pl);
	struct dqr_lfts *t = NULL;
	uint64_t rng = 12345;
	char err[256];
	unsigned k;

	REQUIRE(f);
	REQUIRE(dqr_ref_route(f, &gs, pl, kind, &t, err, sizeof(err)) == 0);
	w = dqr_change_check_new(f);
	REQUIRE(w);
	for (k = 0; k < faults; k++) {
		struct dqr_recon r;
		struct dqr_topo_diff d = { 0 };
		struct dqr_fabric *proj;
		struct dqr_lfts *before;
		const struct dqr_change *ch;
		struct dqr_entry_ref *e;
		struct dqr_change_report vr;
		struct dqr_change_set c;
		uint32_t port, n, i;

		REQUIRE(dqr_recon_start(&r, f, t, &o, &res) == DQR_RECON_OK);
		/* a random switch-to-switch cable */
		do {
			rng = rng * 6364136223846793005ull +
			      1442695040888963407ull;
			port = (uint32_t)((rng >> 33) % f->num_ports);
		} while (dqr_peer_switch(f, port) == DQR_NONE ||
			 !dqr_is_switch(f, f->ports[port].node));
		proj = dqr_fabric_clone(r.ref);
		before = dqr_lfts_clone(r.cur);
		REQUIRE(proj && before);
		REQUIRE(dqr_fabric_project_cut(proj, r.ref, &port, 1, &d) == 0);
		CHECK_EQ(d.num_missing_ports, 2);
		/* a failed update's change is judged too: refused by both */
		dqr_recon_update(&r, proj, &d, &o, &res);
		ch = dqr_reroute_changes(r.rr, &n);
		e = malloc(sizeof(*e) * (n + 1));
		REQUIRE(e);
		for (i = 0; i < n; i++) {
			e[i].sw = ch[i].sw;
			e[i].lid = ch[i].lid;
		}
		memset(&c, 0, sizeof(c));
		c.from = before;
		c.to = r.cur;
		c.entries = e;
		c.num_entries = n;
		c.cut = d.missing_ports;
		c.num_cut = d.num_missing_ports;
		c.pos = r.cl->pos;
		c.num_pos = r.cl->num_vertices;
		REQUIRE(dqr_verify_change(w, proj, &c, &vr) == 0);
		CHECK_EQ(vr.ok, !res.rs.failed);
		CHECK_EQ(vr.ok, whole_ok(proj, r.cur));
		CHECK(vr.entries > 0);
		*union_loops += vr.union_loop_dlids;
		free(e);
		dqr_topo_diff_release(&d);
		dqr_lfts_free(before);
		dqr_fabric_free(proj);
		dqr_recon_release(&r);
	}
	dqr_change_check_free(w);
	dqr_lfts_free(t);
	dqr_fabric_free(f);
	free(pl);
}

int main(void)
{
	unsigned loops = 0, others = 0;

	test_no_change();
	test_loop_refused();
	test_cycle_refused();
	test_unreachable_refused();
	test_harmless_change();
	test_random_faults("kary:4,3", DQR_REF_AUTO, 60, &loops);
	test_random_faults("fattree2:8", DQR_REF_AUTO, 12, &others);
	test_random_faults("fattree3:8", DQR_REF_UTURN, 12, &others);
	/*
	 * Where every leaf reaches a DLID through the same upper switch,
	 * that switch can only U-turn through a leaf whose old route comes
	 * back to it: some unions loop, and the count must see them.
	 */
	printf("kary:4,3: %u DLIDs whose old+new union loops\n", loops);
	CHECK(loops > 0);
	return unit_finish();
}
