package interrupt

import (
	"os/exec"
)

// Start starts cmd for a command that watches for interrupts: while a
// Watch is active, cmd runs in a process group of its own, which a
// terminal's ^C does not reach, and the first interrupt is forwarded to the
// group once (the go command and the test binaries it runs then all see
// exactly one); a second interrupt kills the group. Call Wait, not
// cmd.Wait, to end the tracking and kill what cmd left behind in its group.
// Without a Watch it is cmd.Start.
func Start(cmd *exec.Cmd) error {
	if !Watching() {
		return cmd.Start()
	}
	setGroup(cmd)
	if err := cmd.Start(); err != nil {
		return err
	}
	Track(cmd.Process.Pid)
	if Interrupted() {
		signalGroup(cmd.Process.Pid, interruptSignal) // started after the interrupt: stop at once, gracefully
	}
	return nil
}

// Wait waits for cmd, started with Start, and ends its tracking. If cmd
// ran in a group of its own (under a Watch, on unix), whatever is left in
// the group is killed: the processes a test started and never waited for
// (a test the watchdog failed while it waited for a child) would otherwise
// run on, orphaned, after the test process.
func Wait(cmd *exec.Cmd) error {
	err := cmd.Wait()
	if ownGroup(cmd) {
		killGroup(cmd.Process.Pid)
	}
	Untrack(cmd.Process.Pid)
	return err
}

// Run is Start and Wait.
func Run(cmd *exec.Cmd) error {
	if err := Start(cmd); err != nil {
		return err
	}
	return Wait(cmd)
}

// Track makes the process group pg (a leader's pid) one that interrupts are
// forwarded to; Untrack ends that.
func Track(pg int) {
	mu.Lock()
	groups[pg]++
	mu.Unlock()
}

// Untrack undoes a Track.
func Untrack(pg int) {
	mu.Lock()
	if groups[pg]--; groups[pg] <= 0 {
		delete(groups, pg)
	}
	mu.Unlock()
}
