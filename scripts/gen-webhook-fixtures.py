#!/usr/bin/env python3
"""Generates testdata/webhooks/*.yaml: provider CRDs with the provider's mutating webhook
configuration, for tests of the defaulting webhooks' round trip (#26).

Usage: scripts/gen-webhook-fixtures.py [--capz-git DIR] [--capa-git DIR] [--rke2-git DIR] [-o OUTDIR]

Each --*-git is a clone (bare or not) of the provider's repository holding the commit pinned
below: https://github.com/kubernetes-sigs/cluster-api-provider-azure,
https://github.com/kubernetes-sigs/cluster-api-provider-aws,
https://github.com/rancher/cluster-api-provider-rke2. OUTDIR defaults to testdata/webhooks.

Each file is a YAML stream: minimal CustomResourceDefinitions of a few kinds (as
scripts/gen-crd-fixtures.py makes them: names, group, scope, per served version the schema with
every `description` dropped) and the provider's MutatingWebhookConfiguration from
config/webhook/manifests.yaml, reduced to what says which requests reach a webhook (its name,
with the namePrefix the release's kustomization gives it, and per webhook name, matchPolicy and
rules). A header comment records the commits.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no scripts/__pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crdlib  # noqa: E402

PROVIDERS = {
    "capz": {
        "url": "https://github.com/kubernetes-sigs/cluster-api-provider-azure",
        "commit": "69ec3a40a818ccbc32b8ce88c84609404d8cb7a2",
        "default": "/work/.mirror/kubernetes-sigs+cluster-api-provider-azure/repo",
        "crds": [
            ("infrastructure.cluster.x-k8s.io_azureclusters.yaml", "config/", ["v1beta1"]),
            ("infrastructure.cluster.x-k8s.io_azureclustertemplates.yaml", "config/", ["v1beta1"]),
            ("infrastructure.cluster.x-k8s.io_azuremanagedcontrolplanetemplates.yaml", "config/", ["v1beta1"]),
        ],
        # (manifest, the kustomization whose namePrefix the release's components carry)
        "webhooks": [("config/webhook/manifests.yaml", "config/capz/kustomization.yaml")],
    },
    "capa": {
        "url": "https://github.com/kubernetes-sigs/cluster-api-provider-aws",
        "commit": "2cf09d78547d32975570a4b9ba5496bdfe26abeb",
        "default": "/work/.mirror/kubernetes-sigs+cluster-api-provider-aws/repo",
        "crds": [
            ("infrastructure.cluster.x-k8s.io_awsclustertemplates.yaml", "config/", ["v1beta2"]),
        ],
        "webhooks": [("config/webhook/manifests.yaml", "config/default/kustomization.yaml")],
    },
    "rke2": {
        "url": "https://github.com/rancher/cluster-api-provider-rke2",
        "commit": "c8a3286ad22366f17faaab9c8fefb7eb80c52221",
        "default": "/work/.mirror/rancher+cluster-api-provider-rke2/repo",
        "crds": [
            ("controlplane.cluster.x-k8s.io_rke2controlplanetemplates.yaml", "controlplane/", ["v1beta2"]),
            ("bootstrap.cluster.x-k8s.io_rke2configtemplates.yaml", "bootstrap/", ["v1beta2"]),
        ],
        "webhooks": [
            ("controlplane/config/webhook/manifests.yaml", "controlplane/config/default/kustomization.yaml"),
            ("bootstrap/config/webhook/manifests.yaml", "bootstrap/config/default/kustomization.yaml"),
        ],
    },
}  # fmt: skip


def mutating(git, commit, path, kustomization):
    """The MutatingWebhookConfiguration of a webhook manifest, reduced (see the module docs), named
    as the release's components name it (kustomize's namePrefix)."""
    prefix = (crdlib.yaml.safe_load(git.show(commit, kustomization)) or {}).get("namePrefix", "")
    out = []
    for doc in crdlib.yaml.load_all(git.show(commit, path), Loader=crdlib._Loader):
        if not isinstance(doc, dict) or doc.get("kind") != "MutatingWebhookConfiguration":
            continue
        hooks = []
        for w in doc.get("webhooks") or []:
            h = {"name": w["name"]}
            if "matchPolicy" in w:
                h["matchPolicy"] = w["matchPolicy"]
            h["rules"] = [
                {k: r[k] for k in ("apiGroups", "apiVersions", "operations", "resources") if k in r}
                for r in w.get("rules") or []
            ]
            hooks.append(h)
        out.append(
            {
                "apiVersion": doc["apiVersion"],
                "kind": doc["kind"],
                "metadata": {"name": prefix + doc["metadata"]["name"]},
                "webhooks": hooks,
            }
        )
    if not out:
        crdlib.die(f"{commit[:12]}:{path}: no MutatingWebhookConfiguration")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name, p in PROVIDERS.items():
        ap.add_argument(f"--{name}-git", default=p["default"])
    ap.add_argument("-o", "--outdir", default=os.path.join(crdlib.REPO_ROOT, "testdata/webhooks"))
    args = ap.parse_args()
    for name, p in PROVIDERS.items():
        git = crdlib.Git(getattr(args, f"{name}_git"))
        git.require_commit(p["commit"])
        origin = crdlib.Origin(name, git, p["commit"])
        docs, lines = [], []
        for filename, under, versions in p["crds"]:
            path = crdlib.find_crd_file(git, p["commit"], filename, under)
            crd, _ = crdlib.minimal_crd([(origin, path, versions)])
            docs.append(crd)
            lines.append(f"#   {crd['spec']['names']['kind']} {', '.join(versions)}: {path}")
        for path, kustomization in p["webhooks"]:
            docs.extend(mutating(git, p["commit"], path, kustomization))
            lines.append(f"#   MutatingWebhookConfiguration: {path}")
        head = [
            f"# testdata/webhooks/{name}.yaml: generated by scripts/gen-webhook-fixtures.py, do not edit.",
            "# Minimal CustomResourceDefinitions (every schema `description` dropped) and the provider's",
            "# MutatingWebhookConfiguration reduced to names and rules.",
            f"# source: {p['url']} at {p['commit']}",
            *lines,
        ]
        crdlib.write(os.path.join(args.outdir, f"{name}.yaml"), "\n".join(head) + "\n" + crdlib.dump_yaml_docs(docs))


if __name__ == "__main__":
    main()
