#!/usr/bin/env python3
"""Emit the value-validation cases (JSON lines {"schema", "value"}) for the schema oracle.

  cases.py | /tmp/schema-oracle | paste-like merge  ->  see gen.sh
"""
import json
import itertools

cases = []


def add(schema, *values):
    for v in values:
        cases.append({"schema": schema, "value": v})


# type, including int/float rules, null and int-or-string
for t in ["string", "integer", "number", "boolean", "object", "array"]:
    s = {"type": t}
    if t == "array":
        s["items"] = {}
    add(s, "s", "", 1, -7, 1.5, 1.0, 1e3, 2.5e20, 9007199254740993.0, 100000000.1, -100000000.1,
        0.5, True, False, None, {}, {"a": 1}, [], [1, "a"])
add({}, "s", 1, 1.5, None, True, [], {})
add({"x-kubernetes-int-or-string": True}, "1", 1, 1.5, True, None, [], {})
add({"x-kubernetes-int-or-string": True, "maxLength": 1, "maximum": 3, "pattern": "^a"}, "abc", "b", 5, 2)
# numbers: bounds, exclusive, formats, range checks
for s in [
    {"type": "integer", "maximum": 10},
    {"type": "integer", "minimum": 1, "exclusiveMinimum": True},
    {"type": "integer", "maximum": 10, "exclusiveMaximum": True, "minimum": -5},
    {"type": "number", "maximum": 1000000},
    {"type": "number", "minimum": -3, "exclusiveMinimum": True, "maximum": 3, "exclusiveMaximum": True},
    {"type": "integer", "format": "int32", "maximum": 3000000000},
    {"type": "integer", "format": "int64"},
    {"type": "number", "format": "float"},
    {"type": "number", "format": "double", "minimum": 9223372036854775807},
    {"type": "integer", "maximum": 9223372036854775807},
    {"type": "number", "maximum": 9223372036854775807},
    {"maximum": 5},
    {"type": "integer", "format": "uint64"},
    {"type": "integer", "format": "uri"},
]:
    add(s, 0, 1, 3, 10, 11, -5, -6, 1.5, 10.0, 10.5, 1e7, 3e9, 1e39, -1e39, 4294967296, 99999999999,
        9223372036854775807, -9223372036854775808, 18446744073709551615, "x", None)
# strings: lengths in runes, patterns (unanchored), invalid patterns
for s in [
    {"type": "string", "maxLength": 3},
    {"type": "string", "minLength": 2},
    {"type": "string", "minLength": 2, "maxLength": 3, "pattern": "^[a-z]+$"},
    {"type": "string", "pattern": "^[0-9]+$"},
    {"type": "string", "pattern": "b"},
    {"type": "string", "pattern": "("},
    {"type": "string", "pattern": "\\d+"},
    {"type": "string", "pattern": "(?i)^abc$"},
    {"type": "string", "pattern": "[[:alpha:]]+"},
]:
    add(s, "", "a", "ab", "abc", "abcd", "ééé", "éééé", "日本", "000000a", "0123", "ABC", "x\ny", 5, None)
# formats (kept and stripped), for strings and other types
fmt_values = {
    "uri": ["https://example.com/a?b=c#d", "not a URI", "mailto:x@y", "/p", "rel", "http://[::1]:8080/", "http://h:x/",
            "http://a b", "http://x/%zz", "http://x/%41", "*", "", "ftp://u:p@h/", "http://u@h@i/", "http://[fe80::1%25en0]/"],
    "email": ["a@b.c", "Joe <joe@example.com>", "joe", "a..b@c", "\"q\"@[1.2.3.4]", "a@b (c)", "<a@b>", "g: a@b;",
              "g: a@b, c@d;", "a@[300.1.1.1]", ".a@b", "a@b.", "\"\"@b", "x y z", "=?utf-8?q?J?= <a@b>",
              "=?koi8-r?q?J?= <a@b>"],
    "hostname": ["example.com", "-bad", "a", "a.b", "ex_ample.com", "x" * 64, "日本.jp", "a.b.c.d.e1", "1.2.3.4"],
    "ipv4": ["1.2.3.4", "01.2.3.4", "1.2.3", "256.1.1.1", "::ffff:1.2.3.4", "::1", "1.2.3.4.5", "0001.2.3.4"],
    "ipv6": ["::1", "1.2.3.4", "2001:db8::1", "2001:db8::1:2:3:4:5:6", "::ffff:1.2.3.4", "fe80::1%eth0", "00000::1", ":::", "1::2::3"],
    "cidr": ["10.0.0.0/8", "10.0.0.0/33", "fd00::/64", "fd00::/129", "1.2.3.4", "010.0.0.0/8", "10.0.0.0/08", "10.0.0.0/"],
    "mac": ["00:00:5e:00:53:01", "0000.5e00.5301", "00:00:5e:00:53", "00-00-5e-00-53-01", "00:00:5e:00:53:01:02:03",
            "00:00-5e:00:53:01", "zz:00:5e:00:53:01"],
    "uuid": ["123e4567-e89b-12d3-a456-426614174000", "123E4567E89B12D3A456426614174000", "123e4567"],
    "uuid3": ["123e4567-e89b-32d3-a456-426614174000", "123e4567-e89b-12d3-a456-426614174000"],
    "uuid4": ["123e4567-e89b-42d3-a456-426614174000", "123e4567-e89b-42d3-c456-426614174000"],
    "uuid5": ["123e4567-e89b-52d3-a456-426614174000", "123e4567-e89b-42d3-a456-426614174000"],
    "isbn": ["0321751043", "978-0321751041", "0321751044", "0-321-75104-3", "123456789X"],
    "isbn10": ["0321751043", "978-0321751041", "123456789X"],
    "isbn13": ["978-0321751041", "9780321751042", "0321751043"],
    "creditcard": ["4111 1111 1111 1111", "4111111111111112", "5500-0000-0000-0004", "x"],
    "ssn": ["123-45-6789", "123456789", "123 45 6789", "123-45-67890"],
    "hexcolor": ["#fff", "fff", "#ffff", "#AbCdEf"],
    "rgbcolor": ["rgb(255, 0, 0)", "rgb(256,0,0)", "rgb( 1 , 2 , 3 )", "rgb(1,2)"],
    "byte": ["aGVsbG8=", "", "aGVsbG8", "a+/="],
    "password": ["anything", ""],
    "date": ["2024-02-29", "2023-02-29", "2024-1-01", "2024-13-01", "2024-01-00", "20240101"],
    "date-time": ["2024-01-02T15:04:05Z", "2024-01-02t15:04:05.123+01:00", "2024-01-02T25:04:05Z", "2024-01-02",
                  "2024-01-02T15:04:05", "2024-01-02T15:04:05xx01:00", "2024-01-02T15:04:05.Z"],
    "datetime": ["2024-01-02T15:04:05Z"],
    "duration": ["1h30m", "3 days", "0", "soon", "1.5h", "-2m", "5 fortnights", "10 weeks", "1μs", "99999999999999999999h", ""],
    "bsonobjectid": ["507f1f77bcf86cd799439011", "507f1f77bcf86cd79943901", "507F1F77BCF86CD799439011"],
    "k8s-short-name": ["my-name", "My-name", "a" * 64, "-a"],
    "k8s-long-name": ["a.b-c", "a..b", "A.b", "a" * 254],
    "k8s-ip-sloppy": ["1.2.3.4", "x"],
    "int32": ["x"],
    "made-up": ["x"],
}
for f, vals in fmt_values.items():
    add({"type": "string", "format": f}, *vals)
    add({"format": f}, vals[0], 1, True)
add({"type": "boolean", "format": "uri"}, True)
add({"type": "array", "format": "uri", "items": {"type": "string"}}, ["x"])
# enums
for s in [
    {"type": "string", "enum": ["us-east-1", "us-east-2"]},
    {"enum": [1, 2.5, "a", True, [1], {"b": None}]},
    {"enum": [1]},
    {"enum": [1.0]},
    {"enum": ["A"]},
    {"type": "integer", "enum": [1, 2]},
    {"enum": [None, "x"]},
]:
    add(s, "us-east-1", "us-east-invalid", 1, 1.0, 1.5, 2.5, 65, 65.0, "a", "A", True, [1], [1.0], {"b": None}, None, 1114112, -1)
# arrays
for s in [
    {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    {"type": "array", "items": {"type": "integer", "maximum": 2}, "minItems": 2},
    {"type": "array", "uniqueItems": True, "items": {}},
    {"type": "array", "items": {"type": "array", "items": {"type": "string", "enum": ["a"]}}},
    {"type": "array", "items": {"type": "object", "required": ["n"], "properties": {"n": {"type": "string"}}}},
]:
    add(s, [], ["a"], ["a", "b", "c", "d"], [1, 2, 3], [1, 1], [1, 1.0], [{"a": 1}, {"a": 1}], [[1], [1]],
        [["a"], ["b"]], [{"n": 1}, {}], "x", None)
# objects
for s in [
    {"type": "object", "properties": {"enabled": {"type": "boolean"}, "url": {"type": "string"}}, "required": ["url"]},
    {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 2, "maxProperties": 3},
    {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "integer", "minimum": 5}},
                                           "required": ["c"]}}},
    {"type": "object", "additionalProperties": {"type": "object", "additionalProperties": {"type": "string"}}},
    {"type": "object", "x-kubernetes-preserve-unknown-fields": True},
    {"type": "object", "required": ["a", "b"]},
]:
    add(s, {}, {"enabled": "not-a-bool"}, {"url": "x", "enabled": True}, {"a": 1, "b": "x"}, {"a": {"b": 1}},
        {"a": {"b": 7, "c": 1}}, {"x": {"y": 1}}, {"a": 1, "b": 2, "c": 3, "d": 4}, {"a": None}, "s", [], None)
# junctors
for s in [
    {"anyOf": [{"type": "string"}, {"type": "integer", "maximum": 1}]},
    {"anyOf": [{"type": "integer", "maximum": 1}, {"type": "string"}]},
    {"anyOf": [{"type": "integer"}, {"type": "string"}], "x-kubernetes-int-or-string": True},
    {"oneOf": [{"type": "integer"}, {"minimum": 0}]},
    {"oneOf": [{"required": ["a"]}, {"required": ["b"]}], "type": "object"},
    {"allOf": [{"maximum": 1}, {"maximum": 2}]},
    {"allOf": [{"minLength": 2}, {"pattern": "^a"}], "type": "string"},
    {"type": "integer", "not": {"minimum": 0}},
    {"type": "string", "not": {"format": "email"}, "anyOf": [{"format": "ipv4"}, {"format": "ipv6"}]},
    {"type": "object", "properties": {"a": {"type": "integer"}},
     "anyOf": [{"properties": {"a": {"maximum": 1}}}, {"properties": {"a": {"minimum": 10}}}]},
    {"type": "object", "properties": {"x": {"type": "string", "oneOf": [{"enum": ["a"]}, {"enum": ["b"]}]}}},
]:
    add(s, 0, 1, 5, -3, "a", "ab", "b", "x@y", "1.2.3.4", "::1", {}, {"a": 1}, {"a": 5}, {"a": 12}, {"b": 1},
        {"a": 1, "b": 2}, {"x": "a"}, {"x": "c"}, None, [])

if __name__ == "__main__":
    for c in cases:
        print(json.dumps(c, ensure_ascii=False))
