/*
 * test_options.c - event_plugin_options: the grammar, the keys, and that
 * every error names what is wrong.
 */
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

static void test_defaults(void)
{
	struct dqr_options o;
	char buf[128];

	CHECK_EQ(parse(NULL, &o), 0);
	CHECK_EQ(o.base, DQR_BASE_AUTO);
	CHECK_EQ(o.verify, 1);
	CHECK_EQ(parse("", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_AUTO);
	CHECK_EQ(parse(" \t\n ", &o), 0);
	CHECK_EQ(o.verify, 1);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "base=auto verify=on mode=end-to-end turns=each "
		       "fallback=base transition=ordered drain_ms=auto "
		       "vl_layer=on stretch=off"));
}

static void test_valid(void)
{
	struct dqr_options o;
	char buf[128];
	int b;

	CHECK_EQ(parse("base=updn", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_UPDN);
	CHECK_EQ(o.verify, 1);

	CHECK_EQ(parse("base=ftree verify=off", &o), 0);
	CHECK_EQ(o.base, DQR_BASE_FTREE);
	CHECK_EQ(o.verify, 0);
	dqr_options_format(&o, buf, sizeof(buf));
	CHECK(!strcmp(buf, "base=ftree verify=off mode=end-to-end "
		       "turns=each fallback=base transition=ordered "
		       "drain_ms=auto vl_layer=on stretch=off"));

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

	/* the spellings of a boolean */
	CHECK_EQ(parse("verify=no", &o), 0);
	CHECK_EQ(o.verify, 0);
	CHECK_EQ(parse("verify=0", &o), 0);
	CHECK_EQ(o.verify, 0);
	CHECK_EQ(parse("verify=FALSE", &o), 0);
	CHECK_EQ(o.verify, 0);
	CHECK_EQ(parse("verify=yes", &o), 0);
	CHECK_EQ(o.verify, 1);
	CHECK_EQ(parse("verify=1", &o), 0);
	CHECK_EQ(o.verify, 1);
	CHECK_EQ(parse("verify=True", &o), 0);
	CHECK_EQ(o.verify, 1);
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

static void test_errors(void)
{
	struct dqr_options o;

	/* unknown key, with or without a value */
	CHECK_EQ(parse("base=updn colour=blue", &o), -1);
	CHECK(err_has("'colour'"));
	CHECK(err_has("unknown"));
	CHECK(err_has("base, verify"));
	CHECK_EQ(parse("nosuch", &o), -1);
	CHECK(err_has("'nosuch'"));
	/* keys are case sensitive, like opensm.conf's */
	CHECK_EQ(parse("BASE=updn", &o), -1);
	CHECK(err_has("'BASE'"));

	/* missing '=' */
	CHECK_EQ(parse("base updn", &o), -1);
	CHECK(err_has("'base'"));
	CHECK(err_has("'='"));
	CHECK_EQ(parse("verify", &o), -1);
	CHECK(err_has("'verify'"));
	/* blanks around '=' are not part of the grammar */
	CHECK_EQ(parse("base = updn", &o), -1);
	CHECK(err_has("'base'"));
	CHECK_EQ(parse("base =updn", &o), -1);
	CHECK(err_has("'base'"));

	/* no key */
	CHECK_EQ(parse("=updn", &o), -1);
	CHECK(err_has("'=updn'"));

	/* empty value */
	CHECK_EQ(parse("base=", &o), -1);
	CHECK(err_has("'base'"));
	CHECK(err_has("empty"));
	CHECK(err_has("ftree"));
	CHECK_EQ(parse("base= verify=on", &o), -1);
	CHECK(err_has("'base'"));
	CHECK_EQ(parse("verify=", &o), -1);
	CHECK(err_has("'verify'"));

	/* bad values */
	CHECK_EQ(parse("base=nosuch", &o), -1);
	CHECK(err_has("'base'"));
	CHECK(err_has("'nosuch'"));
	CHECK(err_has("auto, ftree, updn"));
	CHECK(err_has("torus-2QoS"));
	CHECK_EQ(parse("verify=maybe", &o), -1);
	CHECK(err_has("'verify'"));
	CHECK(err_has("'maybe'"));
	CHECK(err_has("on or off"));
	CHECK_EQ(parse("base=ftree=x", &o), -1);
	CHECK(err_has("'ftree=x'"));
	CHECK_EQ(parse("base=updn,verify=on", &o), -1);
	CHECK(err_has("'base'"));
	/* a long value is cut in the message, not overflowing it */
	CHECK_EQ(parse("base=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		       "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		       &o), -1);
	CHECK(err_has("..."));

	/* duplicates are an error even when they agree */
	CHECK_EQ(parse("base=updn base=ftree", &o), -1);
	CHECK(err_has("'base'"));
	CHECK(err_has("more than once"));
	CHECK_EQ(parse("verify=on verify=on", &o), -1);
	CHECK(err_has("'verify'"));
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

static void test_generic_table(void)
{
	static const char *const modes[] = { "local", "e2e", "topology", NULL };
	static const struct dqr_opt_spec specs[] = {
		{ "mode", DQR_OPT_CHOICE, offsetof(struct future, mode),
		  modes, 0, 0 },
		{ "drain_ms", DQR_OPT_UINT, offsetof(struct future, drain_ms),
		  NULL, 0, 60000 },
		{ "flag", DQR_OPT_BOOL, offsetof(struct future, flag),
		  NULL, 0, 0 },
	};
	struct future f = { 0, 100, 0 };

	CHECK_EQ(dqr_opts_parse(specs, 3, "mode=e2e drain_ms=2500 flag=on",
				&f, err, sizeof(err)), 0);
	CHECK_EQ(f.mode, 1);
	CHECK_EQ(f.drain_ms, 2500);
	CHECK_EQ(f.flag, 1);
	CHECK_EQ(dqr_opts_parse(specs, 3, "drain_ms=0", &f, err,
				sizeof(err)), 0);
	CHECK_EQ(f.drain_ms, 0);
	CHECK_EQ(dqr_opts_parse(specs, 3, "drain_ms=60000", &f, err,
				sizeof(err)), 0);
	CHECK_EQ(f.drain_ms, 60000);

	CHECK_EQ(dqr_opts_parse(specs, 3, "drain_ms=60001", &f, err,
				sizeof(err)), -1);
	CHECK(err_has("'drain_ms'"));
	CHECK(err_has("0..60000"));
	CHECK_EQ(dqr_opts_parse(specs, 3, "drain_ms=-1", &f, err,
				sizeof(err)), -1);
	CHECK(err_has("'drain_ms'"));
	CHECK_EQ(dqr_opts_parse(specs, 3, "drain_ms=0x10", &f, err,
				sizeof(err)), -1);
	CHECK_EQ(dqr_opts_parse(specs, 3,
				"drain_ms=99999999999999999999999", &f, err,
				sizeof(err)), -1);
	CHECK(err_has("'drain_ms'"));
	CHECK_EQ(f.drain_ms, 60000);
	CHECK_EQ(dqr_opts_parse(specs, 3, "mode=global", &f, err,
				sizeof(err)), -1);
	CHECK(err_has("local, e2e, topology"));
	CHECK_EQ(dqr_opts_parse(specs, 3, "base=updn", &f, err,
				sizeof(err)), -1);
	CHECK(err_has("mode, drain_ms, flag"));
	/* a table too large for the duplicate check is refused */
	CHECK_EQ(dqr_opts_parse(specs, DQR_OPT_MAX_SPECS + 1, "", &f, err,
				sizeof(err)), -1);
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
