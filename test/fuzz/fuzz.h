/*
 * fuzz.h - what the fuzz targets share.  Each target is one reader fed
 * arbitrary bytes through LLVMFuzzerTestOneInput(): built with clang
 * -fsanitize=fuzzer by run.sh, or with driver.c as a plain program that
 * replays the target's corpus (make check, under ASan in the sanitizer
 * build).
 *
 * Besides not crashing, leaking or hanging, every target checks the
 * readers' promise: a refusal names the input ("fuzz:") in its message.
 */
#ifndef DQR_FUZZ_H
#define DQR_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fabric/fabric.h"

/* the corpus folder of the target: test/fuzz/corpus/<fuzz_name> */
extern const char fuzz_name[];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The target's reader on data as a file named "fuzz": parse(fp, arg,
 * err, errlen) answers 0 when it read, anything else when it refused.
 * 1 when it read; 0 when there were no bytes or it refused, its message
 * checked by fuzz_check_err().
 */
int fuzz_read(const uint8_t *data, size_t size,
	      int (*parse)(FILE *fp, void *arg, char *err, size_t errlen),
	      void *arg);

/* The tiny fabric (test/data/tiny.ibnd), parsed once. */
const struct dqr_fabric *fuzz_fabric(void);

/* Aborts unless err reads "fuzz:<line>: ..." (line may be absent). */
void fuzz_check_err(const char *err);

#endif
