// crd-oracle: reads JSON lines {"schema": <CRD openAPIV3Schema>, "object": <custom resource>} and
// prints, per input line, one JSON line with what the API server's create path does to the object
// (k8s.io/apiextensions-apiserver v0.34.9, see build.sh):
//
//   - "pruned": the unknown field paths, in the order unstructuredSchemaCoercer.apply collects them
//     (root ObjectMeta decoding, structural pruning at the resource root, embedded ObjectMeta
//     coercion), each group sorted;
//   - "rootMetaError" / "coerceError": the error that fails the decoding, if any (a malformed
//     ObjectMeta at the root / at an embedded resource);
//   - "object": the object after pruning, PruneNonNullableNullsWithoutDefaults, ObjectMeta
//     coercion and structural defaulting;
//   - "errors": kube-openapi's raw errors for the defaulted object against the schema as
//     NewSchemaValidator converts it (the same encoding as scripts/schema-oracle);
//   - "embedded": objectmeta.Validate's field errors (embedded apiVersion, kind, metadata);
//   - "lists": listtype.ValidateListSetsAndMaps's field errors.
//
// Field errors are written as {type, field, value, vtype, detail}: this apimachinery (Debian's
// 0.32) prints a map bad value with %#v where newer ones print JSON, so the text is compared
// after the Rust side renders the parts.
//
// CEL rules are not evaluated: Debian has no cel-go recent enough for k8s.io/apiserver's CEL.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	schemaobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kube-openapi/pkg/validation/errors"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

// The formats StripUnsupportedFormatsPostProcessor keeps for strings (1.34), without dashes.
var keptStringFormats = map[string]bool{}

func init() {
	for _, f := range strings.Fields("bsonobjectid uri email hostname ipv4 ipv6 cidr mac uuid uuid3 uuid4 uuid5 " +
		"isbn isbn10 isbn13 creditcard ssn hexcolor rgbcolor byte password date duration datetime k8s-short-name k8s-long-name") {
		keptStringFormats[strings.ReplaceAll(f, "-", "")] = true
	}
}

// keptFormat: the format after StripUnsupportedFormatsPostProcessor for a node of this type.
func keptFormat(types []string, f string) string {
	t := ""
	if len(types) == 1 {
		t = types[0]
	}
	switch t {
	case "", "string":
		if keptStringFormats[strings.ReplaceAll(f, "-", "")] {
			return f
		}
	case "integer":
		if f == "int32" || f == "int64" {
			return f
		}
	case "number":
		if f == "float" || f == "double" {
			return f
		}
	}
	return ""
}

// toSpec turns the internal schema into the kube-openapi schema the custom resource validator
// uses (what ConvertJSONSchemaPropsWithPostProcess does for the keywords a CRD may use).
func toSpec(in *apiextensions.JSONSchemaProps) *spec.Schema {
	if in == nil {
		return nil
	}
	out := &spec.Schema{}
	if in.Type != "" {
		out.Type = spec.StringOrArray{in.Type}
	}
	if in.XIntOrString {
		out.Type = spec.StringOrArray{"integer", "string"}
	}
	out.Nullable = in.Nullable
	out.Format = keptFormat(out.Type, in.Format)
	out.Maximum, out.ExclusiveMaximum = in.Maximum, in.ExclusiveMaximum
	out.Minimum, out.ExclusiveMinimum = in.Minimum, in.ExclusiveMinimum
	out.MaxLength, out.MinLength, out.Pattern = in.MaxLength, in.MinLength, in.Pattern
	out.MaxItems, out.MinItems, out.UniqueItems = in.MaxItems, in.MinItems, in.UniqueItems
	out.MultipleOf = in.MultipleOf
	out.MaxProperties, out.MinProperties, out.Required = in.MaxProperties, in.MinProperties, in.Required
	if in.Enum != nil {
		out.Enum = make([]interface{}, len(in.Enum))
		for i, e := range in.Enum {
			out.Enum[i] = e
		}
	}
	for _, pair := range []struct {
		in  []apiextensions.JSONSchemaProps
		out *[]spec.Schema
	}{{in.AllOf, &out.AllOf}, {in.AnyOf, &out.AnyOf}, {in.OneOf, &out.OneOf}} {
		for i := range pair.in {
			*pair.out = append(*pair.out, *toSpec(&pair.in[i]))
		}
	}
	out.Not = toSpec(in.Not)
	if in.Properties != nil {
		out.Properties = map[string]spec.Schema{}
		for k, p := range in.Properties {
			p := p
			out.Properties[k] = *toSpec(&p)
		}
	}
	if in.AdditionalProperties != nil {
		out.AdditionalProperties = &spec.SchemaOrBool{Allows: in.AdditionalProperties.Allows, Schema: toSpec(in.AdditionalProperties.Schema)}
	}
	if in.Items != nil {
		out.Items = &spec.SchemaOrArray{Schema: toSpec(in.Items.Schema)}
	}
	return out
}

type outErr struct {
	Code   int32         `json:"code"`
	Name   string        `json:"name,omitempty"`
	Msg    string        `json:"msg"`
	Value  interface{}   `json:"value,omitempty"`
	VType  string        `json:"vtype,omitempty"`
	Valid  interface{}   `json:"valid,omitempty"`
	Values []interface{} `json:"values,omitempty"`
	Plain  bool          `json:"plain,omitempty"`
}

type outField struct {
	Type   string      `json:"type"`
	Field  string      `json:"field"`
	Value  interface{} `json:"value"`
	VType  string      `json:"vtype"`
	Detail string      `json:"detail"`
}

func fieldErrs(errs field.ErrorList) []outField {
	out := []outField{}
	for _, e := range errs {
		o := outField{Type: string(e.Type), Field: e.Field, Detail: e.Detail, VType: fmt.Sprintf("%T", e.BadValue)}
		if _, omit := e.BadValue.(field.OmitValueType); !omit {
			o.Value = e.BadValue
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		a, _ := json.Marshal(out[i])
		b, _ := json.Marshal(out[j])
		return string(a) < string(b)
	})
	return out
}

func run(line []byte) map[string]interface{} {
	res := map[string]interface{}{}
	var c struct {
		Schema json.RawMessage `json:"schema"`
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(line, &c); err != nil {
		return map[string]interface{}{"fatal": err.Error()}
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(c.Schema, &v1); err != nil {
		return map[string]interface{}{"fatal": "schema: " + err.Error()}
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &internal, nil); err != nil {
		return map[string]interface{}{"fatal": "convert: " + err.Error()}
	}
	s, err := structuralschema.NewStructural(&internal)
	if err != nil {
		return map[string]interface{}{"fatal": "structural: " + err.Error()}
	}
	var obj map[string]interface{}
	if err := utiljson.Unmarshal(c.Object, &obj); err != nil {
		return map[string]interface{}{"fatal": "object: " + err.Error()}
	}

	// unstructuredSchemaCoercer.apply, with unknown field paths returned (fieldValidation=Warn).
	pruned := []string{}
	meta, foundMeta, metaUnknown, err := schemaobjectmeta.GetObjectMetaWithOptions(obj, schemaobjectmeta.ObjectMetaOptions{ReturnUnknownFieldPaths: true})
	if err != nil {
		res["rootMetaError"] = err.Error()
		return res
	}
	pruned = append(pruned, metaUnknown...)
	pruned = append(pruned, structuralpruning.PruneWithOptions(obj, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})...)
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(obj, s)
	ferr, paths := schemaobjectmeta.CoerceWithOptions(nil, obj, s, false, schemaobjectmeta.CoerceOptions{ReturnUnknownFieldPaths: true})
	if ferr != nil {
		res["coerceError"] = fieldErrs(field.ErrorList{ferr})
		return res
	}
	pruned = append(pruned, paths...)
	if foundMeta {
		if err := schemaobjectmeta.SetObjectMeta(obj, meta); err != nil {
			res["coerceError"] = "set metadata: " + err.Error()
			return res
		}
	}
	res["pruned"] = pruned

	// The versioning codec's defaulter (unstructuredDefaulter).
	structuraldefaulting.Default(obj, s)
	res["object"] = obj

	// customResourceStrategy.Validate, without ObjectMeta, scale and CEL.
	r := validate.NewSchemaValidator(toSpec(&internal), nil, "", strfmt.Default).Validate(obj)
	errs := []outErr{}
	for _, e := range r.Errors {
		switch t := e.(type) {
		case *errors.Validation:
			o := outErr{Code: t.Code(), Name: t.Name, Msg: t.Error(), Valid: t.Valid, Values: t.Values}
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
	res["embedded"] = fieldErrs(schemaobjectmeta.Validate(nil, obj, s, false))
	res["lists"] = fieldErrs(listtype.ValidateListSetsAndMaps(nil, s, obj))
	return res
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
		b, err := json.Marshal(run(line))
		if err != nil {
			b = []byte(fmt.Sprintf(`{"fatal":%q}`, err.Error()))
		}
		out.Write(b)
		out.WriteByte('\n')
	}
}
