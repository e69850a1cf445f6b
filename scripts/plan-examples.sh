#!/usr/bin/env bash
# Plan every ClusterClass of the shared examples with all its patches, the Runtime SDK one
# against the test extension (examples/test-extension.rs on 127.0.0.1), and check that each
# plan succeeds with no "patches skipped" warning and no template lint warning. Then time the Runtime SDK plan, and 200
# Clusters of it against an extension that takes 20 ms per call (as a remote one would), where
# Clusters calling extensions are planned 16 at a time so their calls overlap. Usage:
#   scripts/plan-examples.sh [EXAMPLES_DIR]     default: ../shared/examples
# Needs a release build (made here) and hyperfine for the timings.
set -euo pipefail
cd "$(dirname "$0")/.."
examples=$(realpath "${1:-../shared/examples}")
[ -d "$examples" ] || { echo "no examples directory at $examples" >&2; exit 1; }

cargo build --release --quiet --bin topoplan --example test-extension
bin=$PWD/target/release/topoplan
ext_bin=$PWD/target/release/examples/test-extension

log=$(mktemp)
"$ext_bin" --quiet >"$log" 2>&1 &
ext_pid=$!
trap 'kill $ext_pid 2>/dev/null; rm -f "$log"' EXIT
for _ in $(seq 50); do grep -q listening "$log" && break; sleep 0.1; done
url=$(sed -n 's/^listening on //p' "$log")
[ -n "$url" ] || { echo "the test extension did not start" >&2; cat "$log" >&2; exit 1; }
echo "test extension at $url"

failures=0
plan() { # DIR CLASS CLUSTER [extra args...]
  local dir=$1 class=$2 cluster=$3; shift 3
  local err
  err=$(mktemp)
  if (cd "$examples/$dir" && "$bin" plan --substitute --env-file vars.env -f "$class" -f "$cluster" "$@" \
        --output json >/dev/null 2>"$err") && ! grep -qi "skipped" "$err" \
        && ! grep -q "topoplan::template::" "$err"; then
    echo "ok   $dir/$cluster"
  else
    echo "FAIL $dir/$cluster"; sed 's/^/     /' "$err"; failures=$((failures + 1))
  fi
  rm -f "$err"
}
for dir in dev-quick-start dev-quick-start-v1.10; do
  for cluster in cluster-template-development.yaml cluster-template-development-mp.yaml; do
    plan "$dir" clusterclass-quick-start.yaml "$cluster"
  done
done
sdk_ext="k8s-upgrade-with-runtimesdk=$url"
for cluster in cluster-runtimesdk.yaml cluster-topology-kubeadm-version.yaml; do
  plan e2e-quick-start-runtimesdk clusterclass-quick-start-runtimesdk.yaml "$cluster" --extension "$sdk_ext"
done
echo "$failures failure(s)"

if command -v hyperfine >/dev/null; then
  sdk="$examples/e2e-quick-start-runtimesdk"
  (cd "$sdk" && hyperfine -N --warmup 5 --runs 40 \
    "$bin plan --substitute --env-file vars.env -f clusterclass-quick-start-runtimesdk.yaml -f cluster-runtimesdk.yaml --extension $sdk_ext")

  slow_log=$(mktemp)
  "$ext_bin" --quiet --delay-ms 20 >"$slow_log" 2>&1 &
  slow_pid=$!
  trap 'kill $ext_pid $slow_pid 2>/dev/null; rm -f "$log" "$slow_log"' EXIT
  for _ in $(seq 50); do grep -q listening "$slow_log" && break; sleep 0.1; done
  slow_url=$(sed -n 's/^listening on //p' "$slow_log")
  fleet=target/bench/sdk-fleet-200.yaml
  mkdir -p target/bench
  { cat "$sdk/clusterclass-quick-start-runtimesdk.yaml"
    for i in $(seq 1 200); do echo "---"; sed -e "s/\${CLUSTER_NAME}/sdk-$i/g" "$sdk/cluster-runtimesdk.yaml"; done
  } >"$fleet"
  hyperfine -N --warmup 1 --runs 3 --output=null \
    "$bin plan --substitute --env-file $sdk/vars.env -f $fleet --extension k8s-upgrade-with-runtimesdk=$slow_url --output json"
fi
[ "$failures" -eq 0 ]
