package doccheck

import (
	"bufio"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// repoRoot returns the module's root, two levels above this package.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil || !strings.Contains(string(mod), "module github.com/morpheus-go/morpheus\n") {
		t.Fatalf("%s is not morpheus's root (go.mod: %v)", root, err)
	}
	return root
}

// docFiles returns README.md, BENCHMARKS.md and every .md file under docs/,
// relative to root.
func docFiles(t *testing.T, root string) []string {
	t.Helper()
	return append([]string{"README.md", "BENCHMARKS.md"}, walk(t, root, filepath.Join(root, "docs"), ".md")...)
}

// goFiles returns the module's Go files relative to root, leaving out
// testdata and hidden directories (their files are inputs of tests, not
// documentation).
func goFiles(t *testing.T, root string) []string {
	t.Helper()
	return walk(t, root, root, ".go")
}

// walk returns the files below dir whose names end in suffix, relative to
// root, leaving out testdata and directories whose names start with "." or
// "_".
func walk(t *testing.T, root, dir, suffix string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != dir && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(name, suffix) {
			rel, _ := filepath.Rel(root, path)
			files = append(files, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// mdLine is a line of a Markdown file outside code blocks.
type mdLine struct {
	n    int    // line number, from 1
	text string // as written
}

// prose returns the lines of a Markdown file that are not in a fenced or
// indented code block.
func prose(src string) []mdLine {
	var out []mdLine
	fence := ""
	prevBlank, indented := true, false
	for i, line := range strings.Split(src, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if fence != "" {
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
			continue
		}
		if strings.HasPrefix(trimmed, "```") || strings.HasPrefix(trimmed, "~~~") {
			fence = trimmed[:3]
			continue
		}
		blank := strings.TrimSpace(line) == ""
		if !blank && (prevBlank || indented) && (strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) {
			indented = true // an indented code block (a command in BENCHMARKS.md)
			continue
		}
		indented = indented && blank
		prevBlank = blank
		out = append(out, mdLine{i + 1, line})
	}
	return out
}

// withoutCode replaces the code spans of a line by spaces.
func withoutCode(line string) string {
	b := []byte(line)
	for i := 0; i < len(b); {
		if b[i] != '`' {
			i++
			continue
		}
		n := 0
		for i+n < len(b) && b[i+n] == '`' {
			n++
		}
		end := strings.Index(string(b[i+n:]), strings.Repeat("`", n))
		if end < 0 {
			i += n
			continue
		}
		stop := i + n + end + n
		for j := i; j < stop; j++ {
			b[j] = ' '
		}
		i = stop
	}
	return string(b)
}

var (
	inlineLink = regexp.MustCompile(`\]\(\s*<?([^()\s<>]*)>?(?:\s+"[^"]*")?\s*\)`)
	refLink    = regexp.MustCompile(`^ {0,3}\[[^\]]+\]:\s*<?([^\s<>]+)>?`)
	scheme     = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	heading    = regexp.MustCompile(`^ {0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$`)
	linkText   = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)
)

// links returns the link targets of a Markdown file's prose, with their lines.
func links(src string) []mdLine {
	var out []mdLine
	for _, l := range prose(src) {
		text := withoutCode(l.text)
		for _, m := range inlineLink.FindAllStringSubmatch(text, -1) {
			out = append(out, mdLine{l.n, m[1]})
		}
		if m := refLink.FindStringSubmatch(text); m != nil {
			out = append(out, mdLine{l.n, m[1]})
		}
	}
	return out
}

// anchors returns the fragments GitHub gives the headings of a Markdown
// file: the heading's text, lower-cased, without punctuation but - and _,
// spaces made hyphens; a repeated one gets -1, -2, ...
func anchors(src string) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	for _, l := range prose(src) {
		m := heading.FindStringSubmatch(l.text)
		if m == nil {
			continue
		}
		text := linkText.ReplaceAllString(m[1], "$1")
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.M, r):
				b.WriteRune(r)
			}
		}
		slug := b.String()
		if k := seen[slug]; k > 0 {
			out[fmt.Sprintf("%s-%d", slug, k)] = true
		} else {
			out[slug] = true
		}
		seen[slug]++
	}
	return out
}

// inside reports whether path, absolute, is root or under it.
func inside(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Every relative link of the docs names a file or directory of the
// repository, and a fragment on a Markdown target names one of its headings.
func TestRelativeLinksResolve(t *testing.T) {
	root := repoRoot(t)
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	checked := 0
	for _, doc := range docFiles(t, root) {
		for _, l := range links(read(doc)) {
			target := l.text
			if target == "" || scheme.MatchString(target) {
				continue // an external address, not ours to check
			}
			checked++
			path, frag, _ := strings.Cut(target, "#")
			if p, err := url.PathUnescape(path); err == nil {
				path = p
			}
			file := doc // a bare #fragment is a heading of this file
			if path != "" {
				abs := filepath.Join(root, filepath.Dir(doc), filepath.FromSlash(path))
				if strings.HasPrefix(path, "/") {
					abs = filepath.Join(root, filepath.FromSlash(path))
				}
				if !inside(root, abs) {
					t.Errorf("%s:%d: link %q leaves the repository", doc, l.n, target)
					continue
				}
				if _, err := os.Stat(abs); err != nil {
					t.Errorf("%s:%d: link %q names nothing in the repository", doc, l.n, target)
					continue
				}
				file, _ = filepath.Rel(root, abs)
			}
			if frag != "" && strings.HasSuffix(file, ".md") && !anchors(read(file))[frag] {
				t.Errorf("%s:%d: link %q: %s has no heading #%s", doc, l.n, target, file, frag)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no relative link found: the walk or the link syntax is broken")
	}
}

// tracker matches a reference to an issue tracker the reader does not have:
// an issue, ticket or pull request with a number, or "the issue's".
var tracker = regexp.MustCompile(`(?i)\b(?:issues?|tickets?|pull requests?|PRs?|bugs?)\s*#\s*\d+|\bissues?\s+\d+\b|\bissue's\b`)

// No doc and no Go file points to an issue tracker (but this one, whose
// test data are such references).
func TestNoTrackerReferences(t *testing.T) {
	root := repoRoot(t)
	files := append(docFiles(t, root), goFiles(t, root)...)
	for _, rel := range files {
		if rel == filepath.Join("internal", "doccheck", "doccheck_test.go") {
			continue
		}
		f, err := os.Open(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for n := 1; sc.Scan(); n++ {
			if !mayPointToTracker(sc.Text()) {
				continue
			}
			if m := tracker.FindString(sc.Text()); m != "" {
				t.Errorf("%s:%d: %q points to an issue tracker the reader does not have: say what it means instead", rel, n, m)
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
	}
}

// mayPointToTracker reports whether a line has what every match of tracker
// has, a "#" or the word issue in any case: the regular expression, slow
// under the race detector, then runs on the few lines that do.
func mayPointToTracker(line string) bool {
	if strings.IndexByte(line, '#') >= 0 {
		return true
	}
	for i := strings.IndexAny(line, "iI"); i >= 0 && i+5 <= len(line); {
		if strings.EqualFold(line[i:i+5], "issue") {
			return true
		}
		j := strings.IndexAny(line[i+1:], "iI")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return false
}

// mdMention matches a Markdown file named in prose or in a comment.
var (
	mdMention = regexp.MustCompile(`[A-Za-z0-9_.\-/]*[A-Za-z0-9_\-]\.md\b`)
	address   = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://\S+`)
)

// goComments returns the comments of a Go file with their lines.
func goComments(t *testing.T, path string) []mdLine {
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile(path, -1, len(src)), src, nil, scanner.ScanComments)
	var out []mdLine
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok == token.COMMENT {
			line := fset.Position(pos).Line
			for i, l := range strings.Split(lit, "\n") {
				out = append(out, mdLine{line + i, l})
			}
		}
	}
}

// Every Markdown file that a doc or a Go comment names exists in the
// repository, relative to the naming file or to the root: documentation
// does not send the reader to notes the repository does not have.
func TestMentionedDocsExist(t *testing.T) {
	root := repoRoot(t)
	check := func(rel string, lines []mdLine) {
		for _, l := range lines {
			if !strings.Contains(l.text, ".md") { // what every match has (the expressions are slow under -race)
				continue
			}
			for _, m := range mdMention.FindAllString(address.ReplaceAllString(l.text, " "), -1) {
				name := filepath.FromSlash(m)
				found := slices.ContainsFunc([]string{filepath.Join(root, filepath.Dir(rel), name), filepath.Join(root, name)},
					func(p string) bool { _, err := os.Stat(p); return err == nil && inside(root, p) })
				if !found {
					t.Errorf("%s:%d: %s is not in the repository", rel, l.n, m)
				}
			}
		}
	}
	for _, rel := range docFiles(t, root) {
		b, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		check(rel, prose(string(b)))
	}
	for _, rel := range goFiles(t, root) {
		check(rel, goComments(t, filepath.Join(root, rel)))
	}
}

// A package doc is one comment: no comment before a package clause is cut
// off from its doc comment by a blank line (go doc would show only the part
// next to the clause). Build constraints and generated-code notes are not
// docs.
func TestPackageDocsWhole(t *testing.T) {
	root := repoRoot(t)
	for _, rel := range goFiles(t, root) {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, filepath.Join(root, rel), nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			continue // not Go yet (work in progress): the build reports it
		}
		for _, c := range f.Comments {
			if c.Pos() >= f.Package || c == f.Doc {
				continue
			}
			text := c.List[0].Text
			if strings.HasPrefix(text, "//go:build") || strings.HasPrefix(text, "// +build") || strings.HasPrefix(text, "// Code generated") {
				continue
			}
			t.Errorf("%s:%d: a comment before the package clause is not part of the package doc (a blank line between them?)",
				rel, fset.Position(c.Pos()).Line)
		}
	}
}

// The helpers find what they must: links and headings outside code, and
// tracker references.
func TestHelpers(t *testing.T) {
	src := "# Title (`x`)\n\nSee [a](docs/a.md#b-c) and `[not](a link)`.\n\n```\n[in](code)\n## Not a heading\n```\n\n" +
		"    [indented](code)\n\n[ref]: other.md\n## B c\n## B c\n"
	var got []string
	for _, l := range links(src) {
		got = append(got, fmt.Sprintf("%d:%s", l.n, l.text))
	}
	if want := []string{"3:docs/a.md#b-c", "12:other.md"}; !slices.Equal(got, want) {
		t.Errorf("links %q, want %q", got, want)
	}
	a := anchors(src)
	for _, want := range []string{"title-x", "b-c", "b-c-1"} {
		if !a[want] {
			t.Errorf("anchors %v lack %q", a, want)
		}
	}
	if a["not-a-heading"] {
		t.Error("a line of a code block taken for a heading")
	}
	for _, s := range []string{"(issue 5)", "issue #12", "the issue's point 4", "PR #3", "Issues 2 and 3"} {
		if !tracker.MatchString(s) || !mayPointToTracker(s) {
			t.Errorf("%q not taken for a tracker reference", s)
		}
	}
	if mayPointToTracker("a bug 4 in the pull request of Ian") {
		t.Error("a line without # or issue taken for one that may point to a tracker")
	}
	for _, s := range []string{"p.Issues = nil", "clients issue three gets", "iteration #1829", "mutex#5"} {
		if tracker.MatchString(s) {
			t.Errorf("%q taken for a tracker reference", s)
		}
	}
}
