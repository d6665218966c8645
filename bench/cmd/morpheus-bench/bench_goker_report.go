package main

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/morpheus-go/morpheus/bench/internal/hitratio"
	"github.com/morpheus-go/morpheus/internal/plural"
)

// The paper's figures (GoBench, CGO'21, Tables IV and V): bugs of GoKer each
// tool finds.
const (
	gokerPaperBlocking    = 68
	gokerPaperNonblocking = 35
	gokerPaperGoleak      = 43
	gokerPaperGoDeadlock  = 28
	gokerPaperDingoHunter = 1
	gokerPaperGoRace      = 32
)

// gokerKernelJSON is one kernel in -json's output.
type gokerKernelJSON struct {
	Name      string  `json:"name"`
	Type      string  `json:"type"` // blocking, non-blocking
	Found     bool    `json:"found"`
	Kind      string  `json:"kind"`
	Schedules int     `json:"schedules"`
	Seconds   float64 `json:"seconds"` // wall time of the schedules
	// Extras.
	Category       string  `json:"category,omitempty"` // the configure file's type
	Subtype        string  `json:"subtype,omitempty"`
	BuildSeconds   float64 `json:"build_seconds"`
	Replays        *bool   `json:"replays,omitempty"`
	ReplayKind     string  `json:"replay_kind,omitempty"` // when it differs from kind
	Error          string  `json:"error,omitempty"`
	GoTest         *bool   `json:"go_test,omitempty"`
	GoTestKind     string  `json:"go_test_kind,omitempty"`
	GoTestRace     *bool   `json:"go_test_race,omitempty"`
	GoTestRaceKind string  `json:"go_test_race_kind,omitempty"`
	GoRace         *bool   `json:"go_race_under_control,omitempty"`
	// The find's line and goroutines, the lines the kernel's README names
	// and whether the find is at one of them (absent: the README names none).
	Location    string   `json:"location,omitempty"`
	Goroutines  []string `json:"goroutines,omitempty"`
	ReadmeLines []int    `json:"readme_lines,omitempty"`
	AtReadme    *bool    `json:"at_readme_lines,omitempty"`
}

// gokerTotals are the counts of a run.
type gokerTotals struct {
	Blocking         int            `json:"blocking"`    // kernels run
	Nonblocking      int            `json:"nonblocking"` // kernels run
	FoundBlocking    int            `json:"found_blocking"`
	FoundNonblocking int            `json:"found_nonblocking"`
	ByKind           map[string]int `json:"by_kind"`
	Replayed         int            `json:"replayed"` // found bugs whose trace replayed to the same kind
	Errors           int            `json:"errors"`
	// -baseline.
	GoTestBlocking        *int `json:"go_test_blocking,omitempty"`
	GoTestNonblocking     *int `json:"go_test_nonblocking,omitempty"`
	GoTestRaceBlocking    *int `json:"go_test_race_blocking,omitempty"`
	GoTestRaceNonblocking *int `json:"go_test_race_nonblocking,omitempty"`
	// -race.
	GoRaceUnderControl *int `json:"go_race_under_control,omitempty"`
}

func gokerCount(rs []*gokerResult, o *gokerOpts) gokerTotals {
	t := gokerTotals{ByKind: map[string]int{}}
	var base, baseRace [2]int
	goRace := 0
	for _, r := range rs {
		b := 0
		if r.Blocking {
			t.Blocking++
		} else {
			t.Nonblocking++
			b = 1
		}
		if r.Error != "" {
			t.Errors++
		}
		if r.Found {
			if r.Blocking {
				t.FoundBlocking++
			} else {
				t.FoundNonblocking++
			}
			t.ByKind[r.Kind]++
			if r.Replays != nil && *r.Replays {
				t.Replayed++
			}
		}
		if r.Base != nil && r.Base.Found {
			base[b]++
		}
		if r.BaseRace != nil && r.BaseRace.Found {
			baseRace[b]++
		}
		if r.GoRace != nil && *r.GoRace {
			goRace++
		}
	}
	if o.baseline > 0 {
		t.GoTestBlocking, t.GoTestNonblocking = &base[0], &base[1]
		t.GoTestRaceBlocking, t.GoTestRaceNonblocking = &baseRace[0], &baseRace[1]
	}
	if o.race {
		t.GoRaceUnderControl = &goRace
	}
	return t
}

func writeGokerJSON(w io.Writer, rs []*gokerResult, o *gokerOpts) error {
	out := struct {
		Kernels   []gokerKernelJSON `json:"kernels"`
		Schedules int               `json:"schedules_per_kernel"`
		Strategy  string            `json:"strategy,omitempty"`
		Seed      uint64            `json:"seed,omitempty"`
		Baseline  int               `json:"baseline_count,omitempty"`
		gokerTotals
	}{Kernels: []gokerKernelJSON{}, Schedules: o.schedules, Strategy: o.strategy, Seed: o.seed,
		Baseline: o.baseline, gokerTotals: gokerCount(rs, o)}
	for _, r := range rs {
		k := gokerKernelJSON{Name: r.Name, Type: r.typ(), Found: r.Found, Kind: r.Kind, Schedules: r.Schedules,
			Seconds: round3(r.Seconds), Category: r.Category, Subtype: r.Subtype, BuildSeconds: round3(r.Build),
			Replays: r.Replays, Error: r.Error, GoRace: r.GoRace,
			Location: r.Location, Goroutines: r.Goroutines, ReadmeLines: r.Readme, AtReadme: r.readmeMatch()}
		if r.ReplayKind != r.Kind {
			k.ReplayKind = r.ReplayKind
		}
		if r.Base != nil {
			k.GoTest, k.GoTestKind = &r.Base.Found, r.Base.Kind
			if r.Base.Error != "" {
				k.GoTestKind = "error"
			}
		}
		if r.BaseRace != nil {
			k.GoTestRace, k.GoTestRaceKind = &r.BaseRace.Found, r.BaseRace.Kind
			if r.BaseRace.Error != "" {
				k.GoTestRaceKind = "error"
			}
		}
		out.Kernels = append(out.Kernels, k)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}

func round3(f float64) float64 { return float64(int64(f*1000+0.5)) / 1000 }

func writeGokerTable(w io.Writer, rs []*gokerResult, o *gokerOpts) {
	strat := o.strategy
	if strat == "" {
		strat = "default"
	}
	seed := "from each test's name"
	if o.seed != 0 {
		seed = fmt.Sprint(o.seed)
	}
	fmt.Fprintf(w, "GoKer kernels under morpheus (rewritten): %s per kernel, strategy %s, seed %s.\n", plural.N(o.schedules, "schedule"), strat, seed)
	fmt.Fprintf(w, "at: the failure's line; README lines: the kernel's lines its README names, and whether the find is at one of them; schedules: to the first failure (or all run); seconds: wall time of the schedules, build excluded; replays: the saved trace, replayed in a fresh process, gives the same kind.\n\n")
	t := &hitratio.Table{Left: true, Header: []string{"kernel", "type", "category", "subtype", "found", "kind", "at", "README lines", "schedules", "seconds", "replays"}}
	if o.baseline > 0 {
		t.Header = append(t.Header, "go test", "go test -race")
	}
	if o.race {
		t.Header = append(t.Header, "Go race det.")
	}
	t.Header = append(t.Header, "error")
	for _, r := range rs {
		found, kind := "no", "-"
		if r.Found {
			found, kind = "yes", r.Kind
		}
		if r.Error != "" {
			found = "error"
		}
		at, readme := "-", dash(intList(r.Readme))
		if r.Found {
			at = dash(r.Location)
			if m := r.readmeMatch(); m != nil {
				readme += map[bool]string{true: " (at)", false: " (elsewhere)"}[*m]
			}
		}
		row := []string{r.Name, r.typ(), dash(r.Category), dash(r.Subtype), found, kind, at, readme, fmt.Sprint(r.Schedules),
			fmt.Sprintf("%.2f", r.Seconds), yesNo(r.Replays)}
		if o.baseline > 0 {
			row = append(row, r.Base.label(), r.BaseRace.label())
		}
		if o.race {
			row = append(row, yesNo(r.GoRace))
		}
		t.Add(append(row, dash(gokerShortError(r.Error, 70)))...)
	}
	t.Write(w)
	writeGokerTotals(w, rs, o)
	writeGokerErrors(w, rs)
}

// gokerShortError is an error on one line: its non-blank lines joined,
// cut to n bytes.
func gokerShortError(e string, n int) string {
	var parts []string
	for _, l := range strings.Split(e, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			parts = append(parts, strings.TrimSuffix(l, ":"))
		}
	}
	s := strings.Join(parts, ": ")
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	return s
}

// writeGokerErrors prints the kernels' errors, a few lines each.
func writeGokerErrors(w io.Writer, rs []*gokerResult) {
	first := true
	for _, r := range rs {
		if r.Error == "" {
			continue
		}
		if first {
			fmt.Fprintln(w, "\nErrors")
			first = false
		}
		lines := strings.Split(strings.TrimSpace(r.Error), "\n")
		if len(lines) > 8 {
			lines = append(lines[:8], "…")
		}
		fmt.Fprintf(w, "%s:\n%s\n", r.Name, indentLines(strings.Join(lines, "\n"), "\t"))
	}
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func writeGokerTotals(w io.Writer, rs []*gokerResult, o *gokerOpts) {
	t := gokerCount(rs, o)
	found := t.FoundBlocking + t.FoundNonblocking
	fmt.Fprintln(w, "\nTotals")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "morpheus\tblocking %d of %d, non-blocking %d of %d (kernels run; GoKer has %d and %d)\n",
		t.FoundBlocking, t.Blocking, t.FoundNonblocking, t.Nonblocking, gokerPaperBlocking, gokerPaperNonblocking)
	fmt.Fprintf(tw, "  by kind\t%s\n", gokerKinds(t.ByKind))
	fmt.Fprintf(tw, "  by category\t%s\n", gokerCategories(rs))
	fmt.Fprintf(tw, "  replays\t%d of %d found\n", t.Replayed, found)
	fmt.Fprintf(tw, "  errors\t%d\n", t.Errors)
	if o.baseline > 0 {
		fmt.Fprintf(tw, "go test -count %d\tblocking %d of %d, non-blocking %d of %d (this run, -test.timeout %v; %s)\n",
			o.baseline, *t.GoTestBlocking, t.Blocking, *t.GoTestNonblocking, t.Nonblocking, o.timeout,
			gokerKinds(gokerBaseKinds(rs, false)))
		fmt.Fprintf(tw, "go test -race -count %d\tblocking %d of %d, non-blocking %d of %d (this run; %s)\n",
			o.baseline, *t.GoTestRaceBlocking, t.Blocking, *t.GoTestRaceNonblocking, t.Nonblocking,
			gokerKinds(gokerBaseKinds(rs, true)))
	}
	if o.race {
		fmt.Fprintf(tw, "Go race detector under control\t%d of %d kernels (the rewritten kernels built with -race)\n",
			*t.GoRaceUnderControl, len(rs))
	}
	fmt.Fprintf(tw, "paper, GoBench Table IV\tgoleak %d, go-deadlock %d, dingo-hunter %d of %d blocking\n",
		gokerPaperGoleak, gokerPaperGoDeadlock, gokerPaperDingoHunter, gokerPaperBlocking)
	fmt.Fprintf(tw, "paper, GoBench Table V\tgo test -race %d of %d non-blocking\n", gokerPaperGoRace, gokerPaperNonblocking)
	tw.Flush()
}

// gokerKinds formats counts per kind, sorted by kind.
func gokerKinds(m map[string]int) string {
	if len(m) == 0 {
		return "-"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

func gokerBaseKinds(rs []*gokerResult, race bool) map[string]int {
	m := map[string]int{}
	for _, r := range rs {
		b := r.Base
		if race {
			b = r.BaseRace
		}
		if b != nil && b.Found {
			m[b.Kind]++
		}
	}
	return m
}

// gokerCategories formats found/run per configure category, sorted.
func gokerCategories(rs []*gokerResult) string {
	type count struct{ found, n int }
	m := map[string]*count{}
	var order []string
	for _, r := range rs {
		c := dash(r.Category)
		if m[c] == nil {
			m[c] = &count{}
			order = append(order, c)
		}
		m[c].n++
		if r.Found {
			m[c].found++
		}
	}
	sort.Strings(order)
	parts := make([]string, len(order))
	for i, c := range order {
		parts[i] = fmt.Sprintf("%s %d/%d", c, m[c].found, m[c].n)
	}
	return strings.Join(parts, ", ")
}
