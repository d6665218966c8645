package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
)

// A kernel's README documents its bug: a description that names lines of
// the kernel ("line 20 missing unlock", "Line 161 holds mutex at 158") and
// often the backtrace GoBench saw (frames at kernel_test.go:214). bench
// goker sets the lines of a find beside those, so that a find at other
// lines (a step-limit failure where a goroutine polls, a different race)
// stands out.

var (
	readmeFrame = regexp.MustCompile(`_test\.go:(\d+)`)
	readmeLine  = regexp.MustCompile(`(?i)\blines?\s+(\d+)((?:\s*(?:,|and|-|to)\s*\d+)*)`)
	readmeAt    = regexp.MustCompile(`\d+`)
	findLine    = regexp.MustCompile(`\.go:(\d+)`)
)

// readmeLines are the kernel's lines that its README at dir names, sorted;
// nil if it names none (or has no README).
func readmeLines(dir string) []int {
	data, err := os.ReadFile(filepath.Join(dir, "README.md"))
	if err != nil {
		return nil
	}
	var out []int
	add := func(s string) {
		if n, err := strconv.Atoi(s); err == nil && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	for _, m := range readmeFrame.FindAllSubmatch(data, -1) {
		add(string(m[1]))
	}
	for _, m := range readmeLine.FindAllSubmatch(data, -1) {
		add(string(m[1]))
		for _, n := range readmeAt.FindAll(m[2], -1) {
			add(string(n))
		}
	}
	slices.Sort(out)
	return out
}

// findLines are the line numbers a find's location and goroutines name.
func findLines(location string, goroutines []string) []int {
	var out []int
	for _, s := range append([]string{location}, goroutines...) {
		for _, m := range findLine.FindAllStringSubmatch(s, -1) {
			if n, err := strconv.Atoi(m[1]); err == nil && !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	slices.Sort(out)
	return out
}

// readmeMatch tells whether a find at lines is at the README's lines (one
// in common); nil when the README names no line, and so cannot tell.
func readmeMatch(readme, lines []int) *bool {
	if len(readme) == 0 {
		return nil
	}
	ok := false
	for _, n := range lines {
		if slices.Contains(readme, n) {
			ok = true
		}
	}
	return &ok
}

// readmeMatch tells whether r's find is at its README's lines.
func (r *gokerResult) readmeMatch() *bool {
	if !r.Found {
		return nil
	}
	return readmeMatch(r.Readme, findLines(r.Location, r.Goroutines))
}

func intList(ns []int) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ","
		}
		s += strconv.Itoa(n)
	}
	return s
}
