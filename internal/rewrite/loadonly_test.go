package rewrite

import (
	"bytes"
	"go/parser"
	"go/token"
	"slices"
	"testing"
)

// A shard's load (LoadConfig.Only) rewrites its packages and the module
// packages they import, and no other, each file byte for byte as the load
// of all the patterns does: with the writes of the packages outside the
// closure that it does not rewrite (testdata/shardload: setter writes
// base.Level, setter's tests os.Args, both of which base reads;
// testdata/incr: leaf's own tests write the leaf.Limit that mid's tests
// reach), which, left out, change the rewrite.
func TestLoadOnlySameOutput(t *testing.T) {
	cases := []struct {
		dir     string
		only    []string
		want    []string // the packages rewritten
		writers bool     // leaving the writers out changes the rewrite
	}{
		{"testdata/shardload", []string{"example.com/shardload/base"}, []string{"example.com/shardload/base"}, true},
		{"testdata/shardload", []string{"example.com/shardload/setter"}, []string{"example.com/shardload/base", "example.com/shardload/setter"}, false},
		{"testdata/shardload", []string{"example.com/shardload/lone"}, []string{"example.com/shardload/lone"}, false},
		{"testdata/incr", []string{"example.com/incr/mid"}, []string{"example.com/incr/leaf", "example.com/incr/mid"}, true},
	}
	whole := map[string]map[string][]byte{}
	for _, dir := range []string{"testdata/shardload", "testdata/incr"} {
		pkgs, err := Load(LoadConfig{Dir: dir, Patterns: []string{"./..."}})
		if err != nil {
			t.Fatal(err)
		}
		whole[dir] = map[string][]byte{}
		for _, p := range pkgs {
			for _, f := range p.Files {
				whole[dir][f.Path] = f.Out
			}
		}
	}
	for _, c := range cases {
		cfg := LoadConfig{Dir: c.dir, Patterns: []string{"./..."}, Only: c.only}
		pkgs, err := Load(cfg)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range pkgs {
			got = append(got, p.Path)
			for _, f := range p.Files {
				if out, ok := whole[c.dir][f.Path]; !ok || !bytes.Equal(out, f.Out) {
					t.Errorf("only %v: %s rewritten differently than in the whole load", c.only, f.Path)
				}
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("only %v: rewrote %v, want %v", c.only, got, c.want)
		}
		cfg.noWriters = true
		pkgs, err = Load(cfg)
		if err != nil {
			t.Fatal(err)
		}
		differ := false
		for _, p := range pkgs {
			for _, f := range p.Files {
				differ = differ || !bytes.Equal(whole[c.dir][f.Path], f.Out)
			}
		}
		if differ != c.writers {
			t.Errorf("only %v: without the writers outside, the rewrite differs: %v, want %v", c.only, differ, c.writers)
		}
	}
}

// The names a file may write a package-level variable by, without types:
// roots of assignments, increments, addresses, slices and selectors' operands,
// not a called function's name nor an init function's own assignments.
func TestWrittenNames(t *testing.T) {
	t.Parallel()
	src := `package p

func init() {
	q.Init = 1
	go func() { q.InLit = 2 }()
	_ = &q.InitAddr
}

func f() {
	x = 1
	q.X = 2
	q.Called()
	a.b.c++
	_ = &q.Y
	for q.K = range xs {
	}
	_ = arr[:]
	v := q.Read
	q.Recv.M()
}
`
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	got := writtenNames(f)
	for _, n := range []string{"InLit", "InitAddr", "x", "X", "q", "a", "b", "c", "Y", "K", "arr", "Recv"} {
		if !got[n] {
			t.Errorf("%s not among the names written: %v", n, got)
		}
	}
	for _, n := range []string{"Init", "Called", "Read", "v", "xs", "M"} {
		if got[n] {
			t.Errorf("%s among the names written: %v", n, got)
		}
	}
}
