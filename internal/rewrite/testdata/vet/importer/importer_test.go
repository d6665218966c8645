// Package importer's tests import a package that does not type-check.
package importer

import (
	"testing"

	"example.com/vet/undefined"
)

func TestImport(t *testing.T) {
	if undefined.Answer() != 42 {
		t.Fatal("wrong answer")
	}
}
