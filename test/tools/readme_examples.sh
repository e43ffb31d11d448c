#!/bin/sh
# readme_examples.sh - every tool example of README and of
# doc/operators-guide.md runs as written.  The examples are the indented
# lines "$ dqr-..." (a trailing backslash joins the next line); each runs
# with the build tree's tools first on PATH, in a scratch directory that
# sees test/ and ibsim-topologies/ of the source tree, as from its top,
# and must exit 0.  Each file must hold at least its number of examples
# below, so that examples lost in an edit fail too.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$dir"' EXIT
ln -s "$top_srcdir/test" "$top_srcdir/ibsim-topologies" "$dir/"
PATH="$top_builddir/tools:$PATH"
export PATH

for t in dqr-check dqr-genfabric dqr-sim; do
	[ "$(command -v $t)" = "$top_builddir/tools/$t" ] ||
		{ echo "FAIL: $t is not the build tree's"; exit 1; }
done

failed=0
total=0
# FILE MIN: the file's examples, at least MIN of them
for spec in README:2 doc/operators-guide.md:8; do
	file=${spec%:*} min=${spec##*:}
	# one per line: the file's line number, a tab, the command
	awk '
		cont { cmd = cmd " " $0 }
		!cont && /^ +\$ dqr-/ { line = NR; cmd = $0
			sub(/^ +\$ /, "", cmd) }
		/^ +\$ dqr-/ || cont {
			cont = sub(/ *\\$/, "", cmd)
			if (!cont)
				print line "\t" cmd
		}' "$top_srcdir/$file" > "$dir/examples"
	n=$(wc -l < "$dir/examples")
	if [ "$n" -lt "$min" ]; then
		echo "FAIL: only $n examples found in $file (at least $min)"
		failed=$((failed + 1))
	fi
	total=$((total + n))
	while IFS='	' read -r line cmd; do
		(cd "$dir" && sh -c "$cmd") > "$dir/out" 2>&1 < /dev/null
		st=$?
		if [ "$st" = 0 ]; then
			echo "ok: $file: $cmd"
		else
			echo "FAIL: $file:$line: $cmd (exit status $st)"
			tail -20 "$dir/out"
			failed=$((failed + 1))
		fi
	done < "$dir/examples"
done
echo "$total examples, $failed failed"
[ "$failed" = 0 ]
