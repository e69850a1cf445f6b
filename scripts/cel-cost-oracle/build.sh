#!/usr/bin/env bash
# Build the CEL cost oracle (main.go) in GOPATH mode from Debian unstable (sid) packages only:
# Go 1.26, golang-k8s-apiextensions-apiserver-dev and golang-k8s-apiserver-dev 0.36.4 (Kubernetes'
# own CEL compilation and cost estimators; Debian builds them against cel.dev/cel-go 0.32.0) and
# their dependencies. The .debs are fetched through a private apt configuration under ROOT and
# unpacked there with `dpkg -x`: nothing is installed, nothing under /etc or /usr is touched
# (the same way as the trixie oracle build). About 270 MB of packages, a minute or two.
#   build.sh [ROOT] [OUT]      defaults: /tmp/gooracle-sid /tmp/cel-cost-oracle
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="${1:-/tmp/gooracle-sid}"
OUT="${2:-/tmp/cel-cost-oracle}"
GO=golang-1.26
if [ ! -x "$ROOT/root/usr/lib/go-1.26/bin/go" ]; then
  mkdir -p "$ROOT"/apt/{lists/partial,cache/archives/partial,etc/preferences.d} "$ROOT/debs" "$ROOT/root"
  touch "$ROOT/apt/status"
  # reuse the Debian mirror this machine's apt already points at
  MIRROR=$(grep -hoE '^URIs: *[^ ]+/debian$' /etc/apt/sources.list.d/*.sources 2>/dev/null | head -1 | awk '{print $2}')
  [ -n "$MIRROR" ] || MIRROR=$(grep -hoE '^deb +[^ ]+/debian ' /etc/apt/sources.list 2>/dev/null | head -1 | awk '{print $2}')
  printf 'deb %s sid main\n' "$MIRROR" > "$ROOT/apt/etc/sources.list"
  APT=(-o Dir::Etc::SourceList="$ROOT/apt/etc/sources.list" -o Dir::Etc::SourceParts=/nonexistent
       -o Dir::State::Lists="$ROOT/apt/lists" -o Dir::Cache="$ROOT/apt/cache"
       -o Dir::State::Status="$ROOT/apt/status" -o Dir::Etc::Preferences="$ROOT/apt/etc/preferences"
       -o Dir::Etc::PreferencesParts="$ROOT/apt/etc/preferences.d")
  apt-get "${APT[@]}" update -qq
  DEPS=$(apt-cache "${APT[@]}" depends --recurse --no-recommends --no-suggests --no-conflicts \
          --no-breaks --no-replaces --no-enhances golang-k8s-apiextensions-apiserver-dev \
          | grep -E '^golang-[a-z0-9.+-]*-dev$' | sort -u)
  cd "$ROOT/debs"
  apt-get "${APT[@]}" download $DEPS "$GO-go" "$GO-src" >/dev/null
  for f in *.deb; do dpkg -x "$f" "$ROOT/root"; done
fi
GP="$(mktemp -d)"
trap 'rm -rf "$GP"' EXIT
mkdir -p "$GP/src/cel-cost-oracle"
cp "$HERE/main.go" "$GP/src/cel-cost-oracle/"
export GOROOT="$ROOT/root/usr/lib/go-1.26" PATH="$ROOT/root/usr/lib/go-1.26/bin:$PATH" GOTOOLCHAIN=local
cd "$GP/src/cel-cost-oracle"
GO111MODULE=off GOFLAGS= GOPATH="$GP:$ROOT/root/usr/share/gocode" GOCACHE="$ROOT/cache" go build -o "$OUT" .
echo "built $OUT"
