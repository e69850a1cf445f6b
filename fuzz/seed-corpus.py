#!/usr/bin/env python3
"""Write the seed corpora in fuzz/corpus/<target>/ from the project's own fixtures and golden
vectors (testdata/ and the envsubst unit tests), in each target's input layout (see
src/fuzzing.rs). Deterministic: the same checkout gives the same files. Files already in a
corpus (fuzzer finds, reproducers) are kept; seeds are named seed-*.

Run from the repository root: python3 fuzz/seed-corpus.py
"""

import hashlib
import json
import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
PER_SOURCE = 12  # cases taken from each golden file, evenly spread


def write(target, data):
    if isinstance(data, str):
        data = data.encode()
    d = CORPUS / target
    d.mkdir(parents=True, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    (d / name).write_bytes(data)


def jsonl(path):
    # Not splitlines(): some cases hold U+2028 and friends inside strings.
    return [json.loads(l) for l in path.read_text().split("\n") if l.strip()]


def spread(items, n=PER_SOURCE):
    if len(items) <= n:
        return items
    step = len(items) / n
    return [items[int(i * step)] for i in range(n)]


def compact(v):
    return json.dumps(v, ensure_ascii=False, separators=(",", ":"))


def yaml_load():
    for p in sorted((ROOT / "testdata" / "examples").rglob("*.yaml"))[:20]:
        if p.stat().st_size <= 16 * 1024:
            write("yaml_load", p.read_bytes())
    for p in sorted((ROOT / "testdata" / "current" / "base").glob("*.yaml"))[:6]:
        write("yaml_load", p.read_bytes())
    for case in spread(jsonl(ROOT / "testdata" / "golden" / "yaml2json.jsonl"), 40):
        write("yaml_load", case["yaml"])


def template():
    gold = ROOT / "testdata" / "golden" / "template"
    for name in ["capi", "core", "fmt", "sprig-a", "sprig-b", "sprig-c", "mutation"]:
        for case in spread(jsonl(gold / f"{name}.cases.jsonl")):
            if case.get("funcs") == "hermetic":
                mode = 0 if case.get("yamlToJSON") else 2
            else:
                mode = 3 if case.get("missingkey") == "error" else 1
            data = compact(case.get("data"))
            write("template", bytes([mode]) + case["template"].encode() + b"\0" + data.encode())


def json_patch():
    gold = ROOT / "testdata" / "golden" / "jsonpatch"
    for case in spread(jsonl(gold / "jsonpatch.jsonl"), 40):
        write("json_patch", compact(case["doc"]) + "\0" + compact(case["patch"]))
    for case in spread(jsonl(gold / "mergepatch.jsonl")):
        write("json_patch", compact(case["doc"]) + "\0" + compact(case["patch"]))


ENVSUBST_VARS = "\n".join(
    [
        "A=value",
        "E=",
        "B=b",
        "N=-5",
        "P=/home/bozo/ideas/thoughts.for.today",
        "V=Élan Vital",
        "W=ÉLAN",
        "S=straße",
        "CLUSTER_NAME=dev",
        "KUBERNETES_VERSION=v1.31.0",
    ]
)


def envsubst():
    # The first string argument of each ok(..)/missing(..)/syntax(..) in the unit tests.
    src = (ROOT / "src" / "load" / "envsubst.rs").read_text()
    texts = []
    for m in re.finditer(r'\b(?:ok|missing|syntax)\(\s*"((?:[^"\\]|\\.)*)"', src):
        text = m.group(1).encode().decode("unicode_escape").encode("latin-1").decode("utf-8", "replace")
        if text not in texts:
            texts.append(text)
    for text in spread(texts, 48):
        write("envsubst", text + "\0" + ENVSUBST_VARS)
    files = [p for p in sorted((ROOT / "testdata").rglob("*.yaml")) if "${" in p.read_text()]
    for p in spread([p for p in files if p.stat().st_size < 16 * 1024], 8):
        write("envsubst", p.read_text() + "\0" + ENVSUBST_VARS)


def diag_render():
    def case(flags, offset, length, text, label="here", message="something failed", help_="do this", pad=0, pad_byte=b" "):
        header = bytes([flags]) + struct.pack("<H", pad) + pad_byte + struct.pack("<II", offset, length)
        write("diag_render", header + b"\0".join([text.encode(), label.encode(), message.encode(), help_.encode()]))

    yaml = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: v\n"
    case(0, 0, 0, yaml)
    case(1, 15, 15, yaml)
    case(16, 36, 4, yaml)
    case(8 | 16, 50, 3, yaml)
    case(2, len(yaml), 0, yaml)
    case(0, len(yaml) + 10, 5, yaml)  # past the end
    case(0, 3, 1000, yaml)  # runs past the end
    case(0, 1, 1, "é: ü\n")  # inside a character
    case(0, 0, 1, "", label="", message="", help_="")
    case(4, 0, 0, yaml)  # no location
    case(0, 5, 2, "a\r\nb\tc\x1b[31m\x00d\n")
    case(0, 2, 3, "x" * 50 + "\n" * 40 + "y")
    case(1 | 32, 30000, 2, "k: v\n", pad=16000, pad_byte=b"a")  # a 32000-column line
    case(32, 64000, 1, "", pad=32005, pad_byte=b"b")  # column 64001: just below miette's 65535


def main():
    yaml_load()
    template()
    json_patch()
    envsubst()
    diag_render()


if __name__ == "__main__":
    main()
