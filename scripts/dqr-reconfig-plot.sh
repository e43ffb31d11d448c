#!/bin/sh
# dqr-reconfig-plot.sh - the history of DQR's reconfigurations, from the
# plugin's records (dump_files_dir/dqr-reconfig.log, osmdqr(8) FILES),
# as a plot: per reconfiguration, over time, the reaction time (trap or
# sweep to the first stage handed to OpenSM) and the entries changed,
# the outcome marked.
#
#   scripts/dqr-reconfig-plot.sh [-d DATA] LOG [OUT]
#
# OUT: the image, dqr-reconfig.png by default (.svg for SVG).  -d DATA
# keeps the table the plot is drawn from (columns: id, time, outcome
# 0 ok / 1 other, handed_ms or NaN when not uploaded, reroute_ms,
# changed_entries, stages of its transition or NaN, uploaded 1 or 0).
# Needs awk and gnuplot.  Exit status: 0 plotted, 2 bad usage, a LOG without
# reconfiguration records, or gnuplot missing.
set -u
prog=dqr-reconfig-plot
data=
usage() {
	echo "usage: $prog [-d DATA] LOG [OUT]" >&2
	exit 2
}
while getopts d:h opt; do
	case $opt in
	d) data=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] && [ $# -le 2 ] || usage
log=$1
out=${2:-dqr-reconfig.png}
if [ ! -r "$log" ]; then
	echo "$prog: cannot read $log" >&2
	exit 2
fi
if ! command -v gnuplot >/dev/null 2>&1; then
	echo "$prog: gnuplot is not installed (Debian: apt install" \
		"gnuplot-nox); no plot made" >&2
	exit 2
fi
case $out in
*.svg) term='svg size 1000,620 font "sans,11"' ;;
*) term='pngcairo size 1000,620 font "sans,11"' ;;
esac

tmp=$(mktemp -d "${TMPDIR:-/tmp}/$prog.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM
[ -n "$data" ] || data=$tmp/reconfig.dat

# One JSON object per line, compact (json-c): a key's value runs to the
# next comma or brace; no value of these keys holds either.
awk '
function val(key,   k, v) {
	k = "\"" key "\":"
	if (!match($0, k "[^,}]*"))
		return ""
	v = substr($0, RSTART + length(k), RLENGTH - length(k))
	gsub(/"/, "", v)
	return v
}
/^\{"id":/ {
	id = val("id")
	n++
	ids[n] = id
	when[id] = val("time")
	out[id] = val("outcome") == "ok" ? 0 : 1
	h = val("handed_ms")
	handed[id] = (h == "" || h == "null") ? "NaN" : h
	r = val("reroute_ms")
	reroute[id] = r == "" ? "NaN" : r
	c = val("changed_entries")
	changed[id] = c == "" ? 0 : c
	next
}
/^\{"transition":/ {
	w = val("what")
	if (w ~ /^reconfiguration [0-9]+$/) {
		sub(/^reconfiguration /, "", w)
		stages[w] = val("stages")
	}
}
END {
	print "# id\ttime\toutcome(0 ok)\thanded_ms\treroute_ms\tchanged" \
		"\tstages\tuploaded"
	for (i = 1; i <= n; i++) {
		id = ids[i]
		printf "%s\t%s\t%d\t%s\t%s\t%s\t%s\t%d\n", id, when[id],
			out[id], handed[id], reroute[id], changed[id],
			(id in stages) ? stages[id] : "NaN",
			handed[id] != "NaN"
	}
}' "$log" > "$data" || exit 2
count=$(grep -vc '^#' "$data")
if [ "$count" -eq 0 ]; then
	echo "$prog: no reconfiguration records in $log" >&2
	exit 2
fi

gnuplot > "$tmp/gnuplot.err" 2>&1 <<GP
set terminal $term
set output "$out"
set datafile separator "\t"
set xdata time
set timefmt "%Y-%m-%dT%H:%M:%SZ"
set format x "%H:%M:%S"
set grid
set offsets 1, 1, graph 0.15, 0
title = "DQR reconfigurations: $count records from $(basename "$log")"
set multiplot layout 2,1 title title
set ylabel "reaction time (ms)"
set yrange [0:*]
set key top left box opaque
set title "trap or sweep to the first stage handed to OpenSM"
d = "$data"
plot d using 2:(\$3 == 0 ? \$4 : NaN) with points pt 7 ps 1.2 \
	lc rgb "#1b9e77" title "ok", \
     d using 2:(\$3 != 0 ? \$4 : NaN) with points pt 9 ps 1.4 \
	lc rgb "#d95f02" title "other outcome", \
     d using 2:(\$8 == 0 ? 0 : NaN) with points pt 2 ps 1.6 \
	lc rgb "#d7191c" title "not uploaded", \
     d using 2:(\$8 == 0 ? 0 : \$4):1 with labels offset 0,1 \
	font ",9" notitle
set title "entries changed (numbers: stages of the transition)"
set ylabel "entries changed"
set xlabel "time (UTC)"
unset key
plot d using 2:6 with impulses lw 6 lc rgb "#7570b3" notitle, \
     d using 2:6:7 with labels offset 0,0.8 font ",9" notitle
unset multiplot
GP
if [ $? -ne 0 ] || [ ! -s "$out" ]; then
	echo "$prog: gnuplot failed:" >&2
	cat "$tmp/gnuplot.err" >&2
	exit 2
fi
echo "$prog: $count reconfigurations plotted to $out"
