/*
 * notes.h - what a decision of the reaction tier has to say, for whoever
 * runs it: the plugin writes each note to the OpenSM log, at its level
 * and with its ERR code; the offline tools may print them or not.
 *
 * The reaction decides and says why; it does not know OpenSM's log.  A
 * note holds the text after the caller's prefix ("dqr: ", "osmdqr: ",
 * "osmdqr: NOTICE: ", "ERR DQxx: dqr: "), so that the one text serves
 * the log line and the tools alike.
 */
#ifndef DQR_NOTES_H
#define DQR_NOTES_H

#include <stddef.h>

enum dqr_note_level {
	DQR_NOTE_VERBOSE = 0,	/* "dqr: ", at the verbose level */
	DQR_NOTE_INFO,		/* "dqr: " */
	DQR_NOTE_SYS,		/* "osmdqr: ", also to syslog */
	DQR_NOTE_NOTICE,	/* "osmdqr: NOTICE: ", also to syslog */
	DQR_NOTE_ERROR,		/* "ERR DQxx: dqr: " */
};

#define DQR_NOTE_TEXT 640
#define DQR_NOTES_MAX 8

struct dqr_note {
	enum dqr_note_level level;
	char code[4];		/* "25" of ERR DQ25; "" below ERROR */
	char text[DQR_NOTE_TEXT];
};

/*
 * The notes of one call, in order.  A note past DQR_NOTES_MAX is
 * dropped and counted: a decision has a handful to say, never more.
 */
struct dqr_notes {
	struct dqr_note note[DQR_NOTES_MAX];
	unsigned len;
	unsigned dropped;
};
/* Empties ns for the next reaction: each reaction reports its own. */
void dqr_notes_clear(struct dqr_notes *ns);

/* Adds a note; code is the ERR code for DQR_NOTE_ERROR, else NULL. */
void dqr_note(struct dqr_notes *ns, enum dqr_note_level level,
	      const char *code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#endif
