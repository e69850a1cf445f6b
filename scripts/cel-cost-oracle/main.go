// cel-cost-oracle: what Cluster API's ClusterClass admission finds about the CEL cost of a variable
// schema, computed by the Kubernetes libraries themselves (Debian's k8s.io/apiextensions-apiserver
// and k8s.io/apiserver, see build.sh): each x-kubernetes-validations rule is compiled by
// apiextensions' cel.Compile, which estimates its cost with cel-go's checker and Kubernetes' library
// cost estimator, the sizes coming from the schema's maxLength/maxItems/maxProperties (or what fits
// in a 3 MiB request).
//
// Reads JSON lines {"schema": <openAPIV3Schema of a variable>} and prints one JSON line per input
// (with "value" and optionally "old" in the input line, it validates the value instead: see
// validateValue):
//
//	{"rules": [{"path", "pointer", "rule", "cost", "cardinality", "messageCost"}, …], "errors": […]}
//
// "cost" is the rule's estimated maximum (CompilationResult.MaxCost), "cardinality" how many times
// it can run (the product of the enclosing maxItems/maxProperties, or, under an unbounded list or
// map, what fits in a request), "messageCost" the messageExpression's estimate. "errors" are the
// field errors about cost and compilation that Cluster API's validateClusterClassVariable reports
// for the schema at spec.variables[cpu].schema.openAPIV3Schema: the per-expression limit
// (StaticEstimatedCostLimit), then the per-schema total (StaticEstimatedCRDCostLimit). The walk is
// the one Cluster API's validateSchema does (additionalProperties, properties, items; rules after
// the node's children), with properties in name order so that the output is deterministic.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"sort"
	"strings"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apimachinery/pkg/util/version"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type ruleCost struct {
	Path        string  `json:"path"`
	Pointer     string  `json:"pointer"`
	Rule        string  `json:"rule"`
	Cost        uint64  `json:"cost"`
	Cardinality uint64  `json:"cardinality"`
	MessageCost *uint64 `json:"messageCost,omitempty"`
	Error       string  `json:"error,omitempty"`
}

type result struct {
	Rules  []ruleCost `json:"rules"`
	Errors []string   `json:"errors"`
}

// The API server's n-1 compatibility environment for new expressions (Cluster API built on the
// 1.36 libraries compiles a new rule with 1.35's).
var envSet = environment.MustBaseEnvSet(version.MajorMinor(1, 35))

func mul(cost, card uint64) uint64 {
	if cost == 0 {
		return 0
	}
	if math.MaxUint64/cost < card {
		return math.MaxUint64
	}
	return cost * card
}

// costMessage words a cost over its limit as apiextensions' and Cluster API's getCostErrorMessage.
func costMessage(name string, cost, limit uint64) string {
	f := float64(cost) / float64(limit)
	var factor string
	switch {
	case f > 100.0:
		factor = "more than 100x"
	case f < 1.5:
		factor = fmt.Sprintf("%fx", f)
	default:
		factor = fmt.Sprintf("%.1fx", f)
	}
	return fmt.Sprintf("%s exceeds budget by factor of %s (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)", name, factor)
}

type walker struct {
	res    *result
	errs   field.ErrorList
}

func (w *walker) walk(s *apiextensions.JSONSchemaProps, path *field.Path, pointer string, ctx *apiextensionsvalidation.CELSchemaContext) {
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		ap := s.AdditionalProperties.Schema
		w.walk(ap, path.Child("additionalProperties"), pointer+"/additionalProperties", ctx.ChildAdditionalPropertiesContext(ap))
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := s.Properties[n]
		w.walk(&p, path.Child("properties").Key(n), pointer+"/properties/"+strings.ReplaceAll(strings.ReplaceAll(n, "~", "~0"), "/", "~1"), ctx.ChildPropertyContext(&p, n))
	}
	if s.Items != nil && s.Items.Schema != nil {
		w.walk(s.Items.Schema, path.Child("items"), pointer+"/items", ctx.ChildItemsContext(s.Items.Schema))
	}
	if len(s.XValidations) == 0 {
		return
	}
	xv := path.Child("x-kubernetes-validations")
	// Cluster API's wording for a node the API server cannot type (a rule at the root of an array
	// variable: the root's type gets apiVersion/kind/metadata properties and loses its items).
	typeInfo, err := ctx.TypeInfo()
	if err != nil {
		w.errs = append(w.errs, field.InternalError(xv, fmt.Errorf("internal error: failed to construct type information for x-kubernetes-validations rules: %s", err)))
		return
	}
	if typeInfo == nil {
		w.errs = append(w.errs, field.InternalError(xv, fmt.Errorf("internal error: failed to retrieve type information for x-kubernetes-validations")))
		return
	}
	results, err := cel.Compile(typeInfo.Schema, typeInfo.DeclType, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
	if err != nil {
		w.errs = append(w.errs, field.InternalError(xv, err))
		return
	}
	for i, cr := range results {
		rp := xv.Index(i).Child("rule")
		card := cr.MaxCardinality
		if ctx.MaxCardinality != nil {
			card = *ctx.MaxCardinality
		}
		rc := ruleCost{Path: rp.String(), Pointer: pointer, Rule: s.XValidations[i].Rule, Cost: cr.MaxCost, Cardinality: card}
		cost := mul(cr.MaxCost, card)
		if cost > apiextensionsvalidation.StaticEstimatedCostLimit {
			w.errs = append(w.errs, field.Forbidden(rp, costMessage("estimated rule cost", cost, apiextensionsvalidation.StaticEstimatedCostLimit)))
		}
		ctx.TotalCost.ObserveExpressionCost(rp, cost)
		if cr.Error != nil {
			rc.Error = cr.Error.Detail
			if cr.Error.Type == apiservercel.ErrorTypeRequired {
				w.errs = append(w.errs, field.Required(rp, cr.Error.Detail))
			} else {
				w.errs = append(w.errs, field.Invalid(rp, s.XValidations[i], cr.Error.Detail))
			}
		}
		mp := xv.Index(i).Child("messageExpression")
		if cr.MessageExpressionError != nil {
			rc.Error = cr.MessageExpressionError.Detail
			w.errs = append(w.errs, field.Invalid(mp, s.XValidations[i], cr.MessageExpressionError.Detail))
		} else if cr.MessageExpression != nil {
			m := cr.MessageExpressionMaxCost
			rc.MessageCost = &m
			mcost := mul(m, card)
			if mcost > apiextensionsvalidation.StaticEstimatedCostLimit {
				w.errs = append(w.errs, field.Forbidden(mp, costMessage("estimated messageExpression cost", mcost, apiextensionsvalidation.StaticEstimatedCostLimit)))
			}
			ctx.TotalCost.ObserveExpressionCost(mp, mcost)
		}
		w.res.Rules = append(w.res.Rules, rc)
	}
}

// evalError is one field error of a value's validation: its path, type ("Invalid value", …) and
// detail (the bad value is Cluster API's raw variable value, so it is left out).
type evalError struct {
	Field  string `json:"field"`
	Type   string `json:"type"`
	Detail string `json:"detail"`
}

// validateValue validates a variable's value (and old value) against the schema's rules as Cluster
// API's ValidateClusterVariable does: the schema wrapped under a property variableValue,
// apiextensions' cel.NewValidator with PerCallLimit, Validate with RuntimeCELCostBudget at
// spec.topology.variables[cpu].value, and "value.variableValue" dropped from each error's path.
func validateValue(s *apiextensions.JSONSchemaProps, value, old json.RawMessage) []evalError {
	wrapped := &apiextensions.JSONSchemaProps{Type: "object", Properties: map[string]apiextensions.JSONSchemaProps{"variableValue": *s}}
	ss, err := structuralschema.NewStructural(wrapped)
	if err != nil {
		return []evalError{{Type: "input", Detail: err.Error()}}
	}
	v := cel.NewValidator(ss, false, celconfig.PerCallLimit)
	if v == nil {
		return []evalError{}
	}
	// apimachinery's json.Unmarshal, as Cluster API decodes a value: whole numbers are int64.
	var val interface{}
	if err := utiljson.Unmarshal(value, &val); err != nil {
		return []evalError{{Type: "input", Detail: err.Error()}}
	}
	var oldObj interface{}
	if len(old) > 0 {
		var o interface{}
		if err := utiljson.Unmarshal(old, &o); err != nil {
			return []evalError{{Type: "input", Detail: err.Error()}}
		}
		oldObj = map[string]interface{}{"variableValue": o}
	}
	path := field.NewPath("spec", "topology", "variables").Key("cpu").Child("value")
	errs, _ := v.Validate(context.Background(), path, ss, map[string]interface{}{"variableValue": val}, oldObj, celconfig.RuntimeCELCostBudget)
	out := []evalError{}
	for _, e := range errs {
		out = append(out, evalError{Field: strings.Replace(e.Field, "value.variableValue", "value", 1), Type: e.Type.String(), Detail: e.Detail})
	}
	return out
}

func run(line []byte) interface{} {
	var in struct {
		Schema json.RawMessage `json:"schema"`
		Value  json.RawMessage `json:"value"`
		Old    json.RawMessage `json:"old"`
	}
	res := result{Rules: []ruleCost{}, Errors: []string{}}
	if err := json.Unmarshal(line, &in); err != nil {
		res.Errors = append(res.Errors, "input: "+err.Error())
		return res
	}
	var v1 apiextensionsv1.JSONSchemaProps
	if err := json.Unmarshal(in.Schema, &v1); err != nil {
		res.Errors = append(res.Errors, "input: "+err.Error())
		return res
	}
	var s apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(&v1, &s, nil); err != nil {
		res.Errors = append(res.Errors, "input: "+err.Error())
		return res
	}
	if len(in.Value) > 0 {
		return map[string]interface{}{"errors": validateValue(&s, in.Value, in.Old)}
	}
	root := field.NewPath("spec", "variables").Key("cpu").Child("schema", "openAPIV3Schema")
	ctx := apiextensionsvalidation.RootCELContext(&s)
	w := &walker{res: &res}
	w.walk(&s, root, "", ctx)
	if ctx.TotalCost.Total > apiextensionsvalidation.StaticEstimatedCRDCostLimit {
		for _, e := range ctx.TotalCost.MostExpensive {
			w.errs = append(w.errs, field.Forbidden(e.Path, "contributed to estimated rule & messageExpression cost total exceeding cost limit for entire OpenAPIv3 schema"))
		}
		w.errs = append(w.errs, field.Forbidden(root, costMessage("x-kubernetes-validations estimated rule & messageExpression cost total for entire OpenAPIv3 schema", ctx.TotalCost.Total, apiextensionsvalidation.StaticEstimatedCRDCostLimit)))
	}
	for _, e := range w.errs {
		res.Errors = append(res.Errors, e.Error())
	}
	return res
}

func main() {
	sc := bufio.NewScanner(os.Stdin)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for sc.Scan() {
		if len(strings.TrimSpace(sc.Text())) == 0 {
			continue
		}
		if err := enc.Encode(run(sc.Bytes())); err != nil {
			panic(err)
		}
	}
	if err := sc.Err(); err != nil {
		panic(err)
	}
}
