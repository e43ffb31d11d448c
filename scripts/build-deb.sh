#!/bin/sh
# build-deb.sh [OUTDIR] - build the Debian package osm-dqr in a temporary
# copy of the tree (what a fresh clone holds, plus files not committed yet)
# and leave the .deb in OUTDIR (default: build-deb).  Checks that the
# package depends on exactly the opensm it was built against.  Then, as
# root, scripts/deb-smoke.sh installs it, has the stock opensm load the
# installed plugin on an emulated fabric, and removes it again
# (DQR_DEB_SMOKE=0 skips that; without root or ibsim it skips itself).
#
# Never run dpkg-buildpackage in the work tree itself: its clean step
# deletes configure and the other files autoreconf made.
set -e
top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$top/build-deb}
mkdir -p "$out"
out=$(cd "$out" && pwd)

fail() {
	echo "build-deb: $*" >&2
	exit 1
}

for t in dpkg-buildpackage dh; do
	command -v "$t" > /dev/null ||
		fail "$t missing (apt-get install dpkg-dev debhelper)"
done

# debian/changelog and configure.ac must name the same version
deb_version=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
ac_version=$(sed -n 's/^AC_INIT(\[osm-dqr\], \[\([^]]*\)\].*/\1/p' \
	"$top/configure.ac")
[ "$deb_version" = "$ac_version" ] ||
	fail "debian/changelog says $deb_version, configure.ac $ac_version"

# the exact opensm: libopensm-dev's version is the one built against, and
# an installed opensm must be the same build or the package won't install
want=$(dpkg-query -W -f='${Version}' libopensm-dev 2>/dev/null) ||
	fail "libopensm-dev is not installed"
have=$(dpkg-query -W -f='${Version}' opensm 2>/dev/null || true)
[ -z "$have" ] || [ "$have" = "$want" ] ||
	fail "opensm $have and libopensm-dev $want differ"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/osm-dqr-deb.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
src="$tmp/osm-dqr-$deb_version"
mkdir "$src"
if git -C "$top" rev-parse --is-inside-work-tree > /dev/null 2>&1; then
	# tracked and untracked files, not the ignored ones (builds,
	# configure); a tracked file deleted in the tree stays out
	(cd "$top" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2> /dev/null) |
		tar -C "$src" -xf -
else
	tar -C "$top" --exclude='./build*' --exclude=./debian/build -cf - . |
		tar -C "$src" -xf -
fi

(cd "$src" && dpkg-buildpackage -us -uc -b -Jauto) \
	> "$tmp/build.log" 2>&1 || {
	tail -60 "$tmp/build.log"
	fail "dpkg-buildpackage failed"
}
cp "$tmp/build.log" "$out/build.log"

deb=$(ls "$tmp"/osm-dqr_"$deb_version"_*.deb)
cp "$tmp"/*.deb "$tmp"/*.buildinfo "$tmp"/*.changes "$out"/
deb="$out/$(basename "$deb")"

depends=$(dpkg-deb -f "$deb" Depends)
case ", $depends," in
*", opensm (= $want),"*) ;;
*) fail "Depends '$depends' lacks 'opensm (= $want)'" ;;
esac
files=$(dpkg-deb -c "$deb")
echo "$files" | grep -q "/usr/lib/.*/libosmdqr\.so$" ||
	fail "no libosmdqr.so in $deb"
! echo "$files" | grep -q '\.la$\|\.a$' ||
	fail "libtool archive or static library in $deb"
echo "build-deb: $deb (Depends: $depends)"

[ "${DQR_DEB_SMOKE:-1}" = 0 ] && exit 0
st=0
sh "$top/scripts/deb-smoke.sh" "$deb" || st=$?
case $st in
0) echo "build-deb: installed, loaded by opensm, removed" ;;
77) echo "build-deb: smoke test of the installed package skipped" ;;
*) fail "the installed package failed its smoke test" ;;
esac
