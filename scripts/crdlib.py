"""Shared helpers of scripts/gen-capi-schemas.py and scripts/gen-crd-fixtures.py.

Reads CustomResourceDefinition YAMLs out of a git repository (bare or not) at pinned commits,
drops the documentation (`description`) of every schema node and keeps everything the API
server validates with, and builds minimal apiextensions.k8s.io/v1 CRD objects from them.

Python 3 standard library plus PyYAML (`python3 -c 'import yaml'`; Debian: python3-yaml).
"""

import json
import os
import re
import subprocess
import sys

try:
    import yaml
except ImportError:  # pragma: no cover - the message is the point
    sys.exit("PyYAML is needed (apt-get install python3-yaml, or pip install pyyaml)")

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_Dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)

REPO_ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    sys.exit(f"{os.path.basename(sys.argv[0])}: {msg}")


class Git:
    """Read-only access to one repository: `git -C DIR ...` works on bare and non-bare ones."""

    def __init__(self, path):
        self.path = path
        if not os.path.isdir(path):
            die(f"no git repository at {path}")

    def _run(self, *args):
        r = subprocess.run(["git", "-C", self.path, *args], capture_output=True)
        if r.returncode != 0:
            die(f"git {' '.join(args)} in {self.path}: {r.stderr.decode(errors='replace').strip()}")
        return r.stdout

    def require_commit(self, commit):
        """The pinned commit must be in the repository (fetch a newer copy if it is not)."""
        got = self._run("rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").decode().strip()
        if got != commit:
            die(f"{commit} is not a commit of {self.path}")

    def require_tag(self, tag, commit):
        """A recorded tag must still point at the recorded commit."""
        got = self._run("rev-parse", "--verify", "--quiet", f"refs/tags/{tag}^{{commit}}").decode().strip()
        if got != commit:
            die(f"tag {tag} is {got or 'missing'} in {self.path}, recorded as {commit}")

    def commit_date(self, commit):
        return self._run("show", "-s", "--format=%cI", commit).decode().strip()

    def files(self, commit):
        return self._run("ls-tree", "-r", "--name-only", "-z", commit).decode().split("\0")

    def show(self, commit, path):
        return self._run("show", f"{commit}:{path}")


def find_crd_file(git, commit, filename, under=None):
    """The one path `.../config/crd/bases/FILENAME` of the commit (optionally below `under`).

    Searching by name keeps the scripts working when upstream moves its tree (Cluster API's core
    CRDs moved from config/ to core/config/ after v1.10); two matches are an error, not a guess.
    """
    hits = [
        p
        for p in git.files(commit)
        if p.endswith("config/crd/bases/" + filename) and (under is None or p.startswith(under))
    ]
    if len(hits) != 1:
        die(f"{filename} at {commit[:12]}: expected one config/crd/bases/ file, found {hits}")
    return hits[0]


def load_crd(git, commit, path):
    doc = yaml.load(git.show(commit, path), Loader=_Loader)
    if not isinstance(doc, dict) or doc.get("kind") != "CustomResourceDefinition":
        die(f"{commit[:12]}:{path} is no CustomResourceDefinition")
    if doc.get("apiVersion") != "apiextensions.k8s.io/v1":
        die(f"{commit[:12]}:{path}: apiVersion {doc.get('apiVersion')}")
    return doc


# Keywords whose value is a schema, a list of schemas or a map of name -> schema. Everything else
# in a schema node (type, format, enum, default, example, pattern, limits, required, nullable,
# x-kubernetes-*, ...) is data and is kept exactly as it is: a `description` inside a `default`
# or `enum` value, or a property named `description`, is not documentation and stays.
_SCHEMA = ("items", "additionalProperties", "not")
_SCHEMA_LIST = ("allOf", "anyOf", "oneOf")
_SCHEMA_MAP = ("properties",)
_DATA = {
    "type", "format", "title", "default", "example", "enum", "pattern",
    "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum", "multipleOf",
    "maxLength", "minLength", "maxItems", "minItems", "uniqueItems",
    "maxProperties", "minProperties", "required", "nullable", "externalDocs",
    "x-kubernetes-preserve-unknown-fields", "x-kubernetes-embedded-resource",
    "x-kubernetes-int-or-string", "x-kubernetes-list-map-keys", "x-kubernetes-list-type",
    "x-kubernetes-map-type", "x-kubernetes-validations",
}  # fmt: skip
# Not allowed in CRD schemas (apiextensions rejects them); seeing one means upstream changed.
_FORBIDDEN = {"$ref", "dependencies", "id", "$schema", "definitions", "patternProperties", "additionalItems"}


def strip_descriptions(node, where):
    """A copy of the schema node without the `description` of it and of every node below it."""
    if not isinstance(node, dict):
        die(f"{where}: schema node is {type(node).__name__}, not an object")
    out = {}
    for key, value in node.items():
        at = f"{where}.{key}"
        if key == "description":
            continue
        if key in _FORBIDDEN:
            die(f"{at}: keyword not allowed in a CRD schema")
        if key in _SCHEMA:
            if isinstance(value, bool):
                out[key] = value
            else:
                out[key] = strip_descriptions(value, at)
        elif key in _SCHEMA_LIST:
            out[key] = [strip_descriptions(v, f"{at}[{i}]") for i, v in enumerate(value)]
        elif key in _SCHEMA_MAP:
            out[key] = {name: strip_descriptions(v, f"{at}[{name}]") for name, v in value.items()}
        elif key in _DATA:
            out[key] = value
        else:
            die(f"{at}: unknown schema keyword (add it to crdlib.py once you know what it is)")
    _check_types(out, where)
    return out


_PY = {
    "string": (str,),
    "boolean": (bool,),
    "integer": (int,),
    "number": (int, float),
    "object": (dict,),
    "array": (list,),
}


def _fits(value, typ, node):
    if value is None:
        return node.get("nullable", False)
    if node.get("x-kubernetes-int-or-string"):
        return isinstance(value, (int, str)) and not isinstance(value, bool)
    if typ is None:
        return True
    if typ in ("integer", "number") and isinstance(value, bool):
        return False
    return isinstance(value, _PY[typ])


def _check_types(node, where):
    """Catch YAML 1.1 surprises (an unquoted `on` read as true, a date read as a datetime): every
    enum value and default must have the node's declared type and be plain JSON."""
    typ = node.get("type")
    if typ is not None and typ not in _PY:
        die(f"{where}: type {typ!r}")
    for i, v in enumerate(node.get("enum", [])):
        if not _fits(v, typ, node):
            die(f"{where}.enum[{i}]: {v!r} is no {typ}")
    if "default" in node and not _fits(node["default"], typ, node):
        die(f"{where}.default: {node['default']!r} is no {typ}")
    try:
        json.dumps({k: v for k, v in node.items() if k not in _SCHEMA + _SCHEMA_LIST + _SCHEMA_MAP})
    except TypeError as e:
        die(f"{where}: not plain JSON data ({e})")


class Origin:
    """One tree a CRD version is read from: a label (recorded in the output), repo and commit."""

    def __init__(self, label, git, commit):
        self.label, self.git, self.commit = label, git, commit


def minimal_crd(parts):
    """One minimal CRD object from (origin, path, [version names]) parts of the same kind.

    Keeps apiVersion, kind, metadata.name, spec.group, spec.names {kind, listKind, plural,
    singular}, spec.scope and per version name, served, storage and the description-free
    schema. Names, group and scope must agree between the trees. served/storage come from the
    version's own tree, except that with several trees only the first tree's storage version
    keeps storage: true (a CRD stores exactly one version); callers list the newest tree first.
    Returns (crd, {version: origin label}).
    """
    crd, versions, origins = None, {}, {}
    storage_from = None
    for origin, path, wanted in parts:
        doc = load_crd(origin.git, origin.commit, path)
        spec = doc["spec"]
        head = {
            "apiVersion": "apiextensions.k8s.io/v1",
            "kind": "CustomResourceDefinition",
            "metadata": {"name": doc["metadata"]["name"]},
            "spec": {
                "group": spec["group"],
                "names": {k: spec["names"][k] for k in ("kind", "listKind", "plural", "singular")},
                "scope": spec["scope"],
            },
        }
        if crd is None:
            crd = head
        elif head != crd:
            die(f"{path}: names/group/scope differ between {origins} and {origin.label}")
        by_name = {v["name"]: v for v in spec["versions"]}
        if storage_from is None:
            storage_from = origin.label
        for name in wanted:
            if name in versions:
                die(f"{path}: version {name} asked for twice")
            v = by_name.get(name)
            if v is None:
                die(f"{origin.label}:{path} has no version {name} (it has {sorted(by_name)})")
            if not v.get("served"):
                die(f"{origin.label}:{path}: version {name} is not served")
            where = f"{spec['names']['kind']}/{name}"
            versions[name] = {
                "name": name,
                "served": True,
                "storage": bool(v.get("storage")) and origin.label == storage_from,
                "schema": {
                    "openAPIV3Schema": strip_descriptions(v["schema"]["openAPIV3Schema"], where)
                },
            }
            origins[name] = origin.label
    stored = [n for n, v in versions.items() if v["storage"]]
    if len(stored) != 1:
        die(f"{crd['metadata']['name']}: storage versions {stored}")
    crd["spec"]["versions"] = [versions[n] for n in sorted(versions, key=_version_key)]
    return crd, origins


def served_versions(origin, path):
    doc = load_crd(origin.git, origin.commit, path)
    return [v["name"] for v in doc["spec"]["versions"] if v.get("served")]


def _version_key(name):
    """Kubernetes version priority order, oldest first: v1alpha1 < v1beta1 < v1beta2 < v1."""
    m = re.fullmatch(r"v(\d+)(?:(alpha|beta)(\d+))?", name)
    if not m:
        return (0, 0, 0, name)
    major, stage, minor = m.groups()
    return (int(major), {"alpha": 0, "beta": 1, None: 2}[stage], int(minor or 0), name)


def dump_json(obj):
    """Compact, keys sorted, one trailing newline: the same input gives the same bytes."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"


def dump_yaml_docs(docs):
    """YAML documents, keys sorted, no line folding (CEL rules stay on one line each)."""
    return "".join(
        "---\n" + yaml.dump(d, Dumper=_Dumper, sort_keys=True, default_flow_style=False,
                            allow_unicode=True, width=1 << 30)
        for d in docs
    )  # fmt: skip


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
    print(f"wrote {path} ({os.path.getsize(path)} bytes)", file=sys.stderr)
