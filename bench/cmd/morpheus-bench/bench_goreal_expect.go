package main

import (
	"bytes"
	_ "embed"
	"fmt"
	"strings"
)

// A fixed version's failure under morpheus is a false alarm unless plain go
// test or go test -race fails it too in the same run, or it is listed in
// benchdata/goreal-expect.txt as a second real bug of that version, with its
// evidence: a run of plain Go, changed only by a delay of one goroutine at a
// point where Go may preempt it, that fails the test the same way (kind and
// line). A line: "BUG KIND LOCATION EVIDENCE".

//go:embed benchdata/goreal-expect.txt
var defaultRealExpect []byte

// realExpectation is one listed failure of a fixed version.
type realExpectation struct {
	Bug, Kind, Location, Evidence string
}

// parseRealExpect reads the expectations, naming file:line in its errors.
func parseRealExpect(file string, data []byte) ([]realExpectation, error) {
	var out []realExpectation
	seen := map[string]int{}
	err := eachLine(bytes.NewReader(data), func(n int, fields []string, rest func(int) string) error {
		if len(fields) < 4 {
			return fmt.Errorf("%s:%d: expected BUG KIND LOCATION EVIDENCE, found %d field(s)", file, n, len(fields))
		}
		x := realExpectation{Bug: fields[0], Kind: fields[1], Location: fields[2], Evidence: rest(3)}
		if !strings.Contains(x.Bug, "_") {
			return fmt.Errorf("%s:%d: expected a bug name as GoBench names it (grpc_2391), found %q", file, n, x.Bug)
		}
		if !strings.Contains(x.Location, ".go:") {
			return fmt.Errorf("%s:%d: expected a location FILE.go:LINE, found %q", file, n, x.Location)
		}
		if prev, ok := seen[x.Bug]; ok {
			return fmt.Errorf("%s:%d: %s is already listed at line %d", file, n, x.Bug, prev)
		}
		seen[x.Bug] = n
		out = append(out, x)
		return nil
	})
	return out, err
}

// knownFixedFailure is the evidence listed for row's fixed-version
// failure, "" if it is not listed.
func knownFixedFailure(expect []realExpectation, row *realRow) string {
	for _, x := range expect {
		if x.Bug == row.Name && x.Kind == row.FixedKind && x.Location == row.FixedLocation {
			return x.Evidence
		}
	}
	return ""
}
