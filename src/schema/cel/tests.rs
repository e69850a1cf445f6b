//! Tests of [`super::check_rules`] and [`super::validate`], messages compared exactly.

use serde_json::{Value, json};

use super::*;

fn base() -> Path {
    Path::new("spec")
        .child("variables")
        .key("x")
        .child("schema")
        .child("openAPIV3Schema")
}

fn value_path() -> Path {
    Path::new("spec")
        .child("topology")
        .child("variables")
        .key("x")
        .child("value")
}

fn check(schema: Value) -> Vec<String> {
    check_rules(&schema, &base(), None)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn run(schema: Value, value: Value, old: Option<Value>) -> Vec<String> {
    validate(
        &schema,
        &value,
        old.as_ref(),
        &value_path(),
        RUNTIME_CEL_COST_BUDGET,
    )
    .iter()
    .map(ToString::to_string)
    .collect()
}

fn rules(rules: Value) -> Value {
    json!({"type": "integer", "x-kubernetes-validations": rules})
}

#[test]
fn compile_errors_in_cel_go_words() {
    assert_eq!(
        check(
            json!({"type": "string", "x-kubernetes-validations": [{"rule": "ipv4(self).family() == 4"}]})
        ),
        [
            "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"ipv4(self).family() == 4\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:5: undeclared reference to 'ipv4' (in container '')\n | ipv4(self).family() == 4\n | ....^"
        ]
    );
}

#[test]
fn undeclared_references_and_fields() {
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}},
        "x-kubernetes-validations": [
            {"rule": "self.b == 'x'"},
            {"rule": "foo(self.a)"},
            {"rule": "self.a + 1 == 2"},
            {"rule": "self.a.size()"},
            {"rule": "has(self.a) && x"}]});
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    assert_eq!(
        check(s),
        [
            format!(
                "{p}[0].rule: Invalid value: {{\"Rule\":\"self.b == 'x'\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:5: undefined field 'b'\n | self.b == 'x'\n | ....^"
            ),
            format!(
                "{p}[1].rule: Invalid value: {{\"Rule\":\"foo(self.a)\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:4: undeclared reference to 'foo' (in container '')\n | foo(self.a)\n | ...^"
            ),
            format!(
                "{p}[2].rule: Invalid value: {{\"Rule\":\"self.a + 1 == 2\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:8: found no matching overload for '_+_' applied to '(string, int)'\n | self.a + 1 == 2\n | .......^"
            ),
            format!(
                "{p}[3].rule: Invalid value: {{\"Rule\":\"self.a.size()\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: cel expression must evaluate to a bool"
            ),
            format!(
                "{p}[4].rule: Invalid value: {{\"Rule\":\"has(self.a) \\u0026\\u0026 x\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:16: undeclared reference to 'x' (in container '')\n | has(self.a) && x\n | ...............^"
            ),
        ]
    );
}

#[test]
fn message_expressions_are_compiled_too() {
    let s = rules(json!([
        {"rule": "self > 0", "messageExpression": "'n is ' + self"},
        {"rule": "self > 0", "messageExpression": "self"},
        {"rule": "self > 0", "messageExpression": "'n is ' + (self > 5 ? 'big' : 'small')"}]));
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    assert_eq!(
        check(s),
        [
            format!(
                "{p}[0].messageExpression: Invalid value: {{\"Rule\":\"self \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"'n is ' + self\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: messageExpression compilation failed: ERROR: <input>:1:9: found no matching overload for '_+_' applied to '(string, int)'\n | 'n is ' + self\n | ........^"
            ),
            format!(
                "{p}[1].messageExpression: Invalid value: {{\"Rule\":\"self \\u003e 0\",\"Message\":\"\",\"MessageExpression\":\"self\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: messageExpression must evaluate to a string"
            ),
        ]
    );
}

#[test]
fn rule_fields_and_no_compile_after_field_errors() {
    let s = rules(json!([{"rule": ""}, {"rule": "nope()"}]));
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Required value: rule is not specified"
        ]
    );
}

#[test]
fn old_self_under_items_is_uncorrelatable() {
    let s = json!({"type": "array", "items": {"type": "object",
        "properties": {"a": {"type": "integer", "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}}});
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.items.properties[a].x-kubernetes-validations[0].rule: Invalid value: \"self >= oldSelf\": oldSelf cannot be used on the uncorrelatable portion of the schema within spec.variables[x].schema.openAPIV3Schema.items"
        ]
    );
    let ok = json!({"type": "object", "properties": {"a": {"type": "integer",
        "x-kubernetes-validations": [{"rule": "self >= oldSelf"}]}}});
    assert!(check(ok).is_empty());
}

#[test]
fn cost_limits() {
    let s = json!({"type": "array", "items": {"type": "string",
        "x-kubernetes-validations": [{"rule": "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"}]}});
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
            "spec.variables[x].schema.openAPIV3Schema.items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema",
            "spec.variables[x].schema.openAPIV3Schema: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)",
        ]
    );
    // Bounded sizes: accepted.
    let s = json!({"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 63,
        "x-kubernetes-validations": [{"rule": "self.matches('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$')"}]}});
    assert!(check(s).is_empty());
    // Cheap rules on unbounded lists are accepted (a false rejection would be worse).
    let s = json!({"type": "array", "items": {"type": "string",
        "x-kubernetes-validations": [{"rule": "self != ''"}]}});
    assert!(check(s).is_empty());
}

#[test]
fn string_function_costs_count_in_rules_and_message_expressions() {
    // Each item: ⌈0.1·2,000,000⌉ · ⌈0.1·7⌉ + 1, times what fits of an unbounded list in a
    // request: far past the limit, as Cluster API's API server finds.
    let p = "spec.variables[x].schema.openAPIV3Schema";
    let s = json!({"type": "array", "items": {"type": "string", "maxLength": 500_000,
        "x-kubernetes-validations": [{"rule": "!self.contains('keyword')"}]}});
    assert_eq!(
        check(s),
        [
            format!(
                "{p}.items.x-kubernetes-validations[0].rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
            ),
            format!(
                "{p}.items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema"
            ),
            format!(
                "{p}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)"
            ),
        ]
    );
    let s = json!({"type": "array", "items": {"type": "string", "maxLength": 500_000,
        "x-kubernetes-validations": [{"rule": "self != ''",
            "messageExpression": "self.contains('keyword') ? 'has it' : 'lacks it'"}]}});
    let errs = check(s);
    assert!(
        errs.iter().any(|e| e.starts_with(&format!("{p}.items.x-kubernetes-validations[0].messageExpression: Forbidden: estimated messageExpression cost exceeds budget by factor of more than 100x"))),
        "{errs:#?}"
    );
    // Bounded: accepted.
    let s = json!({"type": "array", "maxItems": 10, "items": {"type": "string", "maxLength": 500_000,
        "x-kubernetes-validations": [{"rule": "!self.contains('keyword')"}]}});
    assert!(check(s.clone()).is_empty(), "{:?}", check(s));
}

#[test]
fn total_cost_per_schema() {
    // Each rule: 1 + ⌈0.1·4000⌉·⌈0.25·8⌉ = 801, × 2000 items = 1,602,000 (below the per-rule
    // limit); 70 such rules exceed 100,000,000 in total.
    let many: Vec<Value> = (0..70)
        .map(|i| json!({"rule": format!("self.matches('^[a-z]{i}+$')")}))
        .collect();
    let s = json!({"type": "array", "maxItems": 2000, "items": {"type": "string", "maxLength": 1000,
        "x-kubernetes-validations": many}});
    let errs = check(s);
    let p = "spec.variables[x].schema.openAPIV3Schema";
    assert_eq!(errs.len(), 5, "{errs:#?}");
    assert_eq!(
        errs[0],
        format!(
            "{p}.items.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema"
        )
    );
    assert!(errs[4].starts_with(&format!("{p}: Forbidden: x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.")));
}

#[test]
fn examples_and_enums_are_validated_with_cel() {
    let s = json!({"type": "integer", "enum": [1, 5], "example": 7,
        "x-kubernetes-validations": [{"rule": "self < 3", "message": "too big"}]});
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.example: Invalid value: 7: too big",
            "spec.variables[x].schema.openAPIV3Schema.enum[1]: Invalid value: 5: too big",
        ]
    );
}

#[test]
fn environments_follow_the_old_schema() {
    // Both environments have the same libraries today; a stored rule is compiled with the
    // newest environment, a new one with n-1.
    let s = json!({"type": "string", "x-kubernetes-validations": [{"rule": "isSemver(self)"}]});
    assert!(check_rules(&s, &base(), Some(&s)).is_empty());
    assert!(check(s).is_empty());
    assert_eq!(
        Env::NewExpressions.minor() + 1,
        Env::StoredExpressions.minor()
    );
}

#[test]
fn failure_messages() {
    let s = rules(json!([
        {"rule": "self <= 1"},
        {"rule": " self <= 2 ", "message": " too big "},
        {"rule": "self <= 3", "messageExpression": "'got ' + string(self)"},
        {"rule": "self <= 4", "message": "m", "messageExpression": "'  '"},
        {"rule": "self <= 5", "messageExpression": "'a\\nb'", "message": "multi"}]));
    assert_eq!(
        run(s, json!(99), None),
        [
            "spec.topology.variables[x].value: Invalid value: 99: failed rule: self <= 1",
            "spec.topology.variables[x].value: Invalid value: 99: too big",
            "spec.topology.variables[x].value: Invalid value: 99: got 99",
            "spec.topology.variables[x].value: Invalid value: 99: m",
            "spec.topology.variables[x].value: Invalid value: 99: multi",
        ]
    );
}

#[test]
fn reasons_and_field_paths() {
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "m": {"type": "object",
        "additionalProperties": {"type": "integer"}}},
        "x-kubernetes-validations": [
            {"rule": "false", "reason": "FieldValueForbidden", "message": "no", "fieldPath": ".a"},
            {"rule": "false", "reason": "FieldValueRequired", "message": "req"},
            {"rule": "false", "reason": "FieldValueDuplicate", "message": "dup", "fieldPath": ".m['k.1']"},
            {"rule": "false", "reason": "FieldValueInvalid"}]});
    assert_eq!(
        run(s, json!({"a": "x"}), None),
        [
            "spec.topology.variables[x].value.a: Forbidden: no",
            "spec.topology.variables[x].value: Required value: req",
            "spec.topology.variables[x].value.m[k.1]: Duplicate value",
            "spec.topology.variables[x].value: Invalid value: failed rule: false",
        ]
    );
}

#[test]
fn self_is_bound_per_node() {
    let s = json!({"type": "object", "properties": {
        "list": {"type": "array", "items": {"type": "integer",
            "x-kubernetes-validations": [{"rule": "self > 0"}]}},
        "map": {"type": "object", "additionalProperties": {"type": "string",
            "x-kubernetes-validations": [{"rule": "self != ''"}]}},
        "n": {"type": "number", "x-kubernetes-validations": [{"rule": "self < 1.5"}]}}});
    assert_eq!(
        run(
            s,
            json!({"list": [1, 0, -3], "map": {"b": "", "a": "x"}, "n": 2}),
            None
        ),
        [
            "spec.topology.variables[x].value.list[1]: Invalid value: 0: failed rule: self > 0",
            "spec.topology.variables[x].value.list[2]: Invalid value: -3: failed rule: self > 0",
            "spec.topology.variables[x].value.map[b]: Invalid value: \"\": failed rule: self != ''",
            "spec.topology.variables[x].value.n: Invalid value: 2: failed rule: self < 1.5",
        ]
    );
}

#[test]
fn integers_stay_integers() {
    // `self + 1` on 3 is an int; on a number schema, a double.
    assert!(run(rules(json!([{"rule": "self + 1 == 4"}])), json!(3), None).is_empty());
    let num =
        json!({"type": "number", "x-kubernetes-validations": [{"rule": "self + 1.0 == 4.0"}]});
    assert!(run(num, json!(3), None).is_empty());
    let ios = json!({"x-kubernetes-int-or-string": true,
        "x-kubernetes-validations": [{"rule": "self == 'a' || self == 3"}]});
    assert!(run(ios.clone(), json!(3), None).is_empty());
    assert!(run(ios.clone(), json!("a"), None).is_empty());
    assert_eq!(
        run(ios, json!(4), None),
        [
            "spec.topology.variables[x].value: Invalid value: 4: failed rule: self == 'a' || self == 3"
        ]
    );
}

#[test]
fn transition_rules_need_an_old_value() {
    let s = rules(json!([{"rule": "self >= oldSelf", "message": "no decrease"}]));
    assert!(run(s.clone(), json!(1), None).is_empty());
    assert_eq!(
        run(s.clone(), json!(1), Some(json!(2))),
        ["spec.topology.variables[x].value: Invalid value: 1: no decrease"]
    );
    assert!(run(s, json!(3), Some(json!(2))).is_empty());
    let opt = rules(
        json!([{"rule": "!oldSelf.hasValue() || self >= oldSelf.value()", "optionalOldSelf": true}]),
    );
    assert_eq!(run(opt.clone(), json!(1), None), Vec::<String>::new());
    assert_eq!(
        run(opt, json!(1), Some(json!(2))),
        [
            "spec.topology.variables[x].value: Invalid value: 1: failed rule: !oldSelf.hasValue() || self >= oldSelf.value()"
        ]
    );
}

#[test]
fn evaluation_errors() {
    let s = json!({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}},
        "x-kubernetes-validations": [
            {"rule": "self.a == 'x'"},
            {"rule": "self.b / 0 == 1", "message": "div"},
            {"rule": "[1, 2].sortBy(x, x) == [1, 2]"}]});
    assert_eq!(
        run(s, json!({"b": 1}), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"object\": no such key: a evaluating rule: self.a == 'x'",
            "spec.topology.variables[x].value: Invalid value: \"object\": division by zero evaluating rule: div",
            "spec.topology.variables[x].value: Invalid value: \"object\": no such attribute: 'sortBy' is not supported by topoplan's CEL evaluator evaluating rule: [1, 2].sortBy(x, x) == [1, 2]",
        ]
    );
    let overload = rules(json!([{"rule": "dyn(self) + 'a' == 'b'"}]));
    assert_eq!(
        run(overload, json!(1), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"integer\": 'no such overload': call arguments did not match a supported operator, function or macro signature for rule: dyn(self) + 'a' == 'b'"
        ]
    );
}

#[test]
fn compile_errors_at_runtime() {
    assert_eq!(
        run(rules(json!([{"rule": "self +"}])), json!(1), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"integer\": rule compile error: compilation failed: ERROR: <input>:1:7: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self +\n | ......^"
        ]
    );
}

#[test]
fn runtime_cost_limits() {
    let items: Vec<i64> = (0..1500).collect();
    let s = json!({"type": "array", "items": {"type": "integer"},
        "x-kubernetes-validations": [{"rule": "self.all(x, self.all(y, x != y || x == y))"}]});
    assert_eq!(
        run(s, json!(items), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"array\": 'operation cancelled: actual cost limit exceeded': no further validation rules will be run due to call cost exceeds limit for rule: self.all(x, self.all(y, x != y || x == y))"
        ]
    );
    let s = rules(json!([{"rule": "self > 0"}, {"rule": "self > 1"}]));
    let errs: Vec<String> = validate(&s, &json!(5), None, &value_path(), 3)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(
        errs,
        [
            "spec.topology.variables[x].value: Invalid value: \"integer\": validation failed due to running out of cost budget, no further validation rules will be run"
        ]
    );
}

#[test]
fn libraries() {
    let cases = [
        (
            "string",
            "'a,b'.split(',').size() == 2 && 'Abc'.lowerAscii() == 'abc'",
        ),
        ("string", "'%s-%d'.format(['a', dyn(1)]) == 'a-1'"),
        (
            "string",
            "self.matches('^[a-z]+$') && self.find('[a-z]') == 'a'",
        ),
        ("string", "quantity('1Gi').isGreaterThan(quantity('1Mi'))"),
        (
            "string",
            "isURL('https://x.io:8080/p') && url('https://x.io:8080/p').getPort() == '8080'",
        ),
        (
            "string",
            "isCIDR('10.0.0.0/8') && cidr('10.0.0.0/8').containsIP(ip('10.1.2.3')) && ip('::1').family() == 6",
        ),
        (
            "string",
            "isSemver('1.2.3') && semver('1.2.3').isLessThan(semver('1.10.0'))",
        ),
        (
            "string",
            "!format.dns1123Label().validate('abc').hasValue()",
        ),
        (
            "string",
            "[3, 1, 2].sort() == [1, 2, 3] && [1, 2, 3].isSorted() && [1, 2].sum() == 3",
        ),
        (
            "string",
            "sets.contains([1, 2], [1]) && [[1], [2]].flatten() == [1, 2]",
        ),
        ("string", "size('héllo') == 5"),
        (
            "string",
            "self.startsWith('a') && self.endsWith('c') && self.contains('b')",
        ),
    ];
    for (t, rule) in cases {
        let s = json!({"type": t, "x-kubernetes-validations": [{"rule": rule}]});
        assert!(
            check(s.clone()).is_empty(),
            "{rule}: {:?}",
            check(s.clone())
        );
        assert_eq!(run(s, json!("abc"), None), Vec::<String>::new(), "{rule}");
    }
}

#[test]
fn kubernetes_lacks_what_kube_cel_adds() {
    let s = json!({"type": "string", "x-kubernetes-validations": [{"rule": "isIPv4(self)"}]});
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"isIPv4(self)\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:7: undeclared reference to 'isIPv4' (in container '')\n | isIPv4(self)\n | ......^"
        ]
    );
    let s = json!({"type": "integer", "x-kubernetes-validations": [{"rule": "cel.bind(x, self, x > 0)"}]});
    assert_eq!(
        check(s),
        [
            "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations[0].rule: Invalid value: {\"Rule\":\"cel.bind(x, self, x \\u003e 0)\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}: compilation failed: ERROR: <input>:1:1: undeclared reference to 'cel' (in container '')\n | cel.bind(x, self, x > 0)\n | ^\nERROR: <input>:1:9: undeclared reference to 'bind' (in container '')\n | cel.bind(x, self, x > 0)\n | ........^\nERROR: <input>:1:10: undeclared reference to 'x' (in container '')\n | cel.bind(x, self, x > 0)\n | .........^\nERROR: <input>:1:19: undeclared reference to 'x' (in container '')\n | cel.bind(x, self, x > 0)\n | ..................^"
        ]
    );
}

#[test]
fn keywords_are_field_names_as_written_or_escaped() {
    // Kubernetes 1.32 compiles `self.if` (apiextensions-apiserver's own test case), and
    // `self.__if__` still works; a map's key is never escaped.
    let s = json!({"type": "object", "properties": {
        "if": {"type": "integer"},
        "import": {"type": "string"},
        "namespace": {"type": "string"},
        "labels": {"type": "object", "additionalProperties": {"type": "string"}}},
        "x-kubernetes-validations": [
            {"rule": "self.if == 10"},
            {"rule": "self.__if__ == 10"},
            {"rule": "!has(self.import) || self.import != self.namespace"},
            {"rule": "!has(self.labels.namespace) || self.labels.namespace == self.namespace"}]});
    // All four compile. The last two are refused for their cost, as the API server refuses them
    // (testdata/golden/cel/cost.jsonl has this schema): it declares keyword fields only under
    // their escaped names, so its estimator cannot size `self.import` or `self.namespace`.
    let errs = check(s.clone());
    assert_eq!(errs.len(), 5, "{errs:#?}");
    assert!(
        errs.iter().all(|e| e.contains("cost")
            && !e.contains("validations[0]")
            && !e.contains("validations[1]")),
        "{errs:#?}"
    );
    let ok = json!({"if": 10, "import": "a", "namespace": "b", "labels": {"namespace": "b"}});
    assert!(
        run(s.clone(), ok.clone(), None).is_empty(),
        "{:?}",
        run(s.clone(), ok, None)
    );
    assert_eq!(
        run(
            s,
            json!({"if": 9, "import": "b", "namespace": "b", "labels": {"namespace": "c"}}),
            None
        ),
        [
            "spec.topology.variables[x].value: Invalid value: failed rule: self.if == 10",
            "spec.topology.variables[x].value: Invalid value: failed rule: self.__if__ == 10",
            "spec.topology.variables[x].value: Invalid value: failed rule: !has(self.import) || self.import != self.namespace",
            "spec.topology.variables[x].value: Invalid value: failed rule: !has(self.labels.namespace) || self.labels.namespace == self.namespace",
        ]
    );
    // `true`, `false`, `null` and `in` stay escaped only (the grammar has tokens for them).
    let s = json!({"type": "object", "properties": {"in": {"type": "integer"}},
        "x-kubernetes-validations": [{"rule": "self.__in__ == 1"}]});
    assert!(check(s).is_empty());
}

#[test]
fn formats_and_escaped_names() {
    let s = json!({"type": "object", "properties": {
        "created-at": {"type": "string", "format": "date-time"},
        "timeout": {"type": "string", "format": "duration"}},
        "x-kubernetes-validations": [
            {"rule": "self.created__dash__at < timestamp('2030-01-01T00:00:00Z')"},
            {"rule": "self.timeout <= duration('1h')"}]});
    assert!(check(s.clone()).is_empty(), "{:?}", check(s.clone()));
    assert!(
        run(
            s.clone(),
            json!({"created-at": "2024-01-01T00:00:00Z", "timeout": "30m"}),
            None
        )
        .is_empty()
    );
    assert_eq!(
        run(
            s,
            json!({"created-at": "2024-01-01T00:00:00Z", "timeout": "2h"}),
            None
        ),
        [
            "spec.topology.variables[x].value: Invalid value: failed rule: self.timeout <= duration('1h')"
        ]
    );
}

#[test]
fn deep_rules_do_not_crash() {
    let deep = format!("{}true{}", "[".repeat(5000), "]".repeat(5000));
    let errs = check(rules(json!([{"rule": deep}])));
    assert_eq!(errs.len(), 1);
    assert!(errs[0].contains("expression recursion limit exceeded: 90"));
    let chain = format!("self{}", " + 1".repeat(3000));
    let errs = run(rules(json!([{"rule": chain}])), json!(1), None);
    assert!(
        errs[0].contains("expression recursion limit exceeded: 1000"),
        "{errs:?}"
    );
    // The `cel` crate panics on these; they become errors.
    let errs = run(
        rules(json!([{"rule": "-(-9223372036854775808) > 0"}])),
        json!(1),
        None,
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|i| json!(i)),
            (-1e6f64..1e6).prop_map(|f| json!(f)),
            "[a-z\\-é]{0,6}".prop_map(Value::String),
        ];
        leaf.prop_recursive(3, 16, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z]{1,3}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Fragments that make up plausible (and implausible) rules.
    fn rule() -> impl Strategy<Value = String> {
        let atoms = prop_oneof![
            Just("self".to_string()),
            Just("oldSelf".to_string()),
            Just("self.a".to_string()),
            Just("self[0]".to_string()),
            Just("1".to_string()),
            Just("-9223372036854775808".to_string()),
            Just("1.5".to_string()),
            Just("'s'".to_string()),
            Just("[1, 2]".to_string()),
            Just("{'a': 1}".to_string()),
            Just("null".to_string()),
            Just("size(self)".to_string()),
            Just("self.all(x, x)".to_string()),
            Just("self.map(x, x + 1)".to_string()),
            Just("'abc'.substring(1)".to_string()),
            Just("self.matches('[')".to_string()),
            "[a-z(\\[{'\".!?:+*/%<>=&| -]{0,12}".prop_map(|s| s),
        ];
        let ops = prop_oneof![
            Just(" + "),
            Just(" - "),
            Just(" * "),
            Just(" / "),
            Just(" % "),
            Just(" == "),
            Just(" < "),
            Just(" && "),
            Just(" || "),
            Just(" in "),
            Just(""),
        ];
        (
            prop::collection::vec((atoms, ops), 1..6),
            0usize..120,
            any::<bool>(),
        )
            .prop_map(|(parts, depth, unary)| {
                let body: String = parts.into_iter().map(|(a, o)| format!("{a}{o}")).collect();
                let (open, close) = if unary { ("-", "") } else { ("(", ")") };
                format!("{}{body}{}", open.repeat(depth), close.repeat(depth))
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        #[test]
        fn arbitrary_rules_and_values(rule in rule(), v in json_value(), old in json_value(),
                                      typed in any::<bool>()) {
            let schema = if typed {
                json!({"type": "object", "properties": {"a": {"type": "integer"}},
                       "x-kubernetes-validations": [{"rule": rule, "messageExpression": rule}]})
            } else {
                json!({"x-kubernetes-int-or-string": true,
                       "x-kubernetes-validations": [{"rule": rule}]})
            };
            let _ = check_rules(&schema, &base(), Some(&schema));
            let _ = validate(&schema, &v, Some(&old), &value_path(), RUNTIME_CEL_COST_BUDGET);
        }

        #[test]
        fn arbitrary_text(rule in "\\PC{0,200}") {
            let schema = json!({"type": "string", "x-kubernetes-validations": [{"rule": rule}]});
            let _ = check_rules(&schema, &base(), None);
            let _ = validate(&schema, &json!("x"), None, &value_path(), RUNTIME_CEL_COST_BUDGET);
        }
    }
}

#[test]
fn type_values_and_the_int_or_string_idiom() {
    let ios = json!({"x-kubernetes-int-or-string": true, "x-kubernetes-validations": [
        {"rule": "type(self) == int ? self >= 0 : self.endsWith('%')"},
        {"rule": "type(self) != string || string(type(self)) == 'x'"}]});
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    assert_eq!(
        check(ios.clone()),
        [format!(
            "{p}[1].rule: Invalid value: {{\"Rule\":\"type(self) != string || string(type(self)) == 'x'\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:31: found no matching overload for 'string' applied to '(type(dyn))'\n | type(self) != string || string(type(self)) == 'x'\n | ..............................^"
        )]
    );
    let idiom = json!({"x-kubernetes-int-or-string": true, "x-kubernetes-validations": [
        {"rule": "type(self) == int ? self >= 0 : self.endsWith('%')"}]});
    assert!(check(idiom.clone()).is_empty());
    assert!(run(idiom.clone(), json!(5), None).is_empty());
    assert!(run(idiom.clone(), json!("50%"), None).is_empty());
    assert_eq!(
        run(idiom.clone(), json!(-1), None),
        [
            "spec.topology.variables[x].value: Invalid value: -1: failed rule: type(self) == int ? self >= 0 : self.endsWith('%')"
        ]
    );
    assert_eq!(
        run(idiom, json!("50"), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"50\": failed rule: type(self) == int ? self >= 0 : self.endsWith('%')"
        ]
    );
    // Every type identifier, for values typed by the schema.
    let s = json!({"type": "object", "properties": {
            "i": {"type": "integer"}, "n": {"type": "number"}, "s": {"type": "string"},
            "b": {"type": "boolean"}, "l": {"type": "array", "items": {"type": "string"}},
            "m": {"type": "object", "additionalProperties": {"type": "string"}},
            "d": {"type": "string", "format": "duration"},
            "t": {"type": "string", "format": "date-time"},
            "y": {"type": "string", "format": "byte"}},
        "x-kubernetes-validations": [
            {"rule": "type(self.i) == int && type(self.n) == double && type(self.s) == string"},
            {"rule": "type(self.b) == bool && type(self.l) == list && type(self.m) == map"},
            {"rule": "type(self) == map && type(self.y) == bytes && type(1u) == uint"},
            {"rule": "type(self.d) == google.protobuf.Duration"},
            {"rule": "type(self.t) == google.protobuf.Timestamp"},
            {"rule": "type(null) == null_type && type(type(1)) == type && type(int) == type"},
            {"rule": "type(self.i) != string && [int, string].exists(t, t == type(self.s))"},
            {"rule": "type(self.i) == type(self.n)", "message": "int is not double"}]});
    // The API server refuses the last rule for its cost (a type value has no size, see
    // testdata/golden/cel/cost.jsonl) and the one before it at compile time (a list of two type
    // literals is not homogeneous, and `t` there is no type), which topoplan does not model.
    let errs = check(s.clone());
    assert_eq!(errs.len(), 3, "{errs:#?}");
    assert!(errs[0].starts_with("spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations[7].rule: Forbidden: estimated rule cost exceeds budget"));
    assert_eq!(
        run(
            s,
            json!({"i": 1, "n": 1.5, "s": "a", "b": true, "l": ["x"], "m": {"k": "v"},
                "d": "1m", "t": "2024-01-02T03:04:05Z", "y": "aGk="}),
            None
        ),
        ["spec.topology.variables[x].value: Invalid value: int is not double"]
    );
    // Type values are not numbers, and have no fields.
    let bad = rules(json!([{"rule": "type(self) == 1"}, {"rule": "int.x == 1"}]));
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    assert_eq!(
        check(bad),
        [
            format!(
                "{p}[0].rule: Invalid value: {{\"Rule\":\"type(self) == 1\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:12: found no matching overload for '_==_' applied to '(type(int), int)'\n | type(self) == 1\n | ...........^"
            ),
            format!(
                "{p}[1].rule: Invalid value: {{\"Rule\":\"int.x == 1\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:4: type 'type(int)' does not support field selection\n | int.x == 1\n | ...^"
            ),
        ]
    );
}

#[test]
fn cross_type_numeric_comparisons() {
    // Ordering across int, uint and double compiles (Kubernetes 1.28+); equality of literals
    // of different types does not, but runs as heterogeneous equality.
    let s = rules(json!([
        {"rule": "self < 1.5 && self > 0.5 && self >= 1u && self <= 1.0"},
        {"rule": "dyn(self) == 1.0 && dyn(self) != 1.5 && dyn(self) in [1.0] && [dyn(self)] == [1u]"},
        {"rule": "dyn({'a': self}) == {'a': 1.0} && dyn(self) in {1u: 'x'}"}]));
    assert!(check(s.clone()).is_empty());
    assert!(run(s.clone(), json!(1), None).is_empty());
    assert_eq!(run(s, json!(2), None).len(), 3);
    let num = json!({"type": "number", "x-kubernetes-validations": [
        {"rule": "self > 1 && self < 2u"}]});
    assert!(check(num.clone()).is_empty());
    assert!(run(num.clone(), json!(1.5), None).is_empty());
    assert_eq!(
        run(num, json!(2), None),
        ["spec.topology.variables[x].value: Invalid value: 2: failed rule: self > 1 && self < 2u"]
    );
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    assert_eq!(
        check(rules(json!([{"rule": "self == 1.0"}]))),
        [format!(
            "{p}[0].rule: Invalid value: {{\"Rule\":\"self == 1.0\",\"Message\":\"\",\"MessageExpression\":\"\",\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '(int, double)'\n | self == 1.0\n | .....^"
        )]
    );
    // NaN cannot be ordered.
    let nan = json!({"type": "number", "x-kubernetes-validations": [{"rule": "self < 0.0 / 0.0"}]});
    assert_eq!(
        run(nan, json!(1), None),
        [
            "spec.topology.variables[x].value: Invalid value: \"number\": NaN values cannot be ordered evaluating rule: self < 0.0 / 0.0"
        ]
    );
}

#[test]
fn errors_are_absorbed_where_cel_go_absorbs_them() {
    let s = json!({"type": "array", "items": {"type": "integer"}, "x-kubernetes-validations": [
        {"rule": "self.exists(x, 10 / x > 1)"},
        {"rule": "self.all(x, 10 / x > 1)", "message": "all"},
        {"rule": "10 / self[0] == 1 || size(self) == 2"},
        {"rule": "10 / self[0] == 1 && size(self) == 3"},
        {"rule": "self.all(x, 10 / x == 1)", "message": "error"}]});
    assert_eq!(
        run(s, json!([0, 5]), None),
        [
            // An error and a true: the error.
            "spec.topology.variables[x].value: Invalid value: \"array\": division by zero evaluating rule: all",
            // An error and a false: false.
            "spec.topology.variables[x].value: Invalid value: failed rule: 10 / self[0] == 1 && size(self) == 3",
            "spec.topology.variables[x].value: Invalid value: error",
        ]
    );
}

#[test]
fn cel_crate_bugs_are_corrected() {
    let s = rules(json!([
        {"rule": "!!(self == 1)", "message": "double negation"},
        {"rule": "- -self == self && -(-self) == self"},
        {"rule": "-(-9223372036854775808) < self"},
        {"rule": "string(1e100) == '1e+100' && string(true) == 'true' && string(1.0) == '1'"},
        {"rule": "string(duration('1.5s')) == '1.5s'"},
        {"rule": "string(timestamp('2024-01-02T03:04:05.5Z')) == '2024-01-02T03:04:05.5Z'"},
        {"rule": "dyn(self).x == 1"},
        {"rule": "!has(dyn(self).x)"},
        {"rule": "dyn(self).all(x, true)"}]));
    assert!(check(s.clone()).is_empty());
    assert_eq!(
        run(s, json!(2), None),
        [
            "spec.topology.variables[x].value: Invalid value: 2: double negation",
            "spec.topology.variables[x].value: Invalid value: \"integer\": integer overflow evaluating rule: -(-9223372036854775808) < self",
            "spec.topology.variables[x].value: Invalid value: \"integer\": no such key: x evaluating rule: dyn(self).x == 1",
            "spec.topology.variables[x].value: Invalid value: \"integer\": got 'types.Int', expected iterable type evaluating rule: dyn(self).all(x, true)",
        ]
    );
}

#[test]
fn a_failing_evaluator_is_an_error_not_a_crash() {
    // A panic inside the evaluation thread used to be re-raised and abort the process.
    let r = super::with_big_stack(|| -> u8 { panic!("boom") });
    assert_eq!(r.err().as_deref(), Some("the CEL evaluator failed: boom"));
    assert_eq!(super::with_big_stack(|| 7).ok(), Some(7));
}

/// Type errors against the schema's own type, as cel-go's checker words them (the oracle's
/// `self` is dyn, so these are written from cel-go's checker: `type '%s' does not support field
/// selection`, `found no matching overload for '%s' applied to '(%s)'`), and apiextensions'
/// `cel expression must evaluate to a bool` for a rule of another type. The bad value is the
/// internal `ValidationRule` as `json.Marshal` writes it, as in Cluster API's
/// `TestClusterClassReconciler_reconcileVariables` expectations.
#[test]
fn type_errors_against_the_schema() {
    let p = "spec.variables[x].schema.openAPIV3Schema.x-kubernetes-validations";
    let bad = |rule: &str, msg: &str| {
        format!(
            "{{\"Rule\":{},\"Message\":\"\",\"MessageExpression\":{},\"Reason\":null,\"FieldPath\":\"\",\"OptionalOldSelf\":null}}",
            crate::go::json::marshal(&json!(rule)),
            crate::go::json::marshal(&json!(msg))
        )
    };
    let one = |ty: &str, rule: &str| {
        check(json!({"type": ty, "x-kubernetes-validations": [{"rule": rule}]}))
    };
    assert_eq!(
        one("string", "self.foo == 'x'"),
        [format!(
            "{p}[0].rule: Invalid value: {}: compilation failed: ERROR: <input>:1:5: type 'string' does not support field selection\n | self.foo == 'x'\n | ....^",
            bad("self.foo == 'x'", "")
        )]
    );
    assert_eq!(
        one("integer", "self + 1"),
        [format!(
            "{p}[0].rule: Invalid value: {}: cel expression must evaluate to a bool",
            bad("self + 1", "")
        )]
    );
    assert_eq!(
        one("string", "size(self) == 'a'"),
        [format!(
            "{p}[0].rule: Invalid value: {}: compilation failed: ERROR: <input>:1:12: found no matching overload for '_==_' applied to '(int, string)'\n | size(self) == 'a'\n | ...........^",
            bad("size(self) == 'a'", "")
        )]
    );
    assert_eq!(
        check(
            json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self > 0", "messageExpression": "self + 1"}]})
        ),
        [format!(
            "{p}[0].messageExpression: Invalid value: {}: messageExpression must evaluate to a string",
            bad("self > 0", "self + 1")
        )]
    );
    // Every field of the rule shows, in Go's declaration order, `Reason` once set.
    assert_eq!(
        check(
            json!({"type": "integer", "x-kubernetes-validations": [{"rule": "self.a", "message": "m<", "reason": "FieldValueForbidden"}]})
        ),
        [format!(
            "{p}[0].rule: Invalid value: {{\"Rule\":\"self.a\",\"Message\":\"m\\u003c\",\"MessageExpression\":\"\",\"Reason\":\"FieldValueForbidden\",\"FieldPath\":\"\",\"OptionalOldSelf\":null}}: compilation failed: ERROR: <input>:1:5: type 'int' does not support field selection\n | self.a\n | ....^"
        )]
    );
}
