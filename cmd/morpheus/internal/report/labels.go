package report

import "strings"

// cut shortens s to at most maxLabel runes for a label of the diagram,
// between words: it drops whole words from the end and marks the cut with
// "…". A first word longer than the bound is kept whole (it overflows
// rather than reading as another word); the full text is in the mark's
// tooltip.
func cut(s string) string {
	r := []rune(s)
	if len(r) <= maxLabel {
		return s
	}
	end := -1
	for i := maxLabel - 2; i > 0; i-- { // room for " …"
		if r[i] == ' ' {
			end = i
			break
		}
	}
	if end < 0 {
		first, _, _ := strings.Cut(s, " ")
		if first == s {
			return s
		}
		return first + " …"
	}
	return strings.TrimRight(string(r[:end]), " ") + " …"
}
