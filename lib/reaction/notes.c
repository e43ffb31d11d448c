/*
 * notes.c - the notes a reaction hands back (notes.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "reaction/notes.h"
#include "util/check.h"

void dqr_notes_clear(struct dqr_notes *ns)
{
	ns->len = 0;
	ns->dropped = 0;
}

void dqr_note(struct dqr_notes *ns, enum dqr_note_level level,
	      const char *code, const char *fmt, ...)
{
	struct dqr_note *n;
	va_list ap;

	/* an ERROR without its code would be an undocumented log line */
	DQR_CHECK((level == DQR_NOTE_ERROR) == (code != NULL));
	if (ns->len >= DQR_NOTES_MAX) {
		ns->dropped++;
		return;
	}
	n = &ns->note[ns->len++];
	n->level = level;
	snprintf(n->code, sizeof(n->code), "%s", code ? code : "");
	va_start(ap, fmt);
	vsnprintf(n->text, sizeof(n->text), fmt, ap);
	va_end(ap);
}
