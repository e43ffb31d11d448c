/*
 * print.c - what dqr-check's reports share: cycles and verdicts in JSON,
 * switches by name and GUID.
 */
#include <stdio.h>

#include "verify/verify_print.h"
#include "dqr_check.h"

void json_cycle(FILE *out, const struct dqr_fabric *f,
		const struct dqr_cycle *c)
{
	char buf[300];
	uint32_t i;

	putc('[', out);
	for (i = 0; i < c->len; i++) {
		if (i)
			putc(',', out);
		dqr_json_string(out, dqr_format_channel(f, c->channels[i],
				buf, sizeof(buf)));
	}
	putc(']', out);
}

void json_verdict(FILE *out, const struct dqr_fabric *f,
		  const struct dqr_union_verdict *v)
{
	uint32_t i;

	fprintf(out, "\"loop_dlids\":%u,\"loop_lid\":%u,\"loop\":[",
		v->loop_dlids, v->loop_lid);
	for (i = 0; i < v->loop_len && i < DQR_LOOP_SHOWN; i++) {
		if (i)
			putc(',', out);
		dqr_json_string(out,
				dqr_node_name(f, f->switches[v->loop_sw[i]]));
	}
	fprintf(out, "],\"cyclic\":%s,\"cycle\":", v->cyclic ? "true" :
		"false");
	json_cycle(out, f, &v->cycle);
	fprintf(out, ",\"ok\":%s", dqr_union_ok(v) ? "true" : "false");
}

const char *switch_name(const struct dqr_fabric *f, uint32_t sw)
{
	return dqr_node_name(f, f->switches[sw]);
}

uint64_t switch_guid(const struct dqr_fabric *f, uint32_t sw)
{
	return f->nodes[f->switches[sw]].guid;
}
