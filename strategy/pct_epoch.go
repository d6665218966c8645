package strategy

// pctKnowledge is what PCT estimating its step bound learns: the most
// decisions an iteration made.
type pctKnowledge struct{ steps int }

func (k *pctKnowledge) Merge(o Knowledge) { k.steps = max(k.steps, o.(*pctKnowledge).steps) }
func (k *pctKnowledge) Clone() Knowledge  { c := *k; return &c }

// Prior returns nil when the step bound is given (nothing to learn), and no
// steps seen otherwise.
func (p *PCT) Prior() Knowledge {
	if p.k != 0 {
		return nil
	}
	return &pctKnowledge{}
}

// Learn makes the estimate start from the most steps k records, replacing
// what earlier iterations of this instance saw, so that the bound, and the
// schedule, do not depend on which worker ran what.
func (p *PCT) Learn(k Knowledge, keep bool) { p.maxSteps = k.(*pctKnowledge).steps }

// Learned returns the number of decisions PCT made in its last iteration:
// the steps its change points are drawn among (local ops and ops a wrapper
// decided are not counted).
func (p *PCT) Learned() Knowledge {
	if p.k != 0 {
		return nil
	}
	return &pctKnowledge{steps: p.step}
}
