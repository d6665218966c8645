package explore

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/morpheus-go/morpheus/internal/core"
	"github.com/morpheus-go/morpheus/strategy"
)

// learner runs what a strategy.Learner learns across iterations in
// deterministic epochs (conflict analysis's table, PCT's estimate of its
// step bound): what iteration i uses then depends only on i, never on which
// worker ran which iteration before it.
//
// Epoch e covers a fixed range of iterations: 16, 32, 64, ... up to 1024 per
// epoch, so the knowledge grows fast at first. Every iteration of epoch e
// reads the same frozen knowledge: everything learned by the iterations of
// earlier epochs (advance). Knowledge merges commutatively, so the order in which an
// epoch's iterations report does not matter. A worker
// whose next iteration belongs to a later epoch waits until the earlier
// epochs are complete.
type learner struct {
	mu    sync.Mutex
	cond  sync.Cond
	epoch int                // the epoch whose knowledge is ready
	known strategy.Knowledge // frozen knowledge of that epoch
	acc   strategy.Knowledge // what the current epoch's iterations learned so far, or nil
	done  int                // iterations of the current epoch finished
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

// newLearner starts from prior, the strategy's knowledge before any
// iteration (with a saved conflict table merged in).
func newLearner(prior strategy.Knowledge) *learner {
	l := &learner{known: prior}
	l.cond.L = &l.mu
	return l
}

// await waits until what iteration i must read is ready and returns it, or
// returns ok false if stop reports that i will not run after all.
func (l *learner) await(i int, stop func() bool) (k strategy.Knowledge, ok bool) {
	e := epochOf(i)
	l.mu.Lock()
	defer l.mu.Unlock()
	for l.epoch < e {
		if stop() {
			return nil, false
		}
		l.cond.Wait()
	}
	return l.known, true
}

// knowledge returns what iteration i read, if it is still at hand: while
// i's epoch is the latest (as it stays while i has not finished).
func (l *learner) knowledge(i int) (strategy.Knowledge, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.known, l.epoch == epochOf(i)
}

// finish folds in what iteration i learned (learned may be nil).
func (l *learner) finish(i int, learned strategy.Knowledge) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.acc = merge(l.acc, learned)
	l.done++
	if e := epochOf(i); l.done == epochSize(e) {
		l.known, l.acc, l.done, l.epoch = advance(l.known, l.acc), nil, 0, e+1
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
func (l *learner) final() strategy.Knowledge {
	l.mu.Lock()
	defer l.mu.Unlock()
	return merge(l.known.Clone(), l.acc)
}

// merge returns a merged with b; either may be nil, and a, if not nil, is
// changed.
func merge(a, b strategy.Knowledge) strategy.Knowledge {
	switch {
	case b == nil:
		return a
	case a == nil:
		return b.Clone()
	}
	a.Merge(b)
	return a
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
