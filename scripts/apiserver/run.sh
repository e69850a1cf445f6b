#!/usr/bin/env bash
# Records the exchanges `topoplan plan --live` makes with a real kube-apiserver into
# testdata/live/apiserver/ (replayed by tests/live.rs): starts etcd and the kube-apiserver
# build.sh built on 127.0.0.1 only, installs Cluster API's CRDs (data/crds) and the providers'
# (testdata/crds), the fleet of testdata/live/README.md, and the read-only ClusterRole of
# docs/live.md for a user `reader` (and one without ExtensionConfigs for a 403), then plans the
# change through record.py, which writes every exchange down. Stops everything it started.
#
#   cargo build && scripts/apiserver/run.sh [ROOT]      ROOT: build.sh's, /tmp/topoplan-apiserver
#
# Needs openssl, curl and python3 with PyYAML.
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
ROOT="${1:-/tmp/topoplan-apiserver}"
TOPOPLAN="${TOPOPLAN:-$REPO/target/debug/topoplan}"
OUT="$REPO/testdata/live/apiserver"
W="$(mktemp -d)"
PIDS=()
cleanup() { for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; mkdir -p "$ROOT/logs"; cp "$W"/*.log "$ROOT/logs/" 2>/dev/null || true; rm -rf "$W"; }
trap cleanup EXIT
ETCD_PORT=23791 API_PORT=16443 REC_PORT=16444

# A CA, the API server's and the recorder's serving certificates, a service-account key.
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$W/ca.key" -out "$W/ca.crt" -subj /CN=topoplan-test-ca -days 1 2>/dev/null
printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' > "$W/ext"
for c in server recorder; do
  openssl req -newkey rsa:2048 -nodes -keyout "$W/$c.key" -out "$W/$c.csr" -subj "/CN=$c" 2>/dev/null
  openssl x509 -req -in "$W/$c.csr" -CA "$W/ca.crt" -CAkey "$W/ca.key" -CAcreateserial -out "$W/$c.crt" -days 1 -extfile "$W/ext" 2>/dev/null
done
openssl genrsa -out "$W/sa.key" 2048 2>/dev/null
openssl rsa -in "$W/sa.key" -pubout -out "$W/sa.pub" 2>/dev/null
printf 'admin-token,admin,1,"system:masters"\nreader-token,reader,2\nnoext-token,noext,3\n' > "$W/tokens.csv"

"$ROOT/bin/etcd" --data-dir "$W/etcd" --listen-client-urls "http://127.0.0.1:$ETCD_PORT" \
  --advertise-client-urls "http://127.0.0.1:$ETCD_PORT" --listen-peer-urls http://127.0.0.1:23801 \
  --initial-advertise-peer-urls http://127.0.0.1:23801 --initial-cluster default=http://127.0.0.1:23801 \
  > "$W/etcd.log" 2>&1 &
PIDS+=($!)
"$ROOT/bin/kube-apiserver" --etcd-servers "http://127.0.0.1:$ETCD_PORT" --bind-address 127.0.0.1 \
  --advertise-address 127.0.0.1 --secure-port "$API_PORT" --tls-cert-file "$W/server.crt" \
  --tls-private-key-file "$W/server.key" --token-auth-file "$W/tokens.csv" --authorization-mode RBAC \
  --service-account-key-file "$W/sa.pub" --service-account-signing-key-file "$W/sa.key" \
  --service-account-issuer https://kubernetes.default.svc --service-cluster-ip-range 10.0.0.0/24 \
  --cert-dir "$W/certs" --enable-priority-and-fairness=false > "$W/apiserver.log" 2>&1 &
PIDS+=($!)
API="https://127.0.0.1:$API_PORT"
for i in $(seq 1 120); do
  curl -sf --cacert "$W/ca.crt" -H "Authorization: Bearer admin-token" "$API/readyz" >/dev/null 2>&1 && break
  sleep 1
  [ "$i" = 120 ] && { tail -20 "$W/apiserver.log"; exit 1; }
done
echo "kube-apiserver ready: $(curl -sf --cacert "$W/ca.crt" -H "Authorization: Bearer admin-token" "$API/version" | tr -d '\n ')"

# The read-only ClusterRole of docs/live.md for `reader`; `noext` lacks ExtensionConfigs.
python3 - "$REPO/docs/live.md" > "$W/rbac.yaml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
print(re.search(r"## A read-only ClusterRole\n\n```yaml\n(.*?)```", text, re.S).group(1)
      .replace("kind: ServiceAccount\n  name: topoplan\n  namespace: ci", "kind: User\n  name: reader\n  apiGroup: rbac.authorization.k8s.io"))
PY
python3 - "$W/rbac.yaml" > "$W/rbac-noext.yaml" <<'PY'
import sys
t = open(sys.argv[1]).read().replace("topoplan-reader", "topoplan-noext").replace("  - runtime.cluster.x-k8s.io\n", "").replace("name: reader", "name: noext")
print(t)
PY
rbac() {
  python3 -c '
import json, sys, yaml
for d in yaml.safe_load_all(open(sys.argv[1])):
    if d: print(json.dumps(d))' "$1" | while read -r doc; do
    kind=$(echo "$doc" | python3 -c 'import json,sys; print(json.load(sys.stdin)["kind"].lower()+"s")')
    curl -sS --cacert "$W/ca.crt" -H "Authorization: Bearer admin-token" -H "Content-Type: application/json" \
      -X POST --data-binary "$doc" "$API/apis/rbac.authorization.k8s.io/v1/$kind" -o "$W/rbac.out" -w "$kind %{http_code}\n"
  done
}
rbac "$W/rbac.yaml"
rbac "$W/rbac-noext.yaml"

# CRDs, then the fleet.
python3 "$HERE/fleet.py" "$API" "$W/ca.crt" admin-token "$REPO/data/crds/cluster-api.json" \
  "$REPO"/testdata/crds/{capd,kubeadm-bootstrap,kubeadm-control-plane}.yaml \
  "$REPO"/testdata/examples/quick-start/{clusterclass,templates}.yaml \
  "$REPO"/testdata/current/base/*.yaml "$REPO"/testdata/live/fleet/*.yaml > "$W/fleet.log"
grep -cE ' 201 ' "$W/fleet.log" | sed 's/^/objects created: /'

# The change (tests/live.rs's): one worker template's image.
mkdir -p "$W/change"
python3 - "$REPO/testdata/examples/quick-start/templates.yaml" > "$W/change/templates.yaml" <<'PY'
import sys
t = open(sys.argv[1]).read()
old = "  name: docker-small-worker\n  namespace: fleet\nspec:\n  template:\n    spec:\n      customImage: kindest/node:v1.34.1\n"
assert t.count(old) == 1
print(t.replace(old, old.replace("v1.34.1", "v1.34.2")), end="")
PY
mkdir -p "$OUT"
record() { # NAME TOKEN
  python3 "$HERE/record.py" "$REC_PORT" "$W/recorder.crt" "$W/recorder.key" "$API" "$W/ca.crt" \
    "$OUT/$1.json" "$ROOT/bin/etcdctl" "http://127.0.0.1:$ETCD_PORT" machinehealthchecks &
  local rec=$!
  sleep 1
  cat > "$W/kubeconfig" <<KC
apiVersion: v1
kind: Config
current-context: test
clusters: [{name: mgmt, cluster: {server: "https://127.0.0.1:$REC_PORT", certificate-authority: "$W/ca.crt"}}]
users: [{name: u, user: {token: $2}}]
contexts: [{name: test, context: {cluster: mgmt, user: u}}]
KC
  (cd "$W" && "$TOPOPLAN" plan -f change --kubeconfig kubeconfig -o json > "$W/$1.out" 2> "$W/$1.err") || true
  kill "$rec"; wait "$rec" 2>/dev/null || true
  echo "$1: $(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))), "exchanges")' "$OUT/$1.json"); $(head -c 300 "$W/$1.err")"
}
record recording reader-token
record forbidden noext-token
