#!/bin/sh
# layers.sh - the architecture of doc/ARCHITECTURE.md, checked.
#
# lib/ is layered: a folder may use (include, call) its own folder and
# lower layers only; io and routes are peers that do not use each other.
# No lib file exceeds 1,000 lines, no C line over 80 columns, no OpenSM
# header reaches lib/, nobody outside a folder includes its -internal.h,
# and no two files of lib/, plugin/ or a tool call each other in a
# cycle.  Calls are read from the built objects (nm), so a call through
# a shared header counts too.
#
# Exit 0 when every rule holds; 1 with one line per breach.
set -u
src=${top_srcdir:-.}
build=${top_builddir:-.}
bad=0

fail() {
	echo "layers: $*"
	bad=1
}

# Rank of a lib folder; peers share a rank but may not use each other.
rank() {
	case $1 in
	util) echo 0 ;;
	fabric) echo 1 ;;
	io | routes) echo 2 ;;
	deps) echo 3 ;;
	shape | verify) echo 4 ;;
	routing) echo 5 ;;
	reroute) echo 6 ;;
	mesh) echo 7 ;;
	vlayers) echo 8 ;;
	recon) echo 9 ;;
	ftree) echo 10 ;;
	transition) echo 11 ;;
	reaction) echo 12 ;;
	options) echo 0 ;;
	*) echo "" ;;
	esac
}

# may_use FROM TO: 0 when folder FROM may use folder TO.
may_use() {
	[ "$1" = "$2" ] && return 0
	# the options are the plugin's and the tools', and the reaction's,
	# which decides for both
	[ "$2" = options ] && [ "$1" = reaction ] && return 0
	[ "$2" = options ] && return 1
	[ "$1" = options ] && return 1
	rf=$(rank "$1")
	rt=$(rank "$2")
	[ -n "$rf" ] && [ -n "$rt" ] && [ "$rt" -lt "$rf" ]
}

cd "$src" || exit 1
for d in lib/*/; do
	d=${d#lib/}
	d=${d%/}
	[ -n "$(rank "$d")" ] || fail "lib/$d: a folder without a layer"
done

# Source level: #include lines, file sizes, OpenSM headers.
for f in lib/*/*.[ch]; do
	dir=${f#lib/}
	dir=${dir%%/*}
	n=$(wc -l < "$f")
	[ "$n" -le 1000 ] || fail "$f: $n lines (at most 1,000)"
	grep -q '#include <\(opensm\|complib\|iba\|vendor\)/' "$f" &&
		fail "$f: includes an OpenSM header"
	for h in $(sed -n 's/^#include "\([a-z_]*\)\/[^"]*"$/\1/p' "$f"); do
		may_use "$dir" "$h" ||
			fail "$f: layer $dir includes $h/"
	done
done
# OpenSM's style: 80 columns, tabs at 8
for f in $(find lib plugin tools test -name '*.[ch]'); do
	expand -t8 "$f" | awk -v f="$f" 'length > 80 {
		print "layers: " f ":" NR ": " length " columns (at most 80)"
		bad = 1
	} END { exit bad }' || bad=1
done
for f in $(find lib plugin tools test -name '*.[ch]'); do
	for h in $(sed -n 's/^#include "\(.*-internal\.h\)"$/\1/p' "$f"); do
		case $f in
		lib/${h%%/*}/*) ;;
		*) fail "$f: includes $h from outside its folder" ;;
		esac
	done
done

# Object level: module A uses module B when A needs a symbol B defines.
# call_graph LABEL EDGES OBJECT...: writes "A B" lines to EDGES; returns 1
# (and says so) when the graph has a cycle.
call_graph() {
	label=$1
	out=$2
	shift 2
	for o in "$@"; do
		nm -g --defined-only "$o" 2>/dev/null |
			awk -v m="$o" 'NF == 3 { print "D", $3, m }'
		nm -u "$o" 2>/dev/null | awk -v m="$o" '{ print "U", $NF, m }'
	done | awk '
		$1 == "D" { def[$2] = $3; next }
		{ use[NR] = $2; user[NR] = $3 }
		END {
			for (i in use)
				if ((use[i] in def) && def[use[i]] != user[i])
					print user[i], def[use[i]]
		}' | sort -u > "$out"
	if ! tsort < "$out" > /dev/null 2> "$out.err"; then
		echo "layers: $label: file cycle:" $(cat "$out.err")
		rm -f "$out.err"
		return 1
	fi
	rm -f "$out.err"
	return 0
}

# the source file an object was built from, as lib/<folder>/<name>
name_of() {
	b=$(basename "$1" .o)
	b=${b#*_la-}
	echo "$(dirname "$(dirname "$1")")/$b"
}

cd "$build" || exit 1
edges=$(mktemp) || exit 1
lib_objs=$(find lib -path '*/.libs/*.o' | sort)
[ -n "$lib_objs" ] || { echo "layers: lib/ is not built in $build"; exit 1; }
call_graph lib "$edges" $lib_objs || bad=1
while read -r a b; do
	fa=$(name_of "$a")
	fb=$(name_of "$b")
	da=${fa#lib/}
	da=${da%%/*}
	db=${fb#lib/}
	db=${db%%/*}
	may_use "$da" "$db" ||
		fail "$fa calls into $fb (layer $da uses $db)"
done < "$edges"
plugin_objs=$(find plugin -path '*/.libs/*.o' | sort)
[ -z "$plugin_objs" ] || call_graph plugin "$edges" $plugin_objs || bad=1
for t in $(find tools -mindepth 1 -maxdepth 1 -type d ! -name '.*'); do
	objs=$(find "$t" -maxdepth 1 -name '*.o' | sort)
	[ -z "$objs" ] || call_graph "$t" "$edges" $objs || bad=1
done
rm -f "$edges"

[ $bad = 0 ] && echo "layers: ok"
exit $bad
