/*
 * test_status.c - the text of dqr-status and dqr.prom from a known
 * state, and the atomic write (plugin/dqr_status_fmt.c, no OpenSM).
 * dqr.prom is checked as promtool would: every sample's family has
 * HELP and TYPE before it, names match [a-zA-Z_:][a-zA-Z0-9_:]*, label
 * values are quoted with \\, \" and \n escaped, values are numbers.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dqr_status.h"
#include "small_fabrics.h"
#include "unit.h"

/* the text fmt writes for v, malloc'd */
static char *format(int (*fmt)(FILE *, const struct dqr_status_view *),
		    const struct dqr_status_view *v)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	if (!fp)
		return NULL;
	CHECK_EQ(fmt(fp, v), 0);
	fclose(fp);
	return buf;
}

static int name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || !strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
			  "_:", s[0]))
		return 0;
	for (i = 1; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX"
			    "YZ_:0123456789", s[i]))
			return 0;
	return 1;
}

/*
 * Reads one quoted label value at *p into out (unescaped); 0, or -1
 * when it is not well quoted.
 */
static int label_value(const char **p, char *out, size_t len)
{
	const char *s = *p;
	size_t n = 0;

	if (*s++ != '"')
		return -1;
	for (; *s && *s != '"'; s++) {
		char c = *s;

		if (c == '\n')
			return -1;
		if (c == '\\') {
			s++;
			if (*s == 'n')
				c = '\n';
			else if (*s == '\\' || *s == '"')
				c = *s;
			else
				return -1;
		}
		if (n + 1 < len)
			out[n++] = c;
	}
	if (*s != '"')
		return -1;
	out[n] = '\0';
	*p = s + 1;
	return 0;
}

struct family {
	char name[96];
	int help, type;
};

/*
 * Checks the whole exposition text; the number of samples, or -1.
 * label (if not NULL) receives the value of the last label read.
 */
static int check_prom(const char *text, char *label, size_t llen)
{
	struct family fam[64];
	int nfam = 0, samples = 0, i;
	const char *line = text;

	memset(fam, 0, sizeof(fam));
	while (*line) {
		const char *end = strchr(line, '\n'), *p;
		char name[96], val[256], *num_end;
		size_t n;

		if (!end)
			return -1;	/* the last line ends with \n too */
		if (!strncmp(line, "# HELP ", 7) ||
		    !strncmp(line, "# TYPE ", 7)) {
			p = line + 7;
			n = strcspn(p, " \n");
			if (!name_ok(p, n) || n >= sizeof(name) || nfam == 64)
				return -1;
			for (i = 0; i < nfam; i++)
				if (strlen(fam[i].name) == n &&
				    !strncmp(fam[i].name, p, n))
					break;
			if (i == nfam)
				memcpy(fam[nfam++].name, p, n);
			if (line[2] == 'H')
				fam[i].help++;
			else if (!strncmp(p + n, " counter\n", 9) ||
				 !strncmp(p + n, " gauge\n", 7))
				fam[i].type++;
			else
				return -1;
			line = end + 1;
			continue;
		}
		if (line[0] == '#')
			return -1;
		n = strcspn(line, "{ ");
		if (!name_ok(line, n) || n >= sizeof(name))
			return -1;
		memcpy(name, line, n);
		name[n] = '\0';
		for (i = 0; i < nfam; i++)
			if (!strcmp(fam[i].name, name))
				break;
		/* HELP and TYPE once each, before the samples */
		if (i == nfam || fam[i].help != 1 || fam[i].type != 1)
			return -1;
		p = line + n;
		if (*p == '{') {
			p++;
			while (*p != '}') {
				size_t k = strcspn(p, "=");

				if (!name_ok(p, k) || p[k] != '=')
					return -1;
				p += k + 1;
				if (label_value(&p, val, sizeof(val)))
					return -1;
				if (label)
					snprintf(label, llen, "%s", val);
				if (*p == ',')
					p++;
				else if (*p != '}')
					return -1;
			}
			p++;
		}
		if (*p++ != ' ')
			return -1;
		strtod(p, &num_end);
		if (num_end == p || num_end != end)
			return -1;
		samples++;
		line = end + 1;
	}
	for (i = 0; i < nfam; i++)
		if (fam[i].help != 1 || fam[i].type != 1)
			return -1;
	return samples;
}

static void test_count(void)
{
	struct dqr_status_counters c;
	struct dqr_status_reconfig r;
	char name[16];
	int i;

	memset(&c, 0, sizeof(c));
	memset(&r, 0, sizeof(r));
	r.id = 1;
	r.handed = 40.0;
	snprintf(r.outcome, sizeof(r.outcome), "ok");
	dqr_status_count(&c, &r, 120);
	r.id = 2;
	r.handed = -1;	/* not handed: its entries did not go up */
	snprintf(r.outcome, sizeof(r.outcome), "no legal route");
	dqr_status_count(&c, &r, 500);
	r.id = 3;
	r.handed = 12.5;
	snprintf(r.outcome, sizeof(r.outcome), "ok");
	dqr_status_count(&c, &r, 7);
	CHECK(!strcmp(c.outcome[0], "ok"));
	CHECK_EQ(c.reconfigs[0], 2);
	CHECK(!strcmp(c.outcome[1], "no legal route"));
	CHECK_EQ(c.reconfigs[1], 1);
	CHECK_EQ(c.entries_changed, 127);
	CHECK_EQ(c.last.id, 3);
	CHECK(c.have_reaction && c.last_reaction_ms == 12.5);
	/* more outcomes than slots: the last slot counts "other" */
	for (i = 0; i < DQR_STATUS_OUTCOMES + 2; i++) {
		snprintf(name, sizeof(name), "kind %d", i);
		snprintf(r.outcome, sizeof(r.outcome), "%s", name);
		dqr_status_count(&c, &r, 0);
	}
	CHECK(!strcmp(c.outcome[DQR_STATUS_OUTCOMES - 1], "other"));
	CHECK(!strcmp(c.outcome[2], "kind 0"));
	CHECK_EQ(c.reconfigs[2], 1);
}

/* every single fault of a state judged: two of them cut pairs off */
static const struct dqr_tol_report tolerance = {
	.state = DQR_TOL_DONE,
	.reconfig = 4,
	.faults = 176, .cables = 128, .judged = 176,
	.absorbed = 126, .drained = 48, .cut = 2,
	.cut_names = { "sw-L2-0003[5]", "sw-L3-0001" },
	.num_cut_names = 2,
	.cpu_s = 0.25,
};

/* a state as after one cable between switches and one to a CA failed */
static void fill_view(struct dqr_status_view *v, struct dqr_fabric *f,
		      struct dqr_status_counters *c, uint32_t *ports,
		      uint32_t *gone)
{
	struct dqr_status_reconfig r;

	memset(c, 0, sizeof(*c));
	memset(&r, 0, sizeof(r));
	r.id = 4;
	snprintf(r.outcome, sizeof(r.outcome), "ok");
	snprintf(r.since, sizeof(r.since), "trap");
	r.project = 0.11;
	r.reroute = 0.21;
	r.verify = 0.27;
	r.plan = 0.79;
	r.handed = 38.11;
	r.when = 1795000000.0;
	dqr_status_count(c, &r, 121);
	c->stages = 5;
	c->drain_ms = 2148;
	c->fallbacks = 1;
	c->ended_id = 2;
	c->ended_stages = 3;
	c->ended_done = 3;
	c->fast_reactions = 3;
	c->fast_declined = 1;
	memset(v, 0, sizeof(*v));
	v->now = 1795000001.0;
	/* a base name that needs every escape of a label value */
	v->base = "up\"dn\\x\nq";
	v->shape = "fat tree: 3 levels, 16 switch groups, 64 end ports";
	v->failed_links = 2;
	v->missing_nodes = 1;
	v->missing_switches = 1;
	v->ref = f;
	/* both switch ends of sw0/1 - sw1/2, and the switch end to ca2 */
	ports[0] = dqr_port_index(f, 0, 1);
	ports[1] = dqr_port_index(f, 1, 2);
	ports[2] = dqr_port_index(f, 2, 3);
	v->failed_ports = ports;
	v->num_failed_ports = 3;
	gone[0] = 3;
	v->gone_switches = gone;
	v->num_gone_switches = 1;
	v->transition = 3;
	v->stage = 1;
	v->stages = 2;
	v->answered = 1;
	v->verified = 1;
	v->verdict = "loop free and deadlock free: 12 dependencies, no cycle";
	v->unrouted_pairs = 0;
	v->c = c;
	v->tol = &tolerance;
}

/* Each of want[0 .. n) is somewhere in t; a missing one is named. */
static void check_has(const char *t, const char *const *want, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!strstr(t, want[i]))
			fprintf(stderr, "missing: %s", want[i]);
		CHECK(strstr(t, want[i]) != NULL);
	}
}

static const struct dqr_tol_report under_way = {
	.state = DQR_TOL_JUDGING,
	.reconfig = 5,
	.faults = 40, .cables = 24, .judged = 3, .absorbed = 3,
};

static void test_status_text(struct dqr_fabric *f)
{
	static const char *const want[] = {
		"\ntime: 2026-11-18T",
		"\nfailed_links: 2\n",
		"\nmissing_switches: 1\n",
		"\nmissing_nodes: 1\n",
		/* one line per cable, named from both ends */
		"\nfailed_link: 0x0000000000000100/1 (sw0) -> "
		"0x0000000000000101/2 (sw1)\n",
		"\nfailed_link: 0x0000000000000102/3 (sw2) -> "
		"0x0000000000000202/1 (ca2)\n",
		"\nmissing_switch: 0x0000000000000103 (sw3)\n",
		"\ntransition: 3 stage 1 of 2 answered\n",
		"\nlast_transition: 2 complete, 3 stages\n",
		"\nreconfiguration: 4\n",
		"\noutcome: ok\n",
		"\nphases_ms: projection 0.11 reroute 0.21 verify 0.27 "
		"plan 0.79\n",
		"\nreaction_ms: 38.11 from the trap",
		"\ntables: safe\n",
		"\nunrouted_pairs: 0\n",
		"\nfault_tolerance: after reconfiguration 4: 176 single "
		"faults (128 cables, 48 switches), 176 judged in 0.2 s of CPU: "
		"126 absorbed at once, 48 after a drain, 2 cut pairs off\n",
		"\nfault_cuts_pairs: sw-L2-0003[5]\n",
		"\nfault_cuts_pairs: sw-L3-0001\n",
	};
	struct dqr_status_counters c;
	struct dqr_status_view v;
	uint32_t ports[3], gone[1];
	char *t;

	fill_view(&v, f, &c, ports, gone);
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	check_has(t, want, sizeof(want) / sizeof(want[0]));
	CHECK(strstr(t, "failed_link: 0x0000000000000101/2") == NULL);
	free(t);

	/* nothing under way, nothing verified, no names */
	v.transition = 0;
	v.verified = -1;
	v.verdict = "verify=off: the tables go out unverified";
	v.ref = NULL;
	c.ended_left = 1;
	c.ended_done = 1;
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	CHECK(strstr(t, "\ntransition: none\n") != NULL);
	CHECK(strstr(t, "\nlast_transition: 2 left after 1 of 3 stages\n"));
	CHECK(strstr(t, "\ntables: not verified\n") != NULL);
	CHECK(strstr(t, "failed_link:") == NULL);
	CHECK(strstr(t, "unrouted_pairs") == NULL);
	free(t);

	/* the report under way, and with none */
	v.tol = &under_way;
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	CHECK(strstr(t, "\nfault_tolerance: judging reconfiguration 5: 40 "
		     "single faults (24 cables, 16 switches), 3 judged"));
	CHECK(strstr(t, "fault_cuts_pairs") == NULL);
	free(t);
	v.tol = NULL;
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	CHECK(strstr(t, "\nfault_tolerance: not judged (tolerance_s=0"));
	free(t);
}

static void test_prom(struct dqr_fabric *f)
{
	static const char *const want[] = {
		"osmdqr_reconfigurations_total{outcome=\"ok\"} 1\n",
		"osmdqr_entries_changed_total 121\n",
		"osmdqr_stages_total 5\n",
		"osmdqr_drain_seconds_total 2.148000\n",
		"osmdqr_fallbacks_total 1\n",
		"osmdqr_failed_links 2\n",
		"osmdqr_missing_switches 1\n",
		"osmdqr_transition_stage 1\n",
		"osmdqr_transition_stages 2\n",
		"osmdqr_last_reaction_seconds 0.038110\n",
		"osmdqr_last_reconfiguration_timestamp_seconds "
		"1795000000.000000\n",
		"osmdqr_tables_verified 1\n",
		"osmdqr_fast_reactions_total 3\n",
		"osmdqr_fast_declined_total 1\n",
		"osmdqr_tolerance_faults 176\n",
		"osmdqr_tolerance_judged 176\n",
		"osmdqr_tolerance_fate{fate=\"absorbed\"} 126\n",
		"osmdqr_tolerance_fate{fate=\"drained\"} 48\n",
		"osmdqr_tolerance_fate{fate=\"cut\"} 2\n",
		"osmdqr_tolerance_cpu_seconds 0.250000\n",
		"# TYPE osmdqr_reconfigurations_total counter\n",
		"# TYPE osmdqr_tables_verified gauge\n",
	};
	struct dqr_status_counters c;
	struct dqr_status_view v;
	uint32_t ports[3], gone[1];
	char *t, label[256];

	fill_view(&v, f, &c, ports, gone);
	t = format(dqr_status_format_prom, &v);
	REQUIRE(t);
	check_has(t, want, sizeof(want) / sizeof(want[0]));
	CHECK_EQ(check_prom(t, label, sizeof(label)), 22);
	/* the base label came through every escape and back */
	CHECK(!strcmp(label, "up\"dn\\x\nq"));
	CHECK(strstr(t, "base=\"up\\\"dn\\\\x\\nq\"} 1\n") != NULL);
	/* the checker can fail: a sample without its HELP */
	CHECK_EQ(check_prom("osmdqr_x 1\n", NULL, 0), -1);
	CHECK_EQ(check_prom("# HELP a b\n# TYPE a gauge\na{l=\"x\ny\"} 1\n",
			    NULL, 0), -1);
	CHECK_EQ(check_prom("# HELP 1a b\n# TYPE 1a gauge\n1a 1\n", NULL, 0),
		 -1);
	free(t);

	/* before any reconfiguration: no reaction, no timestamp samples */
	memset(&c, 0, sizeof(c));
	v.transition = 0;
	v.verified = 0;
	v.tol = NULL;
	t = format(dqr_status_format_prom, &v);
	REQUIRE(t);
	CHECK_EQ(check_prom(t, NULL, 0), 16);
	CHECK(strstr(t, "\nosmdqr_tolerance_faults 0\n") != NULL);
	CHECK(strstr(t, "osmdqr_tolerance_fate") == NULL);
	CHECK(strstr(t, "osmdqr_reconfigurations_total{outcome=\"ok\"} 0\n"));
	CHECK(strstr(t, "\nosmdqr_last_reaction_seconds ") == NULL);
	CHECK(strstr(t, "\nosmdqr_transition_stage 0\n") != NULL);
	CHECK(strstr(t, "\nosmdqr_tables_verified 0\n") != NULL);
	free(t);
}

/* files of dir other than . and .. */
static int entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			n++;
	closedir(d);
	return n;
}

static int fail_fmt(FILE *fp, const struct dqr_status_view *v)
{
	(void)v;
	fputs("half", fp);
	return -1;
}

static void test_write(struct dqr_fabric *f)
{
	struct dqr_status_counters c;
	struct dqr_status_view v;
	uint32_t ports[3], gone[1];
	char dir[] = "/tmp/test_status.XXXXXX", path[64], err[256];
	char got[8192], *want;
	FILE *fp;
	size_t n;

	fill_view(&v, f, &c, ports, gone);
	REQUIRE(mkdtemp(dir));
	CHECK_EQ(dqr_status_write(dir, DQR_STATUS_PROM,
				  dqr_status_format_prom, &v, err,
				  sizeof(err)), 0);
	/* again, over the first: still one file, no temporary left */
	v.stage = 2;
	CHECK_EQ(dqr_status_write(dir, DQR_STATUS_PROM,
				  dqr_status_format_prom, &v, err,
				  sizeof(err)), 0);
	CHECK_EQ(entries(dir), 1);
	snprintf(path, sizeof(path), "%s/%s", dir, DQR_STATUS_PROM);
	fp = fopen(path, "r");
	REQUIRE(fp);
	n = fread(got, 1, sizeof(got) - 1, fp);
	got[n] = '\0';
	fclose(fp);
	want = format(dqr_status_format_prom, &v);
	REQUIRE(want);
	CHECK(!strcmp(got, want));
	free(want);
	/* a failed format leaves the old file and no temporary */
	CHECK_EQ(dqr_status_write(dir, DQR_STATUS_PROM, fail_fmt, &v, err,
				  sizeof(err)), -1);
	CHECK(strstr(err, DQR_STATUS_PROM) != NULL);
	CHECK_EQ(entries(dir), 1);
	/* a directory that is not there */
	CHECK_EQ(dqr_status_write("/nonexistent/dqr", DQR_STATUS_FILE,
				  dqr_status_format, &v, err, sizeof(err)),
		 -1);
	CHECK(strstr(err, "/nonexistent/dqr") != NULL);
	unlink(path);
	rmdir(dir);
}

/* Two-phase routing's lines: only while it is in force. */
static void test_twophase(struct dqr_fabric *f)
{
	struct dqr_status_counters c;
	struct dqr_status_view v;
	uint32_t ports[3], gone[1], out[2];
	char *t;

	fill_view(&v, f, &c, ports, gone);
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	CHECK(strstr(t, "twophase") == NULL);
	free(t);
	t = format(dqr_status_format_prom, &v);
	REQUIRE(t);
	CHECK(strstr(t, "twophase") == NULL);
	free(t);

	out[0] = f->switches[1];
	out[1] = f->switches[2];
	v.twophase = 1;
	v.twophase_active = 0;
	v.left_out = out;
	v.num_left_out = 2;
	t = format(dqr_status_format, &v);
	REQUIRE(t);
	CHECK(strstr(t, "\ntwophase_left_out: 2\ntwophase_active: 0\n"
		     "left_out_switch: 0x0000000000000101 (sw1)\n"
		     "left_out_switch: 0x0000000000000102 (sw2)\n") != NULL);
	free(t);
	t = format(dqr_status_format_prom, &v);
	REQUIRE(t);
	CHECK(strstr(t, "\nosmdqr_twophase_left_out 2\n") != NULL);
	CHECK(strstr(t, "\nosmdqr_twophase_active 0\n") != NULL);
	free(t);
}

int main(void)
{
	struct dqr_fabric *f = ring_fabric(4);

	REQUIRE(f);
	test_count();
	test_status_text(f);
	test_twophase(f);
	test_prom(f);
	test_write(f);
	dqr_fabric_free(f);
	return unit_finish();
}
