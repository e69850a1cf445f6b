#!/usr/bin/env bash
# Build the Kubernetes-flavoured CEL oracle: /work/shared/oracle/celoracle with the Kubernetes
# base environment's CrossTypeNumericComparisons(true) and HomogeneousAggregateLiterals(), in
# GOPATH mode from the Debian trixie Go packages /work/shared/oracle/build-trixie.sh unpacks.
#   build.sh [TRIXIE_ROOT] [OUT]      defaults: /tmp/gooracle-trixie /tmp/celoracle-k8s
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ROOT="${1:-/tmp/gooracle-trixie}"
OUT="${2:-/tmp/celoracle-k8s}"
GP="$(mktemp -d)"
mkdir -p "$GP/src/celoracle-k8s"
cp "$HERE/main.go" "$GP/src/celoracle-k8s/"
export GOROOT="$ROOT/root/usr/lib/go-1.24" PATH="$ROOT/root/usr/lib/go-1.24/bin:$PATH" GOTOOLCHAIN=local
cd "$GP/src/celoracle-k8s"
GO111MODULE=off GOFLAGS= GOPATH="$GP:$ROOT/gopath:$ROOT/root/usr/share/gocode" GOCACHE="$ROOT/cache" go build -o "$OUT" .
rm -rf "$GP"
echo "built $OUT"
