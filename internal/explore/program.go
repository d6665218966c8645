package explore

import "github.com/morpheus-go/morpheus/internal/core"

// Program is the test the driver runs, as package morpheus hands it over:
// Setup prepares iteration iter on its run before the main task starts and
// returns the iteration's environment (a *morpheus.Env, opaque here); Main
// is the main task's body. A Failure carries its iteration's environment,
// for the face to read what the test logged and attached.
type Program struct {
	Setup func(r *core.Run, iter int) any
	Main  func(env any)
}

// execute runs iteration iter of p on w; *envp holds the iteration's
// environment as soon as it exists, also when a task's runtime.Goexit ends
// the caller's goroutine before execute returns.
func (p Program) execute(w *core.Worker, cfg core.Config, iter int, envp *any) core.Outcome {
	return w.Execute(cfg, func(r *core.Run) { *envp = p.Setup(r, iter) }, func() { p.Main(*envp) })
}
