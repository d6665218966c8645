package hitratio

import (
	"fmt"
	"sync"
	"time"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/strategy"
)

// Case is one program of a suite.
type Case struct {
	Name string
	Test func(*morpheus.Env)
	// Hit reports whether a failure, by kind and message, is the case's
	// intended one; nil counts every failure.
	Hit func(kind, message string) bool
	// Options are the limits the case needs; they come after the
	// harness's own.
	Options []morpheus.Option
}

// Config configures Run.
type Config struct {
	Trials     int      // iterations per case and strategy
	Strategies []string // the columns
	// Seed returns the base seed of a case under a strategy; nil: 0.
	Seed    func(caseName, strategy string) uint64
	Workers int // 0: GOMAXPROCS; the counts do not depend on it
	// Done, if not nil, is called after each cell, in order.
	Done func(c Case, strategy string, cell Cell)
}

// Cell is one case under one strategy.
type Cell struct {
	Hits, Failures, Iterations int
	// FirstHit is the wall time from the start of the cell to its first
	// hit, -1 if none.
	FirstHit time.Duration
	// FirstHitIteration is the lowest hitting iteration: -1 if none, or if
	// a lower iteration failed otherwise.
	FirstHitIteration int
	Elapsed           time.Duration
	Steps             int64
	// Failure is the lowest failing iteration's failure, hit or not.
	Failure *morpheus.Failure
	// CA is what conflict analysis saw, with a +ca strategy.
	CA *strategy.CAStats
}

// Ratio returns the cell's hit ratio, hits over iterations.
func (c Cell) Ratio() float64 { return float64(c.Hits) / float64(max(c.Iterations, 1)) }

// Matrix is what Run measured: Cells[i][j] is case i under strategy j.
type Matrix struct {
	Trials     int
	Cases      []string
	Strategies []string
	Cells      [][]Cell
}

// Run explores every case under every strategy for c.Trials iterations
// (fewer if a strategy exhausts the case), counting hits.
func Run(cases []Case, c Config) (*Matrix, error) {
	if c.Trials < 1 {
		return nil, fmt.Errorf("hitratio: trials must be positive")
	}
	m := &Matrix{Trials: c.Trials, Strategies: c.Strategies}
	for _, cs := range cases {
		m.Cases = append(m.Cases, cs.Name)
		row := make([]Cell, len(c.Strategies))
		for j, s := range c.Strategies {
			cell, err := runCell(cs, s, c)
			if err != nil {
				return nil, err
			}
			row[j] = cell
			if c.Done != nil {
				c.Done(cs, s, cell)
			}
		}
		m.Cells = append(m.Cells, row)
	}
	return m, nil
}

func runCell(cs Case, strat string, c Config) (Cell, error) {
	hit := cs.Hit
	if hit == nil {
		hit = func(string, string) bool { return true }
	}
	var seed uint64
	if c.Seed != nil {
		seed = c.Seed(cs.Name, strat)
	}
	cell := Cell{FirstHit: -1, FirstHitIteration: -1}
	var mu sync.Mutex // guards cell.FirstHit across the explorer's workers
	start := time.Now()
	opts := []morpheus.Option{
		morpheus.Name(cs.Name), morpheus.Strategy(strat), morpheus.Seed(seed), morpheus.Iterations(c.Trials),
		explore.CountHits(func(kind, msg string) bool {
			h := hit(kind, msg)
			mu.Lock()
			if h && cell.FirstHit < 0 {
				cell.FirstHit = time.Since(start)
			}
			mu.Unlock()
			return h
		}),
	}
	if c.Workers > 0 {
		opts = append(opts, morpheus.Workers(c.Workers))
	}
	res, err := morpheus.Explore(cs.Test, append(opts, cs.Options...)...)
	if err != nil {
		return cell, fmt.Errorf("%s under %s: %w", cs.Name, strat, err)
	}
	run := explore.ResultOf(res)
	cell.Hits, cell.Failures, cell.Iterations = run.Hits, run.Failures, res.Iterations
	cell.Elapsed, cell.Steps, cell.Failure, cell.CA = res.Elapsed, res.Steps, res.Failure, run.CA
	if f := res.Failure; f != nil && hit(f.Kind, f.Message) {
		cell.FirstHitIteration = f.Iteration
	}
	return cell, nil
}

// Ratio returns case i's hit ratio under strategy j.
func (m *Matrix) Ratio(i, j int) float64 { return m.Cells[i][j].Ratio() }

// Column returns the index of a strategy, or -1.
func (m *Matrix) Column(strategy string) int {
	for j, s := range m.Strategies {
		if s == strategy {
			return j
		}
	}
	return -1
}

// Floor returns the floor of the matrix's geo-means, 1/Trials.
func (m *Matrix) Floor() float64 { return Floor(m.Trials) }

// Geomean returns the geometric mean of strategy j's hit ratios over the
// cases, floored at 1/Trials.
func (m *Matrix) Geomean(j int) float64 {
	v := make([]float64, len(m.Cells))
	for i := range m.Cells {
		v[i] = m.Ratio(i, j)
	}
	return Geomean(v, m.Floor())
}
