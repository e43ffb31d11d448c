/*
 * fuzz_options.c - fuzz target of the plugin's options parser
 * (options/options.h): the bytes up to the first NUL as
 * event_plugin_options.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "options/options.h"

const char fuzz_name[] = "options";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dqr_options o, before;
	char *s = malloc(size + 1), err[512], buf[512];

	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	dqr_options_init(&o);
	before = o;
	err[0] = '\0';
	if (dqr_options_parse(s, &o, err, sizeof(err))) {
		/* refused: one message, and nothing changed */
		if (!err[0] || memcmp(&o, &before, sizeof(o)))
			abort();
	} else if (strlen(s) > DQR_OPT_STR_MAX) {
		abort();	/* longer than opensm.conf can hold */
	} else {
		dqr_options_format(&o, buf, sizeof(buf));
		/* what the log says parses back to the same options */
		dqr_options_init(&before);
		if (dqr_options_parse(buf, &before, err, sizeof(err)) ||
		    memcmp(&o, &before, sizeof(o)))
			abort();
	}
	free(s);
	return 0;
}
