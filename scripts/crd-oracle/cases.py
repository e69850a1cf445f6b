#!/usr/bin/env python3
"""Emit the custom-resource admission cases (JSON lines {"case", "schema", "object"}) for the CRD
oracle (build.sh). Every schema is a CRD version's openAPIV3Schema; every object is a Widget of
example.com/v1. gen.sh runs them through the oracle into testdata/golden/crd/admit.jsonl.
"""
import json

cases = []


def root(spec_schema, **extra_props):
    props = {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
             "metadata": {"type": "object"}, "spec": spec_schema}
    props.update(extra_props)
    return {"type": "object", "properties": props}


def obj(spec=None, metadata=None, **extra):
    o = {"apiVersion": "example.com/v1", "kind": "Widget",
         "metadata": metadata if metadata is not None else {"name": "w", "namespace": "default"}}
    if spec is not None:
        o["spec"] = spec
    o.update(extra)
    return o


def add(name, schema, *objects):
    for i, o in enumerate(objects):
        cases.append({"case": f"{name}/{i}", "schema": schema, "object": o})


# --- pruning ---------------------------------------------------------------------------------
prune_schema = root({"type": "object", "properties": {
    "replicas": {"type": "integer"},
    "template": {"type": "object", "properties": {"spec": {"type": "object", "properties": {
        "image": {"type": "string"}}}}},
    "list": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
    "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": True,
             "properties": {"typed": {"type": "object", "properties": {"a": {"type": "integer"}}}}},
    "freeList": {"type": "array", "x-kubernetes-preserve-unknown-fields": True,
                 "items": {"type": "object", "properties": {"k": {"type": "string"}}}},
    "labels": {"type": "object", "additionalProperties": {"type": "string"}},
    "anything": {"type": "object", "additionalProperties": True},
    "nothing": {"type": "object", "additionalProperties": False},
    "nested": {"type": "array", "items": {"type": "array", "items": {"type": "object",
               "properties": {"y": {"type": "integer"}}}}},
    "intOrString": {"x-kubernetes-int-or-string": True},
}})
add("prune", prune_schema,
    obj({"replicas": 1, "foo": 2}),
    obj({"template": {"spec": {"image": "x", "foo": {"bar": 1}}, "metadata": {"a": 1}}}),
    obj({"list": [{"x": "1", "z": 2}, {"z": [1]}, None, 3]}),
    obj({"free": {"anything": {"q": 1}, "typed": {"a": 1, "b": 2}, "list": [1, {"c": 2}]}}),
    obj({"freeList": [{"k": "a", "other": 1}, 5, [1]]}),
    obj({"labels": {"a": "b", "c": {"d": 1}}}),
    obj({"anything": {"a": 1, "b": {"c": {"d": 1}}, "l": [{"x": 1}, [{"y": 2}]]}}),
    obj({"nothing": {"a": 1, "b": {"c": 1}}}),
    obj({"nested": [[{"y": 1, "z": 2}], [], [None, {"w": 1}]]}),
    obj({"intOrString": {"a": 1}}),
    obj({"intOrString": [{"a": 1}]}),
    obj(None, status={"ready": True}, extra={"x": 1}),
    obj({}, metadata={"name": "w", "labels": {"a": "b"}, "unknownMeta": 1, "Name": "x"}),
    obj({"replicas": 1}, metadata={"name": "w", "ownerReferences": [
        {"apiVersion": "v1", "kind": "ConfigMap", "name": "c", "uid": "u", "x": 1}]}),
    obj({"replicas": 1}, metadata={"name": "w", "labels": {}, "annotations": None,
                                   "generation": 0, "finalizers": [], "namespace": ""}),
    obj({"replicas": 1}, metadata={"name": "w", "creationTimestamp": "2024-05-06T07:08:09.123+02:00",
                                   "deletionGracePeriodSeconds": 0}),
    obj({"replicas": 1}, metadata={"name": "w", "labels": {"a": 1}}),
    obj({"replicas": 1}, metadata={"name": "w", "generation": 1.5}),
    obj({"replicas": 1}, metadata={"name": 5}),
    obj({"replicas": 1}, metadata={"name": "w", "creationTimestamp": "yesterday"}),
    obj({"replicas": 1}, metadata={"name": "w", "creationTimestamp": 5}),
    obj({"replicas": 1}, metadata="x"),
    obj({"replicas": 1}, metadata=None),
    obj({"replicas": 1}, metadata={"name": "w", "finalizers": ["a/b", None], "managedFields": [
        {"manager": "m", "operation": "Apply", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {}},
         "time": "2024-01-01T00:00:00Z", "zzz": 1}]}),
    )
# apiVersion / kind / metadata below the root are ordinary fields
add("prune-meta-below-root", root({"type": "object", "properties": {"a": {"type": "string"}}}),
    obj({"a": "x", "kind": "K", "apiVersion": "v", "metadata": {"name": "n"}}))

# embedded resources
emb = {"type": "object", "x-kubernetes-embedded-resource": True,
       "properties": {"spec": {"type": "object", "properties": {"containers": {"type": "array",
                      "items": {"type": "object", "properties": {"name": {"type": "string"}}}}}}}}
emb_free = {"type": "object", "x-kubernetes-embedded-resource": True,
            "x-kubernetes-preserve-unknown-fields": True}
emb_schema = root({"type": "object", "properties": {
    "template": emb, "free": emb_free,
    "many": {"type": "array", "items": emb},
    "byName": {"type": "object", "additionalProperties": emb_free}}})
add("embedded", emb_schema,
    obj({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "zzz": 1},
                      "spec": {"containers": [{"name": "c", "image": "i"}]}, "status": {}}}),
    obj({"free": {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": "b"}, "x": 1},
                  "spec": {"anything": 1}}}),
    obj({"many": [{"apiVersion": "v1", "kind": "Pod"}, {"kind": "Pod", "metadata": {}},
                  {"apiVersion": 1, "kind": "", "metadata": {"name": "a/b"}}]}),
    obj({"byName": {"a": {"apiVersion": "a/b/c", "kind": "1Bad", "metadata": {"name": "..",
                          "generateName": "x%", "namespace": "Not_A_Label", "generation": -1}},
                    "b": {"apiVersion": "v1", "kind": "Pod", "metadata": {
                          "labels": {"-bad": "v", "ok": "-bad-"}, "annotations": {"A_b/c": "x"},
                          "finalizers": ["good/one", "good/one", "bad finalizer"],
                          "ownerReferences": [{"apiVersion": "", "kind": "", "name": "", "uid": ""},
                                              {"apiVersion": "v1", "kind": "Event", "name": "e", "uid": "u"},
                                              {"apiVersion": "v1", "kind": "K", "name": "c1", "uid": "u1", "controller": True},
                                              {"apiVersion": "v1", "kind": "K", "name": "c2", "uid": "u2", "controller": True}]}}}}),
    obj({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"labels": {"a": 1}}}}),
    obj({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": "x"}}),
    obj({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": None}}),
    obj({"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"creationTimestamp": None, "name": "p"}}}),
    )

# --- nulls and defaults ----------------------------------------------------------------------
def_schema = root({"type": "object", "properties": {
    "replicas": {"type": "integer", "default": 1},
    "nullableNoDefault": {"type": "string", "nullable": True},
    "plain": {"type": "string"},
    "nullableWithDefault": {"type": "string", "nullable": True, "default": "d"},
    "parent": {"type": "object", "nullable": True, "properties": {
        "child": {"type": "string", "default": "c"},
        "deep": {"type": "object", "default": {}, "properties": {"leaf": {"type": "integer", "default": 3}}}}},
    "objDefault": {"type": "object", "default": {"a": 1}, "properties": {
        "a": {"type": "integer"}, "b": {"type": "integer", "default": 2}}},
    "map": {"type": "object", "additionalProperties": {"type": "object", "default": {"z": 0},
            "properties": {"z": {"type": "integer"}, "y": {"type": "string", "default": "y"}}}},
    "nullableMap": {"type": "object", "additionalProperties": {"type": "string", "nullable": True}},
    "list": {"type": "array", "items": {"type": "object", "default": {"k": "v"},
             "properties": {"k": {"type": "string"}, "n": {"type": "integer", "default": 5}}}},
    "strings": {"type": "array", "items": {"type": "string"}},
    "nullableItems": {"type": "array", "items": {"type": "string", "nullable": True}},
}, "default": {}})
add("defaults", def_schema,
    obj({}),
    obj(None),
    obj({"replicas": None, "nullableNoDefault": None, "plain": None, "nullableWithDefault": None}),
    obj({"parent": None}),
    obj({"parent": {}}),
    obj({"parent": {"deep": None}}),
    obj({"objDefault": None}),
    obj({"objDefault": {}}),
    obj({"map": {"a": None, "b": {}, "c": {"z": 1}}}),
    obj({"nullableMap": {"a": None, "b": "x"}}),
    obj({"list": [None, {}, {"k": "x", "n": None}]}),
    obj({"strings": ["a", None]}),
    obj({"nullableItems": ["a", None]}),
    obj({"replicas": "3"}),
    )

# --- value validation ------------------------------------------------------------------------
val_schema = root({"type": "object", "required": ["replicas"], "properties": {
    "replicas": {"type": "integer", "format": "int32", "minimum": 0, "maximum": 10},
    "ratio": {"type": "number", "minimum": 0.5, "exclusiveMaximum": True, "maximum": 2.5, "multipleOf": 0.25},
    "count": {"type": "integer", "multipleOf": 3},
    "maxSurge": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}],
                 "pattern": "^[0-9]+%?$"},
    "mode": {"type": "string", "enum": ["a", "b", None], "nullable": True},
    "name": {"type": "string", "minLength": 2, "maxLength": 5, "pattern": "^[a-z]+$"},
    "url": {"type": "string", "format": "uri"},
    "when": {"type": "string", "format": "date-time"},
    "custom": {"type": "string", "format": "not-a-format"},
    "tags": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True, "items": {"type": "string"}},
    "strict": {"type": "object", "additionalProperties": False, "properties": {"a": {"type": "string"}}},
    "sized": {"type": "object", "minProperties": 1, "maxProperties": 2,
              "additionalProperties": {"type": "integer"}},
    "either": {"type": "object", "oneOf": [{"required": ["a"]}, {"required": ["b"]}],
               "properties": {"a": {"type": "string"}, "b": {"type": "string"}}},
    "notEmpty": {"type": "string", "not": {"enum": [""]}},
    "all": {"type": "integer", "allOf": [{"minimum": 1}, {"maximum": 3}]},
    "nullableObj": {"type": "object", "nullable": True, "properties": {"x": {"type": "integer"}}},
}})
add("validation", val_schema,
    obj({"replicas": 3}),
    obj({}),
    obj({"replicas": "3"}),
    obj({"replicas": 3.5}),
    obj({"replicas": 11}),
    obj({"replicas": -1}),
    obj({"replicas": 5000000000}),
    obj({"replicas": None}),
    obj({"replicas": 1, "ratio": 2.5}),
    obj({"replicas": 1, "ratio": 0.3}),
    obj({"replicas": 1, "ratio": 2}),
    obj({"replicas": 1, "ratio": 0.75}),
    obj({"replicas": 1, "ratio": 1}),
    obj({"replicas": 1, "count": 7}),
    obj({"replicas": 1, "count": 9}),
    obj({"replicas": 1, "count": 7.5}),
    obj({"replicas": 1, "maxSurge": 1}),
    obj({"replicas": 1, "maxSurge": "25%"}),
    obj({"replicas": 1, "maxSurge": "x"}),
    obj({"replicas": 1, "maxSurge": 1.5}),
    obj({"replicas": 1, "maxSurge": True}),
    obj({"replicas": 1, "mode": None}),
    obj({"replicas": 1, "mode": "c"}),
    obj({"replicas": 1, "name": "a"}),
    obj({"replicas": 1, "name": "abcdef"}),
    obj({"replicas": 1, "name": "AB"}),
    obj({"replicas": 1, "url": "http://x"}),
    obj({"replicas": 1, "url": "::"}),
    obj({"replicas": 1, "when": "2024-01-01T00:00:00Z"}),
    obj({"replicas": 1, "when": "yesterday"}),
    obj({"replicas": 1, "custom": "anything"}),
    obj({"replicas": 1, "tags": []}),
    obj({"replicas": 1, "tags": ["a", "a", "b"]}),
    obj({"replicas": 1, "strict": {"a": "x", "b": 1}}),
    obj({"replicas": 1, "sized": {}}),
    obj({"replicas": 1, "sized": {"a": 1, "b": 2, "c": "x"}}),
    obj({"replicas": 1, "either": {"a": "x"}}),
    obj({"replicas": 1, "either": {"a": "x", "b": "y"}}),
    obj({"replicas": 1, "either": {}}),
    obj({"replicas": 1, "notEmpty": ""}),
    obj({"replicas": 1, "all": 5}),
    obj({"replicas": 1, "nullableObj": None}),
    obj({"replicas": 1, "nullableObj": {"x": "y"}}),
    obj({"replicas": 1}, metadata={"name": 5}),
    )
# a required field at the root, and the root's type
add("root-required", {"type": "object", "required": ["spec"], "properties": {
    "metadata": {"type": "object", "properties": {"name": {"type": "string", "maxLength": 3}}},
    "spec": {"type": "object"}}},
    obj(None),
    obj({}, metadata={"name": "toolong"}))

# --- list types ------------------------------------------------------------------------------
list_schema = root({"type": "object", "properties": {
    "set": {"type": "array", "x-kubernetes-list-type": "set", "items": {"x-kubernetes-int-or-string": True}},
    "objSet": {"type": "array", "x-kubernetes-list-type": "set", "items": {"type": "object",
               "x-kubernetes-map-type": "atomic", "x-kubernetes-preserve-unknown-fields": True}},
    "map": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["name"],
            "items": {"type": "object", "properties": {"name": {"type": "string"}, "v": {"type": "integer"}}}},
    "map2": {"type": "array", "x-kubernetes-list-type": "map", "x-kubernetes-list-map-keys": ["a", "b"],
             "items": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer", "default": 0}}}},
    "atomic": {"type": "array", "x-kubernetes-list-type": "atomic", "items": {"type": "string"}},
    "inner": {"type": "object", "additionalProperties": {"type": "array", "x-kubernetes-list-type": "set",
              "items": {"type": "string"}}},
}})
add("lists", list_schema,
    obj({"set": [1, "1", 1, 2, 2, 2]}),
    obj({"objSet": [{"a": 1}, {"a": 1}, {"a": 1.0}, {"b": [1]}]}),
    obj({"map": [{"name": "a"}, {"name": "a", "v": 1}, {}, {"v": 2}, {"name": "b"}]}),
    obj({"map": [{"name": "a"}, "x"]}),
    obj({"map2": [{"a": "x", "b": 1}, {"a": "x", "b": 1}, {"a": "x"}, {"a": "x", "b": 0}]}),
    obj({"atomic": ["a", "a"]}),
    obj({"inner": {"k": ["a", "b", "a"]}}),
    )

# --- Cluster API shaped snippets -------------------------------------------------------------
kcp = {"type": "object", "properties": {
    "apiVersion": {"type": "string"}, "kind": {"type": "string"}, "metadata": {"type": "object"},
    "spec": {"type": "object", "required": ["version"], "properties": {
        "replicas": {"type": "integer", "format": "int32"},
        "version": {"type": "string", "minLength": 1, "maxLength": 256},
        "rolloutStrategy": {"type": "object", "default": {"rollingUpdate": {"maxSurge": 1}, "type": "RollingUpdate"},
            "properties": {"type": {"type": "string", "enum": ["RollingUpdate"]},
                           "rollingUpdate": {"type": "object", "properties": {
                               "maxSurge": {"x-kubernetes-int-or-string": True, "anyOf": [{"type": "integer"}, {"type": "string"}]}}}}},
        "machineTemplate": {"type": "object", "properties": {
            "metadata": {"type": "object", "properties": {
                "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                "annotations": {"type": "object", "additionalProperties": {"type": "string"}}}},
            "infrastructureRef": {"type": "object", "x-kubernetes-map-type": "atomic", "required": ["name"],
                                  "properties": {"apiVersion": {"type": "string"}, "kind": {"type": "string"},
                                                 "name": {"type": "string"}}},
            "nodeDrainTimeout": {"type": "string"}}},
        "kubeadmConfigSpec": {"type": "object", "properties": {
            "clusterConfiguration": {"type": "object", "properties": {
                "apiServer": {"type": "object", "properties": {
                    "extraArgs": {"type": "array", "x-kubernetes-list-type": "map",
                                  "x-kubernetes-list-map-keys": ["name", "value"],
                                  "items": {"type": "object", "required": ["name", "value"], "properties": {
                                      "name": {"type": "string"}, "value": {"type": "string"}}}}}}}},
            "files": {"type": "array", "maxItems": 200, "items": {"type": "object", "required": ["path"],
                      "properties": {"path": {"type": "string"}, "content": {"type": "string"},
                                     "permissions": {"type": "string"}}}}}}}},
    "status": {"type": "object", "x-kubernetes-preserve-unknown-fields": True}}}


def kcp_obj(spec):
    return {"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "cp", "namespace": "ns"},
            "spec": spec}


add("kcp", kcp,
    kcp_obj({"replicas": 3, "version": "v1.31.0", "machineTemplate": {"infrastructureRef": {"name": "t", "x": 1},
             "metadata": {"labels": {"a": "b"}, "unknown": 1}}}),
    kcp_obj({"replicas": "3", "version": "v1.31.0"}),
    kcp_obj({"replicas": 3.0, "version": ""}),
    kcp_obj({"replicas": 3}),
    kcp_obj({"version": "v1", "rolloutStrategy": {"rollingUpdate": {"maxSurge": "50%"}}}),
    kcp_obj({"version": "v1", "rolloutStrategy": {"type": "OnDelete", "rollingUpdate": {"maxSurge": [1]}}}),
    kcp_obj({"version": "v1", "kubeadmConfigSpec": {"clusterConfiguration": {"apiServer": {"extraArgs": [
        {"name": "a", "value": "1"}, {"name": "a", "value": "1"}, {"name": "a", "value": "2"}, {"name": "b"}]}},
        "files": [{"path": "/etc/x", "contents": "typo"}, {"content": "no path"}]}}),
    kcp_obj({"version": "v1", "unknownSpecField": True}),
    )

# --- numbers, enums and formats in the CRD dialect -----------------------------------------
num_schema = root({"type": "object", "properties": {
    "f": {"type": "number", "maximum": 1.5, "minimum": -0.5, "exclusiveMinimum": True},
    "i": {"type": "integer", "maximum": 2.5, "multipleOf": 2},
    "m": {"type": "number", "multipleOf": 0.1},
    "big": {"type": "integer", "format": "int64", "minimum": -9007199254740993},
    "e": {"type": "integer", "enum": [1, 2.5, None]},
    "s": {"type": "string", "enum": ["a", 65]},
    "ios": {"x-kubernetes-int-or-string": True, "maxLength": 2, "maximum": 5},
    "b": {"type": "boolean", "nullable": True, "default": False},
}})
add("numbers", num_schema,
    obj({"f": 2}), obj({"f": 1.6}), obj({"f": -0.5}), obj({"f": 1.5}),
    obj({"i": 3}), obj({"i": 4}), obj({"i": 2}), obj({"i": 3.0}),
    obj({"m": 0.3}), obj({"m": 0.35}), obj({"m": 7}),
    obj({"big": -9007199254740994}), obj({"big": 5}),
    obj({"e": 1}), obj({"e": 2.5}), obj({"e": None}), obj({"e": 3}),
    obj({"s": "A"}), obj({"s": "b"}),
    obj({"ios": "abc"}), obj({"ios": 9}), obj({"ios": "ok"}),
    obj({"b": None}), obj({}),
    )

# --- pruning corners ------------------------------------------------------------------------
corner_schema = root({"type": "object", "properties": {
    "closed": {"type": "object", "additionalProperties": False},
    "open": {"type": "object", "additionalProperties": True, "x-kubernetes-preserve-unknown-fields": True},
    "deep": {"type": "object", "x-kubernetes-preserve-unknown-fields": True, "properties": {
        "typed": {"type": "array", "items": {"type": "object", "properties": {"k": {"type": "string"}}}}}},
    "embeddedList": {"type": "array", "items": {"type": "object", "x-kubernetes-embedded-resource": True,
                     "properties": {"data": {"type": "object", "additionalProperties": {"type": "string"}}}}},
    "mapOfLists": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "object",
                   "properties": {"a": {"type": "integer", "default": 1}}}}},
}})
add("corners", corner_schema,
    obj({"closed": {"x": {"y": 1}, "z": [1, {"w": 2}]}}),
    obj({"open": {"x": {"y": 1}, "z": [1, {"w": 2}]}}),
    obj({"deep": {"typed": [{"k": "a", "extra": 1}], "free": {"x": 1}}}),
    obj({"embeddedList": [{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c", "uid": "u", "x": 1},
                           "data": {"a": "b"}, "binaryData": {}}, {"kind": "ConfigMap"}]}),
    obj({"mapOfLists": {"a": [{}, {"a": 2, "b": 3}, None], "b": []}}),
    )

for c in cases:
    print(json.dumps(c, sort_keys=True))
