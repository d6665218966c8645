// Package suffix is a public suffix list for a cookie jar: a package of
// another module that imports net/http/cookiejar and nothing concurrent.
package suffix

import (
	"net/http/cookiejar"
	"strings"
)

// List says every name's last label is its public suffix.
type List struct{}

var _ cookiejar.PublicSuffixList = List{}

// PublicSuffix returns domain's last label.
func (List) PublicSuffix(domain string) string { return domain[strings.LastIndex(domain, ".")+1:] }

// String names the list.
func (List) String() string { return "last label" }
