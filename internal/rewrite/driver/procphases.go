package driver

import (
	"cmp"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// With EnvPhases, the driver also says where a package's test processes
// spent their time: each process's wall and CPU time, the time package
// testing gave its top-level tests ("--- PASS: TestX (1.23s)"), and, of
// that, the time the tests' records say they explored (rt.Result.Nanos:
// the schedules). The rest of a test's time is its corpus replay,
// shrinking and saving a failing trace; the rest of a process's, its
// start, TestMain, and the tests that do not run under control.

// procStat is what one test process spent.
type procStat struct {
	wall, cpu time.Duration
	explored  time.Duration            // sum of its records' Nanos
	explore   map[string]time.Duration // per test
}

// took parses the duration of a framing result line's rest ("PASS: TestX
// (1.23s)" after "--- "): the time package testing gave the test.
func took(r string) (time.Duration, bool) {
	i := strings.LastIndexByte(r, '(')
	if i < 0 || !strings.HasSuffix(r, "s)") {
		return 0, false
	}
	f, err := strconv.ParseFloat(r[i+1:len(r)-2], 64)
	if err != nil {
		return 0, false
	}
	return time.Duration(f * float64(time.Second)), true
}

// setCPU records the process's CPU time once it ended.
func (s *procStat) setCPU(cmd *exec.Cmd) {
	if ps := cmd.ProcessState; ps != nil {
		s.cpu = ps.UserTime() + ps.SystemTime()
	}
}

// procPhases describes a package's processes, their longest tests first.
func procPhases(stats []*procStat, outputs []*procOutput) string {
	var b strings.Builder
	type row struct {
		test           string
		tested, explor time.Duration
	}
	for j, s := range stats {
		if s == nil {
			continue
		}
		var rows []row
		var tested time.Duration
		if o := outputs[j]; o != nil {
			o.mu.Lock()
			for name, d := range o.ix.took {
				rows = append(rows, row{name, d, s.explore[name]})
				tested += d
			}
			o.mu.Unlock()
		}
		fmt.Fprintf(&b, "    process %d: %.3fs wall, %.3fs cpu; its tests %.3fs (exploring %.3fs), outside tests %.3fs\n",
			j, s.wall.Seconds(), s.cpu.Seconds(), tested.Seconds(), s.explored.Seconds(), (s.wall - tested).Seconds())
		slices.SortFunc(rows, func(a, b row) int { return cmp.Compare(b.tested, a.tested) })
		for _, r := range rows[:min(len(rows), 5)] {
			fmt.Fprintf(&b, "      %8.3fs (exploring %8.3fs)  %s\n", r.tested.Seconds(), r.explor.Seconds(), r.test)
		}
	}
	return b.String()
}
