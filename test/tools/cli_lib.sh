# cli_lib.sh - what the CLI tests share, sourced once top_srcdir is set;
# the test then sets tool (the program run) and name (for the messages).
# Runs the tool, judges its exit status and output, counts the verdicts.
: "${top_builddir:=$top_srcdir}"
data="$top_srcdir/test/data"
out=$(mktemp) || exit 1		# the last output; the test removes it
failed=0
passed=0

# tally STATUS MESSAGE FILE: one verdict; a STATUS other than 0 fails,
# with MESSAGE and FILE's content
tally() {
	if [ "$1" = 0 ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: $2"
		cat "$3"
		failed=$((failed + 1))
	fi
}

expect() {	# expect STATUS PATTERN -- ARGS...
	want=$1 pattern=$2
	shift 3
	"$tool" "$@" > "$out" 2>&1
	got=$?
	[ "$got" = "$want" ] && grep -q -- "$pattern" "$out"
	tally $? "$name $*: status $got (want $want), pattern '$pattern'" \
		"$out"
}

# the last command of a test: the counts, and its exit status
summary() {
	echo "$passed passed, $failed failed"
	[ "$failed" = 0 ]
}
