package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/morpheus-go/morpheus/internal/rewrite"
)

// After an edit of function bodies. The functions of the module's own
// packages mark their entry (rewrite.MarkKey, rt/marks.go), and a test's
// record lists the functions of its package it executed, in any schedule,
// by any goroutine, or that ran outside every test (initialisation,
// TestMain): what its outcome can depend on of the package's code. Beside
// the outcome of a run, keepForEdits records it under the key of
// everything but the package's own rewritten non-test files (the frame:
// Go, settings, morpheus, dependencies, test files, the package's other
// files), with a hash of each of those files' declarations: a function's
// body, with the line it starts on, apart; the rest of the file (types,
// vars, consts, imports, signatures, which functions there are,
// directives; the line of a declaration that holds a closure) as one. A
// later run whose frame, saved traces and test inputs are the same and
// whose declarations differ only in function bodies keeps the outcome of each test that passed and executed none of
// them (shown cached) and runs the others (-run of their names), their
// outcome and the kept ones together the package's, kept as any.
//
// Everything else runs every test as before: another change (a type, a
// var and its initialiser, a const, an import, a signature, an init
// function, a function added or removed, a file added or removed, a
// dependency, a test file, a function with a //go: directive, whose body
// has no mark), a test that failed or was interrupted, a test whose
// processes had no marks, a package with Checks, tests that started the
// test binary or the go command again (the test log stats it: a child's
// functions mark the child's process).
//
// Positions are part of a body: a function an edit moved to other lines
// counts as changed (runtime.Caller, panics and the schedules' location
// keys see its lines), so an edit that adds a line changes the functions
// below it in its file. A function's rewritten body is compared, so a
// function whose rewrite an edit elsewhere changed (a variable now
// written) counts as changed too.

// editRun is what runEdited keeps of an earlier outcome while the tests
// an edit may have changed run.
type editRun struct {
	prior  *cachedOutcome
	kept   []*TestSummary
	log    string // the processes' merged test log (keepOutcome)
	logged bool   // every process wrote one
}

// frame returns the key of package path's test binary but for the
// package's own rewritten non-test files, which it names only, and those
// files (original -> rewritten); "" if it cannot be known or the package
// has none.
func (s *sources) frame(path string, replaced map[string]string) (string, map[string]string) {
	if s == nil {
		return "", nil
	}
	deps, ok := s.deps[path+".test"]
	if !ok {
		return "", nil
	}
	own := map[string]string{}
	h := sha256.New()
	h.Write(s.base)
	h.Write([]byte("frame\x00"))
	for _, d := range slices.Sorted(slices.Values(append(slices.Clip(deps), path+".test"))) {
		fmt.Fprintf(h, "pkg %s\x00", d)
		mine := d == path || strings.HasPrefix(d, path+" [")
		for _, f := range s.files[d] {
			r, rewritten := replaced[f]
			switch {
			case rewritten && mine && strings.HasSuffix(f, ".go") && !strings.HasSuffix(f, "_test.go"):
				fmt.Fprintf(h, "own %s\x00", f)
				own[f] = r
			case rewritten:
				fmt.Fprintf(h, "rewritten %s %s\x00", f, filepath.Base(r))
			default:
				sum, ok := s.sums[f]
				if !ok {
					return "", nil
				}
				fmt.Fprintf(h, "file %s %x\x00", f, sum)
			}
		}
	}
	if len(own) == 0 {
		return "", nil
	}
	return hex.EncodeToString(h.Sum(nil)), own
}

// declTable hashes the declarations of the rewritten files own (original
// -> rewritten): "func NAME" (rewrite.MarkKey) the body of a function
// that has a mark, with its line; "file PATH" the rest of a file.
func declTable(own map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for orig, file := range own {
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, src, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		tf := fset.File(f.Pos())
		text := func(from, to token.Pos) []byte { return src[tf.Offset(from):tf.Offset(to)] }
		rest := sha256.New()
		fmt.Fprintf(rest, "package %s\x00", f.Name.Name)
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if strings.HasPrefix(c.Text, "//go:") || strings.HasPrefix(c.Text, "//line") {
					fmt.Fprintf(rest, "directive %s\x00", c.Text)
				}
			}
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok {
				if key, ok := rewrite.MarkKey(fd); ok {
					fmt.Fprintf(rest, "func %s %s\x00", key, text(fd.Pos(), fd.Body.Lbrace))
					body := sha256.Sum256(fmt.Appendf(nil, "%d\x00%s", fset.Position(fd.Pos()).Line, text(fd.Body.Lbrace, fd.End())))
					out["func "+key] = hex.EncodeToString(body[:])
					continue
				}
			}
			line := 0
			if hasFuncLit(d) {
				line = fset.Position(d.Pos()).Line // its closures' lines
			}
			fmt.Fprintf(rest, "decl %d %s\x00", line, text(d.Pos(), d.End()))
		}
		out["file "+orig] = hex.EncodeToString(rest.Sum(nil))
	}
	return out, nil
}

// hasFuncLit reports whether a declaration holds a closure, whose
// positions are its code's.
func hasFuncLit(d ast.Decl) bool {
	found := false
	ast.Inspect(d, func(n ast.Node) bool {
		_, lit := n.(*ast.FuncLit)
		found = found || lit
		return !found
	})
	return found
}

// changedBodies compares two declTables: the functions whose body
// changed, or why something else did.
func changedBodies(before, now map[string]string) (changed []string, why string) {
	for k, v := range before {
		if file, ok := strings.CutPrefix(k, "file "); ok && now[k] != v {
			if _, there := now[k]; !there {
				return nil, file + " is gone"
			}
			return nil, "a declaration other than a function's body changed in " + file
		}
	}
	for k, v := range now {
		if _, there := before[k]; !there {
			if file, ok := strings.CutPrefix(k, "file "); ok {
				return nil, file + " is new"
			}
			return nil, "a function was added: " + strings.TrimPrefix(k, "func ")
		}
		if name, ok := strings.CutPrefix(k, "func "); ok && before[k] != v {
			changed = append(changed, name)
		}
	}
	for k := range before {
		if _, there := now[k]; !there {
			return nil, "a function was removed: " + strings.TrimPrefix(k, "func ")
		}
	}
	sort.Strings(changed)
	return changed, ""
}

// editedFile is where the outcome a run after an edit of function bodies
// may start from is kept: by the frame and the settings.
func editedFile(cfg Config, p *PackageSummary) string {
	key := outcomeKeyOf(cfg, p, "frame "+p.frame)
	return filepath.Join(filepath.Dir(filepath.Dir(p.Binary)), "outcomes", "edited-"+key[:32]+".json")
}

// keepForEdits records o, p's outcome just kept, with p's declarations and
// its tests' functions, for a run after an edit of function bodies.
func keepForEdits(cfg Config, p *PackageSummary, o cachedOutcome) {
	if p.frame == "" || len(o.Checks) > 0 {
		return
	}
	decls, err := declTable(p.own)
	if err != nil {
		cacheDebug(p, "not kept for edits: %v", err)
		return
	}
	o.Decls, o.Funcs = decls, map[string][]string{}
	prefix := p.Path + " "
	for _, t := range p.Tests {
		if !t.marked {
			continue
		}
		own := []string{}
		for _, f := range t.funcs {
			if name, ok := strings.CutPrefix(f, prefix); ok {
				own = append(own, name)
			}
		}
		o.Funcs[t.Name] = own
	}
	writeOutcome(editedFile(cfg, p), o)
}

// editPlan returns what p's run keeps of an earlier one whose build
// differs from p's in its own functions' bodies at most, and the tests to
// run; nil if every test runs.
func editPlan(cfg Config, p *PackageSummary) (*editRun, []string) {
	if !cfg.cacheable() || p.frame == "" || p.Binary == "" || p.Err != nil {
		return nil, nil
	}
	data, err := os.ReadFile(editedFile(cfg, p))
	if err != nil {
		cacheDebug(p, "no outcome kept of a build that differs in its functions' bodies only")
		return nil, nil
	}
	var o cachedOutcome
	if json.Unmarshal(data, &o) != nil || o.Decls == nil {
		cacheDebug(p, "the outcome kept for edits does not decode")
		return nil, nil
	}
	if c, ok := corpusDigest(p.dir); !ok || c != o.Corpus {
		cacheDebug(p, "its saved traces changed")
		return nil, nil
	}
	if in, why := inputsDigest(cfg, p.dir, o.Log, time.Time{}); why != "" || in != o.Inputs {
		cacheDebug(p, "an input its tests read changed %s", why)
		return nil, nil
	}
	if startsItself(o.Log, p.Binary) {
		cacheDebug(p, "its tests start the test binary or the go command: every test runs")
		return nil, nil
	}
	now, err := declTable(p.own)
	if err != nil {
		cacheDebug(p, "%v", err)
		return nil, nil
	}
	changed, why := changedBodies(o.Decls, now)
	if why != "" {
		cacheDebug(p, "every test runs: %s", why)
		return nil, nil
	}
	e := &editRun{prior: &o}
	var run []string
	for _, t := range o.Tests {
		funcs, known := o.Funcs[t.Name]
		switch {
		case t.Failure != "" || t.Interrupted:
			cacheDebug(p, "%s runs: it failed", t.Name)
		case !known:
			cacheDebug(p, "%s runs: what it executed is not known", t.Name)
		case intersect(funcs, changed) != "":
			cacheDebug(p, "%s runs: it executed %s, changed", t.Name, intersect(funcs, changed))
		default:
			t.Cached, t.funcs, t.marked = true, funcs, true
			for i := range t.funcs {
				t.funcs[i] = p.Path + " " + t.funcs[i]
			}
			e.kept = append(e.kept, t)
			continue
		}
		run = append(run, t.Name)
	}
	return e, run
}

// intersect returns a function of changed that funcs (sorted) holds, "" if
// none.
func intersect(funcs, changed []string) string {
	for _, c := range changed {
		if _, ok := slices.BinarySearch(funcs, c); ok {
			return c
		}
	}
	return ""
}

// startsItself reports whether the test log names the test binary bin or
// the go command: a test that runs its own binary again (to see it crash)
// or builds and runs the package executes code in another process, whose
// marks its record does not hold.
func startsItself(log, bin string) bool {
	for _, line := range strings.Split(log, "\n") {
		op, name, ok := strings.Cut(line, " ")
		if !ok || op != "stat" && op != "open" {
			continue
		}
		if name == bin || filepath.Base(name) == "go" {
			return true
		}
	}
	return false
}

// joinLogs returns the test logs a and b of processes that started in dir
// as one: b's relative paths are dir's, whatever a's last chdir; without
// chdir, a line is kept once (a package edited again and again keeps a
// log of its inputs, not of its runs).
func joinLogs(dir, a, b string) string {
	if strings.Contains(a, "chdir ") || strings.Contains(b, "chdir ") {
		return a + "chdir " + dir + "\n" + b
	}
	var out strings.Builder
	seen := map[string]bool{}
	for _, line := range strings.SplitAfter(a+b, "\n") {
		if line != "" && !seen[line] {
			seen[line] = true
			out.WriteString(line)
		}
	}
	return out.String()
}

// runEdited runs p's tests (runPackage), but, after an edit of its
// functions' bodies alone, only those that may have changed (editPlan):
// the others keep their outcome of the run before.
func runEdited(ctx context.Context, cfg Config, p *PackageSummary) {
	e, run := editPlan(cfg, p)
	if e == nil {
		runPackage(ctx, cfg, p)
		return
	}
	p.shown = shownDir(cfg, p.dir)
	p.hintDir, p.hintReplay = cfg.Dir, cfg.Replay
	for _, t := range e.kept {
		if cfg.Finished != nil {
			cfg.Finished(p, t)
		}
	}
	if len(run) > 0 {
		quoted := make([]string, len(run))
		for i, n := range run {
			quoted[i] = regexp.QuoteMeta(n)
		}
		sub := cfg
		sub.Run = "^(" + strings.Join(quoted, "|") + ")$"
		p.edited = e
		runPackage(ctx, sub, p)
		p.edited = nil
	} else {
		e.logged = true
		p.Elapsed = 0
	}
	p.Tests = append(p.Tests, e.kept...)
	sort.Slice(p.Tests, func(i, j int) bool { return p.Tests[i].Name < p.Tests[j].Name })
	if !e.logged || !keepable(cfg, p) {
		return
	}
	keepLogged(cfg, p, joinLogs(p.dir, e.prior.Log, e.log))
	if len(run) == 0 {
		p.Cached = true // nothing ran
	}
}
