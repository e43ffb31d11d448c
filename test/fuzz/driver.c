/*
 * driver.c - a fuzz target as a plain program: feeds it every file of
 * its corpus (or of the files and folders given), so that make check
 * replays the corpus without clang, under ASan in the sanitizer build.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

static unsigned runs, failed;

static void run_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!fp || fseek(fp, 0, SEEK_END) || (n = ftell(fp)) < 0 ||
	    fseek(fp, 0, SEEK_SET) || !(buf = malloc(n ? (size_t)n : 1)) ||
	    fread(buf, 1, (size_t)n, fp) != (size_t)n) {
		fprintf(stderr, "%s: cannot read\n", path);
		failed++;
	} else {
		LLVMFuzzerTestOneInput(buf, (size_t)n);
		runs++;
	}
	free(buf);
	if (fp)
		fclose(fp);
}

static void run_path(const char *path)
{
	struct dirent *e;
	struct stat st;
	char sub[4096];
	DIR *d;

	if (stat(path, &st) || !S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	d = opendir(path);
	if (!d) {
		fprintf(stderr, "%s: cannot open\n", path);
		failed++;
		return;
	}
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", path, e->d_name);
		run_file(sub);
	}
	closedir(d);
}

int main(int argc, char **argv)
{
	const char *top = getenv("top_srcdir");
	char dir[4096];
	int i;

	if (argc < 2) {
		snprintf(dir, sizeof(dir), "%s/test/fuzz/corpus/%s",
			 top && *top ? top : ".", fuzz_name);
		run_path(dir);
	}
	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	/* a corpus of nothing proves nothing */
	if (!runs)
		failed++;
	printf("%s: %u inputs replayed\n%u passed, %u failed\n", fuzz_name,
	       runs, runs, failed);
	return failed ? 1 : 0;
}
