package interrupt

import (
	"errors"
	"os/exec"
	"runtime"
	"testing"
)

// Watches nest; the last stop ends the watching goroutine, and commands
// started under a watch are tracked until they are waited for.
func TestWatchNests(t *testing.T) {
	g0 := runtime.NumGoroutine()
	stop1 := Watch()
	stop2 := Watch()
	if !Watching() {
		t.Fatal("not watching")
	}
	cmd := exec.Command("true")
	if err := Start(cmd); errors.Is(err, exec.ErrNotFound) {
		t.Skip(err) // no true here (Windows)
	} else if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	tracked := groups[cmd.Process.Pid]
	mu.Unlock()
	if tracked != 1 {
		t.Errorf("the command's group is tracked %d times", tracked)
	}
	if err := Wait(cmd); err != nil {
		t.Fatal(err)
	}
	stop2()
	stop2() // a stop is idempotent
	if !Watching() {
		t.Fatal("the first watch ended with the second")
	}
	stop1()
	if Watching() || len(groups) != 0 || Interrupted() {
		t.Fatalf("watching %v, groups %v, interrupted %v", Watching(), groups, Interrupted())
	}
	if g := runtime.NumGoroutine(); g > g0 {
		t.Errorf("goroutines %d, were %d", g, g0)
	}
}
