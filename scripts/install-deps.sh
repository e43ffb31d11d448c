#!/bin/sh
# install-deps.sh - the Debian packages osm-dqr builds and tests with.
set -e
PKGS="build-essential autoconf automake libtool pkg-config \
opensm libopensm-dev ibsim-utils infiniband-diags libibumad-dev ibutils \
libjson-c-dev \
valgrind gnuplot-nox debhelper clang"

missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
echo "installing:$missing"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
