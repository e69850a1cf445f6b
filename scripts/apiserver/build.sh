#!/usr/bin/env bash
# Builds kube-apiserver (Kubernetes 1.20.2, Debian bookworm's `kubernetes` source package, whose
# vendor/ makes it build offline) with Debian's Go 1.19, and fetches Debian's etcd 3.4, for
# run.sh. Debian packages only, through a private apt configuration under $ROOT: nothing under
# /etc or /usr is touched, nothing is installed.
#
#   scripts/apiserver/build.sh [ROOT]      default ROOT: /tmp/topoplan-apiserver
#
# Gives $ROOT/bin/kube-apiserver, $ROOT/bin/etcd, $ROOT/bin/etcdctl. Took 6 minutes from an empty ROOT on two
# cores (Kubernetes' code generators run first, then the build; about 130 MB of packages and source are downloaded).
set -euo pipefail
ROOT="${1:-/tmp/topoplan-apiserver}"
mkdir -p "$ROOT"/apt/{lists/partial,cache/archives/partial,etc/preferences.d} "$ROOT"/{debs,root,src,bin,home}
touch "$ROOT/apt/status"
# The Debian mirror this machine's apt already uses.
MIRROR=$(grep -hoE '^URIs: *[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}' || true)
[ -n "$MIRROR" ] || MIRROR=$(grep -hoE '^deb +[^ ]+/debian ' /etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}' || true)
[ -n "$MIRROR" ] || MIRROR=http://deb.debian.org/debian
printf 'deb %s bookworm main\ndeb-src %s bookworm main\n' "$MIRROR" "$MIRROR" > "$ROOT/apt/etc/sources.list"
APT=(-o Dir::Etc::SourceList="$ROOT/apt/etc/sources.list" -o Dir::Etc::SourceParts=/nonexistent
     -o Dir::State::Lists="$ROOT/apt/lists" -o Dir::Cache="$ROOT/apt/cache"
     -o Dir::State::Status="$ROOT/apt/status" -o Dir::Etc::Preferences="$ROOT/apt/etc/preferences"
     -o Dir::Etc::PreferencesParts="$ROOT/apt/etc/preferences.d")
apt-get "${APT[@]}" update -qq
(cd "$ROOT/debs" && apt-get "${APT[@]}" download golang-1.19-go golang-1.19-src etcd-server etcd-client rsync libpopt0 \
  golang-github-modern-go-reflect2-dev)
for f in "$ROOT"/debs/*.deb; do dpkg -x "$f" "$ROOT/root"; done
(cd "$ROOT/src" && apt-get "${APT[@]}" source --download-only kubernetes)
rm -rf "$ROOT/src/kubernetes-1.20.2"
tar xzf "$ROOT"/src/kubernetes_*.orig.tar.gz -C "$ROOT/src"
# Kubernetes 1.20 vendors modern-go/reflect2 1.0.1, whose map handling crashes under Go >= 1.18
# (a nil dereference the first time a request body with a map is decoded, e.g. creating a
# ClusterRoleBinding); Debian's 1.0.2 is the fix.
R="$ROOT/src/kubernetes-1.20.2/vendor/github.com/modern-go/reflect2"
rm -rf "${R:?}"/* && cp -r "$ROOT/root/usr/share/gocode/src/github.com/modern-go/reflect2/." "$R/"
# Kubernetes' Makefile builds its code generators (rsync copies them out), then the binary.
export GOROOT="$ROOT/root/usr/lib/go-1.19" GOTOOLCHAIN=local GOPROXY=off GOFLAGS= CGO_ENABLED=0
export PATH="$GOROOT/bin:$ROOT/root/usr/bin:$PATH" LD_LIBRARY_PATH="$ROOT/root/usr/lib/x86_64-linux-gnu"
export GOCACHE="$ROOT/gocache" HOME="$ROOT/home"
(cd "$ROOT/src/kubernetes-1.20.2" && nice -n 10 make WHAT=cmd/kube-apiserver KUBE_BUILD_PLATFORMS=linux/amd64)
cp "$ROOT/src/kubernetes-1.20.2/_output/bin/kube-apiserver" "$ROOT/bin/"
cp "$ROOT/root/usr/bin/etcd" "$ROOT/root/usr/bin/etcdctl" "$ROOT/bin/"
echo "built $ROOT/bin/kube-apiserver; etcd in $ROOT/bin"
