// Package plural writes counts of things in English: "1 failure",
// "2 failures", "0 failures". Every message of morpheus and its CLI that
// counts something uses it, so that none says "1 failures".
package plural

import (
	"strconv"
	"strings"
)

// N returns n and noun, in the plural unless n is 1: N(1, "failure") is
// "1 failure", N(3, "process") "3 processes", N(2, "entry") "2 entries".
func N[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Of(n, noun)
}

// Of returns noun in the plural unless n is 1, for counts printed apart
// from their noun ("%d of %d " + Of(total, "iteration")).
func Of[T ~int | ~int32 | ~int64 | ~uint | ~uint32 | ~uint64](n T, noun string) string {
	if n == 1 {
		return noun
	}
	return Plural(noun)
}

// Plural returns the plural of a regular English noun: +s, +es after s, x,
// z, ch and sh, -y +ies after a consonant. Multi-word nouns ("partial
// order") change their last word.
func Plural(noun string) string {
	switch {
	case noun == "":
		return noun
	case strings.HasSuffix(noun, "s"), strings.HasSuffix(noun, "x"), strings.HasSuffix(noun, "z"),
		strings.HasSuffix(noun, "ch"), strings.HasSuffix(noun, "sh"):
		return noun + "es"
	case strings.HasSuffix(noun, "y") && len(noun) > 1 && !strings.ContainsRune("aeiou", rune(noun[len(noun)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}
