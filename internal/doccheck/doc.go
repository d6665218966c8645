// Package doccheck has no code, only a test that keeps the repository's
// documentation self-contained and whole: every relative link of README.md,
// BENCHMARKS.md and docs/*.md resolves to a file of the repository (and a
// link's #fragment to a heading of the file it names); every Markdown file a
// doc or a Go comment mentions by name exists; no doc or Go comment points to
// an issue tracker a reader does not have ("issue" and a number): a comment
// says what it means instead; no package doc is cut in two by a blank
// line; and every identifier of the API that README.md and docs/*.md name
// in code (morpheus.Check, trace.Trace.Steps) exists.
package doccheck
