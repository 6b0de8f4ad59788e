package k8s

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"golang.org/x/mod/modfile"
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
	version := toolVersion(t)
	files := make(map[string][]byte, len(out))
	for path, buf := range out {
		files[path] = versionAnnotation.ReplaceAll(buf.Bytes(), []byte("${1}"+version))
	}
	return files
}

// versionAnnotation is the CRD's controller-gen.kubebuilder.io/version
// annotation. controller-gen writes there the version of the main module
// of the binary it runs in (sigs.k8s.io/controller-tools/pkg/version reads
// debug.ReadBuildInfo, unless a -ldflags -X sets it): the controller-gen
// command, built from its module, writes its release, but this test binary
// would write "(devel)", its own module's. The generator has no option to
// set it (only one, OmitToolVersion, to leave it out), so generated writes
// what the command of the release go.mod requires writes.
var versionAnnotation = regexp.MustCompile(`(?m)^(    controller-gen\.kubebuilder\.io/version: ).*$`)

// toolVersion is the version of sigs.k8s.io/controller-tools that go.mod
// requires, the one this test is built with (a test binary's build
// information lists no dependencies, so it is read from go.mod).
func toolVersion(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	f, err := modfile.ParseLax("go.mod", data, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range f.Require {
		if r.Mod.Path == "sigs.k8s.io/controller-tools" {
			return r.Mod.Version
		}
	}
	t.Fatal("go.mod does not require sigs.k8s.io/controller-tools")
	return ""
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
