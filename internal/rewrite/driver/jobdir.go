package driver

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// A package's test processes and its directory. go test runs one process
// per package, in the package's directory, its tests one after another: a
// test may write a fixed path there (an upload, a golden file, a scratch
// file removed when it ends) and see what it wrote. morpheus test runs
// -jobs processes of the same tests at once; the first runs in the
// package's directory, as go test's one process does, and each other in a
// private copy of it, so that one process never removes or overwrites what
// another wrote.
//
// The copy (jobDirs) holds every file of the package's directory tree,
// copied (io.Copy: copy_file_range where the system has it, a clone on
// file systems that share blocks), with its mode and modification time;
// sub-trees that are not the package's are links to the real ones: nested
// modules (their own go.mod), version-control metadata, and the corpus
// (testdata/morpheus), which every process reads and saves traces into as
// before. The copy sits in a mirror of the directories above the package
// up to its repository's root (or its module's, outside a repository),
// whose other entries are links to the real ones: ../testdata and
// ../../go.mod read what they read in the package's directory. The copies
// are made before any process starts and removed when the package's run
// ends; what the first process wrote stays, as go test leaves it (a
// golden file's update writes the real file once).
//
// A package whose tree holds more than maxJobDirBytes to copy, or whose
// copy cannot be made (a file it cannot read, a system without links),
// runs its processes one at a time instead, all in its directory, and the
// run says so: slower, with the same schedules, seeds and outcome.
var maxJobDirBytes int64 = 256 << 20

// errJobDirTooBig is jobDirs' error for a tree over maxJobDirBytes.
var errJobDirTooBig = errors.New("package directory too big to copy")

// jobDirs returns the working directory of each of n processes of the
// package in dir: dir for the first, a private copy under tmp for each
// other, and what removes the copies. corpus is whether the run keeps the
// corpus: then dir's testdata/morpheus is made, if missing, for the copies
// to link to, and removed again if it is still empty when cleanup runs.
// An error (a tree over maxJobDirBytes, a file that cannot be read) leaves
// nothing behind: the caller then runs one process at a time in dir.
func jobDirs(tmp, dir string, n int, corpus bool) (dirs []jobDir, cleanup func(), err error) {
	dirs = []jobDir{{dir: dir}}
	if n <= 1 {
		return dirs, func() {}, nil
	}
	size, err := treeSize(dir)
	if err != nil {
		return nil, nil, err
	}
	if size > maxJobDirBytes {
		return nil, nil, fmt.Errorf("%w: %d MB", errJobDirTooBig, size>>20)
	}
	var made, bases []string
	cleanup = func() {
		for _, b := range bases {
			removeTree(b)
		}
		for _, d := range made {
			os.Remove(d) // fails, and keeps it, when not empty
		}
	}
	if corpus {
		made = makeCorpusDir(dir)
	}
	top := workRoot(dir)
	base, err := filepath.EvalSymlinks(tmp) // the path the processes' os.Getwd returns
	if err != nil {
		cleanup()
		return nil, nil, err
	}
	for j := 1; j < n; j++ {
		b := filepath.Join(base, fmt.Sprintf("job%d.dir", j))
		bases = append(bases, b)
		d, err := mirror(b, top, dir)
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		dirs = append(dirs, d)
	}
	return dirs, cleanup, nil
}

// A jobDir is a process's working directory: the package's, or a copy in
// a mirror whose top, from, reproduces the real directory to.
type jobDir struct{ dir, from, to string }

// real replaces, in s, the paths of the copy by the real ones: a process's
// records name what the first process's would.
func (d jobDir) real(s string) string {
	if d.from == "" {
		return s
	}
	return strings.ReplaceAll(s, d.from, d.to)
}

// makeCorpusDir makes dir's testdata/morpheus where it is missing and
// returns the directories it made, deepest first.
func makeCorpusDir(dir string) []string {
	var made []string
	for _, d := range []string{filepath.Join(dir, "testdata"), filepath.Join(dir, "testdata", "morpheus")} {
		if os.Mkdir(d, 0o755) == nil {
			made = append([]string{d}, made...)
		}
	}
	return made
}

// workRoot is how far up from dir its processes' copies reproduce the
// directories: the root of the repository that holds dir's module (a
// directory with .git, .hg, .svn or .bzr), or the module's root, or dir.
func workRoot(dir string) string {
	mod := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			mod = d
			break
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
	for d := mod; ; d = filepath.Dir(d) {
		for _, v := range vcsDirs {
			if _, err := os.Lstat(filepath.Join(d, v)); err == nil {
				return d
			}
		}
		if filepath.Dir(d) == d {
			return mod
		}
	}
}

var vcsDirs = []string{".git", ".hg", ".svn", ".bzr"}

// mirror makes under base a mirror of top down to dir (dir is top or under
// it): each directory on the way a directory whose other entries are
// links to top's, dir itself a copy (copyTree). It returns the copy.
func mirror(base, top, dir string) (jobDir, error) {
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		top, rel = dir, "."
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return jobDir{}, err
	}
	real, m := top, filepath.Join(base, filepath.Base(top))
	jd := jobDir{from: m, to: top}
	var ups []string // the mirrored directories above dir, to give their modes last
	if rel != "." {
		for _, c := range strings.Split(rel, string(filepath.Separator)) {
			if err := os.Mkdir(m, 0o755); err != nil {
				return jobDir{}, err
			}
			ents, err := os.ReadDir(real)
			if err != nil {
				return jobDir{}, err
			}
			for _, e := range ents {
				if e.Name() != c {
					if err := os.Symlink(filepath.Join(real, e.Name()), filepath.Join(m, e.Name())); err != nil {
						return jobDir{}, err
					}
				}
			}
			ups = append(ups, real, m)
			real, m = filepath.Join(real, c), filepath.Join(m, c)
		}
	}
	if err := copyTree(real, m); err != nil {
		return jobDir{}, err
	}
	for i := len(ups) - 2; i >= 0; i -= 2 {
		if err := sameMode(ups[i], ups[i+1]); err != nil {
			return jobDir{}, err
		}
	}
	jd.dir = m
	return jd, nil
}

// linked reports whether the entry at rel (slashed, relative to the
// package's directory) is linked to rather than copied: a nested module,
// version-control metadata, the corpus.
func linked(real, rel string, d fs.DirEntry) bool {
	if !d.IsDir() {
		return false
	}
	if rel == "testdata/morpheus" {
		return true
	}
	for _, v := range vcsDirs {
		if d.Name() == v {
			return true
		}
	}
	_, err := os.Stat(filepath.Join(real, "go.mod"))
	return err == nil
}

// treeSize is the size of the regular files copyTree copies of dir.
func treeSize(dir string) (int64, error) {
	var size int64
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if path != dir && linked(path, filepath.ToSlash(rel), d) {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			fi, err := d.Info()
			if err != nil {
				return err
			}
			size += fi.Size()
		}
		return nil
	})
	return size, err
}

// copyTree copies the directory src to dst (which must not exist):
// directories and regular files with their modes and modification times,
// links as links, the linked sub-trees as links to src's; other files
// (sockets, pipes) are left out.
func copyTree(src, dst string) error {
	var dirs []string // src's directories, to give their modes and times last
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		to := filepath.Join(dst, rel)
		switch {
		case path != src && linked(path, filepath.ToSlash(rel), d):
			if err := os.Symlink(path, to); err != nil {
				return err
			}
			return filepath.SkipDir
		case d.IsDir():
			dirs = append(dirs, rel)
			return os.Mkdir(to, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(path)
			if err != nil {
				return err
			}
			return os.Symlink(target, to)
		case d.Type().IsRegular():
			return copyFile(path, to)
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := len(dirs) - 1; i >= 0; i-- {
		if err := sameMode(filepath.Join(src, dirs[i]), filepath.Join(dst, dirs[i])); err != nil {
			return err
		}
	}
	return nil
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Close(); err != nil {
		return err
	}
	return sameMode(src, dst)
}

// sameMode gives dst src's permissions and modification time.
func sameMode(src, dst string) error {
	fi, err := os.Stat(src)
	if err != nil {
		return err
	}
	if err := os.Chtimes(dst, fi.ModTime(), fi.ModTime()); err != nil {
		return err
	}
	return os.Chmod(dst, fi.Mode().Perm())
}

// removeTree removes the tree at root, its directories made writable
// first: a copy of a read-only tree (the module cache's) is read-only too.
func removeTree(root string) {
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(path, 0o755)
		}
		return nil
	})
	os.RemoveAll(root)
}
