#!/usr/bin/env python3
"""Golden vectors for src/patches/jsonpatch.rs from the Go oracle (evanphx/json-patch/v5).

Usage: scripts/gen-golden-jsonpatch.py [ORACLE]   (default /tmp/gooracle-trixie/gooracle)
Writes testdata/golden/jsonpatch/{jsonpatch,mergepatch}.jsonl: one case per line with the
oracle's answer under "expected".
"""
import itertools, json, subprocess, sys
from pathlib import Path

oracle = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gooracle-trixie/gooracle"
out = Path(__file__).resolve().parent.parent / "testdata/golden/jsonpatch"

docs = [
    {"a": 1, "b": {"c": [1, 2, 3], "d": None}, "e~f": 2, "g/h": 3, "": 4},
    {"spec": {"template": {"spec": {"list": [], "m": {}}}}},
    [1, 2, {"x": "y"}],
]
paths = ["", "/", "/a", "/b/c", "/b/c/0", "/b/c/-", "/b/c/3", "/b/c/4", "/b/c/-1", "/b/c/-3",
         "/b/c/-4", "/b/c/x", "/b/c/01", "/b/c/+1", "/b/d", "/b/d/x", "/a/x", "/zz", "/zz/y",
         "/e~0f", "/g~1h", "/e~f", "/~01", "a", "/spec/template/spec/list/-",
         "/spec/template/spec/list/0", "/spec/template/spec/m/k", "/spec/x/y", "/0", "/-",
         "/2/x", "/3", "/99999999999999999999"]
values = [1, "s<&>", None, {"k": [None, 1]}, [1, {"n": None}]]
cases = []
for doc, path in itertools.product(docs, paths):
    for v in values[:3]:
        cases.append({"doc": doc, "patch": [{"op": "add", "path": path, "value": v}]})
        cases.append({"doc": doc, "patch": [{"op": "replace", "path": path, "value": v}]})
    cases.append({"doc": doc, "patch": [{"op": "remove", "path": path}]})
    cases.append({"doc": doc, "patch": [{"op": "test", "path": path, "value": 1}]})
    cases.append({"doc": doc, "patch": [{"op": "test", "path": path, "value": None}]})
    cases.append({"doc": doc, "patch": [{"op": "copy", "from": path, "path": "/b/copied"}]})
    cases.append({"doc": doc, "patch": [{"op": "move", "from": "/a", "path": path}]})
for v in values:
    cases.append({"doc": docs[0], "patch": [{"op": "replace", "path": "", "value": v}]})
    cases.append({"doc": docs[0], "patch": [{"op": "test", "path": "", "value": v}]})
for bad in [{"op": "add"}, [1], [None], [{"op": "bogus", "path": "/a"}], [{"path": "/a"}],
            [{"op": "add", "path": "/a"}], [{"op": "add", "path": 5, "value": 1}],
            [{"op": "move", "path": "/a"}], [{"op": "copy", "from": 1, "path": "/a"}],
            [{"op": "remove"}], [{"op": 7, "path": "/a"}], "x", 3, True, None, [],
            [{"op": "add", "path": "/a", "value": 1}, {"op": "remove", "path": "/a"},
             {"op": "remove", "path": "/a"}]]:
    cases.append({"doc": docs[0], "patch": bad})

merge_docs = [{"a": 1, "b": {"c": 2, "d": [1, None]}}, [1, 2], "s", 1, {}]
merge_patches = [{}, {"a": None}, {"b": {"c": None, "e": {"f": None, "g": 1}}}, {"b": [None, {"x": None}]},
                 {"b": "s"}, {"n": {"m": None}}, [1, None, {"a": None}], "x", 5, None, {"a": {"z": None}}]
merges = [{"doc": d, "patch": p} for d, p in itertools.product(merge_docs, merge_patches)]

def run(mode, items):
    inp = "".join(json.dumps(c) + "\n" for c in items)
    res = subprocess.run([oracle, mode, "-jsonl"], input=inp, capture_output=True, text=True, check=True)
    lines = res.stdout.splitlines()
    assert len(lines) == len(items), (mode, len(lines), len(items))
    with open(out / f"{mode}.jsonl", "w") as f:
        for c, l in zip(items, lines):
            r = json.loads(l)
            c = dict(c)
            c["expected"] = {k: r[k] for k in ("ok", "stage", "error", "json") if k in r}
            f.write(json.dumps(c, sort_keys=True) + "\n")

run("jsonpatch", cases)
run("mergepatch", merges)
print(len(cases), "jsonpatch cases,", len(merges), "mergepatch cases")
