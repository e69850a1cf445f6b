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
# --provider-crds: only issue #26's budgets, what real provider CRDs cost one Cluster (see
# provider_crds_budget below; needs clones of Cluster API and its providers).
only_budgets=false
only_crds=false
only_change=false
only_provider_crds=false
if [ "${1:-}" = "--budgets" ]; then only_budgets=true; shift; fi
if [ "${1:-}" = "--crds" ]; then only_crds=true; shift; fi
if [ "${1:-}" = "--change" ]; then only_change=true; shift; fi
if [ "${1:-}" = "--provider-crds" ]; then only_provider_crds=true; shift; fi
# The binary timed: a release build made here, or BIN (e.g. another worktree's build).
bin=${BIN:-target/release/topoplan}
build() { if [ -z "${BIN:-}" ]; then cargo build --release --quiet; fi; }

# Issue #26's budgets, on one Cluster of Cluster API Provider AWS's simple ClusterClass
# (templates/cluster-template-simple-clusterclass.yaml of CAPA_REPO):
# - built-in schemas only (no --crds): <= 5 ms;
# - --crds with Cluster API's and CAPA's CRDs (its own, every config/crd/bases file of the two);
# - the same plus 16 MB of CRDs of kinds it never meets (OTHER_REPOS' config/crd/bases files,
#   copied under other group and kind names until 16 MB): <= 15 ms over its own alone;
# - reading the CRDs: validate with its own CRDs against without, over the bytes of the CRD
#   documents that define a kind the run meets: >= 150 MB/s.
# CAPI_REPO, CAPA_REPO and OTHER_REPOS (space-separated) are git clones, bare or not, of
# kubernetes-sigs/cluster-api, kubernetes-sigs/cluster-api-provider-aws and other providers
# (e.g. cluster-api-provider-azure, rancher/cluster-api-provider-rke2); their HEAD is read.
provider_crds_budget() {
  : "${CAPI_REPO:?set CAPI_REPO to a clone of kubernetes-sigs/cluster-api}"
  : "${CAPA_REPO:?set CAPA_REPO to a clone of kubernetes-sigs/cluster-api-provider-aws}"
  build
  local work=target/bench/provider-crds
  rm -rf "$work" && mkdir -p "$work/own" "$work/unrelated"
  local repo f
  for repo in "$CAPI_REPO" "$CAPA_REPO"; do
    git -C "$repo" ls-tree -r --name-only HEAD | grep -E 'config/crd/bases/[^/]*\.yaml$' |
      while read -r f; do git -C "$repo" show "HEAD:$f" > "$work/own/$(basename "$f")"; done
  done
  local copy=0 size=0 r
  while [ "$size" -lt $((16 * 1024 * 1024)) ]; do
    copy=$((copy + 1)) r=0
    for repo in ${OTHER_REPOS:-}; do
      r=$((r + 1))
      git -C "$repo" ls-tree -r --name-only HEAD | grep -E 'config/crd/bases/[^/]*\.yaml$' |
        while read -r f; do
          # Another project's kinds: its group and kind names prefixed.
          git -C "$repo" show "HEAD:$f" | sed -E \
            -e "s/^(  name: [a-z0-9]+\.)/\1copy$copy-/" -e "s/^(  group: )/\1copy$copy-/" \
            -e "s/^(    (kind|listKind): )/\1Copy$copy/" \
            > "$work/unrelated/copy$copy-$r-$(basename "$f")"
        done
    done
    size=$(cat "$work"/unrelated/*.yaml 2>/dev/null | wc -c)
    [ "$copy" -lt 100 ] || { echo "OTHER_REPOS hold no CRDs" >&2; exit 1; }
  done
  git -C "$CAPA_REPO" show HEAD:templates/cluster-template-simple-clusterclass.yaml > "$work/capa-simple.yaml"
  cat > "$work/vars.env" <<'ENV'
CLUSTER_NAME=bench
CONTROL_PLANE_MACHINE_COUNT=1
WORKER_MACHINE_COUNT=1
KUBERNETES_VERSION=v1.31.0
AWS_REGION=us-east-1
AWS_SSH_KEY_NAME=default
AWS_CONTROL_PLANE_MACHINE_TYPE=t3.large
AWS_NODE_MACHINE_TYPE=t3.large
CNI_RESOURCES=""
ENV
  # The bytes of the CRD documents a run of this input must read: those defining a kind it
  # meets (its objects', a template's object's, and the objects Cluster API generates).
  local needed
  needed=$(python3 - "$work/capa-simple.yaml" "$work"/own/*.yaml <<'PY'
import re, sys
kinds = set(re.findall(r"(?m)^kind: (\w+)$", open(sys.argv[1]).read()))
kinds |= {k[: -len("Template")] for k in kinds if k.endswith("Template")}
kinds |= {"MachineDeployment", "MachinePool", "MachineHealthCheck"}
total = 0
for p in sys.argv[2:]:
    for doc in open(p).read().split("\n---\n"):
        m = re.search(r"(?m)^    kind: (\w+)$", doc)
        if m and m.group(1) in kinds:
            total += len(doc.encode())
print(total)
PY
)
  local one=("$bin" plan --substitute --env-file "$work/vars.env" -f "$work/capa-simple.yaml")
  local val=("$bin" validate --substitute --env-file "$work/vars.env" -f "$work/capa-simple.yaml")
  echo "== provider CRDs: one Cluster of CAPA's simple ClusterClass; own CRDs $(cat "$work"/own/*.yaml | wc -c) bytes" \
    "($needed of them defining kinds the run meets), unrelated $size bytes"
  hyperfine --warmup 3 --runs "${RUNS:-20}" -N --export-json "$work/provider-crds.json" \
    -n "plan, built-in schemas" "${one[*]}" \
    -n "plan, --crds own" "${one[*]} --crds $work/own" \
    -n "plan, --crds own + 16 MB unrelated" "${one[*]} --crds $work/own --crds $work/unrelated" \
    -n "validate, built-in schemas" "${val[*]}" \
    -n "validate, --crds own" "${val[*]} --crds $work/own"
  python3 - "$work/provider-crds.json" "$needed" <<'PY'
import json, sys
r = {x["command"]: x for x in json.load(open(sys.argv[1]))["results"]}
med = lambda n: r[n]["median"]
print("plan, built-in schemas: %.1f ms (median)" % (1e3 * med("plan, built-in schemas")))
print("16 MB unrelated CRDs add: %.1f ms (medians)" % (1e3 * (med("plan, --crds own + 16 MB unrelated") - med("plan, --crds own"))))
d = med("validate, --crds own") - med("validate, built-in schemas")
print("reading the needed CRDs: %d bytes in %.1f ms, %.0f MB/s" % (int(sys.argv[2]), 1e3 * d, int(sys.argv[2]) / d / 1e6))
PY
  /usr/bin/time -f "plan, --crds own + 16 MB unrelated: %M KiB, %e s" "${one[@]}" --crds "$work/own" --crds "$work/unrelated" >/dev/null 2>"$work/unrelated.err" || true
  tail -n1 "$work/unrelated.err"
}
if $only_provider_crds; then provider_crds_budget; exit 0; fi

# Issue #24's budget: the management cluster is a 2,000-Cluster export written by `plan
# --output-dir` (the quick-start Cluster under 2,000 names) plus its class and templates; `-f`
# holds only the change. A worker template change (every Cluster of the class rotates it):
# <= 3 s and <= 800 MiB; a change no Cluster is affected by: <= 1 s.
change_budget() {
  build
  local work=target/bench/change ex=testdata/examples/quick-start
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

build
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
