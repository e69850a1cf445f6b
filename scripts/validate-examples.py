#!/usr/bin/env python3
"""Run `topoplan validate` on the shared example ClusterClasses and on broken variants of them.

Usage: scripts/validate-examples.py [EXAMPLES_DIR] [TOPOPLAN_BINARY]
  EXAMPLES_DIR defaults to ../shared/examples, TOPOPLAN_BINARY to target/release/topoplan.

The examples are Cluster API's own files and are not part of this repository, so this is a script
rather than a test; `tests/validate.rs` covers the same breakages on our own fixtures. Each example
must validate cleanly (exit 0). Each variant changes one line of one file; topoplan must then exit 1
and report Cluster API's message (compared exactly) at the changed line.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "examples"))
BIN = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "target", "release", "topoplan"))

# (example, files validated together besides the class, description)
CLEAN = [
    ("dev-quick-start", ["cluster-template-development.yaml"]),
    ("dev-quick-start", ["cluster-template-development-mp.yaml"]),
    ("dev-quick-start-v1.10", ["cluster-template-development.yaml"]),
    ("dev-quick-start-v1.10", ["cluster-template-development-mp.yaml"]),
    ("e2e-quick-start-runtimesdk", ["cluster-runtimesdk.yaml", "discover-variables-response.written.yaml"]),
    ("e2e-quick-start-runtimesdk", ["cluster-topology-kubeadm-version.yaml", "discover-variables-response.written.yaml"]),
]

CLASS = {
    "dev-quick-start": "clusterclass-quick-start.yaml",
    "dev-quick-start-v1.10": "clusterclass-quick-start.yaml",
    "e2e-quick-start-runtimesdk": "clusterclass-quick-start-runtimesdk.yaml",
}

# (name, example, other files, file to change, old text, new text, expected message)
# The expected message is Cluster API's text for the field error (as in `kubectl apply`'s
# `... is invalid: <message>`), None where only the location is checked; the expected line is
# given as (anchor, delta): the line of `anchor` in the changed file, plus delta.
QS = "dev-quick-start"
QS_CLUSTER = ["cluster-template-development.yaml"]
SDK = "e2e-quick-start-runtimesdk"
SDK_CLUSTER = ["cluster-runtimesdk.yaml", "discover-variables-response.written.yaml"]
VARIANTS = [
    (
        "missing required variable", SDK, SDK_CLUSTER, "cluster-runtimesdk.yaml",
        "      - name: imageRepository\n        value: \"kindest\"\n", "",
        'spec.topology.variables: Required value: required variable "imageRepository" must be set',
        ("    variables:\n      - name: kubeadmControlPlaneMaxSurge", 0),
    ),
    (
        "wrong type", QS, QS_CLUSTER, "cluster-template-development.yaml",
        "        enforce: \"baseline\"", "        enforce: 3",
        'spec.topology.variables[podSecurityStandard].value.enforce: Invalid value: "{\\"audit\\":\\"restricted\\",\\"enabled\\":true,\\"enforce\\":3,\\"warn\\":\\"restricted\\"}": enforce in body must be of type string: "integer"',
        ("enforce: 3", 0),
    ),
    (
        "bad semver", QS, QS_CLUSTER, "cluster-template-development.yaml",
        "    version: ${KUBERNETES_VERSION}", "    version: v1.34",
        'spec.topology.version: Invalid value: "v1.34": version must be a valid semantic version',
        ("version: v1.34", 0),
    ),
    (
        "unknown MachineDeployment class", QS, QS_CLUSTER, "cluster-template-development.yaml",
        "      - class: default-worker", "      - class: gpu-worker",
        'spec.topology.workers.machineDeployments[0].class: Invalid value: "gpu-worker": MachineDeploymentClass with name "gpu-worker" does not exist in ClusterClass "quick-start"',
        ("class: gpu-worker", 0),
    ),
    (
        "duplicate MachineDeployment names", QS, QS_CLUSTER, "cluster-template-development.yaml",
        "        replicas: ${WORKER_MACHINE_COUNT}",
        "        replicas: ${WORKER_MACHINE_COUNT}\n      - class: default-worker\n        name: md-0",
        'spec.topology.workers.machineDeployments[1].name: Invalid value: "md-0": name must be unique. MachineDeployment with name "md-0" is defined more than once',
        ("replicas: ${WORKER_MACHINE_COUNT}\n      - class: default-worker", 2),
    ),
    (
        "undeclared variable", QS, QS_CLUSTER, "cluster-template-development.yaml",
        "    - name: etcdImageTag\n", "    - name: etcdImageTagg\n",
        'spec.topology.variables[etcdImageTagg]: Invalid value: "\\"\\"": variable is not defined',
        ("name: etcdImageTagg", 0),
    ),
    (
        "builtin as a variable name", QS, [], "clusterclass-quick-start.yaml",
        "  - name: coreDNSImageTag\n    required: true", "  - name: builtin\n    required: true",
        'spec.variables[builtin].name: Invalid value: "builtin": "builtin" is a reserved variable name',
        ("name: builtin", 0),
    ),
    (
        "patch path outside /spec", QS, [], "clusterclass-quick-start.yaml",
        '        path: "/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository"',
        '        path: "/metadata/labels/imageRepository"',
        # Cluster API prints the patch with json.MarshalIndent, then %q-quotes it.
        "spec.patches[0].definitions[0].jsonPatches[0].path: Invalid value: "
        + json.dumps(json.dumps({"op": "add", "path": "/metadata/labels/imageRepository",
                                 "valueFrom": {"variable": "imageRepository"}}, indent=2))
        + ': jsonPatch path must start with "/spec"',
        ('"/metadata/labels/imageRepository"', 0),
    ),
    (
        "unsupported op", QS, [], "clusterclass-quick-start.yaml",
        '      - op: add\n        path: "/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository"',
        '      - op: move\n        path: "/spec/template/spec/kubeadmConfigSpec/clusterConfiguration/imageRepository"',
        None,
        ("op: move", 0),
    ),
    (
        "bad schema type", QS, [], "clusterclass-quick-start.yaml",
        # A variable whose own default is absent: with one, Cluster API's default check runs
        # first and reports the default against the unknown type instead.
        "  - name: podSecurityStandard\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: object",
        "  - name: podSecurityStandard\n    required: false\n    schema:\n      openAPIV3Schema:\n        type: objec",
        'spec.variables[podSecurityStandard].schema.openAPIV3Schema.type: Unsupported value: "objec": supported values: "array", "boolean", "integer", "number", "object", "string"',
        ("type: objec", 0),
    ),
    (
        "unparsable template", QS, [], "clusterclass-quick-start.yaml",
        "              imageTag: {{ .etcdImageTag }}", "              imageTag: {{ .etcdImageTag }",
        None,
        ("imageTag: {{ .etcdImageTag }\n", -1),
    ),
    (
        "unparsable enabledIf", QS, [], "clusterclass-quick-start.yaml",
        "    enabledIf: '{{ ne .etcdImageTag \"\" }}'", "    enabledIf: '{{ ne .etcdImageTag \"\" '",
        None,
        ("enabledIf: '{{ ne .etcdImageTag", 0),
    ),
]


def run(example, files, changed=None):
    """Validate the class plus `files` of `example`; `changed` = (file, text) replaces one file."""
    src = os.path.join(EXAMPLES, example)
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for f in [CLASS[example]] + files:
            dst = os.path.join(tmp, f)
            if changed and changed[0] == f:
                with open(dst, "w") as out:
                    out.write(changed[1])
            else:
                shutil.copy(os.path.join(src, f), dst)
            paths += ["-f", f]
        env = dict(os.environ)
        args = [BIN, "validate", *paths, "--substitute", "--env-file", os.path.join(src, "vars.env"), "-o", "json"]
        p = subprocess.run(args, cwd=tmp, env=env, capture_output=True, text=True)
        return p


def main():
    failures = 0
    for example, files in CLEAN:
        p = run(example, files)
        doc = json.loads(p.stdout) if p.stdout else {}
        errs = [f for f in doc.get("findings", []) if f["severity"] == "error"]
        ok = p.returncode == 0 and not errs
        print(f"{'ok  ' if ok else 'FAIL'} clean    {example} {' '.join(files)}")
        if not ok:
            failures += 1
            print(p.stderr or p.stdout)
    for name, example, files, target, old, new, expected, marker in VARIANTS:
        with open(os.path.join(EXAMPLES, example, target)) as f:
            text = f.read()
        if old not in text:
            print(f"FAIL variant  {name}: pattern not found in {target}")
            failures += 1
            continue
        changed = text.replace(old, new, 1)
        anchor, delta = marker
        line = changed[: changed.index(anchor)].count("\n") + 1 + delta
        p = run(example, files, (target, changed))
        doc = json.loads(p.stdout) if p.stdout else {}
        errs = [f for f in doc.get("findings", []) if f["severity"] == "error"]
        got = errs[0] if errs else None
        ok = p.returncode == 1 and got is not None
        if ok and expected is not None:
            ok = any(e["message"] == expected for e in errs)
        if ok and line is not None:
            ok = any(e.get("file") == target and e.get("line") == line for e in errs)
        where = f"{got.get('file')}:{got.get('line')}" if got else "-"
        print(f"{'ok  ' if ok else 'FAIL'} variant  {name}: {where} {got['message'] if got else p.stderr.strip()[:300]}")
        if not ok:
            failures += 1
            print(f"     expected line {line}: {expected}")
            for e in errs:
                print(f"     got {e.get('file')}:{e.get('line')}: {e['message']}")
    print(f"{failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
