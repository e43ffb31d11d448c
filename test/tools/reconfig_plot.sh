#!/bin/sh
# reconfig_plot.sh - scripts/dqr-reconfig-plot.sh turns the plugin's
# records (test/data/dqr-reconfig.log, kept from dqr_faults_kary.sh) into
# a plot and its table; a reconfiguration that was not uploaded is
# marked; without gnuplot it says so and exits 2.
set -u
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$top_srcdir/test/tools/cli_lib.sh"
tool="$top_srcdir/scripts/dqr-reconfig-plot.sh"
name=dqr-reconfig-plot
dir=$(mktemp -d) || exit 1
trap 'rm -rf "$out" "$dir"' EXIT
log="$data/dqr-reconfig.log"

if ! command -v gnuplot >/dev/null 2>&1; then
	echo "SKIP: gnuplot is not installed"
	exit 77
fi
expect 0 "5 reconfigurations plotted to $dir/r.png" -- -d "$dir/r.dat" \
	"$log" "$dir/r.png"
[ -s "$dir/r.png" ] && [ "$(head -c 4 "$dir/r.png" | tail -c 3)" = PNG ]
tally $? "no PNG image in $dir/r.png" "$out"
# the table: five reconfigurations, ids 1 to 5, all ok and uploaded,
# reconfiguration 1 changed 109 entries in a transition of 2 stages
awk -F '\t' '!/^#/ { n++; ids = ids $1; ok += $3 == 0 && $8 == 1 }
	!/^#/ && $1 == 1 && ($6 != 109 || $7 != 2) { bad = 1 }
	END { exit bad || n != 5 || ids != "12345" || ok != 5 }' "$dir/r.dat"
tally $? "table of $log is not the five reconfigurations" "$dir/r.dat"
# a reconfiguration not uploaded: outcome other, handed_ms null
four='"cables_down":4'
l7='"links_failed":\[{"a":{"desc":"sw-L1-0007"'
sed "s/\"outcome\":\"ok\",$four/\"outcome\":\"no legal route\",$four/
     s/\"handed_ms\":[0-9.]*,$l7/\"handed_ms\":null,$l7/" \
	"$log" > "$dir/bad.log"
expect 0 "plotted to $dir/bad.svg" -- -d "$dir/bad.dat" "$dir/bad.log" \
	"$dir/bad.svg"
grep -q "<svg" "$dir/bad.svg"
tally $? "no SVG image in $dir/bad.svg" "$out"
awk -F '\t' '$1 == 4 && $3 == 1 && $4 == "NaN" && $8 == 0 { ok = 1 }
	END { exit !ok }' "$dir/bad.dat"
tally $? "reconfiguration 4 not marked as not uploaded" "$dir/bad.dat"
# bad input and a machine without gnuplot: status 2, said
expect 2 "cannot read $dir/none" -- "$dir/none"
expect 2 "usage:" --
grep '"transition"' "$log" > "$dir/tr.log"
expect 2 "no reconfiguration records in" -- "$dir/tr.log" "$dir/tr.png"
mkdir "$dir/bin"
for t in awk sh mktemp rm grep basename cat; do
	p=$(command -v "$t") && ln -s "$p" "$dir/bin/$t"
done
opath=$PATH
PATH="$dir/bin"
expect 2 "gnuplot is not installed" -- "$log" "$dir/x.png"
PATH=$opath
[ ! -e "$dir/x.png" ]
tally $? "a plot without gnuplot" "$out"
summary
