#!/usr/bin/env bash
# Regenerate testdata/golden/yaml2json.jsonl: YAML snippets with the JSON that the real
# sigs.k8s.io/yaml.YAMLToJSON (yaml.v2, YAML 1.1 rules — what kubectl uses) produces for them.
#
# Usage: scripts/gen-golden-yaml.sh /path/to/gooracle [output.jsonl]
#   Build the oracle first:  bash /work/shared/oracle/build.sh /tmp/gooracle/gooracle
#   (Debian bookworm: Go 1.19, sigs.k8s.io/yaml 1.3.0, gopkg.in/yaml.v2 2.4.0.)
#
# Output: one JSON object per line:
#   {"yaml": "...", "json": <Go's exact JSON output, or null>, "error": <bool>}
# plus, for the few inputs where topoplan deliberately differs from Go, "deviation": "<why>"
# (tests/golden_yaml.rs then requires topoplan to *reject* the input).
# "json" is spliced in as Go's raw bytes, so the Rust test reads exactly what a JSON reader of
# kubectl's output would read (e.g. Go prints 1.0 as 1).
set -euo pipefail

oracle=${1:?usage: $0 /path/to/gooracle [output.jsonl]}
out=${2:-"$(dirname "$0")/../testdata/golden/yaml2json.jsonl"}

python3 - "$oracle" "$out" <<'PY'
import json, subprocess, sys

oracle, out_path = sys.argv[1], sys.argv[2]

DUP = "duplicate keys are an error in topoplan (Go silently keeps the last, or a random one)"
LS = "raw NEL/LS/PS characters are rejected by topoplan (YAML 1.1 line breaks; Go folds them)"
SQ = "granit (YAML 1.2) rejects the \\' escape in double quotes that yaml.v2 accepts"

# Each case is a YAML string, or (yaml, deviation-reason).
cases = [
    # --- booleans (YAML 1.1) ---
    "a: y\nb: Y\nc: yes\nd: Yes\ne: YES\n",
    "a: n\nb: N\nc: no\nd: No\ne: NO\n",
    "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\n",
    "a: on\nb: On\nc: ON\nd: off\ne: Off\nf: OFF\n",
    "a: yEs\nb: tRUE\nc: oN\nd: nO\ne: fAlse\n",
    "a: 'y'\nb: \"no\"\nc: 'on'\nd: \"true\"\n",
    "- yes\n- no\n- y\n- n\n- on\n- off\n",
    # --- nulls ---
    "a: ~\nb: null\nc: Null\nd: NULL\ne:\n",
    "a: nULL\nb: nil\nc: None\n",
    "a: ''\nb: \"\"\n",
    "- \n- a\n-\n",
    "~",
    "null",
    "",
    "# only a comment\n",
    "---\n",
    # --- integers ---
    "a: 0\nb: -0\nc: +12\nd: -12\n",
    "a: 0755\nb: 012\nc: 00\nd: 07\n",
    "a: 08\nb: 09\nc: 0_8\nd: 0_7\n",
    "a: 0o17\nb: 0O17\nc: 0o9\nd: 0o\n",
    "a: 0x1F\nb: 0X1f\nc: -0x1F\nd: +0x10\ne: 0x\nf: 0xG\n",
    "a: 0b101\nb: -0b101\nc: 0B11\nd: 0b\ne: 0b2\n",
    "a: 1_000\nb: 1__0\nc: 1_\nd: _1\ne: 0x_1F\nf: -_1\n",
    "a: 9223372036854775807\nb: 9223372036854775808\n",
    "a: -9223372036854775808\nb: -9223372036854775809\n",
    "a: 18446744073709551615\nb: 18446744073709551616\n",
    "a: 0xFFFFFFFFFFFFFFFF\nb: 0x10000000000000000\nc: 0x7FFFFFFFFFFFFFFF\n",
    "a: 123456789012345678901234567890\n",
    "a: 1e3\nb: 1E3\nc: 1e+3\nd: 1e-3\n",
    "42",
    "-7",
    # --- floats ---
    "a: 1.5\nb: 1.20\nc: 1.0\nd: 1.\ne: .5\nf: -.5\ng: +.5\n",
    "a: 1.5e3\nb: 6.02e23\nc: 1e21\nd: 1e20\ne: 1e19\nf: 2e19\n",
    "a: 1e400\nb: -1e400\nc: 1e-400\nd: .5e400\n",
    "a: 3.0\nb: -0.0\nc: 0.0\nd: 100000000.0\ne: 0e0\n",
    "a: 0.000001\nb: 0.0000001\nc: 0.1\nd: 0.30000000000000004\n",
    "a: 1.7976931348623157e308\nb: 4.9e-324\nc: 2.2250738585072014e-308\n",
    "a: 1_000.5\nb: .5_5\nc: 1.e3\nd: 1e3.5\ne: +1e3\nf: -1.5e-3\n",
    "a: 1.2.3\nb: 0x1.8p1\nc: 1e\nd: e3\ne: .\nf: ._5\n",
    "a: Infinity\nb: NaN\nc: inf\nd: .Nan\ne: .iNf\n",
    "a: .inf\n",
    "a: .Inf\n",
    "a: +.INF\n",
    "a: -.inf\n",
    "a: .nan\n",
    "a: .NaN\n",
    "- !!float .nan\n",
    "a: .nan\n<<: {a: 1}\n",
    "a: [.inf]\n<<: {a: 1}\n",
    "b: &b {x: .nan}\nm: {<<: *b, x: 1}\n",
    "a: 12345678901234567\nb: 1234567890123456789.0\n",
    "a: 0.1e1\nb: 10e-1\nc: 5e-324\n",
    "a: 18446744073759551616\nb: 184467440737095510616\nc: -18446744073709551616\n",
    # --- strings that look like other things ---
    "a: 1:20\nb: 190:20:30.15\nc: -1:30\n",
    "a: 2024-01-01\nb: 2001-12-14t21:59:43.10-05:00\nc: 2001-12-14 21:59:43.10\nd: 2001-12-14T21:59:43Z\n",
    "a: 2024-13-01\nb: 2023-02-29\nc: 2024-1-1\nd: 20240101\n",
    "a: 10Gi\nb: 500m\nc: v1.2\nd: 1.2.3-rc.1\ne: 0.1.0\n",
    "a: =\nb: <<\nc: +\nd: .\ne: ..\n",
    "a: '1'\nb: \"0755\"\nc: '1.20'\nd: \"0x1F\"\ne: '1_000'\nf: \"2024-01-01\"\n",
    "a: 'it''s'\nb: \"say \\\"hi\\\"\"\nc: \"tab\\tnew\\nline\"\nd: \"\\u00e9\\U0001F600\\x41\"\n",
    "a: \"\\/\\0\\a\\b\\e\\f\\r\\v\\N\\_\\L\\P\"\n",
    "a: b:c\nb: http://example.com:8080/x?y=z#f\nc: -x\nd: x -y\ne: a#b\n",
    "a: x # comment\nb: y #c\nc: 'q' # c\n",
    "a: hello world\nb:   spaced   out   \n",
    "a: one\n  two\n  three\nb: x\n",
    "a: one\n\n  two\n",
    "é: ü\n日本: 語\nemoji: 😀\n",
    "a: b\u0085c\n",
    "a: b\u2028c\n",
    ("a: \"x\u2028y\"\n", LS),
    "a: 1 # c \u0085 d: 2\n",
    ("a: \"it\\'s\"\n", SQ),
    "a: \"\\/\"\n",
    "a: \"b\u00a0c\"\n",
    "hello",
    "yes",
    "'yes'",
    # --- block scalars ---
    "a: |\n  line1\n  line2\n",
    "a: |-\n  line1\n  line2\n",
    "a: |+\n  line1\n\n\nb: 1\n",
    "a: >\n  folded\n  text\n\n  para\n",
    "a: >-\n  folded\n  text\n",
    "a: |2\n    indented\n  less\n",
    "a: |\n  trailing   \n  # not a comment\n",
    "a: |\n\n  leading blank\n",
    "- |\n  in a list\n- >\n  folded in list\n",
    "a: |\n",
    "a: |\n  no final newline",
    "a: >\n  folded\n  no final newline",
    "- |\n  x\n  y",
    "a: |\n  x\n  ",
    "a: |-\n  x",
    "a: |+\n  x",
    # --- explicit tags ---
    "a: !!str 12\nb: !!str true\nc: !!str ~\nd: !!str\n",
    "a: !!int \"12\"\nb: !!int 0x1F\nc: !!int '0755'\n",
    "a: !!int 1.5\n",
    "a: !!int abc\n",
    "a: !!float 1\nb: !!float \"1.5\"\nc: !!float 0x10\n",
    "a: !!float 18446744073709551615\n",
    "a: !!bool \"yes\"\nb: !!bool off\n",
    "a: !!bool 1\n",
    "a: !!null ~\nb: !!null ''\nc: !!null\n",
    "a: !!null x\n",
    "a: !!binary aGVsbG8=\n",
    "a: !!binary |\n  aGVs\n  bG8=\n",
    "a: !!binary /w==\n",
    "a: !!binary not-base64\n",
    "a: !!binary aGVsbG8\n",
    "a: !custom 12\nb: ! 12\nc: !foo true\nd: !!map 5\n",
    "a: !!timestamp 2001-01-01\nb: !!timestamp 2001-12-14T21:59:43Z\n",
    "a: !!timestamp 12\n",
    "a: !!map {b: 1}\nb: !!seq [1]\nc: !!set {x, y}\nd: !!omap [{k: 1}]\n",
    "a: !<tag:yaml.org,2002:int> \"7\"\nb: !<tag:yaml.org,2002:str> 7\n",
    "%TAG !e! tag:yaml.org,2002:\n---\na: !e!int \"8\"\n",
    "--- !!str\nfoo\n",
    "!!int '3'",
    # --- mapping keys ---
    ("n: a\ny: b\nyes: c\non: d\nOff: e\n", DUP),
    "1: a\n-1: b\n0x10: c\n0755: d\n1_000: e\n-0: f\n",
    "1.5: a\n1e6: b\n0.1: c\n3.141592653589793: d\n123456.0: e\n1234567.0: f\n",
    "1.0: a\n",
    ("1e39: a\n.inf: b\n-.inf: c\n.nan: d\n", DUP),
    "n: a\ny: b\n",
    ".inf: b\n-.inf: c\n.nan: d\n",
    "0.00001: a\n0.0001: b\n-0.0: c\n",
    "~: a\n",
    "~: a\n<<: {~: b}\n",
    "m: {~: a}\n<<: {m: 1}\n",
    "null: a\n",
    ": a\n",
    "? \n: a\n",
    "18446744073709551615: a\n",
    "9223372036854775808: a\n",
    "2024-01-01: a\n",
    "!!str 1: a\n'2': b\n\"true\": c\n",
    "\"\": a\n",
    "[a]: b\n",
    "{a: 1}: b\n",
    "? [a, b]\n: c\n",
    "? a\n: b\n? c\n",
    "True: a\nNULL_: b\n",
    # --- duplicate keys (deliberate deviation) ---
    ("a: 1\na: 2\n", DUP),
    ("a:\n  b: 1\n  b: 2\n", DUP),
    ("1: a\n\"1\": b\n", DUP),
    ("y: 1\ntrue: 2\n", DUP),
    ("1.0: a\n1: b\n", DUP),
    ("{a: 1, a: 2}", DUP),
    # --- anchors and aliases ---
    "a: &x 1\nb: *x\n",
    "a: &x {p: 1}\nb: *x\nc: [*x, *x]\n",
    "a: &x [1, 2]\nb: *x\n",
    "a: &k key\n*k : v\n",
    "a: &x 1\nb: &x 2\nc: *x\n",
    "a: *nope\n",
    "a: &a [1, *a]\n",
    "a: &a\n  b: *a\n",
    "&r [1, 2]",
    "a: &x-y_1 1\nb: *x-y_1\n",
    "a: &a@ 1\n",
    "a: &é 1\n",
    "a: &~ [1]\n",
    "[:a]",
    "{a: [:x]}",
    "[a:b, 1:08, http://x]",
    "[what?]",
    "{a: b?c}",
    "a: what?\nb: [x]\n",
    "a: &e\nb: *e\n",
    # --- merge keys ---
    "base: &b {x: 1, z: 2}\nm:\n  <<: *b\n  x: 9\n",
    "b1: &b1 {x: 1, w: 1}\nb2: &b2 {x: 2, z: 2}\nm:\n  <<: [*b1, *b2]\n",
    "b1: &b1 {x: 1}\nb2: &b2 {x: 2}\nm:\n  <<: [*b2, *b1]\n",
    "a: 1\n<<: {a: 2, b: 3}\n",
    "<<: {a: 2}\na: 1\n",
    "<<: {a: 1}\n<<: {a: 2, b: 2}\n",
    "'<<': {a: 1}\n",
    "\"<<\": {a: 1}\n",
    "!!merge <<: {a: 1}\n",
    "<<: 1\n",
    "<<: [1]\n",
    "s: &s str\nm:\n  <<: *s\n",
    "<<: ~\n",
    "<<: [{a: 1}, {a: 2, b: 2}]\n",
    "b: &b {<<: {deep: 1}, x: 1}\nm: {<<: *b}\n",
    "a: <<\n",
    "- <<: {a: 1}\n  b: 2\n",
    # --- multi-document ---
    "a: 1\n---\nb: 2\n",
    "---\na: 1\n",
    "--- \n...\n",
    "---\n---\na: 1\n",
    "a: 1\n---\nb: [\n",
    "a: 1\n...\n---\nb: 2\n",
    "%YAML 1.1\n---\na: 1\n",
    "%FOO bar\n---\na: 1\n",
    "%YAML 1.2\n---\na: 1\n",
    "%YAML 1.1 # comment\n%TAG !e! tag:example.com,2000:\n---\na: !e!x 1\n",
    "a: 1\n---\n%FOO x\n---\nb: 1\n",
    "a: 1\n...\n%FOO x\n---\nb: 1\n",
    "a: 1\n---\nb: \"\\/\"\n",
    "a: 1\n---\nb: x\u2028y\n",
    # --- JSON ---
    "{\"a\": 1, \"b\": [true, null, 1.5, \"x\"]}",
    "{\"a\":1,\"b\":{\"c\":[]}}",
    "[1, 2.5, \"x\", {\"on\": \"on\"}]",
    "{\"e\": \"\\u00e9\\n\", \"n\": -0, \"f\": 1.0, \"big\": 1e21}",
    "{\"a\": 1,\n \"b\": 2\n}",
    # --- flow collections ---
    "{a: 1, b}",
    "[a, b, ]",
    "{a: [1, {b: 2}], c: {}}",
    "[a: 1, b]",
    "{? a: b}",
    "[a:1, b: 2]",
    "{a: 1,\n b: 2\n}",
    "key: [\n  1, 2\n]\n",
    "[[], {}, [[]]]",
    # --- structure ---
    "a:\n  b:\n    c: 1\n  d: [1]\nlist:\n- x\n- y: 1\n  z: 2\n- - nested\n",
    "- a\n- - b\n  - c\n- d: e\n",
    "a:\n- 1\n- 2\nb: 3\n",
    "a: 1\r\nb: 2\r\n",
    "\ufeffa: 1\n",
    "  a: 1\n  b: 2\n",
    # --- syntax errors ---
    "a: [1, 2\n",
    "a: {b: 1\n",
    "a: [1, 2\nb: 3\n",
    "a:\n  b: 1\n c: 2\n",
    "a:\n\tb: 1\n",
    "a: b: c\n",
    "- a\nb: 1\n",
    "a: 'x\n",
    "a: \"x\n",
    "key: [a, b]]\n",
    "[",
    "{",
    "]",
    "a: *\n",
    "a: &\n",
    "a: |\n  x\n y\n",
    "a: @x\n",
    "a: `x\n",
    "a: %x\n",
    "a:\n- b\n c\n",
    "a: -\n",
    "a: \"\\q\"\n",
    "a: b\n  c: d\n",
    "- a\n  - b\n",
    "? a\n? b\n: c\n: d\n",
]

lines = []
for c in cases:
    y, deviation = (c, None) if isinstance(c, str) else c
    lines.append(json.dumps({"yaml": y}, ensure_ascii=False))

res = subprocess.run([oracle, "yaml2json", "-jsonl"], input="\n".join(lines) + "\n",
                     capture_output=True, text=True, check=True)
results = res.stdout.splitlines()
if len(results) != len(cases):
    sys.exit(f"oracle returned {len(results)} results for {len(cases)} cases")

with open(out_path, "w", encoding="utf-8") as f:
    for c, r in zip(cases, results):
        y, deviation = (c, None) if isinstance(c, str) else c
        r = json.loads(r)
        ok = r["ok"]
        # Splice Go's output bytes in verbatim (json.loads would turn -0 into 0, etc.).
        raw = r["output"] if ok else "null"
        line = '{"yaml": %s, "json": %s, "error": %s' % (
            json.dumps(y, ensure_ascii=False), raw, "false" if ok else "true")
        if not ok:
            line += ', "go_error": %s' % json.dumps(r["error"], ensure_ascii=False)
        if deviation:
            line += ', "deviation": %s' % json.dumps(deviation)
        f.write(line + "}\n")
print(f"wrote {len(cases)} cases to {out_path}")
PY
