package sct

import (
	"bytes"
	"regexp"
	"testing"
)

// The table prints the ratios, the geo-means floored at 1/trials, and the
// side-by-side with the thesis floored alike on both sides.
func TestWriteTable(t *testing.T) {
	r, err := Run(Options{Trials: 20, Cases: []string{"reorder_3", "account"}, Strategies: []string{"random", "pct:2", "pos*"}})
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	WriteTable(&b, r)
	for _, re := range []string{
		`(?m)^ +case +size +random +pct:2 +pos\* *$`,
		`(?m)^ +reorder_3 +\[4/12\]( +[01]\.[0-9]{4}| +0)+ *$`,
		`(?m)^ +geo-mean( +0\.[0-9]{4}){3} *$`,
		`(?m)^ +reorder_3 +0\.0246 / [0-9.]+ +0\.0255 / `,
		`(?m)^Geo-means count a ratio below 1/20 \(a case never hit\) as 1/20 on both sides, 1 over the smaller number of trials \(thesis 10000, ours 20\)\.$`,
		// reorder_3's figures below 1/20 count as 0.05: pos* sqrt(0.0997*0.3367) over pct:2 sqrt(0.05*0.2140) and random sqrt(0.05*0.1173).
		`on these cases, thesis: pos\* 1\.77× best pct, 2\.39× random`,
	} {
		if !regexp.MustCompile(re).MatchString(b.String()) {
			t.Errorf("table lacks %s:\n%s", re, b.String())
		}
	}
	for i := range r.Cells {
		for j := range r.Cells[i] {
			if f := r.First(i, j); f != nil && r.Cases[i].Hit(f.Kind, f.Message) {
				t.Errorf("First(%d, %d) is a hit: %v", i, j, f)
			}
		}
	}
}
