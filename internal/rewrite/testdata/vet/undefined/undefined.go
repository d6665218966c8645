// Package undefined names something that does not exist: it does not
// type-check, and go test builds the other packages of the module.
package undefined

// Answer is the answer.
func Answer() int { return answer }
