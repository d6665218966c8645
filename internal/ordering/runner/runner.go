package runner

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus/internal/ordering/coverage"
	"github.com/morpheus-go/morpheus/internal/ordering/server"
	"github.com/morpheus-go/morpheus/internal/ordering/store"
)

// Modes of a campaign.
const (
	ModeServer   = "server"   // one (or Meta.Constraints) pairwise constraints per run, until the planner is done
	ModeBaseline = "baseline" // no constraints: the system's natural orders
	ModeRandom   = "random"   // POS-style random delays
)

// Config is a campaign to run.
type Config struct {
	Meta   store.Meta
	Out    string        // campaign directory
	Runs   int           // total runs wanted (a resumed campaign counts its saved runs; server mode may end sooner, State.Done)
	Jobs   int           // runs at once
	Save   time.Duration // save interval
	Resume bool          // continue the campaign in Out
	Quiet  time.Duration // random mode's quiet window (0: the server's default)

	// Progress, if set, is called after each run with the number of runs
	// finished, while the state is locked.
	Progress func(runs int)
	// Stop, when closed, ends the campaign early (an interrupt): no run
	// starts any more, the running ones finish, and the state is saved.
	Stop <-chan struct{}
}

// stopped reports whether cfg.Stop is closed.
func (cfg *Config) stopped() bool {
	select {
	case <-cfg.Stop:
		return true
	default:
		return false
	}
}

// Run runs the campaign and returns its final state.
func Run(cfg Config) (*State, error) {
	if cfg.Jobs < 1 {
		cfg.Jobs = 1
	}
	if cfg.Save <= 0 {
		cfg.Save = 2 * time.Second
	}
	var st *State
	var dir *store.Dir
	if cfg.Resume {
		m, err := store.ReadMeta(cfg.Out)
		if err != nil {
			return nil, err
		}
		if err := sameCampaign(m, &cfg.Meta); err != nil {
			return nil, err
		}
		cfg.Meta = *m
		st = NewState(m.Rules, m.Window, m.Rounds)
		if dir, _, err = store.Open(cfg.Out, st.load); err != nil {
			return nil, err
		}
	} else {
		st = NewState(cfg.Meta.Rules, cfg.Meta.Window, cfg.Meta.Rounds)
		var err error
		if dir, err = store.Create(cfg.Out, &cfg.Meta); err != nil {
			return nil, err
		}
	}
	if len(cfg.Meta.Command) == 0 {
		return nil, errors.New("no command to run")
	}
	st.SkipInfeasible = cfg.Meta.SkipInfeasible
	st.Session = st.Counters
	base, err := os.MkdirTemp(socketRoot(), "morpheus-fuzz-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(base)

	errFiles := make([]*os.File, cfg.Jobs)
	for j := range errFiles {
		if errFiles[j], err = os.CreateTemp(base, "stderr-"); err != nil {
			return nil, err
		}
		defer errFiles[j].Close()
	}

	var (
		mu       sync.Mutex
		started  = st.Counters.Runs
		firstErr error
		saveErr  error
	)
	// save writes what is new; with nothing new (no run finished since the
	// last save) it writes nothing, unless final.
	save := func(final bool) error {
		mu.Lock()
		if !final && len(st.runs) == 0 {
			mu.Unlock()
			return nil
		}
		d := st.delta()
		mu.Unlock()
		return dir.Save(d)
	}
	stopSaver := make(chan struct{})
	saverDone := make(chan struct{})
	go func() {
		defer close(saverDone)
		t := time.NewTicker(cfg.Save)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				if err := save(false); err != nil {
					mu.Lock()
					saveErr = err
					mu.Unlock()
					return
				}
			case <-stopSaver:
				return
			}
		}
	}()

	// A worker with nothing to plan while runs are under way waits for them
	// (what they show may bring pairs back); with none under way the
	// campaign is done.
	inflight := 0
	busy := map[coverage.Constraint]int{} // constraints of the runs under way
	st.Planner.Busy = func(c coverage.Constraint) bool { return busy[c] > 0 }
	finished := sync.NewCond(&mu)
	var wg sync.WaitGroup
	for j := 0; j < cfg.Jobs; j++ {
		wg.Add(1)
		errFile := errFiles[j]
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				var (
					run  int
					scfg server.Config
					cs   []coverage.Constraint
				)
				for {
					if started >= cfg.Runs || firstErr != nil || saveErr != nil || cfg.stopped() || st.Done {
						mu.Unlock()
						return
					}
					run = st.NextRun
					scfg = server.Config{Timeout: cfg.Meta.Timeout, Quiet: cfg.Quiet}
					cs = nil
					switch cfg.Meta.Mode {
					case ModeServer:
						cs, scfg.Constraints = st.plan(max(cfg.Meta.Constraints, 1))
					case ModeRandom:
						scfg.Random = true
						scfg.Seed = cfg.Meta.Seed*0x9e3779b97f4a7c15 + uint64(run)
					}
					if cfg.Meta.Mode != ModeServer || cs != nil || st.Cov.Original() == nil {
						break
					}
					if inflight == 0 { // then nothing was busy: the planner is done
						st.Done = true
						finished.Broadcast()
						mu.Unlock()
						return
					}
					finished.Wait()
				}
				started++
				st.NextRun++
				inflight++
				for _, c := range cs {
					busy[c]++
				}
				mu.Unlock()

				o, err := execute(base, run, cfg.Meta.Command, cfg.Meta.Limit, scfg, errFile)
				mu.Lock()
				inflight--
				for _, c := range cs {
					if busy[c]--; busy[c] == 0 {
						delete(busy, c)
					}
				}
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("run %d: %w", run, err)
					}
				} else {
					st.record(run, cs, o)
					if cfg.Progress != nil {
						cfg.Progress(st.Counters.Runs)
					}
				}
				finished.Broadcast()
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	close(stopSaver)
	<-saverDone
	if saveErr != nil {
		return st, fmt.Errorf("saving: %w", saveErr)
	}
	if err := save(true); err != nil {
		return st, fmt.Errorf("saving: %w", err)
	}
	return st, firstErr
}

// sameCampaign checks that a resumed campaign is the one asked for.
func sameCampaign(saved, asked *store.Meta) error {
	if saved.Mode != asked.Mode {
		return fmt.Errorf("the campaign to resume is in mode %s, not %s", saved.Mode, asked.Mode)
	}
	if len(asked.Command) > 0 && fmt.Sprint(saved.Command) != fmt.Sprint(asked.Command) {
		return fmt.Errorf("the campaign to resume runs %q, not %q", saved.Command, asked.Command)
	}
	return nil
}

// socketRoot is where the runs' private directories go: a memory file system
// when there is one ($XDG_RUNTIME_DIR, /dev/shm), since creating a directory
// and a socket there costs microseconds rather than the milliseconds of a
// journaling disk; else the temporary directory. MkdirTemp makes the
// campaign's directory 0700, so only the user can reach the sockets.
func socketRoot() string {
	for _, d := range []string{os.Getenv("XDG_RUNTIME_DIR"), "/dev/shm"} {
		if d == "" {
			continue
		}
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && writable(d) {
			return d
		}
	}
	return os.TempDir()
}
