#!/usr/bin/env python3
"""Generates testdata/crds/*.yaml: provider CRDs for tests of CRD schema validation (#15).

Usage: scripts/gen-crd-fixtures.py [--capi-git DIR] [--capa-git DIR] [-o OUTDIR]

--capi-git: a clone of https://github.com/kubernetes-sigs/cluster-api (bare or not; default
/work/.mirror/kubernetes-sigs+cluster-api/repo). --capa-git: one of
https://github.com/kubernetes-sigs/cluster-api-provider-aws (default
/work/.mirror/kubernetes-sigs+cluster-api-provider-aws/repo). Both must hold the commits pinned
below. OUTDIR defaults to testdata/crds.

Each file is a YAML stream of minimal apiextensions.k8s.io/v1 CustomResourceDefinitions, the same
shape as data/crds/cluster-api.json (see scripts/gen-capi-schemas.py): names, group, scope and per
served version the schema, every `description` dropped. A header comment records the commits and
which tree each version came from. Cluster API's own providers follow the rule of
data/crds/cluster-api.json: v1beta2 as on main, v1beta1 as released in v1.10.10. The Docker* kinds
of CAPD are gone from main ("Remove Docker resources"), so their v1beta2 comes from v1.14.0, the
last release that has them, and their v1beta1 from v1.10.10 (what the v1.10 quick-start uses). CAPA serves only v1beta2.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no scripts/__pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crdlib  # noqa: E402

CAPI = "https://github.com/kubernetes-sigs/cluster-api"
CAPI_MAIN = {"commit": "ae7ff047db499ac3858ade268ba38db8c9f128bb", "date": "2026-08-21T13:29:23Z"}
CAPI_V1_10 = {"tag": "v1.10.10", "commit": "5757c1c5ddd28861d933277f10fda3aa98538883"}
# The last release with CAPD's Docker* kinds at v1beta2 (main removed them).
CAPI_V1_14 = {"tag": "v1.14.0", "commit": "560d4acf507bc7cac34b2da449fa5cd53eaeb149"}
CAPA = "https://github.com/kubernetes-sigs/cluster-api-provider-aws"
CAPA_MAIN = {
    "commit": "2cf09d78547d32975570a4b9ba5496bdfe26abeb",
    "date": "2026-07-01T09:50:15Z",
    "describe": "v2.10.0-294-g2cf09d785",
}

# Output file -> [(CRD file name, directory it must be under, {tree: [versions]})].
# Trees: "main"/"v1.10" of Cluster API, "capa" of CAPA.
_DOCKER = "test/infrastructure/docker/"
FIXTURES = {
    "capd.yaml": [
        ("infrastructure.cluster.x-k8s.io_devclusters.yaml", _DOCKER, {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_devclustertemplates.yaml", _DOCKER, {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_devmachines.yaml", _DOCKER, {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_devmachinetemplates.yaml", _DOCKER, {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_devmachinepools.yaml", _DOCKER, {"main": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_devmachinepooltemplates.yaml", _DOCKER, {"main": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_dockerclusters.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_dockerclustertemplates.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_dockermachines.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_dockermachinetemplates.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_dockermachinepools.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("infrastructure.cluster.x-k8s.io_dockermachinepooltemplates.yaml", _DOCKER, {"v1.14": ["v1beta2"], "v1.10": ["v1beta1"]}),
    ],
    "kubeadm-control-plane.yaml": [
        ("controlplane.cluster.x-k8s.io_kubeadmcontrolplanes.yaml", "controlplane/kubeadm/", {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("controlplane.cluster.x-k8s.io_kubeadmcontrolplanetemplates.yaml", "controlplane/kubeadm/", {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
    ],
    "kubeadm-bootstrap.yaml": [
        ("bootstrap.cluster.x-k8s.io_kubeadmconfigs.yaml", "bootstrap/kubeadm/", {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
        ("bootstrap.cluster.x-k8s.io_kubeadmconfigtemplates.yaml", "bootstrap/kubeadm/", {"main": ["v1beta2"], "v1.10": ["v1beta1"]}),
    ],
    # The kinds a ClusterClass on AWS references: EC2 clusters (AWSCluster/AWSMachine templates)
    # and EKS ones (AWSManagedCluster infrastructure with an AWSManagedControlPlane, whose group
    # is controlplane.cluster.x-k8s.io).
    "capa.yaml": [
        ("infrastructure.cluster.x-k8s.io_awsclusters.yaml", "config/", {"capa": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_awsclustertemplates.yaml", "config/", {"capa": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_awsmachines.yaml", "config/", {"capa": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_awsmachinetemplates.yaml", "config/", {"capa": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_awsmanagedclusters.yaml", "config/", {"capa": ["v1beta2"]}),
        ("infrastructure.cluster.x-k8s.io_awsmanagedclustertemplates.yaml", "config/", {"capa": ["v1beta2"]}),
        ("controlplane.cluster.x-k8s.io_awsmanagedcontrolplanes.yaml", "config/", {"capa": ["v1beta2"]}),
        ("controlplane.cluster.x-k8s.io_awsmanagedcontrolplanetemplates.yaml", "config/", {"capa": ["v1beta2"]}),
    ],
}  # fmt: skip

TREE_ORDER = ["main", "capa", "v1.14", "v1.10"]  # newest first: its storage version is the storage one


def contract_labels(t, path):
    """The contract labels kustomize puts on a CRD of `path`'s provider at tree `t`: the
    `labels[].pairs` (or older `commonLabels`) of the kustomization.yaml next to
    `.../config/crd/bases/` whose keys are `cluster.x-k8s.io/<contract>`. Cluster API's
    topology controller reads them to know which API version of a template kind follows which
    contract, so a fixture without them is refused as a real CRD without them would be."""
    kustomization = path.split("bases/")[0] + "kustomization.yaml"
    doc = crdlib.yaml.safe_load(t.git.show(t.commit, kustomization)) or {}
    pairs = dict(doc.get("commonLabels") or {})
    for entry in doc.get("labels") or []:
        pairs.update(entry.get("pairs") or {})
    return {k: v for k, v in pairs.items() if k.startswith("cluster.x-k8s.io/")}


def header(name, kinds, trees_used):
    lines = [
        f"# testdata/crds/{name}: generated by scripts/gen-crd-fixtures.py, do not edit.",
        "# Minimal CustomResourceDefinitions for tests; every schema `description` is dropped.",
    ]
    if {"main", "v1.14", "v1.10"} & trees_used:
        lines.append(f"# source: {CAPI}")
    if "main" in trees_used:
        lines.append(f"#   main: {CAPI_MAIN['commit']} ({CAPI_MAIN['date']})")
    if "v1.14" in trees_used:
        lines.append(f"#   v1.14: tag {CAPI_V1_14['tag']}, {CAPI_V1_14['commit']}")
    if "v1.10" in trees_used:
        lines.append(f"#   v1.10: tag {CAPI_V1_10['tag']}, {CAPI_V1_10['commit']}")
    if "capa" in trees_used:
        lines.append(f"# source: {CAPA}")
        lines.append(f"#   capa: main {CAPA_MAIN['commit']} ({CAPA_MAIN['date']}, {CAPA_MAIN['describe']})")
    lines.append("# versions (tree:path):")
    for kind, vs in kinds:
        lines.append(f"#   {kind}: " + ", ".join(f"{v} {t}:{p}" for v, (t, p) in vs.items()))
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--capi-git", default="/work/.mirror/kubernetes-sigs+cluster-api/repo")
    ap.add_argument("--capa-git", default="/work/.mirror/kubernetes-sigs+cluster-api-provider-aws/repo")
    ap.add_argument("-o", "--outdir", default=os.path.join(crdlib.REPO_ROOT, "testdata/crds"))
    args = ap.parse_args()

    capi, capa = crdlib.Git(args.capi_git), crdlib.Git(args.capa_git)
    capi.require_commit(CAPI_MAIN["commit"])
    capi.require_commit(CAPI_V1_10["commit"])
    capi.require_tag(CAPI_V1_10["tag"], CAPI_V1_10["commit"])
    capi.require_commit(CAPI_V1_14["commit"])
    capi.require_tag(CAPI_V1_14["tag"], CAPI_V1_14["commit"])
    capa.require_commit(CAPA_MAIN["commit"])
    for git, pin in ((capi, CAPI_MAIN), (capa, CAPA_MAIN)):
        if git.commit_date(pin["commit"]) != pin["date"]:
            crdlib.die(f"{pin['commit']} date is {git.commit_date(pin['commit'])}, recorded {pin['date']}")
    trees = {
        "main": crdlib.Origin("main", capi, CAPI_MAIN["commit"]),
        "v1.14": crdlib.Origin("v1.14", capi, CAPI_V1_14["commit"]),
        "v1.10": crdlib.Origin("v1.10", capi, CAPI_V1_10["commit"]),
        "capa": crdlib.Origin("capa", capa, CAPA_MAIN["commit"]),
    }

    for name, entries in FIXTURES.items():
        docs, kinds, used = [], [], set()
        for filename, under, wanted in entries:
            parts, paths = [], {}
            for label in sorted(wanted, key=TREE_ORDER.index):
                t = trees[label]
                path = crdlib.find_crd_file(t.git, t.commit, filename, under)
                parts.append((t, path, wanted[label]))
                paths[label] = path
                used.add(label)
            crd, origins = crdlib.minimal_crd(parts)
            labels = {}
            for t, path, _ in parts:
                labels.update(contract_labels(t, path))
            if labels:
                crd["metadata"]["labels"] = dict(sorted(labels.items()))
            docs.append(crd)
            kinds.append(
                (
                    crd["spec"]["names"]["kind"],
                    {v["name"]: (origins[v["name"]], paths[origins[v["name"]]]) for v in crd["spec"]["versions"]},
                )
            )
        text = header(name, kinds, used) + crdlib.dump_yaml_docs(docs)
        crdlib.write(os.path.join(args.outdir, name), text)


if __name__ == "__main__":
    main()
