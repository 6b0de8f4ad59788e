module github.com/spica-search/spica/interop

go 1.24

replace github.com/spica-search/spica => ../

require (
	github.com/google/go-cmp v0.7.0
	github.com/spica-search/spica v0.0.0-00010101000000-000000000000
	gopkg.in/yaml.v2 v2.4.0
	gopkg.in/yaml.v3 v3.0.1
	sigs.k8s.io/yaml v1.6.0
)

require go.yaml.in/yaml/v2 v2.4.2 // indirect
