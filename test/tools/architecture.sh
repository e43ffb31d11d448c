#!/bin/sh
# architecture.sh - doc/ARCHITECTURE.md tells the truth about the code.
#
# 1. Its tier table gives every lib/ folder once, with the rank and the
#    "may use" that test/tools/layers.sh enforces.
# 2. Its plugin order (the indented block between "<!-- plugin order"
#    and "<!-- end of plugin order -->") and the list in the head comment
#    of plugin/dqr_ctx.h (from "top to bottom" to the first empty comment
#    line) are the same: entries in the same order, each the same files.
#    An entry is a line at the block's own indentation with the lines
#    indented deeper after it; its files are the plugin/*.c names it
#    holds.  Every plugin/*.c is in exactly one entry.
# 3. The built objects of plugin/ (nm, as layers.sh reads them) call no
#    file of an entry above their own: a file calls only files of its own
#    entry and of entries below it.
# 4. Every citation of code in ARCHITECTURE.md and doc/references.md
#    names a file that defines what it cites.  Two forms are read:
#      `FILE: NAME`        in backticks (may wrap onto the next line);
#      PATH (`NAME`, ...)  a path, then parentheses that open with a
#                          backtick: every backticked C identifier in them.
#    FILE without a folder is plugin/FILE; any other is a path from the
#    top of the tree.  NAME is an identifier, or "struct X", "enum X",
#    "union X".  FILE defines NAME when, at column 0, it has
#      #define NAME                     a macro;
#      struct|enum|union NAME {         a tag (NAME "struct X" etc.);
#      ... NAME(  followed by a line "{" before any line ending in ";"
#                                       a function (in a header, a
#                                       declaration at column 0 counts);
#      ... NAME[ or NAME =              a table or a variable;
#      typedef ... NAME;                a type.
#    Other backticked text (struct fields, options, log lines) is not a
#    citation.
# 5. Every lib/, plugin/, tools/ and test/ path the two pages name exists
#    (a program: its .c; a path with <placeholder> is not checked).
# 6. Every backticked C name with an underscore that the two pages use
#    (`dqr_plan_pass`, `new_lft`) occurs as a word in the tree's code,
#    so that a renamed or removed function is not left in the prose.
#
# Needs top_builddir with plugin/ built (make check sets it).  Exit 0 when
# everything holds; 1 with one line per breach.
set -u
src=${top_srcdir:-.}
build=${top_builddir:-.}
doc=doc/ARCHITECTURE.md
refs=doc/references.md
ctx=plugin/dqr_ctx.h
out=$(mktemp -d) || exit 1
trap 'rm -rf "$out"' EXIT
: > "$out/bad"

fail() {
	echo "architecture: $*" >> "$out/bad"
}

cd "$src" || exit 1
for f in "$doc" "$refs" "$ctx" test/tools/layers.sh; do
	[ -r "$f" ] || { echo "architecture: $f is missing"; exit 1; }
done

# ------------------------------------------------------------ 1. tiers
# layers.sh's ranks: "folder rank" lines (options has none: outside)
case_line='^[[:space:]]*\([a-z |]*\)) echo \([0-9]*\) ;;$'
sed -n "/^rank() {/,/^}/s/$case_line/\\1 \\2/p" test/tools/layers.sh |
	tr -d '|' |
	awk '{ for (i = 1; i < NF; i++) if ($i != "options") print $i, $NF }' |
	sort > "$out/ranks"
# the folders layers.sh lets use options/: its line
#   [ "$2" = options ] && [ "$1" = reaction ] && return 0
# shellcheck disable=SC2016
user='.*\[ "\$2" = options \] && \[ "\$1" = \([a-z]*\) \] && return 0.*'
sed -n "s/$user/\\1/p" test/tools/layers.sh > "$out/use_options"
[ -s "$out/ranks" ] || fail "no ranks read from test/tools/layers.sh"
# the doc's rows: "| tier | folder/ | holds | may use |"
sed -n '/^Tiers$/,/^The plugin.s order$/p' "$doc" |
	awk -F' *[|] *' '/^[|] *([0-9]+|-) *[|] *[a-z_]+\/ *[|]/ {
		sub(/\/$/, "", $3)
		print $3 "\t" $2 "\t" $(NF - 1)
	}' > "$out/rows"
for d in lib/*/; do
	d=${d#lib/}
	d=${d%/}
	n=$(awk -F'\t' -v d="$d" '$1 == d' "$out/rows" | wc -l)
	[ "$n" = 1 ] || fail "$doc: tier table has lib/$d/ $n times (once)"
done
while IFS="$(printf '\t')" read -r d t use; do
	[ -d "lib/$d" ] || fail "$doc: tier table names lib/$d/, not here"
	if [ "$d" = options ]; then
		[ "$t" = - ] || fail "$doc: options/ is outside the tiers, not $t"
		continue
	fi
	r=$(awk -v d="$d" '$1 == d { print $2 }' "$out/ranks")
	[ "$t" = "$r" ] ||
		fail "$doc: $d/ is tier $t; layers.sh ranks it ${r:-nowhere}"
	case $t in
	0) want="nothing of lib" ;;
	1) want="tier 0" ;;
	*) want="tiers 0 to $((t - 1))" ;;
	esac
	grep -qx "$d" "$out/use_options" && want="$want and options/"
	[ "$use" = "$want" ] ||
		fail "$doc: $d/ may use \"$use\"; layers.sh: \"$want\""
done < "$out/rows"

# ------------------------------------------------------ 2. plugin order
# entries LINES: "index file" for each plugin file of each entry
entries() {
	awk 'NF {
		match($0, /^ */)
		if (ind == "")
			ind = RLENGTH
		if (RLENGTH < ind)
			bad = 1
		if (RLENGTH == ind)
			e++
		s = $0
		while (match(s, /[a-z0-9_]+\.c/)) {
			print e, substr(s, RSTART, RLENGTH)
			s = substr(s, RSTART + RLENGTH)
		}
	} END { exit bad }'
}
awk '/^<!-- end of plugin order -->/ { on = 0 }
	on && /^    / { sub(/^    /, ""); print }
	/^<!-- plugin order/ { start = 1 }
	start && /-->/ { start = 0; on = 1 }' "$doc" |
	entries > "$out/doc_order" ||
	fail "$doc: the plugin order has a line left of its entries"
awk '/top to bottom/ { on = 1; next }
	on && /^ \*$/ && n { exit }
	on && /^ \* / { sub(/^ \*/, ""); print; n++ }' "$ctx" |
	entries > "$out/ctx_order" ||
	fail "$ctx: the plugin order has a line left of its entries"
[ -s "$out/doc_order" ] || fail "$doc: no plugin order found"
[ -s "$out/ctx_order" ] || fail "$ctx: no plugin order in its head comment"
# one line per entry, its files sorted
by_entry() {
	sort -k1,1n -k2 "$1" | awk '
		$1 != e { if (NR > 1) print line; e = $1; line = e ":" }
		{ line = line " " $2 }
		END { if (NR) print line }'
}
by_entry "$out/doc_order" > "$out/doc_entries"
by_entry "$out/ctx_order" > "$out/ctx_entries"
if ! cmp -s "$out/doc_entries" "$out/ctx_entries"; then
	fail "the plugin order of $doc (<) and of $ctx (>) differ:"
	diff "$out/doc_entries" "$out/ctx_entries" | grep '^[<>]' |
		sed 's/^/  /' >> "$out/bad"
fi
(cd plugin && ls ./*.c) | sed 's|^\./||' | sort > "$out/plugin_files"
awk '{ print $2 }' "$out/doc_order" | sort > "$out/listed"
uniq -d "$out/listed" | while read -r f; do
	fail "$doc: plugin order lists $f twice"
done
sort -u "$out/listed" | comm -23 "$out/plugin_files" - | while read -r f; do
	fail "$doc: plugin order misses plugin/$f"
done
sort -u "$out/listed" | comm -13 "$out/plugin_files" - | while read -r f; do
	fail "$doc: plugin order lists $f, which is not in plugin/"
done

# ------------------------------------------------------- 3. call graph
objs=$(cd "$build" && find plugin -path '*/.libs/*.o' 2>/dev/null | sort)
if [ -z "$objs" ]; then
	fail "plugin/ is not built in $build"
else
	(cd "$build" && for o in $objs; do
		nm -g --defined-only "$o" 2>/dev/null |
			awk -v m="$o" 'NF == 3 { print "D", $3, m }'
		nm -u "$o" 2>/dev/null | awk -v m="$o" '{ print "U", $NF, m }'
	done) | awk '
		function file(o) {
			sub(/.*\//, "", o)
			sub(/^.*_la-/, "", o)
			sub(/\.o$/, ".c", o)
			return o
		}
		$1 == "D" { def[$2] = file($3); next }
		{ use[NR] = $2; user[NR] = file($3) }
		END {
			for (i in use)
				if ((use[i] in def) && def[use[i]] != user[i])
					print user[i], def[use[i]], use[i]
		}' | sort -u > "$out/calls"
	[ -s "$out/calls" ] || fail "no calls read from the objects of plugin/"
	awk 'NR == FNR { rank[$2] = $1; next }
		!($1 in rank) || !($2 in rank) {
			print "architecture: " $1 " calls " $2 " (" $3 "): " \
				"not both in the plugin order"
			next
		}
		rank[$1] > rank[$2] {
			print "architecture: plugin/" $1 " calls plugin/" $2 \
				" (" $3 "), which the plugin order puts above it"
		}' "$out/doc_order" "$out/calls" >> "$out/bad"
fi

# -------------------------------------------------------- 4. citations
# "page<TAB>file<TAB>name" for both forms
cites() {
	perl -0777 -ne '
		my $p = $ARGV;
		my $name = qr/(?:(?:struct|enum|union) )?[A-Za-z_]\w*/;
		my $path = qr{(?:lib|plugin|tools|test)/[\w./-]+\.[ch]};
		while (/`([^`]+)`/g) {
			(my $c = $1) =~ s/\s+/ /g;
			print "$p\t$1\t$2\n"
			    if $c =~ m{^([\w./-]+\.[ch]): ($name)$};
		}
		(my $t = $_) =~ s/\s+/ /g;
		while ($t =~ m{($path) \((`[^)]*)\)}g) {
			my ($f, $in) = ($1, $2);
			while ($in =~ /`([^`]+)`/g) {
				my $n = $1;
				print "$p\t$f\t$n\n" if $n =~ /^[A-Za-z_]\w*$/;
			}
		}' "$@"
}
# defines FILE NAME: 0 when FILE defines NAME (see the head comment)
defines() {
	awk -v name="$2" -v hdr="$(case $1 in *.h) echo 1 ;; *) echo 0 ;; esac)" '
		BEGIN {
			tag = ""
			if (split(name, w, " ") == 2) {
				tag = w[1]
				name = w[2]
			}
			b = "(^|[^A-Za-z0-9_])"
		}
		tag != "" {
			if ($0 ~ "^(typedef[ \t]+)?" tag "[ \t]+" name "[ \t]*[{]")
				found = 1
			next
		}
		pending {
			if (/^[{]/) {
				found = 1
				pending = 0
			} else if (/;[ \t]*$/)
				pending = 0
			next
		}
		$0 ~ "^#[ \t]*define[ \t]+" name "([ \t(]|$)" { found = 1 }
		$0 ~ "^typedef[ \t].*" b name ";" { found = 1 }
		/^[A-Za-z_]/ && !/^extern[ \t]/ && $0 ~ b name "[ \t]*(\\[|= )" {
			found = 1
		}
		/^[A-Za-z_]/ && $0 ~ b name "[ \t]*[(]" {
			if (hdr)
				found = 1
			else if (!/;[ \t]*$/)
				pending = 1
		}
		END { exit !found }' "$1"
}
cites "$doc" "$refs" > "$out/cites"
[ "$(grep -c "^$doc" "$out/cites")" -gt 20 ] ||
	fail "$doc: fewer than 20 citations of code read: the forms changed?"
while IFS="$(printf '\t')" read -r page f name; do
	case $f in
	*/*) path=$f ;;
	*) path=plugin/$f ;;
	esac
	if [ ! -f "$path" ]; then
		fail "$page: cites $f: $name; $path is not in the tree"
	elif ! defines "$path" "$name"; then
		fail "$page: cites $f: $name; $path does not define $name"
	fi
done < "$out/cites"

# ------------------------------------------------------------ 5. paths
for p in "$doc" "$refs"; do
	grep -oE '(^|[^A-Za-z0-9_./<-])(lib|plugin|tools|test)/[][A-Za-z0-9_.*/<>-]*' \
		"$p" | sed -E 's/^[^a-z]*//; s/[.,;:]+$//' | sort -u |
	while read -r path; do
		# placeholders: test/unit/<folder>/
		case $path in *'<'*) continue ;; esac
		# shellcheck disable=SC2086
		set -- $path
		# a program by its source: test/unit/deps/test_dyn_order
		[ -e "$1" ] || [ -e "$1.c" ] ||
			fail "$p names $path, which is not in the tree"
	done
done

# ------------------------------------------------------------ 6. names
# a backticked name with an underscore (not a fragment like _SOURCES)
for p in "$doc" "$refs"; do
	perl -0777 -ne 'while (/`([^`]+)`/g) { my $w = $1;
		print "$w\n" if $w =~ /^[A-Za-z]\w*_\w*[A-Za-z0-9]$/ }' "$p" |
	sort -u | while read -r w; do
		grep -rqw -- "$w" lib plugin tools test scripts Makefile.am \
			configure.ac ||
			fail "$p names \`$w\`, which no file of the tree holds"
	done
done

if [ -s "$out/bad" ]; then
	cat "$out/bad"
	exit 1
fi
echo "architecture: ok ($(wc -l < "$out/cites") citations, $(wc -l \
	< "$out/calls") plugin calls)"
exit 0
