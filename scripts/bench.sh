#!/usr/bin/env bash
# Benchmarks for `topoplan plan` (issue budgets: <= 10 ms on one example, <= 1 s for 1,000
# Clusters on 2 cores; issue #6: 2,000 Clusters, in one file and as one file per Cluster, the
# way fleets live in git). Usage:
#   scripts/bench.sh [EXAMPLE_DIR]       default: ../shared/examples/dev-quick-start
# Needs: a release build (made here), hyperfine (apt-get install hyperfine) for wall times,
# GNU time (/usr/bin/time) for peak memory. Prints the figures; writes its inputs under
# target/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
# --budgets: only the fleet-scale budgets (10,000-Cluster plan, 5,000-Cluster diff, one core
# against all), skipping the rest. --crds: only issue #15's budget, what checking every object
# against the provider CRDs of testdata/crds adds to one Cluster and to 1,000 (set BASELINE to
# another topoplan binary to time it too, e.g. one built before CRDs were read).
# --change: only issue #24's budget, a change planned against a 2,000-Cluster management
# cluster (see change_budget below; needs only the bundled example).
only_budgets=false
only_crds=false
only_change=false
if [ "${1:-}" = "--budgets" ]; then only_budgets=true; shift; fi
if [ "${1:-}" = "--crds" ]; then only_crds=true; shift; fi
if [ "${1:-}" = "--change" ]; then only_change=true; shift; fi

# Issue #24's budget: the management cluster is a 2,000-Cluster export written by `plan
# --output-dir` (the quick-start Cluster under 2,000 names) plus its class and templates; `-f`
# holds only the change. A worker template change (every Cluster of the class rotates it):
# <= 3 s and <= 800 MiB; a change no Cluster is affected by: <= 1 s.
change_budget() {
  cargo build --release --quiet
  local bin=target/release/topoplan work=target/bench/change ex=testdata/examples/quick-start
  rm -rf "$work" && mkdir -p "$work/fleet" "$work/change" "$work/unused"
  for i in $(seq 1 2000); do
    echo "---"
    sed -e "s/^  name: dev$/  name: dev-$i/" "$ex/cluster.yaml"
  done > "$work/fleet/clusters.yaml"
  "$bin" plan -f "$ex/clusterclass.yaml" -f "$ex/templates.yaml" -f "$work/fleet" \
    --output-dir "$work/state" -o json >/dev/null
  python3 - "$ex/templates.yaml" "$work/change/worker.yaml" "$work/unused/worker.yaml" <<'PY'
import sys
docs = open(sys.argv[1]).read().split("\n---\n")
worker = next(d for d in docs if "name: docker-small-worker\n" in d)
changed = worker.replace("    spec:\n", "    spec:\n      preLoadImages: [\"registry.example.com/agent:v2\"]\n", 1)
open(sys.argv[2], "w").write(changed)
open(sys.argv[3], "w").write(changed.replace("name: docker-small-worker\n", "name: nobody-uses-this\n"))
PY
  local cur=(--current "$work/state" --current "$ex/clusterclass.yaml" --current "$ex/templates.yaml")
  local run_change=("$bin" plan -f "$work/change" "${cur[@]}" -o json)
  local run_unused=("$bin" plan -f "$work/unused" "${cur[@]}" -o json)
  echo "== change budget: -f one worker template, --current a 2,000-Cluster export"
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 5 --shell=bash --export-json "$work/change.json" \
      -n "worker template, 2,000 Clusters affected" "${run_change[*]} >/dev/null" \
      -n "unused template, no Cluster affected" "${run_unused[*]} >/dev/null"
  fi
  /usr/bin/time -f "worker template change: %M KiB, %e s" "${run_change[@]}" 2>"$work/change.err" >/dev/null || true
  tail -n1 "$work/change.err"
  /usr/bin/time -f "unused template change: %M KiB, %e s" "${run_unused[@]}" 2>"$work/unused.err" >/dev/null || true
  tail -n1 "$work/unused.err"
}
if $only_change; then change_budget; exit 0; fi
example=${1:-../shared/examples/dev-quick-start}
[ -d "$example" ] || { echo "no example directory at $example" >&2; exit 1; }

cargo build --release --quiet
bin=target/release/topoplan
work=target/bench
rm -rf "$work" && mkdir -p "$work"

# One Cluster: the class and the MachineDeployment flavor of the example, with its vars.env.
class=$(ls "$example"/clusterclass*.yaml | head -n1)
flavor="$example/cluster-template-development.yaml"
[ -f "$flavor" ] || flavor=$(ls "$example"/cluster*.yaml | grep -v clusterclass | head -n1)
vars="$example/vars.env"

# N Clusters of that class in one file: the flavor substituted with distinct names.
fleet_file() {
  cat "$class"
  for i in $(seq 1 "$1"); do
    echo "---"
    sed -e "s/\${CLUSTER_NAME}/bench-$i/g" "$flavor"
  done
}
# N Clusters as N one-Cluster files in directory $2, beside the class.
fleet_dir() {
  mkdir -p "$2"
  cp "$class" "$2/"
  for i in $(seq 1 "$1"); do
    sed -e "s/\${CLUSTER_NAME}/bench-$i/g" "$flavor" > "$2/cluster-$(printf %05d "$i").yaml"
  done
}

fleet_file 1000 > "$work/fleet.yaml"
# 2,000 Clusters: in one file, and as 2,000 one-Cluster files in a directory.
fleet_file 2000 > "$work/fleet2000.yaml"
fleet_dir 2000 "$work/fleet2000"
# Issue #13's budgets: 10,000 Clusters in one file (plan, --output json to a pipe), and 5,000
# Clusters in one file each, before and after a worker template change (diff).
fleet_file 10000 > "$work/fleet10000.yaml"
fleet_dir 5000 "$work/fleet5000"

# A change to review: the same 2,000 Clusters, their class's worker machine template gaining a
# field (every MachineDeployment rotates its template and rolls out).
mkdir -p "$work/diff-old" "$work/diff-new"
cp -r "$work/fleet2000/." "$work/diff-old/"
cp -r "$work/fleet2000/." "$work/diff-new/"
python3 - "$work/diff-new/$(basename "$class")" <<'PY'
import sys
p = sys.argv[1]
s = open(p).read()
marker = "worker-machinetemplate\nspec:\n"
i = s.find(marker)
j = s.find("          extraMounts:", i)
if i < 0 or j < 0:
    sys.exit("bench: no worker machine template with extraMounts in " + p)
s = s[:j] + '          preLoadImages: ["registry.example.com/agent:v2"]\n' + s[j:]
open(p, "w").write(s)
PY
run_diff=("$bin" diff --substitute --env-file "$vars" "$work/diff-old" "$work/diff-new" --stat)
mkdir -p "$work/diff5000-old" "$work/diff5000-new"
cp -r "$work/fleet5000/." "$work/diff5000-old/"
cp -r "$work/fleet5000/." "$work/diff5000-new/"
cp "$work/diff-new/$(basename "$class")" "$work/diff5000-new/"
run_diff5000=("$bin" diff --substitute --env-file "$vars" "$work/diff5000-old" "$work/diff5000-new" --output json)

run_one=("$bin" plan --substitute --env-file "$vars" -f "$class" -f "$flavor")
run_fleet=("$bin" plan --substitute --env-file "$vars" -f "$work/fleet.yaml" --output json)
run_file2000=("$bin" plan --substitute --env-file "$vars" -f "$work/fleet2000.yaml")
run_dir2000=("$bin" plan --substitute --env-file "$vars" -f "$work/fleet2000")
run_fleet10000=("$bin" plan --substitute --env-file "$vars" -f "$work/fleet10000.yaml" --output json)

budgets() {
  echo "== fleet budgets: plan 10,000 Clusters (one file, --output json to a pipe); diff 5,000 (one file each)"
  if command -v hyperfine >/dev/null; then
    hyperfine --warmup 1 --runs 5 --export-json "$work/budgets.json" --shell=bash \
      -n "plan 10,000, json" "${run_fleet10000[*]} | cat >/dev/null" \
      -n "plan 10,000, json, 1 thread" "RAYON_NUM_THREADS=1 ${run_fleet10000[*]} | cat >/dev/null" \
      -n "diff 5,000, json" "${run_diff5000[*]} | cat >/dev/null" \
      -n "diff 5,000, json, 1 thread" "RAYON_NUM_THREADS=1 ${run_diff5000[*]} | cat >/dev/null"
  fi
  /usr/bin/time -f "plan 10,000 clusters: %M KiB, %e s" "${run_fleet10000[@]}" 2>"$work/fleet10000.err" | cat >/dev/null || true
  tail -n1 "$work/fleet10000.err"
  /usr/bin/time -f "diff 5,000 clusters: %M KiB, %e s" "${run_diff5000[@]}" 2>"$work/diff5000.err" | cat >/dev/null || true
  tail -n1 "$work/diff5000.err"
}
crd_budget() {
  echo "== CRD budget: plan with the provider CRDs of testdata/crds (--crds) against without"
  local crds=testdata/crds
  local base=("${BASELINE:-}")
  # validate reads the same CRDs (the kinds the input names) but generates nothing: the
  # difference of its two runs is the cost of reading the CRDs, the rest of plan's is checking.
  local run_val=("$bin" validate --substitute --env-file "$vars" -f "$class" -f "$flavor")
  local args=(-n "one Cluster" "${run_one[*]}" -n "one Cluster, --crds" "${run_one[*]} --crds $crds"
    -n "validate, one Cluster" "${run_val[*]}" -n "validate, one Cluster, --crds" "${run_val[*]} --crds $crds")
  local fleet=(-n "1,000 Clusters" "${run_fleet[*]} >/dev/null"
    -n "1,000 Clusters, --crds" "${run_fleet[*]} --crds $crds >/dev/null")
  if [ -n "${BASELINE:-}" ]; then
    args+=(-n "one Cluster, baseline" "${base[0]} ${run_one[*]:1}")
    fleet+=(-n "1,000 Clusters, baseline" "${base[0]} ${run_fleet[*]:1} >/dev/null")
  fi
  hyperfine --warmup 5 --runs 40 -N --export-json "$work/crd-one.json" "${args[@]}"
  hyperfine --warmup 2 --runs 10 --shell=bash --export-json "$work/crd-fleet.json" "${fleet[@]}"
  /usr/bin/time -f "1,000 clusters, --crds: %M KiB, %e s" "${run_fleet[@]}" --crds "$crds" >/dev/null 2>"$work/crd-fleet.err" || true
  tail -n1 "$work/crd-fleet.err"
}
if $only_budgets; then budgets; exit 0; fi
if $only_crds; then crd_budget; exit 0; fi

echo "== inputs: $class + $flavor; fleet: $(grep -c '^kind: Cluster$' "$work/fleet.yaml") Clusters"
if command -v hyperfine >/dev/null; then
  hyperfine --warmup 5 --runs 50 -N --export-json "$work/one.json" "${run_one[*]}"
  hyperfine --warmup 2 --runs 10 --export-json "$work/fleet.json" "${run_fleet[*]} >/dev/null" --shell=bash
  hyperfine --warmup 2 --runs 10 -N --output=null --export-json "$work/fleet2000.json" \
    -n "2,000 Clusters, one file" "${run_file2000[*]}" \
    -n "2,000 Clusters, 2,000 files" "${run_dir2000[*]}"
  hyperfine --warmup 1 --runs 8 -N --output=null --export-json "$work/diff2000.json" \
    -n "diff, 2,000 Clusters" "${run_diff[*]}"
else
  echo "hyperfine not found; timing 20 runs with bash" >&2
  time (for _ in $(seq 20); do "${run_one[@]}" >/dev/null; done)
  time (for _ in $(seq 5); do "${run_fleet[@]}" >/dev/null; done)
  time (for _ in $(seq 5); do "${run_file2000[@]}" >/dev/null; done)
  time (for _ in $(seq 5); do "${run_dir2000[@]}" >/dev/null; done)
  time (for _ in $(seq 3); do "${run_diff[@]}" >/dev/null; done)
fi
echo "== peak memory (max RSS)"
/usr/bin/time -f "one cluster: %M KiB, %e s" "${run_one[@]}" >/dev/null 2>"$work/one.err" || true
tail -n1 "$work/one.err"
/usr/bin/time -f "1,000 clusters: %M KiB, %e s" "${run_fleet[@]}" >/dev/null 2>"$work/fleet.err" || true
tail -n1 "$work/fleet.err"
/usr/bin/time -f "2,000 clusters, one file: %M KiB, %e s" "${run_file2000[@]}" >/dev/null 2>"$work/file2000.err" || true
tail -n1 "$work/file2000.err"
/usr/bin/time -f "2,000 clusters, 2,000 files: %M KiB, %e s" "${run_dir2000[@]}" >/dev/null 2>"$work/dir2000.err" || true
tail -n1 "$work/dir2000.err"
/usr/bin/time -f "diff, 2,000 clusters: %M KiB, %e s" "${run_diff[@]}" >/dev/null 2>"$work/diff2000.err" || true
tail -n1 "$work/diff2000.err"
budgets
