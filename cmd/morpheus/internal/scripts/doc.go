// Package scripts holds, in its subdirectories, the longest of the morpheus
// command's CLI scripts (the language is internal/scripttest's), each group
// in a test binary of its own: go test's time-out (10 minutes by default)
// is per test binary, and all the scripts in cmd/morpheus's took longer than
// that under -race on a busy 2-core machine. A group's scripts run in
// cmd/morpheus's directory, where they ran before (scripttest.Config.Dir):
// corpus is the corpus and replay scripts, newcomer the install path and
// morpheus test's rewriting of a plain module, runs morpheus test's and
// morpheus rewrite's runs (budget, epochs, cached outcomes, Checks) and help.
package scripts
