package driver

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// EnvPhases, set to 1, makes Prepare and Run print on standard error where
// their time went: for each step (go env, fingerprint, load and rewrite,
// vet, each go test -c, each package's test processes) its wall time and
// the CPU time (user and system) of morpheus itself and of the processes it
// waited for (go commands with their compilers and linkers, test
// processes), which a busy machine does not inflate as it does wall time.
const EnvPhases = "MORPHEUS_PHASES"

// phases times the steps of one Prepare or Run.
type phases struct {
	on         bool
	title      string
	last       time.Time
	self, kids time.Duration
	b          strings.Builder
}

func phasesOn() bool { return os.Getenv(EnvPhases) == "1" }

func newPhases(title string) *phases {
	p := &phases{on: phasesOn(), title: title, last: time.Now()}
	if p.on {
		p.self, p.kids = cpuTimes()
	}
	return p
}

// done records that the step named what ended now.
func (p *phases) done(what string) {
	if !p.on {
		return
	}
	now := time.Now()
	self, kids := cpuTimes()
	fmt.Fprintf(&p.b, "  %8.3fs wall %8.3fs cpu (morpheus %7.3fs, children %8.3fs)  %s\n",
		now.Sub(p.last).Seconds(), (self - p.self + kids - p.kids).Seconds(), (self - p.self).Seconds(), (kids - p.kids).Seconds(), what)
	p.last, p.self, p.kids = now, self, kids
}

// add adds lines of detail under the last step.
func (p *phases) add(lines string) {
	if p.on {
		p.b.WriteString(lines)
	}
}

// print writes what was recorded.
func (p *phases) print() {
	if p.on {
		fmt.Fprintf(os.Stderr, "morpheus: %s phases\n%s", p.title, p.b.String())
	}
}
