package k8s

import (
	"context"
	"os"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"sigs.k8s.io/yaml"
)

// apiServer validates Search objects as the API server's create path does:
// structural defaulting, the OpenAPI schema, list types, then CEL.
type apiServer struct {
	ss  *structuralschema.Structural
	sv  validation.SchemaValidator
	cel *cel.Validator
}

func newAPIServer(t *testing.T) *apiServer {
	t.Helper()
	data, err := os.ReadFile(crdDir + "/spica.example.com_searches.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatal(err)
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
		t.Fatal(err)
	}
	ss, err := structuralschema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	sv, _, err := validation.NewSchemaValidator(&internal)
	if err != nil {
		t.Fatal(err)
	}
	return &apiServer{ss: ss, sv: sv, cel: cel.NewValidator(ss, true, celconfig.PerCallLimit)}
}

// create returns the errors the API server gives for a Search whose goal is
// the JSON document goal ("" for no goal). The document is decoded as the
// API server decodes a custom resource's JSON, integers as int64 and other
// numbers as float64.
func (a *apiServer) create(t *testing.T, goal string) field.ErrorList {
	t.Helper()
	spec := map[string]any{}
	if goal != "" {
		var g any
		if err := utiljson.Unmarshal([]byte(goal), &g); err != nil {
			t.Fatalf("corpus goal %s: %v", goal, err)
		}
		spec["goal"] = g
	}
	obj := map[string]any{"apiVersion": "spica.example.com/v1alpha1", "kind": "Search",
		"metadata": map[string]any{"name": "s"}, "spec": spec}
	structuraldefaulting.Default(obj, a.ss)
	errs := validation.ValidateCustomResource(nil, obj, a.sv)
	errs = append(errs, listtype.ValidateListSetsAndMaps(nil, a.ss, obj)...)
	if len(errs) > 0 {
		return errs
	}
	celErrs, _ := a.cel.Validate(context.Background(), nil, a.ss, obj, nil, celconfig.RuntimeCELCostBudget)
	return celErrs
}

// TestCRDMessageForGoodputWithoutSLA is the message kubectl apply shows (the
// README quotes the second): ParseGoal's, from the rule's messageExpression.
func TestCRDMessageForGoodputWithoutSLA(t *testing.T) {
	a := newAPIServer(t)
	for goal, want := range map[string]string{
		`{"target":"goodput"}`:         "spec.goal: Invalid value: [goodput] require an SLA target (ttft_ms+itl_ms or e2e_ms)",
		`{"target":"goodput_per_gpu"}`: "spec.goal: Invalid value: [goodput_per_gpu] require an SLA target (ttft_ms+itl_ms or e2e_ms)",
		`{"target":"pareto","pareto_objectives":["goodput_per_gpu","goodput"]}`: "spec.goal: Invalid value: [goodput goodput_per_gpu] require an SLA target (ttft_ms+itl_ms or e2e_ms)",
	} {
		errs := a.create(t, goal)
		if len(errs) != 1 || errs[0].Error() != want {
			t.Errorf("goal %s: errors = %v, want one: %s", goal, errs, want)
		}
	}
}
