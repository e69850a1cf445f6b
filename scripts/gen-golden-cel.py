#!/usr/bin/env python3
"""Golden CEL vectors from real cel-go (0.18.2, core + ext strings/lists/sets/encoders/math).

Usage: scripts/gen-golden-cel.py [ORACLE] [K8S_ORACLE]   (defaults /tmp/gooracle-trixie/celoracle,
rebuilt with `bash /work/shared/oracle/build-trixie.sh /tmp/gooracle-trixie`, about a minute; and
/tmp/celoracle-k8s, built from it with `bash scripts/cel-oracle-k8s/build.sh`, seconds).

The plain oracle's environment is cel-go's defaults; the API server's differs in two options
that change compile-time decisions: cross-type numeric ordering (`1 < 1.5`, Kubernetes 1.28+) and
homogeneous aggregate literals (`[1, 'a']` is an error). Cases in K8S_RULES are run through the
second oracle, which has just those two options on, and carry "oracle": "kubernetes"; the rest
carry the plain oracle's output (at run time both behave the same: cel-go compares numbers
across types and uses heterogeneous equality in either).

Writes testdata/golden/cel/core.jsonl, one case a line: {"rule", "self", "go"} where "go" is the
oracle's output (`result: …`, `compile error: …` or `eval error: …`). Cases where topoplan
knowingly differs carry "deviation": {"reason", "ours"}; the replay test
(src/schema/cel/golden.rs) checks "ours" for those and "go" for the rest. The oracle decodes
`self` with plain json.Unmarshal (numbers are doubles), and so does the replay. Its environment
is cel-go's, not the API server's: cases that only make sense in one of them are left out.
"""
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ORACLE = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gooracle-trixie/celoracle"
K8S_ORACLE = sys.argv[2] if len(sys.argv) > 2 else "/tmp/celoracle-k8s"
OUT = os.path.join(ROOT, "testdata/golden/cel/core.jsonl")

OBJ = {"a": 1, "s": "abc", "l": [1, 2, 3], "m": {"k": "v"}, "b": True, "n": None, "e": ""}

# (rule, self) pairs; self defaults to OBJ.
RULES = [
    # Arithmetic and comparison.
    "1 + 2 == 3", "2 * 3 - 1 == 5", "7 / 2 == 3", "7 % 3 == 1", "-7 / 2 == -3", "-7 % 3 == -1",
    "1.5 + 1.5 == 3.0", "7.0 / 2.0 == 3.5", "1u + 2u == 3u", "3u - 1u", "1 + 2", "10 / 4",
    "1.0 / 0.0 > 0.0", "9223372036854775807 + 1", "-9223372036854775807 - 2", "1 / 0", "1 % 0",
    "1u - 2u", "18446744073709551615u + 1u", "9223372036854775807 * 2", "2 < 3", "3 <= 3",
    "'a' < 'b'", "'abc' > 'abd'", "true == false", "true != false", "1 == 1.0",
    "1u == 1", "dyn(1) == 1.0", "dyn(1) < 1.5", "-(1)", "-(-1)", "!true", "!!false", "1 + 'a'",
    "'a' + 1", "true + 1", "1 - true", "-'a'", "!1", "1 ? 2 : 3", "true ? 1 : 2",
    "false ? 'a' : 'b'", "true ? 1 : 'a'", "null == null", "1 == null", "[] == []",
    "[1, 2] == [1, 2]", "[1, 2] != [2, 1]", "{'a': 1} == {'a': 1}", "b'abc' == b'abc'",
    "0.1 + 0.2 == 0.3", "1e3 == 1000.0", "0x10 == 16", "-0.0 == 0.0",
    # Logic and short-circuits.
    "true || 1 / 0 == 1", "false && 1 / 0 == 1", "1 / 0 == 1 || true", "1 / 0 == 1 && false",
    "true && true", "false || false", "true && 1", "1 || true",
    # Strings.
    "'abc' + 'def' == 'abcdef'", "size('abc') == 3", "'abc'.size() == 3", "size('héllo') == 5",
    "size('') == 0", "'hello'.contains('ell')", "'hello'.startsWith('he')",
    "'hello'.endsWith('lo')", "'hello'.matches('^h.*o$')", "'hello'.matches('x')",
    "'abc'.matches('[')", "'hello'.charAt(1)", "'hello'.charAt(5)", "'hello'.charAt(6)",
    "'hello'.indexOf('l')", "'hello'.indexOf('l', 3)", "'hello'.indexOf('z')",
    "'hello'.lastIndexOf('l')", "'HeLLo'.lowerAscii()", "'HeLLo'.upperAscii()",
    "'a-b-c'.replace('-', '+')", "'a-b-c'.replace('-', '+', 1)", "'a,b,c'.split(',')",
    "'a,b,c'.split(',', 2)", "'a,b,c'.split(',').size() == 3", "'hello'.substring(1)",
    "'hello'.substring(1, 3)", "'hello'.substring(3, 1)", "'hello'.substring(9)",
    "'  x  '.trim()", "['a', 'b'].join()", "['a', 'b'].join('-')", "'%s!'.format(['hi'])",
    "'%d items'.format([3])", "'%s and %s'.format(['a', 'b'])", "strings.quote('a\"b')",
    "'abc'[0]", "'abc' in ['abc']", "'a' in 'abc'", "'\\u00e9' == 'é'", "'\\x41' == 'A'",
    "r'\\n' == '\\\\n'", "'''a\nb''' == 'a\\nb'", "\"double\" == 'double'",
    # Lists.
    "[1, 2, 3][1]", "[1, 2, 3][3]", "[1, 2, 3][-1]", "[1, 2] + [3]", "size([1, 2, 3])",
    "2 in [1, 2, 3]", "4 in [1, 2, 3]", "[1, 2, 3].all(x, x > 0)", "[1, 2, 3].all(x, x > 1)",
    "[1, 2, 3].exists(x, x == 2)", "[1, 2, 3].exists(x, x == 5)",
    "[1, 2, 3].exists_one(x, x > 1)", "[1, 2, 3].exists_one(x, x > 2)",
    "[1, 2, 3].map(x, x * 2)", "[1, 2, 3].filter(x, x % 2 == 1)",
    "[1, 2, 3].map(x, x > 1, x * 10)", "[[1, 2], [3]].map(l, size(l))",
    "[1, 2, 3].all(x, [4, 5].all(y, x < y))", "[].all(x, x)", "[].exists(x, x)",
    "[1, 2].all(x, x)", "[1, 0].all(x, 1 / x > 0)", "[0, 1].exists(x, 1 / x > 0)",
    "[1, 2, 3].all(x, y > 0)", "[1].all(1, true)", "[1, 2].map(x, x + 'a')",
    "[[1], [2]]",
    # Maps.
    "{'a': 1}['a']", "{'a': 1}['b']", "{'a': 1}.a", "'a' in {'a': 1}", "'b' in {'a': 1}",
    "{'a': 1, 'b': 2}.all(k, k != 'c')", "{'a': 1}.exists(k, k == 'a')", "size({'a': 1})",
    "{1: 'x'}[1]", "{true: 1}[true]", "{'a': 1}.map(k, k)", "{'a': 1, 'a': 2}",
    # Conversions.
    "int('12') == 12", "int('x')", "int(1.9) == 1", "int(-1.9) == -1", "int(1e20)",
    "uint(1) == 1u", "uint(-1)", "double('1.5') == 1.5", "double('x')", "double(2) == 2.0",
    "string(12) == '12'", "string(1.5) == '1.5'", "string(true) == 'true'",
    "string(b'abc') == 'abc'", "bytes('abc') == b'abc'", "bool('true')", "bool('x')",
    "dyn('a') == 'a'", "int('9223372036854775808')",
    # Durations and timestamps.
    "duration('1h') > duration('30m')", "duration('1h30m') == duration('90m')",
    "duration('x')", "timestamp('2024-01-02T03:04:05Z') < timestamp('2025-01-01T00:00:00Z')",
    "timestamp('2024-01-02T03:04:05Z').getFullYear() == 2024",
    "timestamp('2024-01-02T03:04:05Z').getMonth() == 0",
    "timestamp('2024-01-02T03:04:05Z') + duration('1h') == timestamp('2024-01-02T04:04:05Z')",
    "timestamp('x')",
    # self.
    "self.a == 1.0", "self.a + 1.0 == 2.0", "self.s == 'abc'", "self.s.size() == 3",
    "size(self.l) == 3", "self.l[0] == 1.0", "self.l.all(x, x > 0.0)", "self.m.k == 'v'",
    "self.m['k'] == 'v'", "self.b", "!self.b", "self.n == null", "self.e == ''",
    "has(self.a)", "has(self.z)", "has(self.m.k)", "has(self.m.z)", "self.z", "self.m.z",
    "self.z.y", "'a' in self", "self.l.exists(x, x == 2.0)", "self.s.startsWith('a')",
    "self.a + 1", "self.s + 1", "self.l + [4.0] == [1.0, 2.0, 3.0, 4.0]", "self.l[5]",
    "self.a.b", "self.s.upperAscii()", "self.l.map(x, x * 2.0)", "self.m.all(k, k == 'k')",
    "size(self)", "self.a > 0.5 && self.s != ''",
    # Syntax errors and undeclared references.
    "1 +", "(1", "1)", "[1, 2", "'abc", "a.b.c(", "1 +)", "foo", "foo(1)", "x + y",
    "self.foo()", "'abc'.foo()", "1.upperAscii()", "size(1)", "has(1)", "'\\q'",
    "'hello'.startsWith(1)", "self.?a", "1 = 1", "self..a", "{'a' 1}", "[1,]", "{'a': 1,}",
    "", "   ", "1 ++ 1", "in", "self.in", "1 in 2", "[1][true]", "{'a': 1}.a.b",
    "int('1') + 'a'", "[1, 2].exists(x, x == 'a')",
    # Type values and type identifiers.
    "type(1) == int", "type(1) == string", "type(1)", "type(type(1))", "type(type(1)) == type",
    "type(self) == map", "type(self.a) == double", "type(null) == null_type", "type([]) == list",
    "type({}) == map", "type(b'a') == bytes", "type(1u) == uint", "type(true) == bool",
    "type('a') == string", "type(self.s) == string", "type(self.l) == list", "type(self.n)",
    "int", "type(self)", "type([])", "[int, string]", "type(duration('1s'))",
    "type(timestamp('2024-01-01T00:00:00Z')) == google.protobuf.Timestamp",
    "google.protobuf.Duration", "type(dyn(1)) == type(1.0)", "type(1) != int", "int == int",
    "int == string", "dyn(int) == 1", "type(list)", "list == map", "type(1) in [int]",
    "int in [int, string]", "type(1) == type(2)", "type(1u) == type(1)",
    "type(self.l[0]) == double ? self.l[0] > 0.0 : false",
    "type(1) == 1", "string(type(1))", "string(int)", "type(1) < type(2)", "type == 1",
    "list == 1", "map == 1", "null_type == 1", "type(self) == 1", "type(type(1)) == 1",
    "type([1]) == 1", "bool == 1", "type(1) + 1", "int.size()", "size(int)", "type(1, 2)",
    "1.type()", "int.x", "string(dyn(int))", "string(dyn([1]))", "string(dyn({}))",
    "string(dyn(null))", "dyn(type(1)).zz",
    ("type(self) == double ? self >= 0.0 : self.endsWith('%')", 5),
    ("type(self) == double ? self >= 0.0 : self.endsWith('%')", "50%"),
    ("type(self) == double ? self >= 0.0 : self.endsWith('%')", "50"),
    ("type(self) == string ? self.endsWith('%') : self >= 0", -1),
    # Heterogeneous equality and cross-type ordering at run time.
    "dyn(1) == 1u", "dyn(1) != 1.5", "dyn(1) in [1.0]", "dyn(1u) in [1, 2]", "[dyn(1)] == [1.0]",
    "{'a': dyn(1)} == {'a': 1.0}", "dyn(1.0) in {1: 'a'}", "dyn(1u) in {1: 'a'}",
    "dyn(2u) > 1", "dyn(1) <= 1.0", "dyn(1.5) >= 2u", "dyn(-1) < 1u",
    "dyn(18446744073709551615u) > -1", "dyn(9223372036854775807) == 9223372036854775807.0",
    "dyn(1.0) < 0.0/0.0", "0.0/0.0 == 0.0/0.0", "[0.0/0.0] == [0.0/0.0]", "dyn('a') < 1",
    "self.a == 1", "self.a >= 1", "self.a < 2u", "self.l == [1, 2, 3]", "1 in self.l",
    "self.a in [1, 2]", "b'a' < b'b'", "false < true",
    "duration('1s') < duration('2s')", "{1: 'a'}[dyn(1.0)]", "{1: 'a'}[dyn(1u)]",
    "[1, 2][dyn(1u)]", "[1, 2][dyn(1.0)]", "{int: 1}", "[1, 2][dyn(1.5)]", "[1, 2][dyn('a')]",
    "[1, 2][dyn(5u)]", "{true: 1}[dyn(1)]", "{'a': 1}[dyn(1.5)]", "dyn(1)[0]",
    "{1: 2}[dyn(2.0)]", "{1u: 2}[dyn(2.0)]",
    # Logic and macros are commutative over errors.
    "dyn(true) || 1/0 == 1", "1/0 == 1 || dyn(2)", "dyn(2) || 1/0 == 1", "1/0 == 1 || 2/0 == 1",
    "dyn(1) || false", "false || dyn(1)", "dyn(1) && true", "1/0 == 1 && 2/0 == 1",
    "1/0 == 1 || 1/0 == 1 || true", "false && 1/0 == 1 && true", "[0, 1].all(x, 1 / x > 0)",
    "[1, 0].exists(x, 1 / x > 5)", "[0, 2].all(x, 2 / x > 1)", "[dyn(1), true].exists(x, x)",
    "[dyn(1), false].exists(x, x)", "self.l.exists(x, x)", "[1, 0].exists_one(x, 1/x > 0)",
    "[1, 2].all(x, [0, 1].exists(y, x / y > 0))", "{'a': 0, 'b': 1}.exists(k, 1 / {'a': 0, 'b': 1}[k] > 0)",
    "[0].all(x, 1 / x > 0) || true", "dyn(1).all(x, true)",
    # Runs of '!' and '-', negation overflow.
    "-(-9223372036854775808)", "-9223372036854775808", "--1", "- -1", "!!1", "!!false",
    "!!!false", "! !true", "--self.a", "-(-self.a)", "!!(1 == 1)", "!!!!true", "-(-1.5)",
    "-dyn('a')", "!dyn(1)",
    # Field selection on values that are not maps.
    "self.a.zz", "self.s.zz", "dyn(1).zz", "dyn(true).zz", "dyn(null).zz", "dyn([1]).zz",
    "has(dyn(1).zz)", "has(dyn(null).zz)", "has(dyn([]).zz)", "[{'a': 1}][0].zz", "self.m.k.zz",
    "has(self.m.k.zz)", "self.n.zz", "self.b.zz",
    # string() formatting.
    "string(1e100)", "string(true)", "string(false)", "string(-0.0)", "string(1.0)",
    "string(0.1)", "string(1e21)", "string(123456789.0)", "string(1e-7)", "string(0.0/0.0)",
    "string(1.0/0.0)", "string(-1.0/0.0)", "string(self.a)", "string(duration('1h'))",
    "string(duration('1.5s'))", "string(duration('-1ms'))",
    "string(timestamp('2024-01-02T03:04:05Z'))", "string(timestamp('2024-01-02T03:04:05.120Z'))",
    "string(timestamp('2024-01-02T03:04:05+01:00'))", "string(b'\\xff')",
]

# Cases whose compile-time outcome depends on the Kubernetes environment options (see above).
K8S_RULES = [
    "1 < 1.5", "2u > 1", "1 <= 1.0", "1.5 >= 2u", "1 < 1u", "-1 < 1u", "1.0 > 0", "2 >= 2.0",
    "self.a > 0", "[1, 'a']", "[1, [2]]", "[1, 2.0]", "{'a': 1, 'b': 'x'}", "1 == 1.0",
    "type(1) == int ? 1 < 1.5 : false",
]

# Documented deviations: rule -> reason. "ours" is filled from the replay's output.
DEVIATIONS = json.load(open(os.path.join(ROOT, "scripts/golden-cel-deviations.json")))


def run(rule, self_value, oracle=ORACLE):
    case = json.dumps({"rule": rule, "self": self_value})
    p = subprocess.run([oracle], input=case, capture_output=True, text=True)
    out = p.stdout.rstrip("\n")
    if not out:
        out = "oracle failed: " + p.stderr.strip().splitlines()[0] if p.stderr else "no output"
    return out


def main():
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    seen = set()
    with open(OUT, "w") as f:
        cases = [(r, False) for r in RULES] + [(r, True) for r in K8S_RULES]
        for entry, k8s in cases:
            rule, self_value = entry if isinstance(entry, tuple) else (entry, OBJ)
            key = json.dumps([rule, self_value])
            if key in seen:
                continue
            seen.add(key)
            if rule.strip() == "":
                continue  # the oracle skips empty rules
            case = {"rule": rule, "self": self_value}
            if k8s:
                case["oracle"] = "kubernetes"
            case["go"] = run(rule, self_value, K8S_ORACLE if k8s else ORACLE)
            if rule in DEVIATIONS:
                case["deviation"] = DEVIATIONS[rule]
            f.write(json.dumps(case, ensure_ascii=False) + "\n")
    print(f"wrote {len(seen)} cases to {OUT}")


if __name__ == "__main__":
    main()
