#!/bin/sh
# readme_examples.sh - every tool example of the README runs as written.
# The examples are the lines "  $ dqr-..." (a trailing backslash joins
# the next line); each runs with the build tree's tools first on PATH,
# in a scratch directory that sees test/ and ibsim-topologies/ of the
# source tree, as from its top, and must exit 0.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
readme="$top_srcdir/README"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
ln -s "$top_srcdir/test" "$top_srcdir/ibsim-topologies" "$dir/"
PATH="$top_builddir/tools:$PATH"
export PATH

# the examples, one per line: README line number, a tab, the command
awk '
	cont { cmd = cmd " " $0 }
	!cont && /^  \$ dqr-/ { line = NR; cmd = substr($0, 5) }
	/^  \$ dqr-/ || cont {
		cont = sub(/ *\\$/, "", cmd)
		if (!cont)
			print line "\t" cmd
	}' "$readme" > "$dir/examples"

n=$(wc -l < "$dir/examples")
[ "$n" -ge 5 ] || { echo "FAIL: only $n examples found in $readme"; exit 1; }
for t in dqr-check dqr-genfabric dqr-sim; do
	[ "$(command -v $t)" = "$top_builddir/tools/$t" ] ||
		{ echo "FAIL: $t is not the build tree's"; exit 1; }
done

failed=0
while IFS='	' read -r line cmd; do
	(cd "$dir" && sh -c "$cmd") > "$dir/out" 2>&1 < /dev/null
	st=$?
	if [ "$st" = 0 ]; then
		echo "ok: $cmd"
	else
		echo "FAIL: README:$line: $cmd (exit status $st)"
		tail -20 "$dir/out"
		failed=$((failed + 1))
	fi
done < "$dir/examples"
echo "$n examples, $failed failed"
[ "$failed" = 0 ]
