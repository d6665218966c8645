package hitratio

import "math"

// CaseJSON is one case in a suite's JSON output.
type CaseJSON struct {
	Name     string             `json:"name"`
	HitRatio map[string]float64 `json:"hit_ratio"`
	// With FirstHitSeconds: the wall time to the first hit, null if none.
	FirstHitSeconds map[string]*float64 `json:"first_hit_seconds,omitempty"`
	// With FirstHitIteration: the lowest hitting iteration, null if none.
	FirstHitIteration map[string]*int `json:"first_hit_iteration,omitempty"`
}

// Fields chooses the optional fields of CaseJSON.
type Fields int

// The optional fields.
const (
	FirstHitSeconds Fields = 1 << iota
	FirstHitIteration
)

// Summary is a suite's JSON output: its trials, cases and geo-means.
type Summary struct {
	Trials  int                `json:"trials"`
	Cases   []CaseJSON         `json:"cases"`
	Geomean map[string]float64 `json:"geomean"`
}

// Summary returns the matrix as JSON.
func (m *Matrix) Summary(f Fields) Summary {
	return Summary{Trials: m.Trials, Cases: m.JSONCases(f), Geomean: m.GeomeanJSON()}
}

// JSONCases returns the cases as JSON, with the fields f.
func (m *Matrix) JSONCases(f Fields) []CaseJSON {
	out := []CaseJSON{}
	for i, row := range m.Cells {
		c := CaseJSON{Name: m.Cases[i], HitRatio: map[string]float64{}}
		if f&FirstHitSeconds != 0 {
			c.FirstHitSeconds = map[string]*float64{}
		}
		if f&FirstHitIteration != 0 {
			c.FirstHitIteration = map[string]*int{}
		}
		for j, s := range m.Strategies {
			cell := row[j]
			c.HitRatio[s] = cell.Ratio()
			if c.FirstHitSeconds != nil {
				c.FirstHitSeconds[s] = nil
				if cell.FirstHit >= 0 {
					v := cell.FirstHit.Seconds()
					c.FirstHitSeconds[s] = &v
				}
			}
			if c.FirstHitIteration != nil {
				c.FirstHitIteration[s] = nil
				if cell.FirstHitIteration >= 0 {
					v := cell.FirstHitIteration
					c.FirstHitIteration[s] = &v
				}
			}
		}
		out = append(out, c)
	}
	return out
}

// GeomeanJSON returns the geo-mean of every strategy; a NaN one (no cases)
// is left out, as JSON has no NaN.
func (m *Matrix) GeomeanJSON() map[string]float64 {
	out := map[string]float64{}
	for j, s := range m.Strategies {
		if g := m.Geomean(j); !math.IsNaN(g) {
			out[s] = g
		}
	}
	return out
}
