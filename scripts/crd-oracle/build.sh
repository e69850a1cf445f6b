#!/usr/bin/env bash
# Build the CRD oracle in GOPATH mode: Debian trixie's Go 1.24 and Go packages (unpacked, never
# installed, by /work/shared/oracle/build-trixie.sh), Debian's golang-k8s-apimachinery-dev 0.32.3
# and its dependencies unpacked the same way (see below), kube-openapi at the commit the schema
# oracle uses, and k8s.io/apiextensions-apiserver v0.34.9 from a git mirror: the API types, the
# structural schema, pruning, defaulting, ObjectMeta coercion and list-type packages only (the CEL
# and OpenAPI-validator packages need k8s.io/apiserver and a newer cel-go than Debian has).
#   build.sh [APIEXT_GIT_DIR] [KUBE_OPENAPI_GIT_DIR] [TRIXIE_ROOT] [OUT]
#
# apimachinery is not among build-trixie.sh's packages; add it to the same root with
#   R=/tmp/gooracle-trixie; APT=(-o Dir::Etc::SourceList="$R/apt/etc/sources.list" ...as there...)
#   apt-get "${APT[@]}" download $(apt-cache "${APT[@]}" depends --recurse --no-recommends \
#     --no-suggests --no-conflicts --no-breaks --no-replaces --no-enhances \
#     golang-k8s-apimachinery-dev | grep -E '^golang-[a-z0-9.+-]*-dev$' | sort -u)
#   for f in *.deb; do dpkg -x "$f" "$R/root"; done
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
AE_GIT="${1:-/work/.mirror/kubernetes+apiextensions-apiserver/repo}"
KO_GIT="${2:-/work/.mirror/kubernetes+kube-openapi/repo}"
ROOT="${3:-/tmp/gooracle-trixie}"
OUT="${4:-/tmp/crd-oracle}"
AE_TAG=v0.34.9
GP="$(mktemp -d)"
trap 'rm -rf "$GP"' EXIT
mkdir -p "$GP/src/k8s.io/kube-openapi" "$GP/src/k8s.io/apiextensions-apiserver" "$GP/src/crd-oracle"
git -C "$KO_GIT" archive 43fb72c5454a pkg/validation pkg/internal | tar -x -C "$GP/src/k8s.io/kube-openapi"
git -C "$AE_GIT" archive "$AE_TAG" pkg/apis/apiextensions pkg/apiserver/schema \
  | tar -x -C "$GP/src/k8s.io/apiextensions-apiserver"
AE="$GP/src/k8s.io/apiextensions-apiserver/pkg"
# Only what the oracle imports: no fuzzers, installers, v1beta1, API validation, CEL, or the
# defaulting package's CEL-based default validation.
rm -rf "$AE/apis/apiextensions/"{fuzzer,install,v1beta1,validation} "$AE/apiserver/schema/cel" \
  "$AE/apiserver/schema/defaulting/validation.go"
find "$AE" -name '*_test.go' -delete
cp "$HERE/main.go" "$GP/src/crd-oracle/"
export GOROOT="$ROOT/root/usr/lib/go-1.24" PATH="$ROOT/root/usr/lib/go-1.24/bin:$PATH" GOTOOLCHAIN=local
cd "$GP/src/crd-oracle"
GO111MODULE=off GOFLAGS= GOPATH="$GP:$ROOT/root/usr/share/gocode" GOCACHE="$ROOT/cache" go build -o "$OUT" .
echo "built $OUT"
