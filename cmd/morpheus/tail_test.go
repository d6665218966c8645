package main

import (
	"strings"
	"testing"
)

// A crash's cause stays in the tail of its output: the goroutine dump after
// "fatal error: …" is longer than the lines kept, and the cause line comes
// first; output without such a line keeps its last lines only.
func TestTailKeepsCrashCause(t *testing.T) {
	var b strings.Builder
	b.WriteString("=== RUN TestX\nfatal error: getWeakHandle on invalid pointer\n\n")
	for i := 0; i < 100; i++ {
		b.WriteString("goroutine dump line\n")
	}
	b.WriteString("last line\n")
	got := tail(b.String(), 5)
	if !strings.HasPrefix(got, "fatal error: getWeakHandle on invalid pointer\n") || !strings.HasSuffix(got, "last line") {
		t.Fatalf("tail lost the crash's cause:\n%s", got)
	}
	if n := strings.Count(got, "\n"); n != 6 {
		t.Fatalf("tail kept %d lines, want the cause, a mark and 5:\n%s", n+1, got)
	}
	plain := tail("a\nb\nc\nd\n", 2)
	if plain != "c\nd" {
		t.Fatalf("tail of plain output = %q, want %q", plain, "c\nd")
	}
}
