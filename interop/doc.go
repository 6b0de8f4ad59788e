// Package interop holds tests, and nothing else, that run spica through
// the libraries real services use: gopkg.in/yaml.v3, gopkg.in/yaml.v2
// (whose Unmarshal merges a repeated key before spica sees it) and
// sigs.k8s.io/yaml for config files, encoding/json for records written by Python's json
// module, log/slog and flag. It is a module of its own so that spica's
// go.mod stays free of those dependencies.
package interop
