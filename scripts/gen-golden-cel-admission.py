#!/usr/bin/env python3
"""Golden ClusterClass admission errors for variable-schema CEL that does not compile.

Usage: scripts/gen-golden-cel-admission.py [K8S_ORACLE]   (default /tmp/celoracle-k8s, built
with `bash scripts/cel-oracle-k8s/build.sh`).

Writes testdata/golden/cel/admission.jsonl, one case a line: {"schema", "want"}: a variable's
openAPIV3Schema with one x-kubernetes-validations entry, and the field errors ClusterClass
admission reports for it (spec.variables[cpu]). The cel-go part of each message ("ERROR:
<input>:…" with its caret lines) is the oracle's compile error; the rest is how Cluster API's
validateSchema (internal/topology/variables/clusterclass_variable_validation.go) wraps it:
field.Invalid at `…x-kubernetes-validations[i].rule` (or `.messageExpression`) with the
internal apiextensions.ValidationRule as the value, which field.Error writes with json.Marshal
(Go field names, declaration order, pointers `null`), and apiextensions' cel.Compile detail
("compilation failed: …", "messageExpression compilation failed: …"; a rule that fails to
compile is not followed by its messageExpression). The oracle's `self` is dyn, so the type
errors here are on literals; type errors against the schema's type are unit tests
(src/schema/cel/tests.rs).
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/celoracle-k8s"
OUT = os.path.join(ROOT, "testdata/golden/cel/admission.jsonl")
BASE = "spec.variables[cpu].schema.openAPIV3Schema.x-kubernetes-validations[0]"

# (schema type, rule, messageExpression or None)
CASES = [
    ("integer", "this does not compile", None),
    ("integer", "self >", None),
    ("integer", "self ==", None),
    ("integer", "(self", None),
    ("integer", "self)", None),
    ("integer", "self.", None),
    ("integer", "self +* 1 == 2", None),
    ("string", "self[", None),
    ("string", "'abc", None),
    ("integer", "self == 1 ||", None),
    ("integer", "1 = 1", None),
    ("integer", "self..a", None),
    ("string", "size(self) >= 1 &&& true", None),
    ("string", "'x'.foo == 1", None),
    ("string", "'x' + 1 == 'x1'", None),
    ("string", "'a'.size() == 'b'", None),
    ("string", "[1, 'a'].size() == 2", None),
    ("string", "true.x", None),
    ("string", "'x'.startsWith(1)", None),
    ("string", "'x'.matches(1)", None),
    ("string", "size(1) == 1", None),
    ("string", "'abc'.contains(1)", None),
    ("string", "int('1') == '1'", None),
    ("string", "[1,2].exists(x, x)", None),
    ("string", "'a'.lowerAscii(1) == 'a'", None),
    ("string", "'a' in 1", None),
    ("string", "has(1)", None),
    ("string", "'x'.charAt('a') == 'x'", None),
    ("string", "[1].all(x, x + 'a' == 'b')", None),
    ("string", "self.a(", None),
    ("string", "[1, 2", None),
    ("string", "{'a': 1", None),
    ("string", "self ? 1", None),
    ("string", "!", None),
    ("string", "'a' 'b'", None),
    ("string", "self in", None),
    ("string", "self == 'a' && self ==", None),
    ("string", "self.size() > 1 self", None),
    ("string", "self.all(x,", None),
    ("string", "size(self 2)", None),
    ("string", "[1 2].size() == 2", None),
    ("string", "{'a': 1 2}.size() == 1", None),
    ("string", "[1].all(x, x 2)", None),
    ("integer", "self >= 1", "'Expected integer greater or equal to 1, got ' + this does not compile"),
    ("integer", "self >= 1", "'got ' +"),
    ("integer", "self >= 1", "'x' + 1"),
    ("integer", "this does not compile", "'never ' + compiled"),
]


def go_json(v):
    s = json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    return s.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def bad_value(rule, msg):
    return "{%s}" % ",".join([
        '"Rule":' + go_json(rule), '"Message":""', '"MessageExpression":' + go_json(msg or ""),
        '"Reason":null', '"FieldPath":""', '"OptionalOldSelf":null'])


def compile_error(expr):
    out = subprocess.run([ORACLE], input=json.dumps({"rule": expr, "self": None}),
                         capture_output=True, text=True).stdout.rstrip("\n")
    prefix = "compile error: "
    return out[len(prefix):] if out.startswith(prefix) else None


def main():
    lines = []
    for ty, rule, msg in CASES:
        schema = {"type": ty, "x-kubernetes-validations": [{"rule": rule}]}
        if msg is not None:
            schema["x-kubernetes-validations"][0]["messageExpression"] = msg
        bad = bad_value(rule, msg)
        err = compile_error(rule)
        if err is not None:
            want = [f"{BASE}.rule: Invalid value: {bad}: compilation failed: {err}"]
        else:
            merr = compile_error(msg)
            assert merr is not None, (rule, msg)
            want = [f"{BASE}.messageExpression: Invalid value: {bad}: messageExpression compilation failed: {merr}"]
        lines.append(json.dumps({"schema": schema, "want": want}, ensure_ascii=False))
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} cases to {OUT}")


main()
