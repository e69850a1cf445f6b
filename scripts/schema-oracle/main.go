// schema-oracle: reads JSON lines {"schema": <Cluster API variable schema>, "value": <any>} and
// prints, per input line, one JSON line with the errors kube-openapi's schema validator reports
// for the value. It is the reference for topoplan's golden vectors
// (testdata/golden/schema/value.jsonl); build it with build.sh.
//
// The schema is turned into a kube-openapi spec.Schema the way the API server does for a CRD:
// x-kubernetes-int-or-string becomes the type list [integer, string], and formats the API server
// does not support are dropped (apiextensions' StripUnsupportedFormats rules, 1.34 list). The value
// is decoded like k8s.io/apimachinery/pkg/util/json: integers become int64, other numbers float64.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

var keptStringFormats = map[string]bool{}

func init() {
	for _, f := range strings.Fields("bsonobjectid uri email hostname ipv4 ipv6 cidr mac uuid uuid3 uuid4 uuid5 " +
		"isbn isbn10 isbn13 creditcard ssn hexcolor rgbcolor byte password date duration datetime k8s-short-name k8s-long-name") {
		keptStringFormats[strings.ReplaceAll(f, "-", "")] = true
	}
}

// prepare rewrites a raw schema map in place as the API server's conversion would.
func prepare(s map[string]interface{}) {
	if b, ok := s["x-kubernetes-int-or-string"].(bool); ok && b {
		s["type"] = []interface{}{"integer", "string"}
	}
	if f, ok := s["format"].(string); ok && f != "" {
		t := ""
		switch tt := s["type"].(type) {
		case string:
			t = tt
		case []interface{}:
			if len(tt) == 1 {
				t, _ = tt[0].(string)
			}
		}
		keep := false
		switch t {
		case "", "string":
			keep = keptStringFormats[strings.ReplaceAll(f, "-", "")]
		case "integer":
			keep = f == "int32" || f == "int64"
		case "number":
			keep = f == "float" || f == "double"
		}
		if !keep {
			delete(s, "format")
		}
	}
	for _, k := range []string{"items", "additionalProperties", "not"} {
		if sub, ok := s[k].(map[string]interface{}); ok {
			prepare(sub)
		}
	}
	if props, ok := s["properties"].(map[string]interface{}); ok {
		for _, p := range props {
			if sub, ok := p.(map[string]interface{}); ok {
				prepare(sub)
			}
		}
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if list, ok := s[k].([]interface{}); ok {
			for _, p := range list {
				if sub, ok := p.(map[string]interface{}); ok {
					prepare(sub)
				}
			}
		}
	}
}

// decodeInt64 decodes JSON with integers as int64 and other numbers as float64.
func decodeInt64(raw []byte) (interface{}, error) {
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v)
}

func convertNumbers(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		return t.Float64()
	case map[string]interface{}:
		for k, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[k] = c
		}
	case []interface{}:
		for i, e := range t {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
	}
	return v, nil
}

// fixEnums replaces every Enum of s by the int64-decoded entries of raw, dropping nulls.
func fixEnums(s *spec.Schema, raw interface{}) {
	m, ok := raw.(map[string]interface{})
	if s == nil || !ok {
		return
	}
	if list, ok := m["enum"].([]interface{}); ok {
		s.Enum = nil
		for _, e := range list {
			if e != nil {
				s.Enum = append(s.Enum, e)
			}
		}
	}
	if props, ok := m["properties"].(map[string]interface{}); ok {
		for k, p := range props {
			sub := s.Properties[k]
			fixEnums(&sub, p)
			s.Properties[k] = sub
		}
	}
	if s.Items != nil {
		fixEnums(s.Items.Schema, m["items"])
	}
	if s.AdditionalProperties != nil {
		fixEnums(s.AdditionalProperties.Schema, m["additionalProperties"])
	}
	fixEnums(s.Not, m["not"])
	for k, list := range map[string][]spec.Schema{"allOf": s.AllOf, "anyOf": s.AnyOf, "oneOf": s.OneOf} {
		raws, _ := m[k].([]interface{})
		for i := range list {
			if i < len(raws) {
				fixEnums(&list[i], raws[i])
			}
		}
	}
}

type outErr struct {
	Code   int32         `json:"code"`
	Name   string        `json:"name,omitempty"`
	In     string        `json:"in,omitempty"`
	Msg    string        `json:"msg"`
	Value  interface{}   `json:"value,omitempty"`
	VType  string        `json:"vtype,omitempty"`
	Valid  interface{}   `json:"valid,omitempty"`
	Values []interface{} `json:"values,omitempty"`
	Plain  bool          `json:"plain,omitempty"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<26)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := in.Bytes()
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		var c struct {
			Schema json.RawMessage `json:"schema"`
			Value  json.RawMessage `json:"value"`
		}
		res := map[string]interface{}{}
		if err := json.Unmarshal(line, &c); err != nil {
			res["fatal"] = err.Error()
			emit(out, res)
			continue
		}
		var schemaMap map[string]interface{}
		if err := json.Unmarshal(c.Schema, &schemaMap); err != nil {
			res["fatal"] = "schema: " + err.Error()
			emit(out, res)
			continue
		}
		prepare(schemaMap)
		sb, _ := json.Marshal(schemaMap)
		s := &spec.Schema{}
		if err := json.Unmarshal(sb, s); err != nil {
			res["fatal"] = "schema: " + err.Error()
			emit(out, res)
			continue
		}
		// Enum entries reach the validator decoded with int64 integers (apiextensions JSON),
		// without null entries (Cluster API's conversion skips them).
		rawSchema, err := decodeInt64(c.Schema)
		if err != nil {
			res["fatal"] = "schema: " + err.Error()
			emit(out, res)
			continue
		}
		fixEnums(s, rawSchema)
		var v interface{}
		if len(c.Value) > 0 {
			var err error
			if v, err = decodeInt64(c.Value); err != nil {
				res["fatal"] = "value: " + err.Error()
				emit(out, res)
				continue
			}
		}
		r := validate.NewSchemaValidator(s, nil, "", strfmt.Default).Validate(v)
		errs := []outErr{}
		for _, e := range r.Errors {
			switch t := e.(type) {
			case *errors.Validation:
				o := outErr{Code: t.Code(), Name: t.Name, In: t.In, Msg: t.Error(), Valid: t.Valid, Values: t.Values}
				if t.Value != nil {
					o.Value = t.Value
					o.VType = fmt.Sprintf("%T", t.Value)
				}
				errs = append(errs, o)
			default:
				code := int32(0)
				if ce, ok := e.(errors.Error); ok {
					code = ce.Code()
				}
				errs = append(errs, outErr{Code: code, Msg: e.Error(), Plain: true})
			}
		}
		res["errors"] = errs
		emit(out, res)
	}
}

func emit(w *bufio.Writer, v interface{}) {
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf(`{"fatal":%q}`, err.Error()))
	}
	w.Write(b)
	w.WriteByte('\n')
}
