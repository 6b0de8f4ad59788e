package k8s

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/controller-tools/pkg/crd"
	"sigs.k8s.io/controller-tools/pkg/deepcopy"
	"sigs.k8s.io/controller-tools/pkg/genall"
	"sigs.k8s.io/controller-tools/pkg/loader"
)

var update = flag.Bool("update", false, "rewrite the checked-in controller-gen output instead of comparing with it")

// crdDir is where the CRD is checked in, relative to the module root.
const crdDir = "config/crd"

// generated runs controller-gen's CRD and deepcopy generators on the sample
// API in process, as
//
//	controller-gen object crd:allowDangerousTypes=true paths=./api/... output:crd:dir=config/crd
//
// does, and returns what they write by path relative to the module root.
// allowDangerousTypes is needed because SLA bounds are float64.
func generated(t *testing.T) map[string][]byte {
	t.Helper()
	allowFloats := true
	crdGen := genall.Generator(crd.Generator{AllowDangerousTypes: &allowFloats})
	objGen := genall.Generator(deepcopy.Generator{})
	rt, err := genall.Generators{&crdGen, &objGen}.ForRoots("./api/...")
	if err != nil {
		t.Fatalf("loading ./api/...: %v", err)
	}
	out := memOutput{}
	rt.OutputRules = genall.OutputRules{Default: out}
	var errs bytes.Buffer
	rt.ErrorWriter = &errs
	if rt.Run() {
		t.Fatalf("controller-gen failed:\n%s", errs.String())
	}
	files := make(map[string][]byte, len(out))
	for path, buf := range out {
		files[path] = buf.Bytes()
	}
	return files
}

// memOutput is a genall.OutputRule that keeps what generators write in
// memory: code by its package's directory, the CRD under crdDir.
type memOutput map[string]*bytes.Buffer

func (m memOutput) Open(pkg *loader.Package, itemPath string) (io.WriteCloser, error) {
	dir := crdDir
	if pkg != nil {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		if dir, err = filepath.Rel(wd, filepath.Dir(pkg.CompiledGoFiles[0])); err != nil {
			return nil, err
		}
	}
	buf := new(bytes.Buffer)
	m[filepath.ToSlash(filepath.Join(dir, itemPath))] = buf
	return nopCloser{buf}, nil
}

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// TestGeneratedFilesUpToDate fails when the checked-in deepcopy code or CRD
// differs from what controller-gen makes of the API and of spica's markers
// today; go test -run TestGeneratedFilesUpToDate -update rewrites them.
func TestGeneratedFilesUpToDate(t *testing.T) {
	files := generated(t)
	for _, want := range []string{"api/v1alpha1/zz_generated.deepcopy.go", crdDir + "/spica.example.com_searches.yaml"} {
		if _, ok := files[want]; !ok {
			t.Errorf("controller-gen wrote no %s (wrote %d files)", want, len(files))
		}
	}
	for path, got := range files {
		if *update {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		have, err := os.ReadFile(path)
		if err != nil {
			t.Errorf("%v: controller-gen writes it; run go test -run %s -update", err, t.Name())
			continue
		}
		if !bytes.Equal(have, got) {
			t.Errorf("%s is stale: controller-gen now writes\n%s\nrun go test -run %s -update", path, got, t.Name())
		}
	}
}
