package main

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/ext"
	"k8s.io/kube-openapi/pkg/validation/spec"
	"k8s.io/kube-openapi/pkg/validation/strfmt"
	"k8s.io/kube-openapi/pkg/validation/validate"
)

func main() {
	var in struct {
		Rule   string          `json:"rule"`
		Self   json.RawMessage `json:"self"`
		Schema json.RawMessage `json:"schema"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		panic(err)
	}
	var self interface{}
	_ = json.Unmarshal(in.Self, &self)
	if in.Schema != nil {
		s := &spec.Schema{}
		if err := json.Unmarshal(in.Schema, s); err != nil {
			panic(err)
		}
		res := validate.NewSchemaValidator(s, nil, "", strfmt.Default).Validate(self)
		for _, e := range res.Errors {
			fmt.Println("schema error:", e)
		}
	}
	if in.Rule != "" {
		// The options of the Kubernetes base environment that change what the plain oracle
		// decides: cross-type numeric ordering (1.28+) and homogeneous aggregate literals.
		env, err := cel.NewEnv(cel.Variable("self", cel.DynType), ext.Strings(), ext.Lists(), ext.Sets(), ext.Encoders(), ext.Math(),
			cel.CrossTypeNumericComparisons(true), cel.HomogeneousAggregateLiterals())
		if err != nil {
			panic(err)
		}
		ast, iss := env.Compile(in.Rule)
		if iss.Err() != nil {
			fmt.Println("compile error:", iss.Err())
			os.Exit(2)
		}
		prg, err := env.Program(ast)
		if err != nil {
			panic(err)
		}
		out, _, err := prg.Eval(map[string]interface{}{"self": self})
		if err != nil {
			fmt.Println("eval error:", err)
			os.Exit(3)
		}
		fmt.Println("result:", out)
	}
}
