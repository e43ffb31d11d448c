/*
 * verify_print.c - writing a verification report for people and programs.
 */
#include <inttypes.h>
#include <string.h>

#include "verify/verify_print.h"

const char *dqr_format_channel(const struct dqr_fabric *f, uint32_t channel,
			       char *buf, size_t len)
{
	const struct dqr_port *p = &f->ports[channel];
	const struct dqr_node *n = &f->nodes[p->node];

	snprintf(buf, len, "0x%016" PRIx64 "[%u] (%s)", n->guid, p->num,
		 dqr_node_name(f, p->node));
	return buf;
}

void dqr_format_cycle(const struct dqr_fabric *f, const struct dqr_cycle *c,
		      char *buf, size_t len)
{
	char one[300];
	size_t used = 0;
	uint32_t i;

	if (!len)
		return;
	buf[0] = '\0';
	for (i = 0; i <= c->len && c->len; i++) {
		int n;

		dqr_format_channel(f, c->channels[i % c->len], one,
				   sizeof(one));
		n = snprintf(buf + used, len - used, "%s%s", i ? " -> " : "",
			     one);
		if (n < 0 || (size_t)n >= len - used) {
			if (len > 4)
				strcpy(buf + len - 4, "...");
			return;
		}
		used += (size_t)n;
	}
}

static const char *verdict(const struct dqr_verify_report *r,
			   unsigned kinds)
{
	return dqr_verify_ok(r, kinds) ? "OK" : "FAIL";
}

static void print_example(FILE *out, const struct dqr_fabric *f,
			  const struct dqr_pair_example *x)
{
	const struct dqr_port *src = &f->ports[x->src_port];
	uint32_t owner = dqr_lid_owner(f, x->dlid);

	fprintf(out, "  %s: '%s' port %u -> LID %u ('%s'): %s at '%s'\n",
		dqr_pair_kind_name(x->kind), dqr_node_name(f, src->node),
		src->num, x->dlid,
		owner == DQR_NONE ? "?" :
		dqr_node_name(f, f->ports[owner].node),
		dqr_walk_result_name(x->result),
		x->fail_sw == DQR_NONE ? "?" :
		dqr_node_name(f, f->switches[x->fail_sw]));
}

/*
 * Both reports carry the same two tallies, pairs by kind and unreachable
 * pairs by cause, in the same order; only the notation differs.  Each
 * pair format takes (separator, kind, pairs, unreachable, disconnected,
 * judged), each cause format (separator, cause, count).
 */
struct notation {
	const char *pair_fmt, *pair_sep, *judged, *not_judged;
	const char *between;	/* after the pairs, before the causes */
	const char *cause_fmt, *cause_sep;
	const char *after;	/* after the causes */
};

static const struct notation text_notation = {
	"%spairs %-16s %10" PRIu64 "  unreachable %" PRIu64
	" (physically disconnected %" PRIu64 ")%s\n", "", "", "  [not judged]",
	"unreachable by cause: ", "%s%s %" PRIu64, ", ", "\n"
};

static const struct notation json_notation = {
	"%s\"%s\":{\"total\":%" PRIu64 ",\"unreachable\":%" PRIu64
	",\"disconnected\":%" PRIu64 ",\"judged\":%s}", ",", "true", "false",
	"},\"unreachable_by_cause\":{", "%s\"%s\":%" PRIu64, ",", ""
};

static void print_tallies(FILE *out, const struct dqr_verify_report *r,
			  unsigned kinds, const struct notation *n)
{
	int k;

	for (k = 0; k < DQR_PAIR_NUM_KINDS; k++)
		fprintf(out, n->pair_fmt, k ? n->pair_sep : "",
			dqr_pair_kind_name(k), r->pairs[k], r->unreachable[k],
			r->disconnected[k],
			kinds & (1u << k) ? n->judged : n->not_judged);
	fputs(n->between, out);
	for (k = 1; k < DQR_WALK_NUM_RESULTS; k++)
		fprintf(out, n->cause_fmt, k > 1 ? n->cause_sep : "",
			dqr_walk_result_name(k), r->by_result[k]);
	fputs(n->after, out);
}

void dqr_print_report_text(FILE *out, const struct dqr_fabric *f,
			   const struct dqr_verify_report *r, unsigned kinds)
{
	char buf[4096];
	uint32_t i;

	fprintf(out, "fabric: %u switches, %u end ports, %u LIDs, "
		"%u channels\n", r->switches, r->end_ports, r->lids,
		r->channels);
	print_tallies(out, r, kinds, &text_notation);
	for (i = 0; i < r->num_examples; i++)
		print_example(out, f, &r->examples[i]);
	fprintf(out, "forwarding loops: %" PRIu64 " entries on loops\n",
		r->loop_entries);
	fprintf(out, "dead ports: %" PRIu64 " entries name a port without "
		"a link\n", r->dead_port_entries);
	fprintf(out, "hops: min %u, max %u, mean %.3f\n", r->hops_min,
		r->hops_max, r->hops_mean);
	fprintf(out, "dependencies: %" PRIu64 "\n", r->dependencies);
	if (r->cycle_found) {
		dqr_format_cycle(f, &r->cycle, buf, sizeof(buf));
		fprintf(out, "dependency cycle: yes, %u channels: %s\n",
			r->cycle.len, buf);
	} else {
		fprintf(out, "dependency cycle: no (channel list of %u "
			"channels)\n", r->channels);
	}
	fprintf(out, "time: walk %.3f ms, dependencies %.3f ms, channel "
		"list %.3f ms\n", r->ms_walk, r->ms_cdg, r->ms_channel_list);
	fprintf(out, "result: %s\n", verdict(r, kinds));
}

void dqr_json_string(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void dqr_print_report_json(FILE *out, const struct dqr_fabric *f,
			   const struct dqr_verify_report *r, unsigned kinds)
{
	char buf[300];
	uint32_t i;

	fprintf(out, "{\"switches\":%u,\"end_ports\":%u,\"lids\":%u,"
		"\"channels\":%u,\"dependencies\":%" PRIu64 ",\"pairs\":{",
		r->switches, r->end_ports, r->lids, r->channels,
		r->dependencies);
	print_tallies(out, r, kinds, &json_notation);
	fprintf(out, "},\"loop_entries\":%" PRIu64 ",\"dead_port_entries\":%"
		PRIu64 ",\"hops\":{\"min\":%u,\"max\":%u,\"mean\":%.4f,"
		"\"histogram\":[", r->loop_entries, r->dead_port_entries,
		r->hops_min, r->hops_max, r->hops_mean);
	for (i = 0; i <= r->hops_max; i++)
		fprintf(out, "%s%" PRIu64, i ? "," : "", r->hop_hist[i]);
	fprintf(out, "]},\"cycle\":[");
	for (i = 0; r->cycle_found && i < r->cycle.len; i++) {
		if (i)
			fputc(',', out);
		dqr_json_string(out, dqr_format_channel(f,
				r->cycle.channels[i], buf, sizeof(buf)));
	}
	fprintf(out, "],\"examples\":[");
	for (i = 0; i < r->num_examples; i++) {
		const struct dqr_pair_example *x = &r->examples[i];
		const struct dqr_port *src = &f->ports[x->src_port];

		fprintf(out, "%s{\"kind\":\"%s\",\"source\":", i ? "," : "",
			dqr_pair_kind_name(x->kind));
		dqr_json_string(out, dqr_node_name(f, src->node));
		fprintf(out, ",\"source_port\":%u,\"dlid\":%u,\"cause\":\"%s\","
			"\"at\":", src->num, x->dlid,
			dqr_walk_result_name(x->result));
		dqr_json_string(out, x->fail_sw == DQR_NONE ? "" :
			    dqr_node_name(f, f->switches[x->fail_sw]));
		fputc('}', out);
	}
	fprintf(out, "],\"ms\":{\"walk\":%.3f,\"dependencies\":%.3f,"
		"\"channel_list\":%.3f},\"ok\":%s}\n", r->ms_walk, r->ms_cdg,
		r->ms_channel_list, dqr_verify_ok(r, kinds) ? "true" : "false");
}
