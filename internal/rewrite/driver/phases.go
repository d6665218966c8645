package driver

import (
	"fmt"
	"os"
	"strings"
	"time"
)

// EnvPhases, set to 1, makes Prepare print on standard error where its
// time went (fingerprint, load, rewrite, vet, each go test -c), for
// measuring the edit–rerun loop.
const EnvPhases = "MORPHEUS_PHASES"

// phases times the steps of one Prepare.
type phases struct {
	on   bool
	last time.Time
	b    strings.Builder
}

func newPhases() *phases {
	return &phases{on: os.Getenv(EnvPhases) == "1", last: time.Now()}
}

// done records that the step named what ended now.
func (p *phases) done(what string) {
	if !p.on {
		return
	}
	now := time.Now()
	fmt.Fprintf(&p.b, "  %-40s %7.3fs\n", what, now.Sub(p.last).Seconds())
	p.last = now
}

// print writes what was recorded.
func (p *phases) print() {
	if p.on {
		fmt.Fprintf(os.Stderr, "morpheus: prepare phases\n%s", p.b.String())
	}
}
