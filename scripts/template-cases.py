#!/usr/bin/env python3
"""Write the hand-written Go template golden cases: testdata/golden/template/{core,fmt}.cases.jsonl.

Each case is {"template", "data", "funcs": "none", "missingkey"}; the expected results come from
the real Go (scripts/gen-golden-template.sh). Cases are listed here rather than edited in the
JSONL files so that related cases stay together and combinatorial families (printf verbs x flags
x values) are written once.

Usage: scripts/template-cases.py   (then scripts/gen-golden-template.sh /path/to/gooracle)
"""
import json
import os

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "testdata", "golden", "template")


# Deliberate differences from Go (see the module docs of src/gotemplate/exec.rs): the golden test
# runs these cases but does not compare them; it lists them instead.
COMPLEX = "complex constants are rejected (Go prints them as (re+imi); the value model has no complex type)"
BYTES = "strings are UTF-8: a byte that is not valid UTF-8 becomes U+FFFD when the literal is parsed or sliced"
UINT8 = "indexing a string yields a uint64 (Go: uint8; the value model has no uint8)"
CAP = "slices have no spare capacity (Go's JSON decoder leaves some, which slice may reach past len)"
DEVIATIONS = {}
for n in ["1i", "0i", "1+2i", "2.5i", "1+0i"]:
    DEVIATIONS["{{%s}}" % n] = COMPLEX
    DEVIATIONS["{{printf \"%%T %%v\" %s}}" % n] = COMPLEX
DEVIATIONS['{{printf "%q" "\\xff"}}'] = BYTES
DEVIATIONS['{{printf "%q" (slice .u 0 2)}}'] = BYTES
DEVIATIONS['{{printf "%T" (index .s 0)}}'] = UINT8
DEVIATIONS['{{printf "%s" (index .s 0)}}'] = UINT8
DEVIATIONS['{{printf "%v %d %c %T" (index .s 0) (index .s 0) (index .s 0) (index .s 0)}}'] = UINT8
DEVIATIONS['{{slice .l 0 6}}'] = CAP


class Cases:
    def __init__(self):
        self.rows = []
        self.seen = set()

    def add(self, template, data=None, mk="default"):
        row = {"template": template, "data": data, "funcs": "none", "missingkey": mk}
        if template in DEVIATIONS:
            row["deviation"] = DEVIATIONS[template]
        key = json.dumps(row, sort_keys=True)
        if key in self.seen:
            return
        self.seen.add(key)
        self.rows.append(row)

    def write(self, name):
        path = os.path.join(OUT, name + ".cases.jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for r in self.rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        print(f"{path}: {len(self.rows)} cases")


D = {  # a typical data document
    "s": "hello", "e": "", "n": 3, "f": 2.5, "z": 0, "neg": -7, "big": 1e21, "t": True, "F": False,
    "nul": None, "l": [1, "two", None, True, 2.5], "el": [], "m": {"b": 2, "a": 1, "c": {"d": "x"}},
    "em": {}, "ll": [[1, 2], [3]], "ml": [{"k": "v1"}, {"k": "v2"}], "u": "héllo, 世界 😀",
    "i1": 1, "i2": 2, "html": "<a href=\"x\">'&'</a>", "pct": "100%", "sp": "a b\tc\nd",
}

# ============================================================================================
core = Cases()
c = core.add

# --- text, printing of data ---------------------------------------------------------------
for t in ["", "plain text", "line1\nline2\n", "unicode: héllo 世界 😀", "{{`raw`}}", "a{{\"\"}}b",
          "tab\there", "{ {not an action} }", "}} stray", "{", "}", "{{\"{{\"}}"]:
    c(t, D)
for data in [None, "str", 0, 1, -1, 1.5, 1e6, 1e21, 1e20, 123456789, 1e-7, 0.000001, True, False,
             [], {}, [1, [2, [3]]], {"a": {"b": {"c": 1}}}, [None], {"x": None}, "", " ",
             -0.0, 100000, 999999, 1000000, 0.1, 0.30000000000000004, 1.7976931348623157e308,
             5e-324, 12345678.9, [1.5, "a", True, None, {"k": []}], {"z": 1, "a": 2, "B": 3, "_": 4}]:
    c("{{.}}", data)
for f in ["s", "e", "n", "f", "z", "neg", "big", "t", "F", "nul", "l", "el", "m", "em", "ll", "ml",
          "u", "missing", "html", "pct"]:
    c("{{.%s}}" % f, D)
c("{{.m.a}} {{.m.c.d}} {{.m.c.missing}} {{.m.missing.x}} {{.missing.x.y}}", D)
c("{{.m.c}}", D)
c("[{{.nul}}] [{{print .nul}}] [{{printf \"%v\" .nul}}]", D)
c("{{.a.b.c}}", {"a": {"b": {"c": "deep"}}})
c("{{.a.b.c}}", {"a": {"b": None}})
c("{{.a.b.c}}", {"a": None})
c("{{.a.b}}", {"a": 1})
c("{{.a.b}}", {"a": "s"})
c("{{.a.b}}", {"a": [1]})
c("{{.a.b}}", {"a": True})
c("{{.x}}", "str")
c("{{.x}}", 5)
c("{{.x}}", [1])
c("{{.x}}", None)
c("{{.x.y}}", None)
c("{{$.x}}", {"x": 1})
c("{{$}}", {"x": 1})
c("{{$.x.y}}", {"x": {"y": 2}})
c("{{.héllo}} {{.ñ}}", {"héllo": 1, "ñ": 2})
c("{{.a_b}} {{._x}} {{.x1}}", {"a_b": 1, "_x": 2, "x1": 3})
c("{{.A}} {{.a}}", {"A": "upper", "a": "lower"})

# --- comments -----------------------------------------------------------------------------
for t in ["a{{/* comment */}}b", "a {{- /* comment */ -}} b", "a{{/* multi\nline\ncomment */}}b",
          "{{/**/}}", "a  {{- /* c */}}  b", "a  {{/* c */ -}}  b", "{{/* unclosed", "{{/* c */ x}}",
          "{{/* c */ }}", "{{ /* c */ }}", "{{/* a */}}{{/* b */}}x", "x\n{{/* c\n */}}\n{{.missing.x}}",
          "{{/* c */}}\n{{end}}", "{{-/* c */}}", "{{- /* c */-}}"]:
    c(t, D)

# --- trim markers ---------------------------------------------------------------------------
for t in ["a  {{- 1 -}}  b", "a \n\t {{- 1}}", "{{1 -}} \n\t b", "a {{-1}} b", "a {{- -1}} b",
          "a {{-1 -}} b", "a {{- 1 - }} b", "{{- .s -}}", " \n {{- .s}}", "{{.s -}}\n\n x",
          "{{- \"a\" -}}\n{{- \"b\" -}}", "x\r\n{{- 1 -}}\r\ny", "{{ 1 -}}{{- 2 }}", "a\n{{- if .t -}}\n  yes\n{{- end -}}\nb",
          "{{-  1  -}}", "{{-\t1\t-}}", "{{-\n1\n-}}", "{{ -3 }}", "{{-3}}", "{{3-}}", "{{ 3 -}}x",
          "{{- range .l}} {{.}} {{- end}}", "a {{- /**/ -}} b"]:
    c(t, D)

# --- literals -------------------------------------------------------------------------------
nums = ["0", "1", "-1", "+1", "42", "1_000", "0x1F", "0X1f", "0x_1F", "017", "0o17", "0O17", "0b101", "0B11",
        "1.5", "-1.5", ".5", "-.5", "1.", "1e3", "1E3", "1e+3", "1e-3", "1.5e2", "0x1p4", "0x1p-2", "0x1.8p1",
        "08", "09", "0x", "0b2", "1__0", "1_", "_1", "1e400", "1e-400", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615",
        "18446744073709551616", "99999999999999999999", "1.0", "100.0", "1e21", "1e20", "123456789.0",
        "0.1", "3.14159265358979323846", "0x1.8", "1.2.3", "1e", "1e+", "0x1e3", "0xE", "00", "-0", "+0",
        "0.0", "-0.0", "1_0.5", "1e1_0", "0x1P4", "1i", "0i", "1+2i", "2.5i", "1+0i", "'a'", "'\\n'",
        "'\\x41'", "'\\u00e9'", "'\\U0001F600'", "'é'", "'ab'", "''", "'\\''", "'\\q'", "'\\400'", "'\\101'",
        "'\\uD800'", "'\"'", "'\\\"'", "3x", "0x1F-21i", "1e400+1i", "1+1e400i", "0b1+1i",
        "0o7+1i", "1__0+1i", "1+0x10i", "0xZ", ".", "-", "+", "1-2", "1+2", "--1", "1..2"]
for n in nums:
    c("{{%s}}" % n)
    c("{{printf \"%%T %%v\" %s}}" % n)
for s in ['"a"', '"a\\nb"', '"\\t\\"q\\"\\\\"', '"\\x41\\u00e9\\U0001F600"', '"\\101"', '"\\q"', '"\\xff"',
          '"é"', '`raw\\n`', '`multi\nline`', '"unterminated', '`unterminated', '"a\nb"', '"\\u00"',
          '"\\uD800"', '""', '``', '"\\a\\b\\f\\r\\v"', '"\\\'"', '`a"b`', '"\\0"', '"\\08"']:
    c("{{%s}}" % s)
    c("{{printf \"%%q\" %s}}" % s)
for t in ["{{true}}", "{{false}}", "{{nil}}", "{{printf \"%v\" nil}}", "{{print nil}}", "{{true.x}}",
          "{{nil.x}}", "{{\"s\".x}}", "{{1.x}}", "{{(1).x}}", "{{(\"s\").x}}", "{{(nil).x}}", "{{.}}",
          "{{..x}}", "{{.x.}}", "{{$x := 1}}{{$x.}}", "{{TRUE}}", "{{True}}", "{{ true }}"]:
    c(t, D)

# --- pipelines and commands -----------------------------------------------------------------
for t in ["{{.s | printf \"%s!\"}}", "{{.s | printf \"%s-%s\" \"x\"}}", "{{1 | printf \"%d\"}}",
          "{{\"a\" | printf \"%s%s\" \"b\" | printf \"[%s]\"}}", "{{printf \"%d\" 1 | printf \"%s\"}}",
          "{{(printf \"a\")}}", "{{(printf \"%s\" .s) | len}}", "{{.l | len}}", "{{len .l | printf \"%d\"}}",
          "{{.s | 1}}", "{{.s | \"a\"}}", "{{.s | .}}", "{{.s | nil}}", "{{.s | true}}", "{{.s | .n}}",
          "{{.s | $}}", "{{.s | (printf \"x\")}}", "{{|}}", "{{.s |}}", "{{| .s}}", "{{.s || .s}}",
          "{{()}}", "{{( )}}", "{{(.s}}", "{{.s)}}", "{{((.s))}}", "{{(((1)))}}", "{{(.m).a}}", "{{(.m).c.d}}",
          "{{(.m.c).d}}", "{{(.l).x}}", "{{(.nul).x}}", "{{(.missing).x}}", "{{(index .ml 0).k}}",
          "{{(printf \"x\").y}}", "{{(1) 2}}", "{{. 1}}", "{{\"a\" \"b\"}}", "{{.s .n}}", "{{$ 1}}",
          "{{nil 1}}", "{{1 | printf}}", "{{printf}}", "{{.s | len | printf \"%d\" | printf \"%q\"}}",
          "{{printf \"%s\" (printf \"%s\" (printf \"%s\" \"deep\"))}}", "{{  .s  }}", "{{\t.s\n}}",
          "{{.s\n|\nprintf \"%s\"}}", "{{.s|printf \"%s\"}}", "{{.s|len}}", "{{printf \"%d\"(len .s)}}",
          "{{printf \"a\",\"b\"}}", "{{.s,}}", "{{printf \"%v\" .m.a.x}}", "{{.m.a | printf \"%v\"}}",
          "{{and}}", "{{or}}", "{{not}}", "{{(and)}}", "{{len}}", "{{index}}", "{{slice}}", "{{eq}}",
          "{{ne 1}}", "{{lt 1}}", "{{html}}", "{{js}}", "{{urlquery}}", "{{print}}", "{{println}}",
          "{{call}}", "{{foo}}", "{{.s | foo}}", "{{printf \"%s\" foo}}", "{{Printf \"x\"}}",
          "{{template}}", "{{index .l 1 | printf \"%v\" | len}}", "{{.l | index 0}}", "{{0 | index .l}}",
          "{{.s.x | printf \"%v\"}}", "{{(.s).x}}", "{{printf \"%v\" .s.x}}"]:
    c(t, D)

# --- variables --------------------------------------------------------------------------------
for t in ["{{$x := 1}}{{$x}}", "{{$x := .s}}{{$x}}", "{{$x := 1}}{{$x = 2}}{{$x}}", "{{$x = 1}}",
          "{{$x}}", "{{$x := 1}}{{$y}}", "{{$x := .m}}{{$x.a}} {{$x.c.d}}", "{{$x := .m}}{{$x.missing.y}}",
          "{{$x := .n}}{{$x.y}}", "{{$x := .nul}}{{$x.y}}", "{{$x := .nul}}{{$x}}", "{{$x := .l}}{{index $x 1}}",
          "{{$x := 1}}{{if true}}{{$x := 2}}{{$x}}{{end}}{{$x}}", "{{$x := 1}}{{if true}}{{$x = 2}}{{end}}{{$x}}",
          "{{$x := 1}}{{range .l}}{{$x = .}}{{end}}{{$x}}", "{{range .l}}{{$y := .}}{{end}}{{$y}}",
          "{{with $x := .s}}{{$x}}{{end}}", "{{with $x := .s}}{{end}}{{$x}}", "{{if $x := .s}}{{$x}}{{end}}",
          "{{if $x := .e}}{{$x}}{{else}}[{{$x}}]{{end}}", "{{$x, $y := 1}}", "{{$x, $y := .l}}",
          "{{$x := 1}}{{$x := 2}}{{$x}}", "{{$ := 1}}{{$}}", "{{$x := $}}{{$x.s}}", "{{$x := 1 | printf \"%d\"}}{{$x}}",
          "{{$x := printf \"%s\" .s}}{{$x}}", "{{$x:=1}}{{$x}}", "{{$x :=1}}{{$x}}", "{{$x= 1}}",
          "{{$x := 1}}{{$x=2}}{{$x}}", "{{$x : = 1}}", "{{$x :}}", "{{$x ==}}", "{{$x := }}", "{{$x := $x}}",
          "{{$x.y := 1}}", "{{$1 := 1}}{{$1}}", "{{$é := 1}}{{$é}}", "{{$x := 1}}{{$x 2}}",
          "{{$x := 1}}{{$x | printf \"%d\"}}", "{{$x := .l}}{{$x | len}}", "{{$x := 3}}{{range $x}}{{.}}{{end}}",
          "{{define \"t\"}}{{$x}}{{end}}{{$x := 1}}{{template \"t\"}}", "{{$x := 1}}{{define \"t\"}}{{$}}{{end}}{{template \"t\" 5}}",
          "{{$x := .s}}{{with .n}}{{$x}}{{.}}{{end}}", "{{$x := 0}}{{range .l}}{{$x = printf \"%v,%v\" $x .}}{{end}}{{$x}}",
          "{{$x := 1}}{{$x = \"s\"}}{{$x}}", "{{$x := 1}}{{$x = .nul}}{{$x}}", "{{$x := .missing}}{{$x}}",
          "{{$x := .missing}}{{$x.y}}", "{{$.missing}}", "{{$x := 1}}{{$x.y}}", "{{$x := \"s\"}}{{$x.y}}",
          "{{$x := .ll}}{{index $x 0 1}}"]:
    c(t, D)

# --- if / else if / else --------------------------------------------------------------------
for cond in [".t", ".F", ".n", ".z", ".f", ".s", ".e", ".l", ".el", ".m", ".em", ".nul", ".missing", "1", "0",
             "0.0", "\"\"", "\"0\"", "true", "false", "nil", ".neg", "(len .l)", "(index .l 2)", "$", ".",
             "-0.0", "'a'", "(not .t)", "(and .t .s)", "(or .e .z)", ".m.a", ".m.missing"]:
    c("{{if %s}}yes{{else}}no{{end}}" % cond, D)
for t in ["{{if .t}}a{{end}}", "{{if .F}}a{{end}}", "{{if .F}}a{{else if .t}}b{{end}}",
          "{{if .F}}a{{else if .z}}b{{else}}c{{end}}", "{{if .F}}a{{else if .z}}b{{else if .s}}c{{else}}d{{end}}",
          "{{if .t}}{{if .F}}a{{else}}b{{end}}{{end}}", "{{if}}x{{end}}", "{{if .t}}x", "{{if .t}}x{{else}}",
          "{{if .t}}x{{else}}y{{else}}z{{end}}", "{{if .t}}x{{end}}{{end}}", "{{else}}", "{{end}}",
          "{{if .t}}x{{else if}}y{{end}}", "{{if .t}}x{{else with .s}}y{{end}}", "{{if .t}}x{{else range .l}}y{{end}}",
          "{{if .t}}x{{else .s}}{{end}}", "{{if .t}}x{{end .s}}", "{{if .t .F}}x{{end}}", "{{if .t | not}}x{{else}}y{{end}}",
          "{{if eq .s \"hello\"}}match{{end}}", "{{if ne .e \"\"}}set{{else}}unset{{end}}", "{{if ne .missing \"\"}}set{{end}}",
          "{{if .missing.x}}a{{else}}b{{end}}", "{{if .nul.x}}a{{else}}b{{end}}", "{{if .s.x}}a{{else}}b{{end}}",
          "{{if .t}}\n  a\n{{- else}}\n  b\n{{- end}}", "{{if .t -}} a {{- else -}} b {{- end}}",
          "{{if $x := .n}}{{$x}}{{end}}", "{{if (eq .n 3.0)}}three{{end}}", "{{if eq .n 3}}three{{end}}"]:
    c(t, D)

# --- with -----------------------------------------------------------------------------------------
for t in ["{{with .s}}{{.}}{{end}}", "{{with .e}}{{.}}{{else}}empty{{end}}", "{{with .m}}{{.a}}{{end}}",
          "{{with .missing}}x{{else}}none{{end}}", "{{with .nul}}x{{else}}nil{{end}}", "{{with .l}}{{index . 1}}{{end}}",
          "{{with .F}}x{{else with .t}}{{.}}{{end}}", "{{with .e}}x{{else with .z}}y{{else with .s}}{{.}}{{end}}",
          "{{with .e}}x{{else with .z}}y{{else}}z{{end}}", "{{with .e}}x{{else if .t}}y{{end}}",
          "{{with .m}}{{with .c}}{{.d}}{{end}}{{end}}", "{{with .m}}{{$.s}}{{end}}", "{{with .n}}{{.}}{{.x}}{{end}}",
          "{{with .m.c}}{{.d}}{{.e}}{{end}}", "{{with $x := .m}}{{$x.a}}{{.b}}{{end}}", "{{with}}{{end}}",
          "{{with .s}}", "{{with .s}}{{else}}{{else}}{{end}}", "{{with .f}}{{printf \"%.1f\" .}}{{end}}",
          "{{with 0}}x{{else}}zero{{end}}", "{{with .ml}}{{range .}}{{.k}}{{end}}{{end}}"]:
    c(t, D)

# --- range --------------------------------------------------------------------------------------
for t in ["{{range .l}}[{{.}}]{{end}}", "{{range .el}}x{{else}}empty{{end}}", "{{range .m}}{{.}};{{end}}",
          "{{range $k, $v := .m}}{{$k}}={{$v}};{{end}}", "{{range $v := .m}}{{$v}};{{end}}",
          "{{range $i, $v := .l}}{{$i}}:{{$v}} {{end}}", "{{range $i := .l}}{{$i}}{{end}}",
          "{{range .em}}x{{else}}empty map{{end}}", "{{range .missing}}x{{else}}missing{{end}}",
          "{{range .nul}}x{{else}}nil{{end}}", "{{range .s}}x{{end}}", "{{range .n}}x{{end}}", "{{range .t}}x{{end}}",
          "{{range .f}}x{{end}}", "{{range 5}}{{.}}{{end}}", "{{range 0}}x{{else}}zero{{end}}", "{{range -3}}x{{else}}neg{{end}}",
          "{{range $i := 3}}{{$i}}{{end}}", "{{range $i, $j := 3}}{{end}}", "{{range 2.5}}x{{end}}",
          "{{range 3}}{{printf \"%T\" .}}{{end}}", "{{range len .l}}{{.}}{{end}}", "{{range .ll}}{{range .}}{{.}}{{end}};{{end}}",
          "{{range .ml}}{{.k}}{{end}}", "{{range $i, $e := .ml}}{{$i}}{{$e.k}}{{end}}", "{{range .l}}{{.x}}{{end}}",
          "{{range .ml}}{{.missing}}{{end}}", "{{range .l}}{{if eq . 1.0}}one{{end}}{{end}}",
          "{{range .l}}{{if not .}}{{break}}{{end}}{{.}},{{end}}", "{{range .l}}{{if not .}}{{continue}}{{end}}{{.}},{{end}}",
          "{{range 10}}{{if eq . 3}}{{break}}{{end}}{{.}}{{end}}", "{{range 5}}{{if eq . 2}}{{continue}}{{end}}{{.}}{{end}}",
          "{{range 3}}{{range 3}}{{if eq . 1}}{{break}}{{end}}{{.}}{{end}};{{end}}",
          "{{range $i := 3}}{{range $j := 3}}{{if eq $j 1}}{{continue}}{{end}}{{$i}}{{$j}} {{end}}{{end}}",
          "{{break}}", "{{continue}}", "{{range .l}}{{break 1}}{{end}}", "{{range .l}}{{continue .}}{{end}}",
          "{{if .t}}{{break}}{{end}}", "{{range .l}}{{define \"x\"}}{{break}}{{end}}{{end}}",
          "{{range .l}}{{else}}{{break}}{{end}}", "{{range .l}}{{with .}}{{break}}{{end}}{{.}}{{end}}",
          "{{range .l}}{{if true}}{{$x := 1}}{{continue}}{{end}}{{end}}done",
          "{{range $x = .l}}{{end}}", "{{$x := 0}}{{range $x = .l}}{{end}}{{$x}}", "{{$i := 0}}{{$e := 0}}{{range $i, $e = .l}}{{end}}{{$i}} {{$e}}",
          "{{$x := 0}}{{range $x = 3}}{{end}}{{$x}}", "{{range $a, $b, $c := .l}}{{end}}", "{{range $a, 1 := .l}}{{end}}",
          "{{range $a, := .l}}{{end}}", "{{range $a, $b}}{{end}}", "{{range}}{{end}}", "{{range .l}}",
          "{{range .l}}{{else}}x{{else}}y{{end}}", "{{range .l}}{{else if .t}}x{{end}}", "{{range $i, $v := .m}}{{$i}}{{end}}",
          "{{range $k, $v := .m}}{{$k}}{{printf \"%T\" $v}} {{end}}", "{{range .m}}{{$.s}}{{end}}",
          "{{range $i, $e := .l}}{{$i}}{{end}}{{$i}}", "{{range .l}}{{.}}{{end}}{{.}}",
          "{{range $k, $v := .}}{{$k}} {{end}}", "{{range .}}{{.}}{{end}}", "{{range $x := .l}}{{$x = 1}}{{$x}}{{end}}",
          "{{range 3}}{{$.s}}{{end}}", "{{range $i := 2}}{{$i}}{{end}}", "{{range .ll}}{{index . 0}}{{end}}",
          "{{range $i, $e := .el}}x{{else}}{{$i}}{{end}}", "{{range .l}}{{.}}{{else}}{{.}}{{end}}"]:
    c(t, D)
c("{{range .}}{{.}} {{end}}", {"b": 2, "a": 1, "A": 0, "aa": 3, "é": 4, "1": 5, "": 6})
c("{{range .}}{{.}} {{end}}", [3, 1, 2])
c("{{range .}}{{.}} {{end}}", None)
c("{{range .}}{{.}} {{end}}", "str")
c("{{range .}}{{.}} {{end}}", 3)
c("{{range $i, $v := .}}{{$i}}={{$v}} {{end}}", {"x": [1], "y": {"z": 1}})

# --- define / template / block ---------------------------------------------------------------------
for t in ['{{define "a"}}A{{end}}{{template "a"}}', '{{define "a"}}[{{.}}]{{end}}{{template "a" .s}}',
          '{{define "a"}}[{{.}}]{{end}}{{template "a"}}', '{{define "a"}}{{.x}}{{end}}{{template "a" .m}}',
          '{{template "a"}}{{define "a"}}late{{end}}', '{{template "nope"}}', '{{template "nope" .}}',
          '{{define "a"}}A{{end}}', '{{define "tpl"}}override{{end}}', '  {{define "tpl"}}override{{end}}  ',
          'main{{define "tpl"}}override{{end}}', '{{define "a"}}1{{end}}{{define "a"}}2{{end}}',
          '{{define "tpl"}}x{{end}}\v\f\u0085\u00a0\u2028\u3000', '{{define "tpl"}}x{{end}}\u200b',
          '{{define "a"}}1{{end}}{{define "a"}}\u00a0{{end}}{{template "a"}}',
          '{{define "a"}}1{{end}}{{define "a"}}  {{end}}{{template "a"}}', '{{define "a"}} {{end}}{{define "a"}}2{{end}}{{template "a"}}',
          '{{define "a"}}{{template "b"}}{{end}}{{define "b"}}B{{end}}{{template "a"}}',
          '{{define "a"}}{{template "a"}}{{end}}{{template "a"}}', '{{template "tpl"}}',
          '{{define "a"}}{{if lt . 3}}{{.}}{{template "a" (len (printf "%*s" (len (printf "%v." .)) ""))}}{{end}}{{end}}{{template "a" 0}}',
          '{{define "a"}}{{$}}{{end}}{{template "a" 7}}', '{{define "a"}}{{$.s}}{{end}}{{template "a" .}}',
          '{{define "a"}}{{.missing}}{{end}}{{template "a" .}}', '{{define "a"}}{{.x.y}}{{end}}{{template "a" .}}',
          '{{define "a"}}{{.x.y}}{{end}}{{template "a" .n}}', '{{define "a"}}\n\n{{.x.y}}{{end}}{{template "a" .n}}',
          '{{block "b" .s}}[{{.}}]{{end}}', '{{block "b" .}}{{.s}}{{end}}', '{{block "b"}}x{{end}}',
          '{{block "b" .}}x{{end}}{{define "b"}}redefined{{end}}', '{{define "b"}}first{{end}}{{block "b" .}}x{{end}}',
          '{{block "b" .}}x', '{{block "b" .}}x{{else}}y{{end}}', '{{block .s .}}x{{end}}', '{{block "b" .}}{{block "c" .}}C{{end}}{{end}}',
          '{{define}}{{end}}', '{{define "a"}}', '{{define "a" .}}{{end}}', '{{define a}}{{end}}',
          '{{define `a`}}raw{{end}}{{template `a`}}', '{{define "a\\x41"}}esc{{end}}{{template "aA"}}',
          '{{define "a"}}{{else}}{{end}}', '{{if .t}}{{define "a"}}x{{end}}{{end}}', '{{template .s}}',
          '{{template "a" 1 2}}', '{{template "a" | printf}}', '{{define "a"}}x{{end}}{{template "a" .missing.x}}',
          '{{define "a"}}{{break}}{{end}}', '{{define ""}}empty{{end}}{{template ""}}', '{{define "a"}}{{end}}{{template "a"}}x',
          '{{define "a"}}x{{end}}{{template "a"}}{{template "a"}}', '{{define "a"}}{{$x := 1}}{{end}}{{template "a"}}{{$x}}',
          '{{$x := 5}}{{define "a"}}{{$x}}{{end}}', '{{define "a"}}{{template "b" .}}{{end}}{{define "b"}}{{template "a" .}}{{end}}{{template "a" 1}}',
          '{{define "a"}}a{{end}}\n{{define "b"}}b{{end}}\n{{template "a"}}{{template "b"}}', '{{template "a" "x" | printf "%s"}}',
          '{{define "a"}}{{.}}{{end}}{{template "a" (printf "%s" "p")}}', '{{define "a"}}{{len .}}{{end}}{{template "a" .l}}']:
    c(t, D)

# --- missingkey -----------------------------------------------------------------------------------
for mk in ["default", "zero", "error"]:
    for t in ["{{.missing}}", "{{.m.missing}}", "{{.missing.x}}", "{{.m.c.missing}}", "{{.nul}}", "{{.nul.x}}",
              "{{index .m \"missing\"}}", "{{if .missing}}y{{else}}n{{end}}", "{{with .m.missing}}y{{else}}n{{end}}",
              "{{range .missing}}y{{else}}n{{end}}", "{{printf \"%v\" .missing}}", "{{.missing | printf \"%v\"}}",
              "{{$x := .missing}}{{$x}}", "{{len .missing}}", "{{eq .missing nil}}", "{{.s}}", "{{.m.a}}",
              "{{$.missing}}", "{{.x}}", "{{range .ml}}{{.missing}}{{end}}", "{{ne .missing \"\"}}"]:
        c(t, D, mk)
    c("{{.x}}", None, mk)
    c("{{.x.y}}", None, mk)
    c("{{.}}", None, mk)
    c("{{.x}}", {"x": None}, mk)
    c("{{.a.b}}", {"a": {}}, mk)
    c("{{template \"t\" .missing}}{{define \"t\"}}{{.x}}{{end}}", D, mk)

# --- and / or / not -----------------------------------------------------------------------------------
vals = ["0", "1", ".t", ".F", ".s", ".e", ".nul", ".missing", ".l", ".el", "\"\"", "\"x\"", "nil", ".m", "2.5"]
for a in vals:
    c("{{and %s}}|{{or %s}}|{{not %s}}" % (a, a, a), D)
for a, b in [("0", "1"), ("1", "0"), ("1", "2"), (".s", ".n"), (".e", ".n"), (".s", ".e"), (".nul", ".s"),
             (".missing", "1"), ("1", ".missing"), (".l", ".m"), ("true", "false"), ("false", "true")]:
    c("{{and %s %s}}|{{or %s %s}}" % (a, b, a, b), D)
for t in ["{{and 1 2 3}}", "{{and 1 0 3}}", "{{or 0 \"\" 3}}", "{{or 0 \"\" nil}}", "{{and .t (index .l 10)}}",
          "{{and .F (index .l 10)}}", "{{or .t (index .l 10)}}", "{{or .F (index .l 10)}}", "{{and 1 .x.y}}",
          "{{.s | and 1}}", "{{.s | and 0}}", "{{.e | or 0}}", "{{.e | or 5}}", "{{0 | and}}", "{{1 | or}}",
          "{{and .missing}}", "{{printf \"%T\" (and 1 2.5)}}", "{{printf \"%T\" (or .nul .missing)}}", "{{not 1 2}}",
          "{{not .nul}}", "{{not .missing}}", "{{not .el}}", "{{not .m}}", "{{not \"\"}}", "{{not nil}}",
          "{{and (eq 1 1) (ne 1 2)}}", "{{or (eq 1 2) (eq 1 1)}}", "{{if and .s .n}}both{{end}}", "{{if or .e .z}}x{{else}}neither{{end}}",
          "{{and .missing.x .t}}", "{{or .t .missing.x.y}}", "{{and .t .nul.x}}", "{{or .F .nul.x}}",
          "{{and 1 (eq .n 3)}}", "{{and 0 (eq .n 3)}}", "{{printf \"%v\" (and .l .m)}}"]:
    c(t, D)

# --- comparisons ---------------------------------------------------------------------------------------
cmp_vals = ["1", "2", "1.0", "2.5", ".n", ".f", "3.0", "\"a\"", "\"b\"", ".s", "true", "false", ".t", "nil",
            ".nul", ".missing", ".l", ".m", "'a'", "97", "(len .s)", "0x10", ".z", "-1"]
for op in ["eq", "ne", "lt", "le", "gt", "ge"]:
    for a in cmp_vals:
        for b in cmp_vals:
            if a == b and a not in ["1", ".missing", ".nul", "nil", ".l", ".m", "true", "\"a\""]:
                continue
            if (op in ["le", "gt", "ge", "ne"]) and cmp_vals.index(a) % 2 != cmp_vals.index(b) % 2:
                continue  # thin out: the four derived operators share lt/eq's rules
            c("{{%s %s %s}}" % (op, a, b), D)
for t in ["{{eq 1 2 3 1}}", "{{eq 1 2 3}}", "{{eq .s \"x\" \"hello\"}}", "{{eq .s \"x\" 1}}", "{{eq .s 1 \"hello\"}}",
          "{{eq .n 1.0 2.0 3.0}}", "{{eq 1}}", "{{eq .missing}}", "{{ne 1 2 3}}", "{{lt 1 2 3}}", "{{eq .l .l}}",
          "{{eq .m .m}}", "{{eq .m .l}}", "{{eq .l .missing}}", "{{eq .missing .l}}", "{{eq .nul .l}}", "{{ne .l .nul}}",
          "{{eq .s .missing}}", "{{ne .s .missing}}", "{{ne .missing .missing}}", "{{eq .nul .missing}}",
          "{{lt .s .missing}}", "{{lt .missing .s}}", "{{lt .nul 1}}", "{{le 1 .nul}}", "{{lt .l .l}}",
          "{{lt true false}}", "{{le true true}}", "{{ge false true}}", "{{gt .t .F}}", "{{eq .t true}}",
          "{{lt \"a\" \"b\"}}", "{{lt \"B\" \"a\"}}", "{{lt \"é\" \"z\"}}", "{{lt \"\" \"a\"}}", "{{le \"a\" \"a\"}}",
          "{{lt 1.5 2.5}}", "{{lt -1 1}}", "{{lt .neg .z}}", "{{lt .f .n}}", "{{ge .n 3.0}}", "{{gt .n 3}}",
          "{{eq .big 1e21}}", "{{eq .n 3.0}}", "{{eq (len .l) 5}}", "{{eq (len .l) 5.0}}", "{{lt (len .l) 10}}",
          "{{eq 'a' 97}}", "{{eq \"a\" 'a'}}", "{{eq (index .s 0) 104}}", "{{eq (index .s 0) 'h'}}",
          "{{lt (index .s 0) 200}}", "{{lt -1 (index .s 0)}}", "{{eq (index .s 0) -1}}", "{{eq 0.1 .f}}",
          "{{eq (printf \"%v\" .n) \"3\"}}", "{{.n | eq 3.0}}", "{{3.0 | eq .n}}", "{{.s | ne \"x\"}}", "{{1 | lt 0}}",
          "{{eq .m.a 1.0}}", "{{eq .m.a 1}}", "{{eq .l .m 1}}", "{{eq 1 .l}}", "{{eq .nul nil}}", "{{eq nil nil}}",
          "{{ne .nul nil}}", "{{lt nil nil}}", "{{eq .ml .ml}}", "{{eq (index .ml 0) (index .ml 0)}}",
          "{{eq .em .em}}", "{{eq .el .el}}", "{{eq .l .el}}", "{{eq .m .em}}"]:
    c(t, D)

# --- index / slice / len -------------------------------------------------------------------------------
for t in ["{{index .l 0}}", "{{index .l 4}}", "{{index .l 5}}", "{{index .l 6}}", "{{index .l -1}}", "{{index .l 1.0}}",
          "{{index .l .n}}", "{{index .l .i1}}", "{{index .l (len .el)}}", "{{index .l \"0\"}}", "{{index .l nil}}",
          "{{index .l .missing}}", "{{index .l true}}", "{{index .ll 0 1}}", "{{index .ll 1 0}}", "{{index .ll 1 1}}",
          "{{index .ll 0 1 0}}", "{{index .m \"a\"}}", "{{index .m \"missing\"}}", "{{index .m \"c\" \"d\"}}",
          "{{index .m \"c\" \"missing\"}}", "{{index .m \"missing\" \"x\"}}", "{{index .m 1}}", "{{index .m nil}}",
          "{{index .m .missing}}", "{{index .m .s}}", "{{index .m .l}}", "{{index .ml 1 \"k\"}}", "{{index .s 0}}",
          "{{index .s 4}}", "{{index .s 5}}", "{{index .s 6}}", "{{index .u 1}}", "{{index .e 0}}", "{{index .n 0}}",
          "{{index .t 0}}", "{{index .nul 0}}", "{{index .missing 0}}", "{{index nil 0}}", "{{index .l}}", "{{index .s}}",
          "{{index 1}}", "{{index .nul}}", "{{printf \"%T\" (index .l 0)}}", "{{printf \"%T\" (index .s 0)}}",
          "{{printf \"%T\" (index .m \"missing\")}}", "{{index .m \"c\" | printf \"%v\"}}", "{{(index .ml 0).k}}",
          "{{index .l 2 | printf \"%v\"}}", "{{index (index .ll 0) 0}}", "{{index .l 0 0}}", "{{index .m \"a\" \"b\"}}",
          "{{index .l 9223372036854775807}}", "{{index .l 0x1}}", "{{index .l 'a'}}", "{{index . \"s\"}}",
          "{{slice .s}}", "{{slice .s 1}}", "{{slice .s 1 3}}", "{{slice .s 0 5}}", "{{slice .s 5}}", "{{slice .s 6}}",
          "{{slice .s 3 1}}", "{{slice .s 1 2 3}}", "{{slice .s -1}}", "{{slice .s 1.0}}", "{{slice .s .i1}}",
          "{{slice .s (len .el)}}", "{{slice .l}}", "{{slice .l 1}}", "{{slice .l 1 3}}", "{{slice .l 1 2 3}}",
          "{{slice .l 1 3 2}}", "{{slice .l 0 5 5}}", "{{slice .l 0 6}}", "{{slice .l 1 2 3 4}}", "{{slice .m 1}}",
          "{{slice .n 1}}", "{{slice .nul 1}}", "{{slice .missing 1}}", "{{slice nil}}", "{{slice .u 0 2}}",
          "{{slice .u 1 2}}", "{{printf \"%T\" (slice .l 1)}}", "{{printf \"%q\" (slice .u 0 2)}}", "{{slice .l nil}}",
          "{{slice .l .missing}}", "{{slice .ll 1}}", "{{len (slice .l 2)}}", "{{slice .s 0 0}}", "{{slice .el}}",
          "{{slice .e}}", "{{slice .e 0 0}}", "{{slice .e 1}}",
          "{{len .s}}", "{{len .u}}", "{{len .e}}", "{{len .l}}", "{{len .el}}", "{{len .m}}", "{{len .em}}", "{{len .n}}",
          "{{len .t}}", "{{len .nul}}", "{{len .missing}}", "{{len nil}}", "{{len 1}}", "{{len \"abc\"}}", "{{len 1.5}}",
          "{{len .l .m}}", "{{len (index .ll 0)}}", "{{printf \"%T\" (len .l)}}", "{{len .ml}}", "{{.s | len}}",
          "{{len .m.c}}", "{{len .m.missing}}", "{{len $}}", "{{len .}}"]:
    c(t, D)

# --- print / printf / println -----------------------------------------------------------------------------
for t in ["{{print}}", "{{print 1 2}}", "{{print \"a\" \"b\"}}", "{{print 1 \"a\" 2}}", "{{print \"a\" 1 \"b\"}}", "{{print 1 2.5 true}}",
          "{{print .s .n}}", "{{print .n .f .t}}", "{{print .nul .missing}}", "{{print .l .m}}", "{{print nil}}",
          "{{print .e .e}}", "{{print \"\" 1 \"\" 2}}", "{{println}}", "{{println 1 2}}", "{{println \"a\" \"b\"}}",
          "{{println .nul .missing .l}}", "{{printf \"x\"}}", "{{printf \"%v %v\" 1 2}}", "{{printf .s}}", "{{printf .n}}",
          "{{printf .nul}}", "{{printf .missing}}", "{{printf 1}}", "{{printf nil}}", "{{printf true}}", "{{printf .l}}",
          "{{printf \"%s\" .s .n}}", "{{printf \"%d %d\" 1}}", "{{printf \"%%\"}}", "{{printf \"%\"}}", "{{printf \"100%\"}}",
          "{{printf .pct}}", "{{printf \"%s\" .pct}}", "{{print .pct}}", "{{printf \"%v\" (printf \"%%d\")}}",
          "{{printf \"%[1]s %[1]s\" \"a\"}}", "{{printf \"%d\" .n}}", "{{printf \"%d\" (len .l)}}", "{{printf \"%s\" 1}}",
          "{{printf \"%v|%5v|%-5v|\" .s .n .t}}", "{{print .sp}}", "{{printf \"%q\" .sp}}", "{{printf \"%x\" .u}}"]:
    c(t, D)

# --- html / js / urlquery ---------------------------------------------------------------------------------
for f in ["html", "js", "urlquery"]:
    for a in [".html", ".s", ".u", ".sp", ".n", ".nul", ".missing", ".l", ".m", "nil", "\"a=b&c\"", "1 2", "\"a\" \"b\"",
              "\"x\" 1", ".t", "\"\\u0000\\u0001\\u007f\"", "\"\\u2028\\u2029\"", "\"\\\\ ' \\\" \"", "\"é/?#\"", ".pct",
              "\"<\" \">\"", ".nul .missing", "\"\\uFEFF\\u00AD\\U000E0001\""]:
        c("{{%s %s}}" % (f, a), D)
    c("{{.html | %s}}" % f, D)
    c("{{%s}}" % f, D)

# --- call -------------------------------------------------------------------------------------------------------
for t in ["{{call .n}}", "{{call .missing}}", "{{call .nul}}", "{{call .s 1}}", "{{call nil}}", "{{call 1}}", "{{call \"f\"}}",
          "{{.n | call}}", "{{.s | call}}", "{{.missing | call}}", "{{.m | call}}", "{{call .m.a}}", "{{call (printf \"x\")}}",
          "{{call}}", "{{call .l 1 2}}", "{{call $}}"]:
    c(t, D)

# --- argument conversion ----------------------------------------------------------------------------------------
for t in ["{{printf 1.5}}", "{{printf true \"x\"}}", "{{printf .n \"x\"}}", "{{printf .t}}", "{{printf .m}}", "{{printf (len .l)}}",
          "{{printf $}}", "{{printf .}}", "{{printf (index .l 1)}}", "{{printf (index .l 0)}}", "{{(index .l 1) | printf}}",
          "{{printf (.s)}}", "{{printf .m.c.d}}", "{{printf .ml}}", "{{$x := .n}}{{printf $x}}", "{{$x := .s}}{{printf $x}}",
          "{{printf \"%v\" 1 2 3}}", "{{len 1 2}}", "{{not}}", "{{index .l 0 | not 1}}", "{{1 | not}}", "{{1 | len}}",
          "{{.s | index .m}}", "{{.s | slice}}", "{{.l | slice 1}}", "{{\"b\" | printf \"%s%s\" \"a\"}}", "{{eq 1 | not}}",
          "{{1 | eq 1 2}}", "{{.n | printf \"%v\" .s}}", "{{html 1 | printf \"%s\"}}", "{{.n | html}}", "{{.nul | js}}",
          "{{.missing | urlquery}}", "{{nil | print}}"]:
    c(t, D)

# --- parse errors ---------------------------------------------------------------------------------------------
for t in ["{{", "{{.s", "{{.s}", "{{.s }", "{{ } }}", "{{ ) }}", "{{ ( }}", "{{ (1 }}", "{{ 1) }}", "{{\"a}}", "{{`a}}",
          "{{'a}}", "{{'\n'}}", "{{\"a\nb\"}}", "{{€}}", "{{.s€}}", "{{.s@}}", "{{@}}", "{{#}}", "{{.s=1}}", "{{=}}", "{{:=}}",
          "{{:}}", "{{$x:1}}", "{{!}}", "{{1.5x}}", "{{0x1G}}", "{{.a-b}}", "{{a.b}}", "{{$x.1}}", "{{.1}}", "{{. 1}}",
          "x\n\n{{.s }", "x\n{{if .t}}\n{{else}}\n", "x\n{{if .t}}\n{{end}}\n{{end}}", "{{if .t}}\n\n{{else}}\n{{else}}{{end}}",
          "a\n{{.s\n}", "{{.s\n\n}", "{{(\n1}}", "{{/*\n*/ x}}", "{{\"\n\"}}", "\n\n{{ € }}", "{{if\n\n}}{{end}}",
          "{{range .l}}\n{{break x}}{{end}}", "{{with .s}}\n{{end}}\n{{else}}", "{{ .s | }}", "{{ printf \"%s\" | }}",
          "{{ $x := }}", "{{ else }}", "{{ end }}", "{{ define \"a\" }}", "{{block}}", "{{block \"a\"}}{{end}}",
          "{{template \"a\" }}", "{{template 1}}", "{{template nil}}", "{{if (}}{{end}}", "{{if )}}{{end}}",
          "{{ .s.t.u.v.w.x.y.z.a.b.c.d.e.f }}x{{", "{{\"a very long string literal\" \"x\"}}x{{)}}", "{{ 'ab' }}",
          "{{ 1 2 3 | | }}", "{{with $x := 1, $y := 2}}{{end}}", "{{$x, $y := 1, 2}}", "{{range $x, $y = .l}}{{end}}",
          "{{$x := 1}}{{$x, $y = 1}}", "{{if $x := 1}}{{end}}{{$x}}", "{{ .s \"a\" }}", "{{ nil }}", "{{ .Method 1 }}",
          "{{*}}", "{{&}}", "{{^}}", "{{?}}", "{{~}}", "{{;}}", "{{[}}", "{{]}}", "{{{}}}", "{{<}}", "{{>}}", "{{,}}",
          "{{.s.}}", "{{$.}}", "{{$x.}}", "{{\\}}", "{{ .s | printf \"%s\" .n | }}"]:
    c(t, D)

# --- exec error positions (multi-line) ------------------------------------------------------------------------
for t in ["line1\nline2 {{.s.x}}", "a\n  b\n    {{index .l 10}}", "{{/* c */}}\n{{.n.x}}", "{{if .t}}\n\n  {{eq .n 1}}{{end}}",
          "x{{range .l}}\n{{.x}}{{end}}", "{{define \"d\"}}\n\n   {{.x.y}}{{end}}\n{{template \"d\" .n}}",
          "é{{.n.x}}", "日本{{.n.x}}", "\n\n\n{{printf 1}}", "{{printf \"%d\"\n .n | len}}", "{{.s |\n printf 1}}"]:
    c(t, D)

# --- lexer corners ------------------------------------------------------------------------------
for t in ["{{- -}}", "{{/*c*/-}}", "{{/*c*/ -}}", "{{- /*c*/}}", "{{-/*c*/ }}", "{{ -}}", "{{- }}", "{{-}}",
          "{{1.5.x}}", "{{.1a}}", "{{$x.1}}", "{{'\\''}}", "{{'\\'}}", "{{'}}", "{{''}}", "{{.s.héllo}}",
          "{{$x := 1}}{{$x.y.z}}", "{{ .s -}} {{- .s }}", "a{{\"b\" -}}\n\n{{- \"c\"}}d", "{{ .s\r\n}}",
          "{{.s}}\r\n{{.n.x}}", "x\n{{- /* c */ -}}\n{{.n.x}}", "a\n\n{{- .n.x}}", "{{define \"a\"}}{{define \"b\"}}{{end}}{{end}}",
          "{{block \"a\" .}}{{define \"b\"}}{{end}}{{end}}", "{{if .t}}{{else}}{{define \"a\"}}{{end}}{{end}}",
          "{{range .l}}{{template \"x\"}}{{end}}", "{{\"a\"|printf \"%s\"|len}}", "{{.s|len|printf \"%d\"}}",
          "{{1|printf \"%d\"}}", "{{(1)|printf \"%d\"}}", "{{printf \"%d\" (1)}}", "{{printf \"%v\" (nil)}}",
          "{{(nil)}}", "{{(.)}}", "{{(.).s}}", "{{($).s}}", "{{$.s.x}}", "{{(.m).c.d.e}}", "{{(.l).x.y}}",
          "{{(index .ml 0).k.x}}", "{{(printf \"%s\" \"x\").y.z}}", "{{ printf \"%s\" .s | printf \"%s%s\" \"a\" }}",
          "{{if and .s (eq .n 3.0) (not .F)}}ok{{end}}", "{{range $i, $e := .l}}{{if $i}},{{end}}{{$e}}{{end}}",
          "{{range .ml}}{{with .k}}{{.}}{{end}}{{end}}", "{{with .m}}{{range $k, $v := .}}{{$k}}{{end}}{{end}}",
          "{{range .l}}{{range $.ll}}{{.}}{{end}}{{end}}", "{{$n := len .l}}{{range $i := $n}}{{$i}}{{end}}",
          "{{range $i, $c := .s}}{{end}}", "{{range .u}}{{end}}", "{{range .html}}{{end}}",
          "{{template \"a\" .}}{{block \"a\" .}}[{{.s}}]{{end}}", "{{define \"a\"}}{{template \"a\" .}}{{end}}",
          "{{define \"a\"}}A{{end}}{{define \"b\"}}{{template \"a\"}}B{{end}}{{template \"b\"}}{{template \"a\"}}"]:
    c(t, D)

core.write("core")

# ============================================================================================
fmt = Cases()
F = fmt.add

FD = {"f": 3.14159, "n": 42, "neg": -42.5, "z": 0, "negz": -0.0, "big": 1e21, "huge": 1.7976931348623157e308,
      "tiny": 5e-324, "small": 1e-7, "s": "hello", "e": "", "u": "héllo 😀", "q": "a\"b\\c\n", "t": True, "F": False,
      "nul": None, "l": [1, "a", None, True], "ls": ["x", "y"], "m": {"b": 1.5, "a": "x"}, "nest": {"a": [{"b": None}]},
      "e6": 1e6, "m6": 123456.0, "r": 0.1, "third": 0.3333333333333333, "ctl": "\t\u0001\u007f", "bom": "\ufeffx"}

# %v of floats and everything else
for v in ["1e6", "1e5", "123456.0", "1234567.0", "1e21", "1e20", "1e-4", "1e-5", "0.1", "100.0", "1.0", "-0.0", "0.0",
          "2.5e-10", "6.02214076e23", "1.7976931348623157e308", "5e-324", "123456789.0", "12345678.9", "0.000123",
          ".f", ".n", ".neg", ".z", ".negz", ".big", ".huge", ".tiny", ".small", ".e6", ".m6", ".r", ".third"]:
    F("{{%s}}|{{print %s}}|{{printf \"%%v|%%g|%%e|%%f|%%G|%%E|%%F|%%b|%%x|%%X\" %s %s %s %s %s %s %s %s %s %s}}" % ((v,) * 12), FD)

verbs = ["v", "+v", "#v", "T", "t", "d", "b", "o", "O", "x", "X", "c", "q", "U", "#U", "e", "E", "f", "F", "g", "G", "s", "w"]
values = [".f", ".n", ".neg", ".z", "7", "-7", "255", "0", "'é'", "0x1F600", ".s", ".e", ".u", ".q", ".t", ".F", ".nul",
          ".missing", ".l", ".ls", ".m", ".nest", "(len .s)", ".ctl"]
for verb in verbs:
    F("{{printf \"" + "|".join("%" + verb for _ in values) + "\" " + " ".join(values) + "}}", FD)
    for v in values:
        F("{{printf \"%%%s\" %s}}" % (verb, v), FD)

flagsets = ["", "+", "-", " ", "#", "0", "5", "-5", "05", "+5", "+05", " 05", ".0", ".2", ".10", "8.3", "-8.3", "08.3",
            "+.3", "# .2", "#8", "-#8", "+-08", "0-8", " 8.2"]
for verb in ["d", "x", "X", "o", "b", "e", "f", "g", "G", "s", "q", "v", "c", "U", "t"]:
    for v in [".f", ".neg", "42", "-42", ".s", ".u", ".t", ".l", ".z", "'x'", ".m", ".nul", ".missing", ".big", ".small"]:
        F("{{printf \"" + "|".join("%" + fl + verb for fl in flagsets) + "\" " + " ".join([v] * len(flagsets)) + "}}", FD)

# widths, precisions, arg indexes, errors
for t in ["{{printf \"%*d\" 5 1}}", "{{printf \"%-*d|\" 5 1}}", "{{printf \"%*d|\" -5 1}}", "{{printf \"%.*f\" 2 3.14159}}",
          "{{printf \"%*.*f|\" 8 3 3.14159}}", "{{printf \"%*d\" .n 1}}", "{{printf \"%.*d\" .n 1}}", "{{printf \"%*d\" \"x\" 1}}",
          "{{printf \"%.*d\" -1 5}}", "{{printf \"%*d\" 10000000 1}}", "{{printf \"%.*f\" 10000000 1.0}}", "{{printf \"%*d\"}}",
          "{{printf \"%*\" 5}}", "{{printf \"%[2]d %[1]d\" 1 2}}", "{{printf \"%[3]d\" 1 2}}", "{{printf \"%[0]d\" 1}}",
          "{{printf \"%[x]d\" 1}}", "{{printf \"%[1]d %d %d\" 1 2 3}}", "{{printf \"%[2]*[1]d|\" 12 5}}", "{{printf \"%[1]*d\" 3 4}}",
          "{{printf \"%.[2]f\" 1.0 2}}", "{{printf \"%[1]\" 1}}", "{{printf \"%[1\" 1}}", "{{printf \"%[]d\" 1}}", "{{printf \"%[-1]d\" 1}}",
          "{{printf \"%3[1]d\" 1}}", "{{printf \"%[1]3d\" 1}}", "{{printf \"%d %d %d\" 1 2}}", "{{printf \"%d\" 1 2 \"x\" nil}}",
          "{{printf \"%d\" 1 .l .m .nul}}", "{{printf \"%!\" 1}}", "{{printf \"%z\" 1}}", "{{printf \"%é\" 1}}", "{{printf \"%\" 1}}",
          "{{printf \"%-\"}}", "{{printf \"%5\"}}", "{{printf \"%.\"}}", "{{printf \"%.5\"}}", "{{printf \"%5.\" 1}}",
          "{{printf \"%.f\" 2.5}}", "{{printf \"%.0f %.0f %.0f %.0f\" 0.5 1.5 2.5 3.5}}", "{{printf \"%.1f %.1f %.2f\" 0.25 0.35 1.005}}",
          "{{printf \"%.3e %.0e %.20e\" 123456.789 5.5 0.1}}", "{{printf \"%.3g %.10g %.0g %.1g\" 123456.789 0.1 123.0 0.05}}",
          "{{printf \"%#g %#.3g %#.0f %#.0e %#x %#v\" 1.0 1.0 1.0 1.0 1.0 1.0}}", "{{printf \"%#.4g|%#g|%#g\" 123456.0 100000.0 1e-5}}",
          "{{printf \"%08.3f|%-8.3f|%+08.3f|% 08.3f\" -3.14159 3.14159 3.14159 3.14159}}", "{{printf \"%010v|%-010v\" .f .f}}",
          "{{printf \"%5.1v|%5.3s|%.2v\" .f .s .s}}", "{{printf \"%6.2q|%-8q|\" .s .s}}", "{{printf \"%x|% x|%#x|%# x|% X\" .s .s .s .s .s}}",
          "{{printf \"%.2x|%8x|%-8x|%08x\" .s .s .s .s}}", "{{printf \"%x|%X\" .e .e}}", "{{printf \"%10x|\" .e}}",
          "{{printf \"%q|%+q|%#q|%#+q\" .u .u .u .u}}", "{{printf \"%#q|%#q|%#q\" .q .ctl .bom}}", "{{printf \"%q\" .ctl}}",
          "{{printf \"%c|%c|%c|%c\" 65 0x1F600 -1 0x110000}}", "{{printf \"%c|%q|%U\" 0xD800 0xD800 0xD800}}",
          "{{printf \"%q|%+q|%#q\" 0x1F600 0x1F600 0x1F600}}", "{{printf \"%U|%#U|%#U|%#.6U|%08U\" 65 65 10 65 65}}",
          "{{printf \"%#U\" 0x1F600}}", "{{printf \"%U\" -1}}", "{{printf \"%x|%X|%#x|%#o|%#b|%O\" -255 -255 -255 -8 -5 -8}}",
          "{{printf \"%+d|% d|%+ d\" 5 5 5}}", "{{printf \"%.3d|%.0d|%5.0d|%-5.0d|\" 7 0 0 0}}", "{{printf \"%08.3d|%-08d|\" 7 7}}",
          "{{printf \"%d\" 9223372036854775807}}", "{{printf \"%d\" -9223372036854775808}}", "{{printf \"%x\" -9223372036854775808}}",
          "{{printf \"%b|%o|%x\" 0 0 0}}", "{{printf \"%#b|%#o|%#x|%#X\" 0 0 0 0}}", "{{printf \"%t|%t\" .t 1}}", "{{printf \"%5t|%-6t|\" .t .F}}",
          "{{printf \"%v|%d|%s\" .nul .nul .nul}}", "{{printf \"%v|%d|%s|%T\" nil nil nil nil}}", "{{printf \"%10v|%-10v|\" .nul .nul}}",
          "{{printf \"%T|%T|%T|%T|%T|%T\" .n .s .t .l .m .nul}}", "{{printf \"%T|%T\" (len .s) 'a'}}", "{{printf \"%10T|%-10T|\" .n .s}}",
          "{{printf \"%v\" .nest}}", "{{printf \"%+v\" .nest}}", "{{printf \"%#v\" .nest}}", "{{printf \"%d\" .nest}}", "{{printf \"%s\" .nest}}",
          "{{printf \"%x\" .l}}", "{{printf \"%X\" .ls}}", "{{printf \"%q\" .ls}}", "{{printf \"%q\" .l}}", "{{printf \"%5v\" .l}}", "{{printf \"%-4v|\" .ls}}",
          "{{printf \"%05d\" .l}}", "{{printf \"%.1f\" .l}}", "{{printf \"%e\" .m}}", "{{printf \"%#v\" .l}}", "{{printf \"%#v\" .ls}}",
          "{{printf \"%#v\" .m}}", "{{printf \"%#v\" .e}}", "{{printf \"%#v\" .t}}", "{{printf \"%#v\" .nul}}", "{{printf \"%#v\" 42}}",
          "{{printf \"%#v\" -0.0}}", "{{printf \"%#v|%#v|%#v\" 1e6 1e-5 123456.0}}", "{{printf \"%v %v\" .l .m}}", "{{printf \"%s\" .l}}",
          "{{printf \"%d\" .ls}}", "{{printf \"%t\" .l}}", "{{printf \"%v\" .u}}", "{{printf \"%.3s|%.3q|%.1x\" .u .u .u}}",
          "{{printf \"%-10s|%10s|\" .u .u}}", "{{printf \"%05s|%-05s|\" .s .s}}", "{{printf \"%.0s|\" .s}}", "{{printf \"%s %s\" .s}}",
          "{{printf \"%v %v %v\" .s .n}}", "{{printf \"no verbs\" .s}}", "{{printf \"%[1]v\" .s .n}}", "{{printf \"%v%%%v\" 1 2}}",
          "{{printf \"%5%|%-5%|%05%\"}}", "{{printf \"%p\" 1}}", "{{printf \"%p\" .s}}", "{{printf \"%w\" .s}}", "{{printf \"%#w\" 1}}",
          "{{printf \"%e|%E|%f|%g\" .huge .huge .tiny .tiny}}", "{{printf \"%.3f|%.3e|%.3g\" .huge .tiny .tiny}}", "{{printf \"%b\" .tiny}}",
          "{{printf \"%x|%.2x|%.0x|%X|%#.3x\" 3.0 3.0 3.0 -0.5 1.0}}", "{{printf \"%x|%x|%x\" .tiny .huge 0.0}}", "{{printf \"%.1x\" 1.96875}}",
          "{{printf \"%8.2e|%-12.4E|\" 1234.5 0.000123}}", "{{printf \"%g|%g|%g\" 1e-4 1e-5 100000.0}}", "{{printf \"%G|%G\" 1e-10 1e21}}",
          "{{printf \"%.5g|%.5g\" 1.0 100000.0}}", "{{printf \"%.2g|%.2g|%.2g\" 0.0001234 99.5 999.5}}", "{{printf \"%.17g|%.20f\" 0.1 0.1}}",
          "{{printf \"%v|%.30f\" 1e-20 1e-20}}", "{{printf \"%f|%.100f\" 1e21 1e-5}}", "{{printf \"%6.2f%%\" 12.3456}}",
          "{{printf \"% x|%# X\" \"\" \"\"}}", "{{printf \"%d%d\" 1}}", "{{printf \"%!d\" 1}}", "{{printf \"%d %!\" 1}}",
          "{{printf \"%+q\" \"é\\u2028\"}}", "{{printf \"%q\" \"\\u2028\\u00a0\\u200b\"}}", "{{printf \"%+v|%+d|%+s\" .f .n .s}}",
          "{{printf \"% v|% s\" .n .s}}", "{{printf \"%0v|%0s\" .n .s}}", "{{printf \"%3c|%-3c|\" 65 65}}", "{{printf \"%q\" 65.0}}",
          "{{printf \"%c\" .n}}", "{{printf \"%s\" (index .s 0)}}", "{{printf \"%v %d %c %T\" (index .s 0) (index .s 0) (index .s 0) (index .s 0)}}",
          "{{printf \"%v\" (slice .s 1 3)}}", "{{printf \"%v|%v\" (len .l) (len .m)}}", "{{printf \"%d|%x\" (len .u) (len .u)}}",
          "{{printf \"%s\" (printf \"%d\" .n)}}", "{{printf \"%v\" (printf \"%v\" .l)}}", "{{printf \"%q\" (print .l)}}",
          "{{printf \"%v\" (eq 1 1)}}", "{{printf \"%T\" (eq 1 1)}}", "{{printf \"%T\" (print 1)}}", "{{printf \"%T\" (html 1)}}",
          "{{printf \"%s\" (and .s .e)}}", "{{printf \"%v\" (or .e .nul)}}"]:
    F(t, FD)

fmt.write("fmt")
