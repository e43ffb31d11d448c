#!/bin/sh
# doc_paths.sh - the pages name files that exist, and the tarball ships
# them.  Every doc/, data/ and scripts/ path that README, doc/*.md,
# data/README, the man pages and the Debian docs list name must exist
# (a glob must match), every page or figure a doc/ page links to must
# be beside it, and every file of doc/ must be named in Makefile.am, so
# that make dist ships it.  Run by make distcheck on the unpacked
# tarball, the first two say that it ships what the pages name.
set -u
cd "${top_srcdir:-.}" || exit 1
bad=$(mktemp) || exit 1
trap 'rm -f "$bad"' EXIT

pages="README data/README debian/osm-dqr.docs doc/opensm.conf.example"
pages="$pages $(ls doc/*.md man/*.[18])"

for p in $pages; do
	# man pages write - as \-; a path ends before punctuation
	sed 's/\\-/-/g' "$p" |
	grep -oE '(^|[^A-Za-z0-9_./-])(doc|data|scripts)/[A-Za-z0-9_.*/-]*' |
	sed -E 's/^[^a-z]*//; s/[.,;:]+$//' | sort -u |
	while read -r path; do
		# placeholders: scripts/plot/NAME.gp
		case $path in *NAME*|*SPEC*) continue ;; esac
		# shellcheck disable=SC2086
		set -- $path
		[ -e "$1" ] || echo "$p names $path, which is not here" >> "$bad"
	done
done

# links and images of the Markdown pages, relative to the page
for p in doc/*.md; do
	grep -oE '\]\([^)#]+' "$p" | sed 's/^](//' | sort -u |
	while read -r link; do
		case $link in http*|/*) continue ;; esac
		[ -e "doc/$link" ] ||
			echo "$p links to $link, which is not in doc/" >> "$bad"
	done
done

# make dist ships what doc/ holds
for f in $(find doc -type f | sort); do
	grep -q "$f\\( \\|\$\\)" Makefile.am ||
		echo "$f is not named in Makefile.am (make dist leaves it out)" \
			>> "$bad"
done

if [ -s "$bad" ]; then
	cat "$bad"
	exit 1
fi
echo "doc_paths: ok"
