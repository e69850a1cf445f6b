#!/usr/bin/env python3
"""Golden cases for CEL field names that are CEL reserved words, from Kubernetes' own CEL.

Usage: scripts/gen-golden-cel-keywords.py [ORACLE]   (default /tmp/cel-cost-oracle, built with
`bash scripts/cel-cost-oracle/build.sh` from Debian's k8s.io/apiextensions-apiserver 0.36.4, whose
CEL environment reads `self.if` as a field since Kubernetes 1.32).

Writes testdata/golden/cel/keywords.jsonl, one case a line:
- {"schema", "errors"}: what ClusterClass admission says about the schema's rules (compile and
  cost errors, see scripts/cel-cost-oracle/main.go);
- {"schema", "value", "old"?, "errors": [{"field", "type", "detail"}]}: what Cluster API's
  variable validation says about a value (apiextensions' CEL validator).
src/schema/cel/golden.rs replays both through topoplan.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/cel-cost-oracle"
OUT = os.path.join(ROOT, "testdata/golden/cel/keywords.jsonl")

STR = {"type": "string", "maxLength": 63}
KEYWORDS = ["as", "break", "const", "continue", "else", "for", "function", "if", "import", "let",
            "loop", "package", "namespace", "return", "var", "void", "while"]


def rules(*rs):
    return [{"rule": r} if isinstance(r, str) else {"rule": r[0], "message": r[1]} for r in rs]


def obj(props, rs, **kw):
    return {"type": "object", "properties": props, "x-kubernetes-validations": rules(*rs), **kw}


ALL = obj({k: STR for k in KEYWORDS}, [f"!has(self.{k}) || self.{k}.startsWith('x')" for k in KEYWORDS]
          + [f"!has(self.__{k}__) || self.__{k}__.size() < 10" for k in KEYWORDS])
IBM = obj({"import": {"type": "object", "properties": {"namespace": STR, "if": {"type": "integer"}},
                      "x-kubernetes-validations": rules(("!has(self.if) || self.if > 0", "if must be positive"))},
           "return": {"type": "array", "maxItems": 4, "items": obj({"var": STR}, ["self.var != 'bad'"])}},
          [("!has(self.import) || !has(self.import.namespace) || self.import.namespace != 'default'", "not default"),
           "!has(self.__return__) || self.__return__.all(r, r.var.size() < 10)",
           "!has(self.import) || !has(oldSelf.import) || !has(self.import.if) || !has(oldSelf.import.if) || self.import.if >= oldSelf.import.if"])
MAP = {"type": "object", "properties": {"labels": {"type": "object", "maxProperties": 8, "additionalProperties": STR}},
       "x-kubernetes-validations": rules("!has(self.labels.namespace) || self.labels['namespace'] == self.labels.namespace")}

CASES = [
    # Admission: compile (and cost) of rules naming keyword fields, plain or escaped.
    {"schema": ALL},
    {"schema": IBM},
    {"schema": MAP},
    {"schema": obj({"true": STR, "in": STR, "null": STR},
                   ["!has(self.__true__) || self.__true__ != ''", "!has(self.__in__) || self.__in__ != ''",
                    "!has(self.__null__) || self.__null__ != ''"])},
    {"schema": obj({"in": STR}, ["self.in == 'a'"])},
    {"schema": obj({"true": STR}, ["self.true == 'a'"])},
    {"schema": obj({"false": STR}, ["self.false == 'a'"])},
    {"schema": obj({"null": STR}, ["has(self.null)"])},
    {"schema": obj({"if": STR}, ["self.__if == 'a'"])},
    # The root of a variable is typed as a resource root at admission (apiVersion, kind and
    # metadata.name are declared), but not when a value is validated.
    {"schema": obj({"a": STR}, ["self.kind == '' || true", "!has(self.metadata) || self.metadata.name != ''"])},
    {"schema": obj({"a": STR}, ["self.kind == '' || true"]), "value": {"a": "x"}},
    # Values.
    {"schema": ALL, "value": {k: "x" + k for k in KEYWORDS}},
    {"schema": ALL, "value": {"if": "y", "namespace": "n", "while": "a very long value"}},
    {"schema": IBM, "value": {"import": {"namespace": "kube-system", "if": 3}, "return": [{"var": "a"}]}},
    {"schema": IBM, "value": {"import": {"namespace": "default", "if": -1}, "return": [{"var": "bad"}, {"var": "0123456789"}]}},
    {"schema": IBM, "value": {"import": {"if": 2}}, "old": {"import": {"if": 3}}},
    {"schema": IBM, "value": {"import": {"if": 4}}, "old": {"import": {"if": 3}}},
    {"schema": MAP, "value": {"labels": {"namespace": "a"}}},
]


def main():
    inp = "\n".join(json.dumps(c) for c in CASES) + "\n"
    out = subprocess.run([ORACLE], input=inp, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(CASES), (len(out), len(CASES))
    lines = []
    for c, o in zip(CASES, out):
        c = dict(c)
        c["errors"] = json.loads(o)["errors"]
        lines.append(json.dumps(c, ensure_ascii=False))
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} cases to {OUT}")


main()
