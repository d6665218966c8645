// Package driver runs a Go package's ordinary tests under morpheus without
// changing a file of it: it rewrites the package, its tests and its
// non-standard dependencies (package rewrite), writes the rewritten files
// to a cache directory keyed by their content hash, the tool's version and
// the Go version, builds the test binary once with go test -c -overlay (and
// an alternate go.mod through -modfile, which adds package rt), and runs it
// in parallel processes, each exploring its shard of every test's schedules
// (schedule i has the same seed in every process and run). The user's
// repository and go.mod are never written.
//
// Files of modules in the module cache cannot be overlaid: such a module is
// linked under the cache directory and replaced by that path in the
// alternate go.mod, and its rewritten files carry //line directives with
// their original paths, so reports still name them.
package driver
