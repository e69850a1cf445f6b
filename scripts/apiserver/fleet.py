#!/usr/bin/env python3
"""Create objects on the API server for run.sh: CRDs first (and wait until they are served),
then every object of the YAML/JSON files given, each POSTed to its collection as it is (the
API server drops what its CRD does not know, and status). Uses the admin token.

  fleet.py URL CA TOKEN FILE...
"""
import http.client
import json
import ssl
import sys
import time
import urllib.parse

import yaml

URL, CA, TOKEN, FILES = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
U = urllib.parse.urlsplit(URL)
CTX = ssl.create_default_context(cafile=CA)


def call(method, path, body=None):
    conn = http.client.HTTPSConnection(U.hostname, U.port, context=CTX, timeout=30)
    headers = {"Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"}
    conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
    r = conn.getresponse()
    return r.status, json.loads(r.read() or b"{}")


def documents(path):
    with open(path) as f:
        text = f.read()
    if path.endswith(".json"):
        data = json.loads(text)
        return data.get("crds", [data]) if isinstance(data, dict) else data
    return [d for d in yaml.safe_load_all(text) if d]


objects = [o for f in FILES for o in documents(f)]
crds = [o for o in objects if o.get("kind") == "CustomResourceDefinition"]
rest = [o for o in objects if o.get("kind") != "CustomResourceDefinition"]
created = []
for crd in crds:
    crd["apiVersion"] = "apiextensions.k8s.io/v1"
    # Kubernetes 1.20 refuses parts of today's schemas (a `default: ""` it reads as null, an
    # empty annotation value): every CRD is installed with an open schema, so the objects are
    # stored as written (names, versions, scope and subresources stay the CRD's).
    for v in crd["spec"]["versions"]:
        v["schema"] = {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}
    status, out = call("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", crd)
    print("crd", crd["metadata"]["name"], status, out.get("message", ""))
    if status == 201:
        created.append(crd)
plurals = {}
for crd in crds:
    s = crd["spec"]
    plurals[(s["group"], s["names"]["kind"])] = (s["names"]["plural"], s.get("scope") == "Namespaced")
core = {("", "Secret"): ("secrets", True), ("", "Namespace"): ("namespaces", False),
        ("", "ConfigMap"): ("configmaps", True)}
plurals.update(core)
for ns in sorted({o["metadata"].get("namespace", "default") for o in rest}):
    call("POST", "/api/v1/namespaces", {"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns}})
for _ in range(60):
    if all(isinstance(st := call("GET", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/"
                                  + c["metadata"]["name"])[1].get("status"), dict)
           and st.get("conditions") for c in created):
        break
    time.sleep(1)
time.sleep(2)
# Owners first: the API server wants an owner reference's uid, which only the owner's creation
# gives (references to owners that are not created are dropped).
rest.sort(key=lambda o: bool(o["metadata"].get("ownerReferences")))
uids = {}
for o in rest:
    refs = []
    for r in o["metadata"].get("ownerReferences", []):
        uid = uids.get((r["kind"], o["metadata"].get("namespace", "default"), r["name"]))
        if uid:
            refs.append(dict(r, uid=uid))
    if "ownerReferences" in o["metadata"]:
        o["metadata"]["ownerReferences"] = refs
        if not refs:
            del o["metadata"]["ownerReferences"]
    api_version, kind = o["apiVersion"], o["kind"]
    group = api_version.split("/")[0] if "/" in api_version else ""
    plural, namespaced = plurals.get((group, kind), (None, True))
    if plural is None:
        print("skip", kind, o["metadata"]["name"], "(no CRD)")
        continue
    base = ("/apis/" + api_version) if group else "/api/" + api_version
    ns = o["metadata"].get("namespace", "default")
    for k in ("resourceVersion", "uid", "creationTimestamp", "managedFields", "generation"):
        o["metadata"].pop(k, None)
    path = base + (("/namespaces/" + ns) if namespaced else "") + "/" + plural
    status, out = call("POST", path, o)
    if status == 201:
        uids[(kind, ns, o["metadata"]["name"])] = out["metadata"]["uid"]
    print(kind, ns + "/" + o["metadata"]["name"], status, out.get("message", ""))
