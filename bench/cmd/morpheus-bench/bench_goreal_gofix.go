package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

// The build fixes bench goreal applies of its own: old code that the Go
// release GoBench built it with accepted and today's rejects, fixed in
// both versions' trees alike (the applications' vendored copies included)
// without changing what their tests run.

// base64Alphabet matches a call of base64.NewEncoding with a literal
// alphabet of 64 symbols.
var base64Alphabet = regexp.MustCompile(`base64\.NewEncoding\(("[^"\\\n]{64}")\)`)

// fixDuplicateAlphabets rewrites, in every Go file under dir, a literal
// base64 alphabet with duplicate symbols (rejected by base64.NewEncoding
// since Go 1.22, a panic as the package initializes) to one where each
// repeated symbol is replaced by a symbol the alphabet does not use. Old
// code used such alphabets to make names (a vendored ugorji/go codec's
// gen.go, "...0123456789__"), never to decode, so the names differ and
// nothing else does. It returns the files it changed, relative to dir.
func fixDuplicateAlphabets(dir string) ([]string, error) {
	var changed []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil || !bytes.Contains(data, []byte("base64.NewEncoding(")) {
			return err
		}
		out := base64Alphabet.ReplaceAllFunc(data, func(call []byte) []byte {
			lit := base64Alphabet.FindSubmatch(call)[1]
			alpha, err := strconv.Unquote(string(lit))
			if err != nil {
				return call
			}
			fixed := distinctAlphabet(alpha)
			if fixed == alpha {
				return call
			}
			return bytes.Replace(call, lit, []byte(strconv.Quote(fixed)), 1)
		})
		if bytes.Equal(out, data) {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		changed = append(changed, rel)
		return os.WriteFile(path, out, 0o644)
	})
	return changed, err
}

// distinctAlphabet replaces each repeat of a symbol in alpha by the first
// printable ASCII symbol alpha does not hold (never the padding '=').
func distinctAlphabet(alpha string) string {
	used := map[byte]bool{}
	for i := 0; i < len(alpha); i++ {
		used[alpha[i]] = true
	}
	b := []byte(alpha)
	seen := map[byte]bool{}
	next := byte('!')
	for i, c := range b {
		if !seen[c] {
			seen[c] = true
			continue
		}
		for next <= '~' && (used[next] || next == '=' || next == '"' || next == '\\') {
			next++
		}
		if next > '~' {
			return alpha
		}
		b[i] = next
		used[next] = true
	}
	return string(b)
}
