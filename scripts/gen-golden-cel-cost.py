#!/usr/bin/env python3
"""Golden CEL cost estimates of ClusterClass variable schemas, from Kubernetes' own estimators.

Usage: scripts/gen-golden-cel-cost.py [ORACLE]   (default /tmp/cel-cost-oracle, built with
`bash scripts/cel-cost-oracle/build.sh` from Debian's k8s.io/apiextensions-apiserver 0.36.4).

Writes testdata/golden/cel/cost.jsonl, one case a line: {"schema", "rules", "errors"}: a variable's
openAPIV3Schema, each rule's estimated cost as apiextensions' cel.Compile computes it (cel-go's
checker estimator with Kubernetes' library estimator and the schema's size bounds), how many
times it can run, its messageExpression's estimate, and the cost and compile errors Cluster API's
ClusterClass admission reports at spec.variables[cpu].schema.openAPIV3Schema (see the oracle's
main.go). src/schema/cel/golden.rs replays every case through topoplan's estimator and admission.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/cel-cost-oracle"
OUT = os.path.join(ROOT, "testdata/golden/cel/cost.jsonl")


def rules(*rs):
    out = []
    for r in rs:
        if isinstance(r, tuple):
            out.append({"rule": r[0], "messageExpression": r[1]})
        else:
            out.append({"rule": r})
    return out


def s(ty, rs=(), **kw):
    d = {"type": ty, **kw}
    if rs:
        d["x-kubernetes-validations"] = rules(*rs)
    return d


STR10 = {"type": "string", "maxLength": 10}
STR = {"type": "string"}
BIG = {"type": "string", "maxLength": 500000}

CASES = [
    # Core operators and string functions (cel-go's checker estimator).
    s("string", ["self == 'a'", "self != 'abc'", "self == oldSelf", "self < 'b'", "self + 'x' == 'ax'",
                 "size(self) > 1", "self.size() <= 10", "self.contains('a')", "self.startsWith('abc')",
                 "self.endsWith('abcdefghijk')", "self.matches('^a+$')", "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')",
                 "self in ['a', 'b', 'c']", "self == 'a' || self == 'b'", "self == 'a' && self != 'b'",
                 "self == 'a' ? true : self.contains('b')", "!self.contains('x')", "dyn(self) == 'a'",
                 "string(self) == self", "self.contains(self)", "self + self == 'aa'"], maxLength=10),
    s("string", ["self.contains('keyword')", "self.startsWith('keyword')", "self.lowerAscii() == 'a'",
                 "self.split(',').size() > 1", "self == oldSelf"], maxLength=500000),
    s("string", ["self.matches('^a+$')", "self.contains('a')", "self == 'x'"]),
    s("string", ["self != 'a'", "self.startsWith('a')"], enum=["ab", "abcd"]),
    s("string", ["self.getHours() > 1"], format="date-time"),
    s("string", ["size(self) > 1"], format="byte", maxLength=16),
    s("integer", ["self == 1", "self > 1", "self + 1 > 2", "self % 2 == 0", "self in [1, 2, 3]", "int(string(self)) == self",
                  "double(self) > 1.5", "self == oldSelf"]),
    s("number", ["self > 1.5", "self == 1.0"]),
    s("boolean", ["self", "self == true", "!self"]),
    # Kubernetes' library estimator (k8s.io/apiserver/pkg/cel/library/cost.go).
    s("string", ["self.indexOf('a') >= 0", "self.lastIndexOf('abc') >= 0", "self.indexOf('a', 2) >= 0",
                 "self.lowerAscii() == 'a'", "self.upperAscii() == 'A'", "self.trim() == 'a'",
                 "self.substring(1) == 'a'", "self.substring(1, 3) == 'a'", "self.replace('a', 'b') == 'b'",
                 "self.replace('a', 'bcd') == 'b'", "self.replace('', 'b') == 'b'", "self.replace('abc', 'b', 1) == 'b'",
                 "self.split(',').size() > 1", "self.split(',', 2).size() > 1", "self.charAt(0) == 'a'",
                 "self.find('[0-9]+') == '1'", "self.findAll('[0-9]+').size() > 0", "self.findAll('[0-9]+', 2).size() > 0",
                 "isURL(self)", "url(self).getScheme() == 'https'", "isQuantity(self)", "quantity(self).isInteger()",
                 "isSemver(self)", "isIP(self)", "ip(self).family() == 4", "isCIDR(self)", "cidr(self).prefixLength() > 8",
                 "format.dns1123Label().validate(self).hasValue()", "'%s'.format([self]) == 'a'", "self.format([]) == 'a'",
                 "self.lowerAscii().contains('a')", "self.replace('a', 'b').contains('c')", "self.trim().size() > 0",
                 "self.substring(1).startsWith(self)", "self.split(',').all(x, x.size() > 0)",
                 "strings.quote(self) == 'a'", "bytes(self) == b'a'", "string(bytes(self)) == self",
                 "size(bytes(self)) > 1", "[self, 'a'].join(',') == 'a'",
                 "self.split(',').join(';') == self"], maxLength=64),
    s("string", ["self.lowerAscii() == 'a'", "self.replace('a', 'b') == 'b'", "self.indexOf('a') >= 0",
                 "self.split(',').size() > 1"], maxLength=500000),
    # A rule at the root of an array variable: Cluster API cannot type it (an internal error).
    s("array", items=STR10, maxItems=5, rs=["self.all(x, size(x) > 0)"]),
    s("object", properties={"l": s("array", items=STR10, maxItems=5, rs=["self.all(x, size(x) > 0)", "self.exists(x, x == 'a')",
                                              "self.exists_one(x, x == 'a')", "self.map(x, x + 'a').size() > 0",
                                              "self.filter(x, x.contains('a')).size() > 0",
                                              "self.map(x, x.contains('a'), x).size() > 0",
                                              "self.all(x, x.contains('a'))", "size(self) > 1", "'a' in self",
                                              "self[0] == 'a'", "self.join(',') == 'a'", "self.join() == 'a'",
                                              "self.isSorted()", "self.indexOf('a') >= 0", "self.lastIndexOf('a') >= 0",
                                              "self.min() == 'a'", "self + ['a'] == self", "self == oldSelf",
                                              "self.all(x, self.exists(y, x == y))"])}),
    s("object", properties={"l": s("array", items={"type": "integer"}, maxItems=100, rs=["self.sum() > 0", "self.isSorted()", "self.max() < 10",
                                                             "self.all(x, x > 0)", "self.map(x, x * 2).sum() > 0",
                                                             "self.indexOf(1) >= 0", "self.exists(x, x == 1) || self.all(x, x < 3)"])}),
    s("object", additionalProperties=STR10, maxProperties=4, rs=["self.all(k, k.startsWith('a'))",
                                                                   "self.all(k, self[k].contains('b'))",
                                                                   "'a' in self", "size(self) < 3",
                                                                   "self.exists(k, self[k] == 'x')"]),
    s("object", properties={"a": STR10, "b": {"type": "integer"}, "c": {"type": "array", "items": STR10, "maxItems": 3},
                            "d": {"type": "object", "properties": {"e": STR10}},
                            "f": {"x-kubernetes-int-or-string": True}},
      rs=["self.a == 'x'", "self.a.contains(self.d.e)", "has(self.a)", "has(self.d.e) && self.d.e == 'y'",
          "self.b > 1", "self.c.all(x, x != self.a)", "self.c.exists(x, x.startsWith(self.a))",
          "self.f == 1", "type(self.f) == string ? self.f.startsWith('1') : self.f > 1", "self.d == oldSelf.d",
          "self.a + self.d.e == 'ab'", "self.c.map(x, x.size()).sum() > 0", "[self.a, self.d.e].all(x, x != '')",
          "{'a': self.a}.all(k, k == 'a')", "self.c.size() + self.b > 1"]),
    # Keyword field names (Kubernetes 1.32+).
    s("object", properties={"if": STR10, "namespace": {"type": "integer"}, "import": {"type": "array", "items": STR10, "maxItems": 2}},
      rs=["self.if == 'a'", "self.namespace > 1", "self.import.all(x, x.contains(self.if))", "has(self.if)"]),
    # cel-go's estimators of ext.Lists and ext.Sets (`distinct` of strings is left out: Debian's
    # cel-go 0.32 adds a string traversal factor that 0.26, in Kubernetes 1.36, does not have).
    s("object", properties={"l": {"type": "array", "maxItems": 10, "items": STR10},
                            "n": {"type": "array", "maxItems": 10, "items": {"type": "integer"}},
                            "u": {"type": "array", "items": {"type": "integer"}}},
      rs=["self.l.slice(0, 2).size() > 0", "self.l.slice(1, self.n.size()).size() > 0", "self.l.reverse().size() > 0",
          "self.n.distinct().size() > 0", "self.l.sort().size() > 0", "self.n.sort().size() > 0",
          "lists.range(5).size() > 0", "[[1], [2]].flatten().size() > 0", "[[[1]], [[2]]].flatten(2).size() > 0",
          "self.l.first().hasValue()", "sets.contains(self.l, ['a'])", "sets.intersects(self.n, [1, 2])",
          "sets.equivalent(self.n, self.n)", "self.n.sum() > 0", "self.u.reverse().size() > 0",
          "self.u.sort().size() > 0"]),
    # Keyword fields are declared only under their escaped names, so the estimator cannot size
    # `self.import` (a map's `self.labels.namespace` neither): both comparisons are unbounded.
    s("object", properties={"if": {"type": "integer"}, "import": STR, "namespace": STR,
                            "labels": {"type": "object", "additionalProperties": STR}},
      rs=["self.if == 10", "self.__if__ == 10", "!has(self.import) || self.import != self.namespace",
          "!has(self.labels.namespace) || self.labels.namespace == self.namespace"]),
    # Values of unknown size: a converted number, a type.
    s("object", properties={"i": {"type": "integer"}, "n": {"type": "number"}, "s": STR},
      rs=["type(self.i) == int && type(self.n) == double && type(self.s) == string",
          "type(self.i) == type(self.n)", "string(self.i) == '1'", "string(self.i) + 'x' == '1x'"]),
    s("integer", rs=[("self > 0", "'n is ' + string(self)"), ("self > 0", "'n is positive'")]),
    s("object", properties={"d": {"type": "string", "format": "duration"}, "t": {"type": "string", "format": "date-time"},
                            "y": {"type": "string", "format": "byte"}},
      rs=["type(self.d) == google.protobuf.Duration", "type(self.t) == google.protobuf.Timestamp",
          "type(null) == null_type && type(type(1)) == type && type(int) == type",
          "type(self) == map && type(self.y) == bytes && type(1u) == uint", "self.d > duration('1s')",
          "self.t < timestamp('2024-01-01T00:00:00Z')", "self.y == b'abc'", "size(self.y) > 1",
          "self.t.getHours() == self.t.getMinutes()", "self.t.getDayOfWeek() > 0 && self.t.getFullYear() < 3000",
          "bool('true') == (size(self.y) > 0)"]),
    s("object", properties={"c": STR10, "n": {"type": "array", "maxItems": 3, "items": {"type": "integer"}},
                            "q": STR10},
      rs=["cidr(self.c).masked() == cidr(self.c)", "ip('1.2.3.4') == cidr(self.c).ip()",
          "self.n.first().value() == self.n.last().value()", "self.n.first().orValue(1) == self.n[0]",
          "quantity(self.q) == quantity('1Gi')", "url(self.c) == url(self.q)",
          "url(self.c) == url(self.q + self.q + self.q)", "url(self.c + self.q) == url('https://a')",
          "format.dns1123Label() == format.named('dns1123Label').value()"]),
    # messageExpression.
    s("string", maxLength=500000, rs=[("self != ''", "self.contains('keyword') ? 'has it' : 'lacks it'"),
                                      ("self.size() > 0", "'got ' + self"), ("self == 'a'", "self.lowerAscii()")]),
    # Cardinality: under bounded and unbounded lists and maps.
    s("array", items={"type": "string", "maxLength": 500000, "x-kubernetes-validations": rules("!self.contains('keyword')")}),
    s("array", maxItems=10, items={"type": "string", "maxLength": 500000, "x-kubernetes-validations": rules("!self.contains('keyword')")}),
    s("array", items={"type": "string", "x-kubernetes-validations": rules("self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')")}),
    s("array", items={"type": "string", "x-kubernetes-validations": rules("self != ''")}),
    s("array", items={"type": "string", "maxLength": 500000,
                      "x-kubernetes-validations": rules(("self != ''", "self.contains('keyword') ? 'has it' : 'lacks it'"))}),
    s("object", properties={"l": {"type": "array", "maxItems": 20, "items": {"type": "object", "required": ["n"], "properties": {
        "n": {"type": "string", "maxLength": 253, "x-kubernetes-validations": rules("self.matches('^[a-z0-9.-]+$')")},
        "m": {"type": "object", "additionalProperties": {"type": "string", "maxLength": 63,
                                                          "x-kubernetes-validations": rules("self.contains('x')")}}}}}}),
    s("object", additionalProperties={"type": "array", "items": {"type": "integer", "x-kubernetes-validations": rules("self > 0")}}),
    s("array", maxItems=2000, items={"type": "string", "maxLength": 1000,
                                     "x-kubernetes-validations": rules(*[f"self.matches('^[a-z]{i}+$')" for i in range(70)])}),
    s("array", maxItems=1000, items={"type": "string", "maxLength": 1000,
                                     "x-kubernetes-validations": rules("self.contains('abcdefghij')", "self.lowerAscii() == 'a'")}),
    s("array", maxItems=100000, items={"type": "string", "maxLength": 300,
                                       "x-kubernetes-validations": rules("self.matches('^[a-z]+$')")}),
    s("array", maxItems=1000, items={"type": "string", "maxLength": 64,
                                     "x-kubernetes-validations": rules("self.matches('^a+$')")}),
]


def main():
    inp = "\n".join(json.dumps({"schema": c}) for c in CASES) + "\n"
    out = subprocess.run([ORACLE], input=inp, capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(out) == len(CASES), (len(out), len(CASES))
    lines = []
    for c, o in zip(CASES, out):
        r = json.loads(o)
        lines.append(json.dumps({"schema": c, "rules": r["rules"], "errors": r["errors"]}, ensure_ascii=False))
    with open(OUT, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {len(lines)} cases to {OUT}")


main()
