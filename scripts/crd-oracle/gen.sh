#!/usr/bin/env bash
# Regenerate testdata/golden/crd/admit.jsonl: each line is a case (cases.py) with what the Go
# oracle (build.sh) printed for it.   gen.sh [ORACLE]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ORACLE="${1:-/tmp/crd-oracle}"
OUT="$HERE/../../testdata/golden/crd/admit.jsonl"
mkdir -p "$(dirname "$OUT")"
python3 "$HERE/cases.py" > /tmp/crd-cases.jsonl
"$ORACLE" < /tmp/crd-cases.jsonl > /tmp/crd-results.jsonl
python3 - /tmp/crd-cases.jsonl /tmp/crd-results.jsonl "$OUT" <<'PY'
import json, sys
cases = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
results = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(cases) == len(results)
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for c, r in zip(cases, results):
        if "fatal" in r:
            raise SystemExit(f"oracle failed on {c['case']}: {r['fatal']}")
        c["expected"] = r
        out.write(json.dumps(c, ensure_ascii=False, sort_keys=True) + "\n")
print(f"{len(cases)} cases")
PY
