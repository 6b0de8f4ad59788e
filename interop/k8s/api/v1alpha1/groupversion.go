// Package v1alpha1 is a sample Kubernetes API that starts a search from a
// custom resource: a Search whose spec embeds [spica.OptimizationGoal]. It
// is what a user of spica writes in an operator, and the input from which
// this module's tests generate, with controller-gen's own Go packages, the
// checked-in zz_generated.deepcopy.go and CRD.
//
// +kubebuilder:object:generate=true
// +groupName=spica.example.com
package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is the API group and version of [Search].
var GroupVersion = schema.GroupVersion{Group: "spica.example.com", Version: "v1alpha1"}

// SchemeBuilder registers [Search] and [SearchList] with a scheme; AddToScheme
// applies it.
var (
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)
	AddToScheme   = SchemeBuilder.AddToScheme
)

func addKnownTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(GroupVersion, &Search{}, &SearchList{})
	metav1.AddToGroupVersion(s, GroupVersion)
	return nil
}
