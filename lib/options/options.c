/*
 * options.c - parsing event_plugin_options.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "options/options.h"

/* tokens quoted in messages are cut here: one log line stays readable */
#define QUOTE_MAX 48

const char *const dqr_base_engine_names[DQR_BASE_NUM + 1] = {
	[DQR_BASE_AUTO] = "auto",
	[DQR_BASE_FTREE] = "ftree",
	[DQR_BASE_UPDN] = "updn",
	[DQR_BASE_DNUP] = "dnup",
	[DQR_BASE_MINHOP] = "minhop",
	[DQR_BASE_DOR] = "dor",
	[DQR_BASE_LASH] = "lash",
	[DQR_BASE_NUE] = "nue",
	[DQR_BASE_DFSSSP] = "dfsssp",
	[DQR_BASE_SSSP] = "sssp",
	[DQR_BASE_TORUS_2QOS] = "torus-2QoS",
	[DQR_BASE_UTURN] = "uturn",
	[DQR_BASE_TWOPHASE] = "twophase",
	[DQR_BASE_NUM] = NULL,
};

const char *dqr_base_engine_name(int base)
{
	if (base < 0 || base >= DQR_BASE_NUM)
		return "?";
	return dqr_base_engine_names[base];
}

const char *const dqr_mode_names[] = { "end-to-end", "local", NULL };
const char *const dqr_turns_names[] = { "each", "path", NULL };
const char *const dqr_fallback_names[] = { "base", "none", NULL };
const char *const dqr_transition_names[] = { "ordered", "oneshot", NULL };
const char *const dqr_mesh_routing_names[] = { "dor", "updn", NULL };
const char *const dqr_stretch_names[] = { "0", "1", "2", "3", "4", "off",
					  NULL };

/*
 * Every key is the name of its field in struct dqr_options: spelling it
 * once keeps the two from drifting apart.
 */
#define OPTION(field, type, choices, max)				\
	{ #field, type, offsetof(struct dqr_options, field), choices, 0, max }
#define OPTION_MIN(field, type, min, max)				\
	{ #field, type, offsetof(struct dqr_options, field), NULL, min, max }

static const struct dqr_opt_spec dqr_option_table[] = {
	OPTION(base, DQR_OPT_CHOICE, dqr_base_engine_names, 0),
	OPTION(verify, DQR_OPT_BOOL, NULL, 0),
	OPTION(mode, DQR_OPT_CHOICE, dqr_mode_names, 0),
	OPTION(turns, DQR_OPT_CHOICE, dqr_turns_names, 0),
	OPTION(fallback, DQR_OPT_CHOICE, dqr_fallback_names, 0),
	OPTION(transition, DQR_OPT_CHOICE, dqr_transition_names, 0),
	OPTION(drain_ms, DQR_OPT_UINT_AUTO, NULL, DQR_DRAIN_MAX),
	OPTION(vl_layer, DQR_OPT_BOOL, NULL, 0),
	OPTION(stretch, DQR_OPT_CHOICE, dqr_stretch_names, 0),
	OPTION(budget_ms, DQR_OPT_UINT_AUTO, NULL, DQR_BUDGET_MS_MAX),
	OPTION_MIN(budget_mb, DQR_OPT_UINT_AUTO, 1, DQR_BUDGET_MB_MAX),
	OPTION(mesh_routing, DQR_OPT_CHOICE, dqr_mesh_routing_names, 0),
	OPTION(layer_moves, DQR_OPT_BOOL, NULL, 0),
	OPTION(fast_path, DQR_OPT_BOOL, NULL, 0),
	OPTION(tolerance_s, DQR_OPT_UINT, NULL, DQR_TOLERANCE_S_MAX),
	OPTION(intermediates, DQR_OPT_UINT, NULL, DQR_INTERMEDIATES_MAX),
	OPTION(twophase_seed, DQR_OPT_UINT, NULL, DQR_TWOPHASE_SEED_MAX),
};

#undef OPTION
#undef OPTION_MIN

#define NUM_OPTIONS (sizeof(dqr_option_table) / sizeof(dqr_option_table[0]))

void dqr_options_init(struct dqr_options *o)
{
	memset(o, 0, sizeof(*o));
	o->base = DQR_BASE_AUTO;
	o->verify = 1;
	o->mode = 0;		/* end-to-end */
	o->turns = 0;		/* each */
	o->fallback = DQR_FALLBACK_BASE;
	o->transition = DQR_TRANSITION_ORDERED;
	o->drain_ms = DQR_DRAIN_AUTO;
	o->vl_layer = 1;
	o->stretch = DQR_STRETCH_OFF;
	o->budget_ms = DQR_BUDGET_AUTO;
	o->budget_mb = DQR_BUDGET_AUTO;
	o->mesh_routing = DQR_MESH_UPDN;
	o->layer_moves = 1;
	o->fast_path = 1;
	o->tolerance_s = DQR_TOLERANCE_S_DEFAULT;
	o->twophase_seed = 1;
}

int dqr_options_parse(const char *str, struct dqr_options *o,
		      char *err, size_t errlen)
{
	struct dqr_options tmp = *o;

	if (dqr_opts_parse(dqr_option_table, NUM_OPTIONS, str, &tmp,
			   err, errlen))
		return -1;
	*o = tmp;
	return 0;
}

/* "auto" for UINT_MAX (DQR_OPT_UINT_AUTO), else the number */
static const char *uint_auto(unsigned v, char *buf, size_t len)
{
	if (v == UINT_MAX)
		return "auto";
	snprintf(buf, len, "%u", v);
	return buf;
}

void dqr_options_format(const struct dqr_options *o, char *buf, size_t len)
{
	char drain[16], ms[16], mb[16];

	snprintf(buf, len, "base=%s verify=%s mode=%s turns=%s fallback=%s "
		 "transition=%s drain_ms=%s vl_layer=%s stretch=%s "
		 "budget_ms=%s budget_mb=%s mesh_routing=%s layer_moves=%s "
		 "fast_path=%s tolerance_s=%u intermediates=%u "
		 "twophase_seed=%u",
		 dqr_base_engine_name(o->base), o->verify ? "on" : "off",
		 dqr_mode_names[o->mode], dqr_turns_names[o->turns],
		 dqr_fallback_names[o->fallback],
		 dqr_transition_names[o->transition],
		 uint_auto(o->drain_ms, drain, sizeof(drain)),
		 o->vl_layer ? "on" : "off", dqr_stretch_names[o->stretch],
		 uint_auto(o->budget_ms, ms, sizeof(ms)),
		 uint_auto(o->budget_mb, mb, sizeof(mb)),
		 dqr_mesh_routing_names[o->mesh_routing],
		 o->layer_moves ? "on" : "off", o->fast_path ? "on" : "off",
		 o->tolerance_s, o->intermediates, o->twophase_seed);
}

/* ------------------------------------------------------------------ */

static int is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' ||
	       c == '\v' || c == '\f';
}

/* Appends to a message without ever overflowing it. */
static void append(char *buf, size_t len, const char *s)
{
	size_t used = strlen(buf);

	if (used + 1 < len)
		snprintf(buf + used, len - used, "%s", s);
}

/* "one of a, b, c" / "on or off" / "0..1000": what a key accepts. */
static void describe(const struct dqr_opt_spec *sp, char *buf, size_t len)
{
	const char *const *c;

	buf[0] = '\0';
	switch (sp->type) {
	case DQR_OPT_CHOICE:
		append(buf, len, "one of ");
		for (c = sp->choices; *c; c++) {
			append(buf, len, *c);
			if (c[1])
				append(buf, len, ", ");
		}
		break;
	case DQR_OPT_BOOL:
		append(buf, len, "on or off");
		break;
	case DQR_OPT_UINT:
		snprintf(buf, len, "an integer %u..%u", sp->min, sp->max);
		break;
	case DQR_OPT_UINT_AUTO:
		snprintf(buf, len, "auto or an integer %u..%u", sp->min,
			 sp->max);
		break;
	}
}

static int match_choice(const char *const *choices, const char *v,
			size_t vlen)
{
	int i;

	for (i = 0; choices[i]; i++)
		if (strlen(choices[i]) == vlen &&
		    !strncasecmp(choices[i], v, vlen))
			return i;
	return -1;
}

static int match_bool(const char *v, size_t vlen)
{
	static const char *const yes[] = { "on", "yes", "true", "1", NULL };
	static const char *const no[] = { "off", "no", "false", "0", NULL };

	if (match_choice(yes, v, vlen) >= 0)
		return 1;
	if (match_choice(no, v, vlen) >= 0)
		return 0;
	return -1;
}

/* Decimal digits only: no sign, no base prefix, no overflow. */
static int match_uint(const char *v, size_t vlen, unsigned min,
		      unsigned max, unsigned *out)
{
	uint64_t x = 0;
	size_t i;

	if (!vlen)
		return -1;
	for (i = 0; i < vlen; i++) {
		if (v[i] < '0' || v[i] > '9')
			return -1;
		x = x * 10 + (unsigned)(v[i] - '0');
		if (x > max)
			return -1;
	}
	if (x < min)
		return -1;
	*out = (unsigned)x;
	return 0;
}

static const struct dqr_opt_spec *find_spec(const struct dqr_opt_spec *specs,
					    size_t n, const char *key,
					    size_t klen, size_t *idx)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(specs[i].key) == klen &&
		    !strncmp(specs[i].key, key, klen)) {
			*idx = i;
			return &specs[i];
		}
	return NULL;
}

static void known_keys(const struct dqr_opt_spec *specs, size_t n,
		       char *buf, size_t len)
{
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		append(buf, len, specs[i].key);
		if (i + 1 < n)
			append(buf, len, ", ");
	}
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return -1;
}

/*
 * Sets the field sp describes in target from the value v[0 .. vlen): one
 * table drives every option, so a new option is a row, not new parsing.
 * Nothing is written unless the whole value is good; -1 with a message
 * that names the option and says what it accepts.
 */
static int apply(const struct dqr_opt_spec *sp, const char *v, size_t vlen,
		 void *target, char *err, size_t errlen)
{
	char what[256];
	int x;
	unsigned u;
	int bad = 0;

	if (!vlen) {
		describe(sp, what, sizeof(what));
		return fail(err, errlen, "option '%s' has an empty value "
			    "(expected %s)", sp->key, what);
	}
	switch (sp->type) {
	case DQR_OPT_CHOICE:
		x = match_choice(sp->choices, v, vlen);
		if (x < 0)
			bad = 1;
		else
			*(int *)((char *)target + sp->offset) = x;
		break;
	case DQR_OPT_BOOL:
		x = match_bool(v, vlen);
		if (x < 0)
			bad = 1;
		else
			*(int *)((char *)target + sp->offset) = x;
		break;
	case DQR_OPT_UINT_AUTO:
		if (vlen == 4 && !strncasecmp(v, "auto", 4)) {
			*(unsigned *)((char *)target + sp->offset) = UINT_MAX;
			break;
		}
		/* fall through */
	case DQR_OPT_UINT:
		if (match_uint(v, vlen, sp->min, sp->max, &u))
			bad = 1;
		else
			*(unsigned *)((char *)target + sp->offset) = u;
		break;
	default:
		bad = 1;
	}
	if (!bad)
		return 0;
	describe(sp, what, sizeof(what));
	return fail(err, errlen, "option '%s' has a bad value '%.*s%s' "
		    "(expected %s)", sp->key,
		    (int)(vlen > QUOTE_MAX ? QUOTE_MAX : vlen), v,
		    vlen > QUOTE_MAX ? "..." : "", what);
}

int dqr_opts_parse(const struct dqr_opt_spec *specs, size_t n,
		   const char *str, void *target, char *err, size_t errlen)
{
	uint64_t seen = 0;
	const char *p = str, *tok, *eq, *end;
	char known[256];
	size_t idx;

	if (err && errlen)
		err[0] = '\0';
	if (n > DQR_OPT_MAX_SPECS)
		return fail(err, errlen, "too many option keys (%zu)", n);
	if (!p)
		return 0;
	if (strnlen(p, DQR_OPT_STR_MAX + 1) > DQR_OPT_STR_MAX)
		return fail(err, errlen, "options longer than %d bytes",
			    DQR_OPT_STR_MAX);
	for (;;) {
		const struct dqr_opt_spec *sp;
		size_t tlen, klen;

		while (is_blank(*p))
			p++;
		if (!*p)
			return 0;
		tok = p;
		while (*p && !is_blank(*p))
			p++;
		end = p;
		tlen = (size_t)(end - tok);
		eq = memchr(tok, '=', tlen);
		klen = eq ? (size_t)(eq - tok) : tlen;
		if (eq && !klen)
			return fail(err, errlen, "option '%.*s%s' has no key "
				    "before '='",
				    (int)(tlen > QUOTE_MAX ? QUOTE_MAX : tlen),
				    tok, tlen > QUOTE_MAX ? "..." : "");
		sp = find_spec(specs, n, tok, klen, &idx);
		if (!sp) {
			known_keys(specs, n, known, sizeof(known));
			return fail(err, errlen, "unknown option '%.*s%s' "
				    "(known options: %s)",
				    (int)(klen > QUOTE_MAX ? QUOTE_MAX : klen),
				    tok, klen > QUOTE_MAX ? "..." : "",
				    known);
		}
		if (!eq)
			return fail(err, errlen, "option '%s' has no '=': "
				    "write %s=<value>", sp->key, sp->key);
		if (seen & (UINT64_C(1) << idx))
			return fail(err, errlen, "option '%s' is given more "
				    "than once", sp->key);
		seen |= UINT64_C(1) << idx;
		if (apply(sp, eq + 1, (size_t)(end - eq - 1), target,
			  err, errlen))
			return -1;
	}
}
