package driver

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A repository with a module whose package pkg has files, a sub-directory,
// a link, a nested module and a corpus; the copies of pkg for three
// processes.
func TestJobDirs(t *testing.T) {
	repo := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(repo, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".git/HEAD", "ref\n")
	write("mod/go.mod", "module m\n")
	write("mod/testdata/above.txt", "above\n")
	write("mod/pkg/a.go", "package pkg\n")
	write("mod/pkg/testdata/in.txt", "in\n")
	write("mod/pkg/nested/go.mod", "module n\n")
	write("mod/pkg/testdata/morpheus/TestX/0123", "trace\n")
	pkg := filepath.Join(repo, "mod", "pkg")
	if err := os.Symlink("testdata/in.txt", filepath.Join(pkg, "link")); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(filepath.Join(pkg, "a.go"), old, old); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(pkg, "a.go"), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(pkg, "testdata"), 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(pkg, "testdata"), 0o755) })
	if got := workRoot(pkg); got != repo {
		t.Errorf("workRoot = %s, want the repository's root %s", got, repo)
	}

	tmp := t.TempDir()
	dirs, cleanup, err := jobDirs(tmp, pkg, 3, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) != 3 || dirs[0].dir != pkg || dirs[1].dir == pkg || dirs[1].dir == dirs[2].dir {
		t.Fatalf("dirs %+v: want the package's, then two copies", dirs)
	}
	d := dirs[1].dir
	read := func(rel, want string) {
		t.Helper()
		if b, err := os.ReadFile(filepath.Join(d, rel)); err != nil || string(b) != want {
			t.Errorf("%s in the copy: %q, %v; want %q", rel, b, err, want)
		}
	}
	read("a.go", "package pkg\n")
	read("link", "in\n")
	read("../testdata/above.txt", "above\n")
	read("../../.git/HEAD", "ref\n")
	read("testdata/morpheus/TestX/0123", "trace\n")
	lstatIs := func(rel string, link bool) {
		t.Helper()
		fi, err := os.Lstat(filepath.Join(d, rel))
		if err != nil || (fi.Mode()&os.ModeSymlink != 0) != link {
			t.Errorf("%s in the copy: %v, %v; want a link: %v", rel, fi, err, link)
		}
	}
	lstatIs("a.go", false)
	lstatIs("testdata", false)
	lstatIs("link", true)
	lstatIs("nested", true)
	lstatIs("testdata/morpheus", true)
	lstatIs("../testdata", true)
	if fi, err := os.Stat(filepath.Join(d, "a.go")); err != nil || fi.Mode().Perm() != 0o444 || !fi.ModTime().Equal(old) {
		t.Errorf("a.go in the copy: %v, %v; want mode 0444 and the original's time", fi, err)
	}
	if fi, err := os.Stat(filepath.Join(d, "testdata")); err != nil || fi.Mode().Perm() != 0o555 {
		t.Errorf("testdata in the copy: %v, %v; want the original's mode 0555", fi, err)
	}
	if err := os.WriteFile(filepath.Join(d, "out.tmp"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "out.tmp")); err == nil {
		t.Errorf("a file written in the copy is in the package's directory")
	}
	if got := dirs[1].real("open " + filepath.Join(d, "out.tmp") + ": denied"); got != "open "+filepath.Join(pkg, "out.tmp")+": denied" {
		t.Errorf("real: %q", got)
	}
	cleanup()
	if ents, err := os.ReadDir(tmp); err != nil || len(ents) != 0 {
		t.Errorf("after cleanup the temporary directory holds %v, %v", ents, err)
	}
	if _, err := os.Stat(filepath.Join(pkg, "testdata", "morpheus", "TestX", "0123")); err != nil {
		t.Errorf("cleanup removed the corpus: %v", err)
	}
}

// The corpus directory jobDirs makes for the copies to link to is gone
// after the run if no trace was saved, and a tree over the size limit is
// not copied.
func TestJobDirsCorpusAndLimit(t *testing.T) {
	pkg := t.TempDir()
	if err := os.WriteFile(filepath.Join(pkg, "go.mod"), []byte("module m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dirs, cleanup, err := jobDirs(t.TempDir(), pkg, 2, true)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dirs[1].dir, "testdata", "morpheus")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the copy's corpus: %v, %v; want a link to the package's", fi, err)
	}
	cleanup()
	if _, err := os.Stat(filepath.Join(pkg, "testdata")); !os.IsNotExist(err) {
		t.Errorf("testdata after the run: %v; want it gone, as before", err)
	}

	defer func(n int64) { maxJobDirBytes = n }(maxJobDirBytes)
	maxJobDirBytes = 4
	if _, _, err := jobDirs(t.TempDir(), pkg, 2, false); !errors.Is(err, errJobDirTooBig) {
		t.Errorf("a tree over the limit: %v; want errJobDirTooBig", err)
	}
	if dirs, _, err := jobDirs(t.TempDir(), pkg, 1, false); err != nil || len(dirs) != 1 || dirs[0].dir != pkg {
		t.Errorf("one process: %+v, %v; want the package's directory", dirs, err)
	}
}
