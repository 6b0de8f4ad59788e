package k8s

import (
	"context"
	"os"
	"testing"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	crdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"sigs.k8s.io/yaml"
)

// TestCRDPassesAPIServerValidation runs the checked-in CRD through what the
// API server checks when the CRD itself is created: it defaults the v1
// object, converts it to the internal type and calls
// ValidateCustomResourceDefinition, which also compiles every CEL rule and
// checks its estimated cost against the per-rule and per-CRD limits (a rule
// too costly for the schema's bounds, e.g. a loop over a list without
// maxItems, fails here, not in a cluster).
func TestCRDPassesAPIServerValidation(t *testing.T) {
	data, err := os.ReadFile(crdDir + "/spica.example.com_searches.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var v1 apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &v1); err != nil {
		t.Fatal(err)
	}
	apiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&v1)
	var internal apiextensions.CustomResourceDefinition
	if err := apiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &internal, nil); err != nil {
		t.Fatal(err)
	}
	if errs := crdvalidation.ValidateCustomResourceDefinition(context.Background(), &internal); len(errs) > 0 {
		for _, e := range errs {
			t.Error(e)
		}
	}
}
