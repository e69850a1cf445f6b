#!/usr/bin/env bash
# Regenerate testdata/golden/schema/value.jsonl: each line is a case with the errors the Go
# oracle (build.sh) printed for it.   gen.sh [ORACLE]
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
ORACLE="${1:-/tmp/schema-oracle}"
OUT="$HERE/../../testdata/golden/schema/value.jsonl"
python3 "$HERE/cases.py" > /tmp/schema-cases.jsonl
"$ORACLE" < /tmp/schema-cases.jsonl > /tmp/schema-results.jsonl
python3 - /tmp/schema-cases.jsonl /tmp/schema-results.jsonl "$OUT" <<'PY'
import json, sys
cases = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
results = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
assert len(cases) == len(results)
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for c, r in zip(cases, results):
        if "fatal" in r:
            raise SystemExit(f"oracle failed on {c}: {r['fatal']}")
        c["errors"] = r["errors"]
        out.write(json.dumps(c, ensure_ascii=False) + "\n")
print(f"{len(cases)} cases")
PY
