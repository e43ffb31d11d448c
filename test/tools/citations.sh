#!/bin/sh
# citations.sh - papers are cited by short name (doc/references.md), never
# by a file name or number that users do not have, and nothing points
# outside the repository.
set -u
cd "${top_srcdir:-.}" || exit 1
bad=0
where="README lib plugin tools test man doc data scripts ibsim-topologies"

hits=$(grep -rInE 'seeds? ?0[0-4][0-9]|[0-9]{3}_[0-9a-f]{16}|shared/(seeds|DESIGN)|\.\./shared' \
	$where 2>/dev/null | grep -v '^test/tools/citations\.sh:')
if [ -n "$hits" ]; then
	echo "citations: a paper named by its file or number, or a pointer outside the repository:"
	echo "$hits"
	bad=1
fi
# a number wrapped onto the next comment line
wrapped=$(find $where -type f ! -name citations.sh 2>/dev/null | xargs perl -0777 -ne \
	'print "$ARGV\n" if /seeds?\s*(?:\*|#|\\")?\s*0[0-4][0-9]/i')
if [ -n "$wrapped" ]; then
	echo "citations: a paper named by its number across a line break in:"
	echo "$wrapped"
	bad=1
fi
for p in DQR OSR FT HC IN; do
	grep -q "^- \*\*\[$p\]\*\*\|\[$p\]" doc/references.md 2>/dev/null || {
		echo "citations: doc/references.md lacks [$p]"
		bad=1
	}
done
[ $bad = 0 ] && echo "citations: ok"
exit $bad
