package driver

import "context"

// RunPrepared runs the tests of a package that Prepare built, as Run does,
// and returns a copy of p with their outcomes. p itself is not changed, so
// one build can be run with several configurations at once (bench sct
// -plain runs it once per strategy); cfg's build fields are not used.
func RunPrepared(ctx context.Context, cfg Config, p *PackageSummary) *PackageSummary {
	q := *p
	q.Tests, q.Output = nil, "" // runPackage sets the rest
	if q.Err == nil && q.Binary != "" {
		runPackage(ctx, cfg, &q)
	}
	return &q
}
