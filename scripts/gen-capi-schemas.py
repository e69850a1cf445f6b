#!/usr/bin/env python3
"""Generates data/crds/cluster-api.json: Cluster API's own CRD schemas, built into topoplan (#15).

Usage: scripts/gen-capi-schemas.py [--git-dir DIR] [-o FILE]

DIR is a clone of https://github.com/kubernetes-sigs/cluster-api (bare or not; default
/work/.mirror/kubernetes-sigs+cluster-api/repo) that holds the two commits pinned below. FILE
defaults to data/crds/cluster-api.json. Reads only git objects at those commits, so the output
depends on nothing but them: running it twice gives the same bytes.

Per kind, one minimal apiextensions.k8s.io/v1 CustomResourceDefinition: v1beta2 as on main, the
older served versions (v1beta1; v1alpha1 of ExtensionConfig) as released in v1.10, when they were
the newest. Main still serves those older versions (deprecated) but has touched their schemas
since; topoplan checks v1beta1 objects the way a v1.10 management cluster would. Every schema
`description` is dropped; everything else (types, formats, enums, patterns, limits, required,
defaults, x-kubernetes-* including CEL validations) is kept as upstream generated it. served and
storage: main's storage version (v1beta2) is the one storage version.

To move a pin: fetch the newer commits into DIR, change MAIN/V1_10 below, run this, review the
diff of the JSON, and update data/crds/README.md.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no scripts/__pycache__ in the work tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import crdlib  # noqa: E402

REPOSITORY = "https://github.com/kubernetes-sigs/cluster-api"
MAIN = {"commit": "ae7ff047db499ac3858ade268ba38db8c9f128bb", "date": "2026-08-21T13:29:23Z"}
V1_10 = {"tag": "v1.10.10", "commit": "5757c1c5ddd28861d933277f10fda3aa98538883"}

# CRD file name -> the versions read from main and from v1.10.
KINDS = [
    ("cluster.x-k8s.io_clusters.yaml", ["v1beta2"], ["v1beta1"]),
    ("cluster.x-k8s.io_clusterclasses.yaml", ["v1beta2"], ["v1beta1"]),
    ("cluster.x-k8s.io_machinedeployments.yaml", ["v1beta2"], ["v1beta1"]),
    ("cluster.x-k8s.io_machinepools.yaml", ["v1beta2"], ["v1beta1"]),
    ("cluster.x-k8s.io_machinehealthchecks.yaml", ["v1beta2"], ["v1beta1"]),
    ("runtime.cluster.x-k8s.io_extensionconfigs.yaml", ["v1beta2"], ["v1alpha1"]),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", default="/work/.mirror/kubernetes-sigs+cluster-api/repo")
    ap.add_argument("-o", "--output", default=os.path.join(crdlib.REPO_ROOT, "data/crds/cluster-api.json"))
    args = ap.parse_args()

    git = crdlib.Git(args.git_dir)
    git.require_commit(MAIN["commit"])
    git.require_commit(V1_10["commit"])
    git.require_tag(V1_10["tag"], V1_10["commit"])
    if git.commit_date(MAIN["commit"]) != MAIN["date"]:
        crdlib.die(f"main commit date is {git.commit_date(MAIN['commit'])}, recorded {MAIN['date']}")

    main_tree = crdlib.Origin("main", git, MAIN["commit"])
    v1_10_tree = crdlib.Origin("v1.10", git, V1_10["commit"])

    crds, versions = [], {}
    for filename, from_main, from_v1_10 in KINDS:
        crd, origins = crdlib.minimal_crd(
            [
                (main_tree, crdlib.find_crd_file(git, MAIN["commit"], filename), from_main),
                (v1_10_tree, crdlib.find_crd_file(git, V1_10["commit"], filename), from_v1_10),
            ]
        )
        crds.append(crd)
        versions[crd["metadata"]["name"]] = origins
    crds.sort(key=lambda c: c["metadata"]["name"])

    out = {
        "source": {
            "repository": REPOSITORY,
            "main": dict(MAIN),
            "v1.10": dict(V1_10),
            # Which tree each version's schema was read from.
            "versions": versions,
        },
        "crds": crds,
    }
    crdlib.write(args.output, crdlib.dump_json(out))


if __name__ == "__main__":
    main()
