#!/usr/bin/env bash
# Regenerate the expected results of the Go template golden vectors.
#
# For every testdata/golden/template/NAME.cases.jsonl this writes NAME.expected.jsonl: one line
# per case, in the same order, with what the real Go 1.24 text/template (+ sprig 3.2.3) does
# with it: {"ok":true,"output":"..."} or {"ok":false,"stage":"parse|exec|yaml|input","error":"..."}.
# tests/golden_template.rs then replays each case through topoplan's engine and requires the
# same result, byte for byte; the test needs no Go.
#
# A case is one JSON object per line:
#   {"template": "...", "data": <any JSON>, "funcs": "none"|"hermetic",
#    "missingkey": "default"|"zero"|"error", "yamlToJSON": false}
# (data is decoded by encoding/json, so every number is a float64, as in Cluster API).
#
# Usage: scripts/gen-golden-template.sh /path/to/gooracle [NAME ...]
#   The oracle is /work/shared/oracle's `gooracle`, built with build-trixie.sh (Go 1.24):
#     bash /work/shared/oracle/build-trixie.sh /tmp/gooracle-trixie
#   With NAMEs (e.g. `core fmt`) only those files are regenerated.
set -euo pipefail

oracle=${1:?usage: $0 /path/to/gooracle [NAME ...]}
shift
dir="$(cd "$(dirname "$0")/.." && pwd)/testdata/golden/template"

if [ "$#" -gt 0 ]; then
    files=()
    for n in "$@"; do files+=("$dir/$n.cases.jsonl"); done
else
    files=("$dir"/*.cases.jsonl)
fi

for cases in "${files[@]}"; do
    expected="${cases%.cases.jsonl}.expected.jsonl"
    # Blank lines are skipped by the oracle; drop them here too so line numbers correspond.
    n_cases=$(grep -c . "$cases" || true)
    grep . "$cases" | "$oracle" -jsonl > "$expected.tmp"
    n_out=$(wc -l < "$expected.tmp")
    if [ "$n_cases" -ne "$n_out" ]; then
        echo "$cases: $n_cases cases but $n_out results" >&2
        rm -f "$expected.tmp"
        exit 1
    fi
    mv "$expected.tmp" "$expected"
    echo "wrote $n_out results to $expected"
done
