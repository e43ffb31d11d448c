#!/bin/sh
# head_comments.sh - every function of lib/ that is not trivial says what
# it does and why before it starts, as Linux's lib/sort.c does.
#
# The rule, read from the source text in OpenSM's layout (a definition's
# "{" and "}" alone in column 0):
# - a static function whose body has more than MAX lines (12; the
#   environment's DQR_HEAD_MAX overrides) has a comment ending on the line
#   right above its definition;
# - a function other files call (not static) has one there, or above its
#   declaration in a header of lib/ (a comment may cover a group of
#   declarations with no blank line between them).
# A section rule ("/* ---- name */") is not a head comment.  Whether the
# comment says why is for the reviewer; that it is there is checked here.
#
# The rule is first run on a small tree made here, whose offenders are
# known, so that a change that blinds it fails too.
#
# Exit 0 when every such function has one; 1 with a line per function
# that lacks it: FILE:LINE: NAME (N lines).
set -u
max=${DQR_HEAD_MAX:-12}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# scan ROOT: the offenders under ROOT/lib, a line each.
scan() {
	(
	cd "$1" || exit 1
	# The functions declared in lib/'s headers under a comment, a name a
	# line.  covered: the declarations since the last comment, blank line
	# or other code share that comment.
	awk '
		FNR == 1 { covered = 0; in_decl = 0 }
		/^[ \t]*$/ { covered = 0; in_decl = 0; next }
		/\*\/[ \t]*$/ && !/^\/\* -+/ {
			covered = 1
			in_decl = 0
			next
		}
		/^[A-Za-z_]/ && /\(/ && !/^(#|typedef|struct [a-z_0-9]+ \{)/ {
			s = $0
			sub(/\(.*/, "", s)
			n = split(s, w, /[^A-Za-z_0-9]+/)
			if (covered && w[n] != "")
				print w[n]
			in_decl = ($0 !~ /;[ \t]*$/)
			next
		}
		/^[ \t]/ && in_decl { if ($0 ~ /;[ \t]*$/) in_decl = 0; next }
		{ covered = 0; in_decl = 0 }
	' lib/*/*.h | sort -u > "$tmp/declared"

	find lib -name '*.[ch]' | sort | xargs awk -v max="$max" \
		-v decl="$tmp/declared" '
		BEGIN {
			while ((getline l < decl) > 0)
				declared[l] = 1
		}
		FNR == 1 {
			if (NR > 1)
				judge()
			delete line
			file = FILENAME
		}
		{ line[FNR] = $0; last = FNR }
		END { judge() }

		function judge(    i, k, start, sig, name, body, pub, ok, n,
				   w, s) {
			for (i = 1; i <= last; i++) {
				if (line[i] != "{")
					continue
				# the signature: continuation lines, then its
				# first line
				k = i - 1
				while (k > 0 && line[k] ~ /^[ \t]/)
					k--
				if (k < 1 || line[k] !~ /^[A-Za-z_]/ ||
				    line[k] ~ /=/)
					continue
				start = k
				# a return type on a line of its own
				if (k > 1 &&
				    line[k - 1] ~ /^[A-Za-z_][A-Za-z_0-9 *]*$/)
					start = k - 1
				sig = ""
				for (k = start; k < i; k++)
					sig = sig " " line[k]
				if (sig !~ /\(/)
					continue
				s = sig
				sub(/\(.*/, "", s)
				n = split(s, w, /[^A-Za-z_0-9]+/)
				name = w[n]
				for (k = i + 1; k <= last && line[k] != "}"; k++)
					;
				body = k - i - 1
				pub = (sig !~ /(^| )static /)
				ok = (start > 1 &&
				      line[start - 1] ~ /\*\/[ \t]*$/ &&
				      line[start - 1] !~ /^\/\* -+/)
				if (!ok && pub && (name in declared))
					ok = 1
				if (!ok && (pub || body > max))
					printf "%s:%d: %s (%d lines)\n", file,
					       start, name, body
			}
		}'
	)
}

# The rule on a tree whose offenders are known: x_bare (public, no
# comment anywhere), long_bare (static, long) and long_ruled (under a
# section rule only); not the others.
mkdir -p "$tmp/t/lib/x" || exit 1
body=$(i=0; while [ $i -lt $((max + 1)) ]; do
	printf '\tx++;\n'
	i=$((i + 1))
done)
cat > "$tmp/t/lib/x/x.h" <<EOF
/* One comment for two declarations. */
int x_group1(void);
int x_group2(void);

int x_bare(void);
EOF
cat > "$tmp/t/lib/x/x.c" <<EOF
int x_group1(void)
{
	return 1;
}

int x_group2(void)
{
	return 2;
}

int x_bare(void)
{
	return 3;
}

/* Says why. */
int x_here(void)
{
	return 4;
}

static int short_bare(void)
{
	return 5;
}

static int long_bare(int x)
{
$body
	return x;
}

/* Says why it is long. */
static int
long_commented(int x)
{
$body
	return x;
}

/* ---------------------------------------------------------------- part */

static int long_ruled(int x)
{
$body
	return x;
}
EOF
got=$(scan "$tmp/t" | sed 's/^[^ ]* \([a-z_0-9]*\) .*/\1/' | sort | tr '\n' ' ')
if [ "$got" != "long_bare long_ruled x_bare " ]; then
	echo "head_comments: the rule is broken: on its own sample it" \
	     "finds '$got', not 'long_bare long_ruled x_bare '"
	exit 1
fi

scan "${top_srcdir:-.}" > "$tmp/out"
if [ -s "$tmp/out" ]; then
	sed 's/^/head_comments: /' "$tmp/out"
	echo "head_comments: $(wc -l < "$tmp/out") functions of lib/" \
	     "without a head comment (static ones: over $max lines)"
	exit 1
fi
echo "head_comments: ok"
exit 0
