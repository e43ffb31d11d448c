/*
 * names.h - enums whose values have names in reports and on command
 * lines.
 *
 * Such an enum is written once, as a list macro of (identifier, name)
 * pairs; DQR_ENUM_ID expands the list into the enum and DQR_ENUM_NAME
 * into the name table, so that the two cannot drift apart:
 *
 *	#define DQR_COLOURS(X) X(DQR_RED, "red") X(DQR_BLUE, "blue")
 *	enum dqr_colour { DQR_COLOURS(DQR_ENUM_ID) DQR_NUM_COLOURS };
 *	static const char *const names[] = { DQR_COLOURS(DQR_ENUM_NAME) };
 *
 * dqr_name_of() and dqr_name_index() are then the only ways in and out.
 */
#ifndef DQR_NAMES_H
#define DQR_NAMES_H

#include <stddef.h>
#include <string.h>

#define DQR_ENUM_ID(id, name) id,
#define DQR_ENUM_NAME(id, name) [id] = name,

/* names[i], or "?" for a value outside the n names (a corrupt field). */
static inline const char *dqr_name_of(const char *const *names, size_t n,
				      unsigned long i)
{
	return i < n && names[i] ? names[i] : "?";
}

/* The index of name among the n names, or -1 (also for name NULL). */
static inline int dqr_name_index(const char *const *names, size_t n,
				 const char *name)
{
	size_t i;

	for (i = 0; name && i < n; i++)
		if (names[i] && !strcmp(name, names[i]))
			return (int)i;
	return -1;
}

#endif
