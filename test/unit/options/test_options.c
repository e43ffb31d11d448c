/*
 * test_options.c - event_plugin_options: the grammar, the keys, and that
 * every error names what is wrong.
 */
#include <stdio.h>
#include <string.h>

#include "options/options.h"
#include "unit.h"

static char err[512];

/* Parses s over defaults; returns the parser's result. */
static int parse(const char *s, struct dqr_options *o)
{
	dqr_options_init(o);
	err[0] = '\0';
	return dqr_options_parse(s, o, err, sizeof(err));
}

static int err_has(const char *needle)
{
	return strstr(err, needle) != NULL;
}

/* o formatted: head, then every later option at its default. */
static void check_format(const struct dqr_options *o, const char *head)
{
	char buf[512], want[512];

	snprintf(want, sizeof(want), "%s mode=end-to-end turns=each "
		 "fallback=base transition=ordered drain_ms=auto "
		 "vl_layer=on stretch=off budget_ms=auto budget_mb=auto "
		 "mesh_routing=updn layer_moves=on fast_path=on "
		 "tolerance_s=60 intermediates=0 twophase_seed=1", head);
	dqr_options_format(o, buf, sizeof(buf));
	CHECK(!strcmp(buf, want));
}

static void test_defaults(void)
{
	struct dqr_options o;

	CHECK_EQ(parse(NULL, &o), 0);
	CHECK_EQ(o.base, DQR_BASE_AUTO);
	CHECK_EQ(o.verify, 1);
	CHECK_EQ(parse("", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_AUTO);
	CHECK_EQ(parse(" \t\n ", &o), 0);
	CHECK_EQ(o.verify, 1);
	check_format(&o, "base=auto verify=on");
}

static void test_valid(void)
{
	struct dqr_options o;
	char buf[256];
	int b;

	CHECK_EQ(parse("base=updn", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_UPDN);
	CHECK_EQ(o.verify, 1);

	CHECK_EQ(parse("base=ftree verify=off", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_FTREE);
	CHECK_EQ(o.verify, 0);
	check_format(&o, "base=ftree verify=off");

	CHECK_EQ(parse("vl_layer=off", &o), 0);
	CHECK_EQ(o.vl_layer, 0);
	CHECK_EQ(parse("vl_layer=maybe", &o), -1);
	CHECK_EQ(parse("stretch=off", &o), 0);
	CHECK_EQ(o.stretch, DQR_STRETCH_OFF);
	CHECK_EQ(parse("stretch=2", &o), 0);
	CHECK_EQ(o.stretch, 2);
	CHECK_EQ(parse("stretch=5", &o), -1);
	CHECK_EQ(parse("transition=oneshot drain_ms=250", &o), 0);
	CHECK_EQ(o.transition, DQR_TRANSITION_ONESHOT);
	CHECK_EQ(o.drain_ms, 250);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(strstr(buf, "transition=oneshot drain_ms=250") != NULL);
	CHECK_EQ(parse("drain_ms=600001", &o), -1);
	CHECK_EQ(parse("drain_ms=auto", &o), 0);
	CHECK_EQ(o.drain_ms, DQR_DRAIN_AUTO);
	CHECK_EQ(parse("drain_ms=automatic", &o), -1);
	CHECK_EQ(parse("transition=staged", &o), -1);
	/* 0 ms: no time for DQR at all, every fault falls back */
	CHECK_EQ(parse("budget_ms=0 budget_mb=64", &o), 0);
	CHECK_EQ(o.budget_ms, 0);
	CHECK_EQ(o.budget_mb, 64);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(strstr(buf, "budget_ms=0 budget_mb=64") != NULL);
	CHECK_EQ(parse("budget_mb=0", &o), -1);
	CHECK_EQ(parse("budget_ms=600001", &o), -1);
	CHECK_EQ(parse("budget_ms=-1", &o), -1);
	CHECK_EQ(parse("budget_ms=auto budget_mb=auto", &o), 0);
	CHECK_EQ(o.budget_ms, DQR_BUDGET_AUTO);
	CHECK_EQ(o.budget_mb, DQR_BUDGET_AUTO);

	CHECK_EQ(parse("mesh_routing=DOR", &o), 0);
	CHECK_EQ(o.mesh_routing, DQR_MESH_DOR);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(strstr(buf, "mesh_routing=dor") != NULL);
	CHECK_EQ(parse("mesh_routing=updn", &o), 0);
	CHECK_EQ(o.mesh_routing, DQR_MESH_UPDN);
	CHECK_EQ(parse("mesh_routing=ecube", &o), -1);
	CHECK_EQ(o.layer_moves, 1);
	CHECK_EQ(parse("layer_moves=off", &o), 0);
	CHECK_EQ(o.layer_moves, 0);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(strstr(buf, "layer_moves=off") != NULL);
	CHECK_EQ(o.fast_path, 1);
	CHECK_EQ(parse("fast_path=off", &o), 0);
	CHECK_EQ(o.fast_path, 0);
	CHECK_EQ(parse("fast_path=maybe", &o), -1);
	CHECK_EQ(o.fast_path, 1);
	CHECK_EQ(o.tolerance_s, 60);
	CHECK_EQ(parse("tolerance_s=0", &o), 0);
	CHECK_EQ(o.tolerance_s, 0);
	CHECK_EQ(parse("tolerance_s=86401", &o), -1);
	CHECK_EQ(parse("tolerance_s=-1", &o), -1);
	CHECK_EQ(o.tolerance_s, 60);
	CHECK_EQ(o.intermediates, 0);
	CHECK_EQ(parse("intermediates=2", &o), 0);
	CHECK_EQ(o.intermediates, 2);
	CHECK_EQ(parse("intermediates=5", &o), -1);
	CHECK_EQ(parse("intermediates=on", &o), -1);
	CHECK_EQ(o.intermediates, 0);
	CHECK_EQ(parse("layer_moves=sometimes", &o), -1);
	CHECK_EQ(parse("mesh_routing=", &o), -1);

	CHECK_EQ(parse("mode=local turns=each fallback=none", &o), 0);
	CHECK_EQ(o.mode, 1);
	CHECK_EQ(o.turns, 0);
	CHECK_EQ(o.fallback, DQR_FALLBACK_NONE);
	CHECK_EQ(parse("mode=End-To-End", &o), 0);
	CHECK_EQ(o.mode, 0);
	CHECK_EQ(parse("mode=remote", &o), -1);
	CHECK_EQ(parse("turns=all", &o), -1);
	CHECK_EQ(parse("fallback=minhop", &o), -1);

	/* order does not matter */
	CHECK_EQ(parse("verify=on base=lash", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_LASH);
	CHECK_EQ(o.verify, 1);

	/* every base engine by its OpenSM name, and in any case */
	for (b = 0; b < DQR_BASE_NUM; b++) {
		char s[64];

		snprintf(s, sizeof(s), "base=%s", dqr_base_engine_names[b]);
		CHECK_EQ(parse(s, &o), 0);
		CHECK_EQ(o.base, b);
	}
	CHECK_EQ(parse("base=torus-2qos", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_TORUS_2QOS);
	CHECK_EQ(parse("base=UPDN", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_UPDN);
	CHECK(!strcmp(dqr_base_engine_name(DQR_BASE_DFSSSP), "dfsssp"));
	CHECK(!strcmp(dqr_base_engine_name(DQR_BASE_NUM), "?"));
	CHECK(!strcmp(dqr_base_engine_name(-1), "?"));

	/* the spellings of a boolean: three for off, then three for on */
	for (b = 0; b < 6; b++) {
		static const char *const spelt[] = { "no", "0", "FALSE", "yes",
						     "1", "True" };
		char s[64];

		snprintf(s, sizeof(s), "verify=%s", spelt[b]);
		CHECK_EQ(parse(s, &o), 0);
		CHECK_EQ(o.verify, b >= 3);
	}
}

static void test_whitespace(void)
{
	struct dqr_options o;

	CHECK_EQ(parse("  base=dor  ", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_DOR);
	CHECK_EQ(parse("\tbase=minhop\t\tverify=off\n", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_MINHOP);
	CHECK_EQ(o.verify, 0);
	CHECK_EQ(parse("base=nue\r\n", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_NUE);
}

/* Strings the parser refuses, and words its message must hold. */
static const struct {
	const char *s;
	const char *has[4];
} bad_options[] = {
	/* unknown key, with or without a value */
	{ "base=updn colour=blue", { "'colour'", "unknown", "base, verify" } },
	{ "nosuch", { "'nosuch'" } },
	/* keys are case sensitive, like opensm.conf's */
	{ "BASE=updn", { "'BASE'" } },

	/* missing '=' */
	{ "base updn", { "'base'", "'='" } },
	{ "verify", { "'verify'" } },
	/* blanks around '=' are not part of the grammar */
	{ "base = updn", { "'base'" } },
	{ "base =updn", { "'base'" } },

	/* no key */
	{ "=updn", { "'=updn'" } },

	/* empty value */
	{ "base=", { "'base'", "empty", "ftree" } },
	{ "base= verify=on", { "'base'" } },
	{ "verify=", { "'verify'" } },

	/* bad values */
	{ "base=nosuch",
	  { "'base'", "'nosuch'", "auto, ftree, updn", "torus-2QoS" } },
	{ "verify=maybe", { "'verify'", "'maybe'", "on or off" } },
	{ "base=ftree=x", { "'ftree=x'" } },
	{ "base=updn,verify=on", { "'base'" } },
	/* a long value is cut in the message, not overflowing it */
	{ "base=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	  "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", { "..." } },

	/* duplicates are an error even when they agree */
	{ "base=updn base=ftree", { "'base'", "more than once" } },
	{ "verify=on verify=on", { "'verify'" } },
};

static void test_errors(void)
{
	struct dqr_options o;
	unsigned i, k;

	for (i = 0; i < sizeof(bad_options) / sizeof(bad_options[0]); i++) {
		CHECK_EQ(parse(bad_options[i].s, &o), -1);
		for (k = 0; k < 4 && bad_options[i].has[k]; k++)
			CHECK(err_has(bad_options[i].has[k]));
	}
}

static void test_unchanged_on_error(void)
{
	struct dqr_options o;

	dqr_options_init(&o);
	CHECK_EQ(dqr_options_parse("base=lash", &o, err, sizeof(err)), 0);
	CHECK_EQ(dqr_options_parse("verify=off base=bad", &o, err,
				   sizeof(err)), -1);
	CHECK_EQ(o.base, DQR_BASE_LASH);
	CHECK_EQ(o.verify, 1);
	/* no message buffer at all is allowed */
	CHECK_EQ(dqr_options_parse("base=bad", &o, NULL, 0), -1);
	/* a tiny one is truncated, still terminated */
	CHECK_EQ(dqr_options_parse("base=bad", &o, err, 8), -1);
	CHECK_EQ(strlen(err), 7);
}

/* The generic parser with a table like the coming keys'. */
struct future {
	int mode;
	unsigned drain_ms;
	int flag;
};

#define FUTURE_KEY(key, type, names, max) \
	{ #key, type, offsetof(struct future, key), names, 0, max }

static const char *const future_modes[] = { "local", "e2e", "topology",
					     NULL };
static const struct dqr_opt_spec future_specs[] = {
	FUTURE_KEY(mode, DQR_OPT_CHOICE, future_modes, 0),
	FUTURE_KEY(drain_ms, DQR_OPT_UINT, NULL, 60000),
	FUTURE_KEY(flag, DQR_OPT_BOOL, NULL, 0),
};

static int future_parse(const char *s, struct future *f)
{
	return dqr_opts_parse(future_specs, 3, s, f, err, sizeof(err));
}

static void test_generic_table(void)
{
	static const struct {
		const char *s;
		const char *has[2];
	} bad[] = {
		{ "drain_ms=60001", { "'drain_ms'", "0..60000" } },
		{ "drain_ms=-1", { "'drain_ms'" } },
		{ "drain_ms=0x10", { NULL } },
		{ "drain_ms=99999999999999999999999", { "'drain_ms'" } },
		{ "mode=global", { "local, e2e, topology" } },
		{ "base=updn", { "mode, drain_ms, flag" } },
	};
	struct future f = { 0, 100, 0 };
	unsigned i, k;

	CHECK_EQ(future_parse("mode=e2e drain_ms=2500 flag=on", &f), 0);
	CHECK_EQ(f.mode, 1);
	CHECK_EQ(f.drain_ms, 2500);
	CHECK_EQ(f.flag, 1);
	CHECK_EQ(future_parse("drain_ms=0", &f), 0);
	CHECK_EQ(f.drain_ms, 0);
	CHECK_EQ(future_parse("drain_ms=60000", &f), 0);
	CHECK_EQ(f.drain_ms, 60000);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		CHECK_EQ(future_parse(bad[i].s, &f), -1);
		for (k = 0; k < 2 && bad[i].has[k]; k++)
			CHECK(err_has(bad[i].has[k]));
	}
	/* none of them changed what was there */
	CHECK_EQ(f.drain_ms, 60000);
	/* a table too large for the duplicate check is refused */
	CHECK_EQ(dqr_opts_parse(future_specs, DQR_OPT_MAX_SPECS + 1, "", &f,
				err, sizeof(err)), -1);
}

int main(void)
{
	test_defaults();
	test_valid();
	test_whitespace();
	test_errors();
	test_unchanged_on_error();
	test_generic_table();
	return unit_finish();
}
