/*
 * verify.c - dqr-sim's independent check of a state: the tables
 * (loops, cycles, reachability) and the channel list (it must admit
 * every dependency of the new tables and of any mix with the old).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deps/cdg.h"
#include "options/options.h"
#include "verify/verify.h"
#include "dqr_sim.h"

/* fabrics with this many LIDs or more verify every 50th run by default */
#define VERIFY_ALL_BELOW 2000
#define VERIFY_DEFAULT_EVERY 50

/* The state being verified, for the messages. */
struct where {
	uint32_t run;		/* or benchmark trial */
	unsigned step;		/* fault number, from 1 */
	/*
	 * DQR_RECON_OK when the state claims every connected pair routed:
	 * the update succeeded, or the re-routing layer serves the rest
	 */
	int code;
	int two_layers;		/* the state is a re-routing layer's */
};

static void verify_complain(const struct sim *s, const char *what,
			    const struct where *w)
{
	char at[64];

	if (w->step)
		snprintf(at, sizeof(at), "%s %u, fault %u",
			 s->o->bench ? "trial" : "run", w->run, w->step);
	else
		snprintf(at, sizeof(at), "start tables");
	fprintf(stderr, PROG ": VERIFICATION FAILED (a DQR bug): %s, "
		"%s%s%s, mode %s, turns %s, bias %s, seed %" PRIu64 ", %s\n",
		s->in.name, what, w->code == DQR_RECON_OK ? "" :
		" (partial tables of an update that reported failure)",
		w->two_layers ? " (on two layers)" : "",
		dqr_mode_names[s->o->ro.mode], dqr_turns_names[s->o->ro.turns],
		bias_name(s), s->o->seed, at);
}

/*
 * Tables: loops, cycles and, when DQR claims success, reachability.  The
 * VF_ bits found, or -1 when out of memory.  *ca_lost: CA-to-CA pairs a
 * cable joins but the tables do not, what the FT paper's figure 11 counts.
 * ml: t are its tables; they are meant to be cyclic on one VL, so their
 * deadlock freedom is that of its two VLs, which ml_vls.c judged by
 * walking every route again.
 */
static int verify_tables(const struct sim *s, const struct dqr_fabric *proj,
			 const struct dqr_lfts *t, const struct dqr_ml *ml,
			 const struct where *w, uint64_t *ca_lost)
{
	struct dqr_verify_report v;
	uint64_t lost = 0;
	char what[160];
	int bad = 0, k;

	if (dqr_verify(proj, t, &v, NULL))
		return -1;
	if (ml && !ml->st.vl.deadlock_free) {
		snprintf(what, sizeof(what), "two VLs not deadlock free "
			 "(acyclic %d/%d, %" PRIu64 " VL 1 -> VL 0 "
			 "dependencies)", ml->st.vl.acyclic[0],
			 ml->st.vl.acyclic[1], ml->st.vl.edges_down);
		verify_complain(s, what, w);
		bad |= VF_CYCLE;
	} else if (!ml && v.cycle_found) {
		snprintf(what, sizeof(what), "dependency cycle of %u channels",
			 v.cycle.len);
		verify_complain(s, what, w);
		bad |= VF_CYCLE;
	}
	if (v.loop_entries) {
		snprintf(what, sizeof(what), "%" PRIu64 " entries on a "
			 "forwarding loop", v.loop_entries);
		verify_complain(s, what, w);
		bad |= VF_LOOP;
	}
	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		lost += v.unreachable[k] - v.disconnected[k];
	*ca_lost = v.unreachable[DQR_PAIR_CA_CA] -
		   v.disconnected[DQR_PAIR_CA_CA];
	/* a failed update leaves such pairs: it says so itself */
	if (w->code == DQR_RECON_OK && (lost || v.dead_port_entries)) {
		snprintf(what, sizeof(what), "%s but %" PRIu64 " connected "
			 "pairs are unreachable, %" PRIu64 " entries name a "
			 "dead port", ml ? "the re-routing layer is usable" :
			 "DQR reported success", lost, v.dead_port_entries);
		verify_complain(s, what, w);
		bad |= VF_LOST;
	}
	dqr_verify_report_free(&v);
	return bad;
}

/* The tables before the last update: cur with its change log undone. */
struct dqr_lfts *tables_before(const struct dqr_recon *r)
{
	struct dqr_lfts *t = dqr_lfts_clone(r->cur);
	const struct dqr_change *c;
	uint32_t n;

	if (!t)
		return NULL;
	c = dqr_reroute_changes(r->rr, &n);
	/* backwards, so an entry written twice gets its first value */
	while (n--)
		dqr_lft_set(t, c[n].sw, c[n].lid, c[n].old);
	return t;
}

/*
 * The channel list must admit every dependency of the new tables, and of
 * any mix of old and new entries while the switches are updated: that is
 * DQR's deadlock freedom argument, checked directly.  prev: the tables
 * before the update, NULL to take them from r's change log.  0,
 * VF_MIX_CYCLE, VF_LIST, or -1 when out of memory.
 */
static int verify_list(const struct sim *s, const struct dqr_recon *r,
		       const struct dqr_fabric *proj,
		       const struct dqr_lfts *prev, const struct where *w)
{
	struct dqr_lfts *own = prev ? NULL : tables_before(r);
	const struct dqr_lfts *both[2] = { prev ? prev : own, r->cur };
	struct dqr_cdg *g = both[0] ? dqr_cdg_build(proj, r->cur) : NULL;
	struct dqr_cdg *gt = g ? dqr_cdg_build_multi(proj, both, 2) : NULL;
	int bad = 0, ret;

	dqr_lfts_free(own);
	if (!g || !gt) {
		dqr_cdg_free(g);
		dqr_cdg_free(gt);
		return -1;
	}
	if (!dqr_cl_covers(r->cl, g)) {
		verify_complain(s, "a dependency of the new tables is not "
				"admitted by the channel list", w);
		bad = VF_LIST;
	} else if (!dqr_cl_covers(r->cl, gt)) {
		ret = dqr_channel_list_of_tables(proj, both, 2, NULL, NULL,
						 NULL);
		verify_complain(s, ret == 1 ?
				"old and new entries mixed during the update "
				"form a dependency cycle" :
				"a dependency of old and new entries mixed is "
				"not admitted by the channel list (the mix is "
				"acyclic)", w);
		bad = ret == 1 ? VF_MIX_CYCLE : VF_LIST;
	}
	dqr_cdg_free(g);
	dqr_cdg_free(gt);
	return bad;
}

/*
 * 0 holds, else the VF_ bits of what failed (reported); -1 out of
 * memory.  step 0: the start tables.  *ca_lost as verify_tables says.
 * code: DQR_RECON_OK when the state claims every connected pair.  prev
 * as verify_list says.  ml: the state is served on two layers: its
 * tables are judged, and the channel list still with the one layer r->cur
 * (what later faults repair).
 */
int verify_state(struct sim *s, const struct dqr_recon *r,
		 const struct dqr_fabric *proj,
		 const struct dqr_lfts *prev, const struct dqr_ml *ml,
		 int code, uint32_t run, unsigned step,
		 uint64_t *ca_lost)
{
	struct where w = { run, step, code, ml != NULL };
	int a, b;

	a = verify_tables(s, proj, ml ? ml->tables : r->cur, ml, &w,
			  ca_lost);
	if (a < 0)
		return -1;
	b = verify_list(s, r, proj, prev, &w);
	if (b < 0)
		return -1;
	s->states_verified++;
	if (!a && !b)
		return 0;
	s->verify_failures++;
	s->verify_failures_partial += code != DQR_RECON_OK;
	return a | b;
}

int effective_policy(const struct sim *s, unsigned *every)
{
	*every = s->o->verify_every;
	if (s->o->verify != VERIFY_DEFAULT)
		return s->o->verify;
	if (s->sc.lids < VERIFY_ALL_BELOW)
		return VERIFY_ALL;
	*every = VERIFY_DEFAULT_EVERY;
	return VERIFY_SAMPLE;
}

/* Should the state after this fault of this run be verified? */
int want_verify(const struct sim *s, uint32_t run, int last)
{
	unsigned every;

	switch (effective_policy(s, &every)) {
	case VERIFY_ALL:
		return 1;
	case VERIFY_LAST:
		return last;
	case VERIFY_SAMPLE:
		return run % every == 0;
	default:
		return 0;
	}
}

void policy_name(const struct sim *s, char *buf, size_t len)
{
	static const char *const names[] = {
		[VERIFY_ALL] = "all", [VERIFY_LAST] = "last",
		[VERIFY_NONE] = "none",
	};
	unsigned every;
	int p = effective_policy(s, &every);

	if (p == VERIFY_SAMPLE)
		snprintf(buf, len, "sample:%u", every);
	else
		snprintf(buf, len, "%s", names[p]);
}
