package strategy

import (
	"fmt"
	"strconv"
	"strings"
)

// caSuffix marks a strategy wrapped with conflict analysis (WithCA).
const caSuffix = "+ca"

// Parse builds the strategy a name denotes, as on the command line:
//
//	random          random walk
//	pct:D           PCT with depth D ≥ 1, step bound estimated from earlier iterations
//	pct:D:K         PCT with depth D and step bound K ≥ 1
//	pos             basic POS
//	pos*            POS with priority reassignment
//	pos*-noreads    POS* treating reads of a resource as conflicting too
//	rapos           RAPOS
//	dfs             depth-first enumeration of all schedules
//	dfs:B           depth-first enumeration with at most B ≥ 0 preemptions
//	NAME+ca         NAME with conflict analysis, starting with an empty table
//
// The strategy's Name is the canonical form of name. A replay follows a
// recorded trace (morpheus.Replay), not a strategy given by name.
func Parse(name string) (Strategy, error) {
	if base, ok := strings.CutSuffix(name, caSuffix); ok {
		if strings.HasSuffix(base, caSuffix) {
			return nil, fmt.Errorf("strategy %q: %s given twice", name, caSuffix)
		}
		inner, err := Parse(base)
		if err != nil {
			return nil, err
		}
		return WithCA(inner, NewTable()), nil
	}
	kind, params, _ := strings.Cut(name, ":")
	var args []string
	if params != "" || strings.Contains(name, ":") {
		args = strings.Split(params, ":")
	}
	noArgs := func(s Strategy) (Strategy, error) {
		if args != nil {
			return nil, fmt.Errorf("strategy %q takes no parameters", kind)
		}
		return s, nil
	}
	switch kind {
	case "random":
		return noArgs(NewRandom())
	case "pos":
		return noArgs(NewPOS())
	case "pos*":
		return noArgs(NewPOSStar())
	case "pos*-noreads":
		return noArgs(NewPOSStarNoReads())
	case "rapos":
		return noArgs(NewRAPOS())
	case "pct":
		if len(args) < 1 || len(args) > 2 {
			return nil, fmt.Errorf("strategy %q: want pct:D or pct:D:K (depth D, step bound K)", name)
		}
		d, err := parseParam(name, "depth D", args[0], 1, maxPCTDepth)
		if err != nil {
			return nil, err
		}
		k := 0
		if len(args) == 2 {
			if k, err = parseParam(name, "step bound K", args[1], 1, maxPCTSteps); err != nil {
				return nil, err
			}
		}
		return NewPCT(d, k), nil
	case "dfs":
		switch len(args) {
		case 0:
			return NewDFS(), nil
		case 1:
			b, err := parseParam(name, "preemption bound B", args[0], 0, maxDFSBound)
			if err != nil {
				return nil, err
			}
			return NewBoundedDFS(b), nil
		}
		return nil, fmt.Errorf("strategy %q: want dfs or dfs:B (preemption bound B)", name)
	case "replay":
		return nil, fmt.Errorf("strategy %q is built from a recorded trace, not by name", name)
	}
	return nil, fmt.Errorf("unknown strategy %q (known: %s)", name, strings.Join(Names(), ", "))
}

// Limits on parameters, to turn typos into errors rather than huge tables.
const (
	maxPCTDepth = 1000
	maxPCTSteps = 1 << 30
	maxDFSBound = 1 << 20
)

func parseParam(name, what, s string, lo, hi int) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < lo || v > hi {
		return 0, fmt.Errorf("strategy %q: %s must be an integer in [%d, %d], not %q", name, what, lo, hi, s)
	}
	return v, nil
}

// Names returns the forms Parse accepts, for help texts.
func Names() []string {
	return []string{"random", "pct:D", "pct:D:K", "pos", "pos*", "pos*-noreads", "rapos", "dfs", "dfs:B", "NAME+ca"}
}
