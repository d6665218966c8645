package strategy_test

import (
	"testing"

	"github.com/morpheus-go/morpheus/strategy"
)

// An epoch that learns nothing adds one to the count of settled epochs; one
// that learns a signature or a conflict ends it, and a merge keeps the
// lesser count.
func TestAdvanceCountsSettledEpochs(t *testing.T) {
	ca := strategy.WithCA(strategy.NewPOS(), nil)
	k := ca.Prior()
	nothing := ca.Prior() // what an epoch hands back that learned nothing
	for want := 1; want <= 4; want++ {
		next := strategy.Advance(k, nothing)
		if got := strategy.Settled(next); got != want {
			t.Fatalf("after %d quiet epochs: settled %d", want, got)
		}
		if strategy.Settled(k) != want-1 {
			t.Fatal("Advance changed the knowledge it was given")
		}
		k = next
	}
	if got := strategy.Settled(strategy.Advance(k, nil)); got != 5 {
		t.Errorf("an epoch that handed back nothing: settled %d, want 5", got)
	}
	news := ca.Prior()
	strategy.ConflictTable(news).Mark(strategy.Sig{Task: 1, Loc: 2}, true)
	next := strategy.Advance(k, news)
	if got := strategy.Settled(next); got != 0 {
		t.Errorf("an epoch that learned a conflict: settled %d, want 0", got)
	}
	if seen, conflicted := strategy.ConflictTable(next).Lookup(strategy.Sig{Task: 1, Loc: 2}); !seen || !conflicted {
		t.Error("Advance lost what the epoch learned")
	}
	merged := k.Clone()
	merged.Merge(next)
	if got := strategy.Settled(merged); got != 0 {
		t.Errorf("merge of settled 4 and 0: %d, want the lesser", got)
	}
}

// With a settled table CA analyses one iteration in 2, 4, then 8, chosen by
// the seed: the others learn nothing and count in no statistics, and the
// runtime hands them no steps; they probe as any other iteration does. Of
// what an epoch's iterations learn, each fact is handed back once.
func TestCASettledSamples(t *testing.T) {
	// Tasks 0 and 1 race on resource 1; task 2's op is new to the table.
	p := prog{{w(1)}, {w(1)}, {w(7)}}
	tb := strategy.NewTable()
	tb.Mark(strategy.Sig{Task: 0, Loc: 0}, false)
	tb.Mark(strategy.Sig{Task: 1, Loc: 0}, false)
	const seeds = 4000
	k := strategy.WithCA(strategy.NewPOS(), nil).Prior()
	strategy.ConflictTable(k).Merge(tb)
	for settled := 0; settled <= 5; settled++ {
		ca := strategy.WithCA(strategy.NewPOS(), nil)
		read, probes, readProbes := 0, 0, 0
		for seed := uint64(0); seed < seeds; seed++ {
			ca.Learn(k, true)
			run(ca, p, seed)
			learned := strategy.ConflictTable(ca.Learned()).Len()
			if ca.Probing() {
				probes++
			}
			if !ca.ReadsSteps() {
				if learned != 0 || ca.Stats() != (strategy.CAStats{}) {
					t.Fatalf("settled %d, seed %d: not analysed, yet learned %d, stats %+v",
						settled, seed, learned, ca.Stats())
				}
				continue
			}
			if ca.Probing() {
				readProbes++
			}
			// The first analysed iteration learns the new op and the race;
			// the later ones of the epoch find them again and hand back
			// nothing, the runtime having merged them already.
			want := 3
			if read > 0 {
				want = 0
			}
			read++
			if learned != want || ca.Stats().Ops != 3 {
				t.Fatalf("settled %d, seed %d: analysed, learned %d signatures, stats %+v; want %d",
					settled, seed, learned, ca.Stats(), want)
			}
		}
		want := seeds >> min(settled, 3)
		if read < want*8/10 || read > want*12/10 {
			t.Errorf("settled %d: %d of %d iterations analysed, want about %d", settled, read, seeds, want)
		}
		// Probes are as many as ever, and the sample takes its share of them.
		if lo, hi := seeds/strategy.ProbeEvery*8/10, seeds/strategy.ProbeEvery*12/10; probes < lo || probes > hi {
			t.Errorf("settled %d: %d probes in %d seeds, want about 1 in %d", settled, probes, seeds, strategy.ProbeEvery)
		}
		if w := probes >> min(settled, 3); readProbes < w*6/10 || readProbes > w*14/10 {
			t.Errorf("settled %d: %d of the %d probes analysed, want about %d", settled, readProbes, probes, w)
		}
		k = strategy.Advance(k, nil)
	}
	// An idle CA (nothing reads what it learns) analyses nothing.
	idle := strategy.WithCA(strategy.NewPOS(), nil)
	idle.Learn(idle.Prior(), false)
	for seed := uint64(0); seed < 100; seed++ {
		if run(idle, p, seed); idle.ReadsSteps() {
			t.Fatalf("seed %d: an idle CA analyses its iteration", seed)
		}
	}
}
