package bench_test

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCreatePictureFallsBack checks the picture policy of the Example: a
// directory that cannot take the file (here a path through a regular file,
// which no user, root included, can create under) sends it to
// os.TempDir(), and a writable one keeps it.
func TestCreatePictureFallsBack(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // os.TempDir() on Unix
	blocker := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocker, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := createPicture(filepath.Join(blocker, "dir"), "x.svg")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, want := f.Name(), filepath.Join(os.TempDir(), "x.svg"); got != want {
		t.Errorf("unwritable dir: wrote %s, want %s", got, want)
	}

	dir := t.TempDir()
	f, err = createPicture(dir, "y.svg")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if got, want := f.Name(), filepath.Join(dir, "y.svg"); got != want {
		t.Errorf("writable dir: wrote %s, want %s", got, want)
	}
}
