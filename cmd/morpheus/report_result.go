package main

import (
	"fmt"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/report"
	"github.com/morpheus-go/morpheus/internal/plural"
	"github.com/morpheus-go/morpheus/internal/results"
	"github.com/morpheus-go/morpheus/trace"
)

// addResult replaces d with the report of the run in the result file at
// path that tr belongs to, showing tr: the record of tr's test (the records
// of its shards merged), with its figures and coverage.
func addResult(d *report.Data, tr *trace.Trace, path string) error {
	recs, err := results.ReadFile(path)
	if err != nil {
		return err
	}
	var mine []*results.Record
	for _, r := range recs {
		if r.Test == tr.Header.Test && r.Replay == "" {
			mine = append(mine, r)
		}
	}
	if len(mine) == 0 {
		return fmt.Errorf("%s: no record of test %s among its %s", path, tr.Header.Test, plural.N(len(recs), "record"))
	}
	merged, err := results.Merge(mine, true)
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	if len(merged) != 1 {
		return fmt.Errorf("%s: records of test %s from %d directories; keep those of one package", path, tr.Header.Test, len(merged))
	}
	rd, err := reportData(merged[0])
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	// Show the trace given, not the record's: it may be a later shrink or
	// another failing iteration. Keep the record's figures.
	original := 0
	if rd.Failure != nil && rd.Failure.Trace != nil && rd.Failure.Trace.Header.Seed == tr.Header.Seed && rd.Failure.Trace.Steps() == tr.Steps() {
		original = rd.Failure.OriginalSteps
	}
	rd.Failure, rd.Trace = d.Failure, d.Trace
	if rd.Failure != nil {
		rd.Failure.OriginalSteps = original
	}
	*d = *rd
	return nil
}
