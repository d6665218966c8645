package morpheus

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
)

// learner runs what strategies learn across iterations in deterministic
// epochs: conflict analysis's table, and PCT's estimate of the step bound. What
// iteration i uses then depends only on i, never on which worker ran which
// iteration before it.
//
// Epoch e covers a fixed range of iterations: 16, 32, 64, ... up to 1024 per
// epoch, so the table fills fast at first. Every iteration of epoch e reads
// the same frozen table: everything learned by the iterations of earlier
// epochs. Learning is a union of (signature, seen, conflicted) facts, so the
// order in which an epoch's iterations report does not matter. A worker
// whose next iteration belongs to a later epoch waits until the earlier
// epochs are complete.
type learner struct {
	mu    sync.Mutex
	cond  sync.Cond
	epoch int              // the epoch whose table is ready
	table *strategy.Table  // frozen table of that epoch
	steps int              // most steps of an iteration before that epoch
	acc   *strategy.Table  // what the current epoch's iterations learned so far
	accSt int              // most steps in the current epoch so far
	done  int              // iterations of the current epoch finished
	stats strategy.CAStats // over all iterations
}

// epochStart returns the first iteration of epoch e.
func epochStart(e int) int {
	s := 0
	for k := 0; k < e; k++ {
		s += epochSize(k)
	}
	return s
}

func epochSize(e int) int { return 16 << min(e, 6) } // 16, 32, ..., 1024

// epochOf returns the epoch of iteration i.
func epochOf(i int) int {
	e, s := 0, 0
	for s+epochSize(e) <= i {
		s += epochSize(e)
		e++
	}
	return e
}

func newLearner(initial *strategy.Table) *learner {
	if initial == nil {
		initial = strategy.NewTable()
	}
	l := &learner{table: initial, acc: strategy.NewTable()}
	l.cond.L = &l.mu
	return l
}

// await waits until what iteration i must read is ready and returns it, or
// returns ok false if stop reports that i will not run after all.
func (l *learner) await(i int, stop func() bool) (table *strategy.Table, steps int, ok bool) {
	e := epochOf(i)
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.epoch < e {
		if stop() {
			return nil, 0, false
		}
		l.cond.Wait()
	}
	return l.table, l.steps, true
}

// finish folds in what iteration i learned (learned may be nil).
func (l *learner) finish(i int, learned *strategy.Table, st strategy.CAStats, steps int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.stats.Add(st)
	if learned != nil {
		l.acc.Merge(learned)
	}
	l.accSt = max(l.accSt, steps)
	l.done++
	if e := epochOf(i); l.done == epochSize(e) {
		next := l.table.Clone()
		next.Merge(l.acc)
		l.table, l.acc, l.done, l.epoch = next, strategy.NewTable(), 0, e+1
		l.steps = max(l.steps, l.accSt)
		l.cond.Broadcast()
	}
}

// wake lets waiting workers re-check whether their iteration still runs.
func (l *learner) wake() {
	l.mu.Lock()
	l.cond.Broadcast()
	l.mu.Unlock()
}

// final returns everything learned, including the unfinished epoch.
func (l *learner) final() *strategy.Table {
	l.mu.Lock()
	defer l.mu.Unlock()
	t := l.table.Clone()
	t.Merge(l.acc)
	return t
}

// loadTable reads a saved conflict table; a missing file is an empty table.
func loadTable(path string) (*strategy.Table, error) {
	t := strategy.NewTable()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return t, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if err := t.Load(f, core.KeyOfText); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return t, nil
}

// saveTable merges t into the table saved at path (other runs and shards may
// have added to it) and writes the result atomically.
func saveTable(path string, t *strategy.Table) error {
	old, err := loadTable(path)
	if err != nil {
		return err
	}
	old.Merge(t)
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".catable-*")
	if err != nil {
		return err
	}
	if err := old.Save(tmp, core.LocText); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), path)
}
