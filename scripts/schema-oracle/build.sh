#!/usr/bin/env bash
# Build the schema oracle in GOPATH mode from Debian trixie's Go packages (see
# /work/shared/oracle/build-trixie.sh for how they are unpacked) plus kube-openapi at the commit
# Cluster API main vendors (v0.0.0-20260317180543-43fb72c5454a), taken from a git mirror.
#   build.sh [KUBE_OPENAPI_GIT_DIR] [TRIXIE_ROOT] [OUT]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
KO_GIT="${1:-/work/.mirror/kubernetes+kube-openapi/repo}"
ROOT="${2:-/tmp/gooracle-trixie}"
OUT="${3:-/tmp/schema-oracle}"
GP="$(mktemp -d)"
mkdir -p "$GP/src/k8s.io/kube-openapi" "$GP/src/schema-oracle"
git -C "$KO_GIT" archive 43fb72c5454a pkg/validation pkg/internal | tar -x -C "$GP/src/k8s.io/kube-openapi"
cp "$HERE/main.go" "$GP/src/schema-oracle/"
export GOROOT="$ROOT/root/usr/lib/go-1.24" PATH="$ROOT/root/usr/lib/go-1.24/bin:$PATH" GOTOOLCHAIN=local
cd "$GP/src/schema-oracle"
GO111MODULE=off GOFLAGS= GOPATH="$GP:$ROOT/root/usr/share/gocode" GOCACHE="$ROOT/cache" go build -o "$OUT" .
rm -rf "$GP"
echo "built $OUT"
