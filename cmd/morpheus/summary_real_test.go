package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/internal/rewrite/driver"
)

// A test that ran on the real network says so in the summary and in its
// -json record.
func TestSummaryRealNetwork(t *testing.T) {
	sum := &driver.Summary{Packages: []*driver.PackageSummary{{Path: "example.com/p", Tests: []*driver.TestSummary{
		{Name: "TestGet", Schedules: 1, Real: "httptest.NewServer at get_test.go:12"},
		{Name: "TestDial", Schedules: 100},
	}}}}
	var b bytes.Buffer
	printTestSummary(&b, sum)
	for _, want := range []string{
		"ok   example.com/p TestGet: ran once on the real network and real time, not under control: httptest.NewServer at get_test.go:12",
		"ok   example.com/p TestDial: 100 schedules",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("summary lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	if err := writeTestRecords(&b, sum, nil); err != nil {
		t.Fatal(err)
	}
	var r testRecord
	if err := json.NewDecoder(&b).Decode(&r); err != nil || r.Real != "httptest.NewServer at get_test.go:12" {
		t.Fatalf("record %+v, %v", r, err)
	}
}
