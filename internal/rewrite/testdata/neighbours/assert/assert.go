// Package assert checks values the way testify's assert and require do: it
// takes the test's t as an interface of its own, marks its functions test
// helpers when t has a Helper method, and fails t with Errorf (and
// FailNow, for the Must forms).
package assert

import (
	"fmt"
	"reflect"
)

// TestingT is what the checks fail.
type TestingT interface {
	Errorf(format string, args ...any)
}

type helper interface{ Helper() }

type failNower interface{ FailNow() }

// Equal reports whether want and got are equal, and fails t if not.
func Equal(t TestingT, want, got any) bool {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if want == got {
		return true
	}
	return Fail(t, fmt.Sprintf("not equal:\nexpected: %v\nactual  : %v", want, got))
}

// MustEqual is Equal that ends the test when they differ.
func MustEqual(t TestingT, want, got any) {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if !Equal(t, want, got) {
		t.(failNower).FailNow()
	}
}

// Fail fails t with a message whose first line is empty, as testify's are.
func Fail(t TestingT, failure string) bool {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	t.Errorf("\n\tError: %s", failure)
	return false
}

// Len reports whether obj's length, read by reflection as testify's Len
// reads it, is n, and fails t if not.
func Len(t TestingT, obj any, n int) bool {
	if h, ok := t.(helper); ok {
		h.Helper()
	}
	if l := reflect.ValueOf(obj).Len(); l != n {
		return Fail(t, fmt.Sprintf("%v should have %d item(s), but has %d", obj, n, l))
	}
	return true
}
