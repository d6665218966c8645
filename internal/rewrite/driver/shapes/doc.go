// Package shapes runs morpheus test's driver on the rewriter's testdata
// modules (internal/rewrite/testdata), one shape of test each, and checks
// what it reports: the failures found, their kinds and messages, replays,
// shards, the real network, vet. Its tests are a test binary of their own,
// apart from the driver's tests of building and reusing binaries, so that
// each of the two stays well inside go test's time-out on a busy machine.
package shapes
