package v1alpha1

import (
	"github.com/spica-search/spica"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// SearchSpec is what a search is asked to do. A real operator adds its
// sweep (the engine, the parameter ranges, the workload) beside the goal.
type SearchSpec struct {
	// Goal is what the search optimizes; absent, it is the default goal,
	// maximize throughput with no SLA.
	// +optional
	// +kubebuilder:default={}
	Goal spica.OptimizationGoal `json:"goal,omitzero"`
}

// Search is a sweep of LLM-serving deployment configurations toward a goal.
//
// +kubebuilder:object:root=true
type Search struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec SearchSpec `json:"spec,omitempty"`
}

// SearchList is a list of [Search] objects.
//
// +kubebuilder:object:root=true
type SearchList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Search `json:"items"`
}
