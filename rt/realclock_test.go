package rt_test

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/morpheus-go/morpheus/rt"
)

// A test that runs on the real network reads the real clock: the deadline
// it sets on a real connection from time.Now() (hashicorp/raft's
// NetworkTransport: conn.SetWriteDeadline(time.Now().Add(timeout))) is in
// the future, and the write goes through. Before, time.Now() was the
// outside clock's, a minute before 2000, and every such write timed out.
func TestRealTestRealClock(t *testing.T) {
	rt.RealTest(t, "a test of the real clock", func(t *testing.T) {
		if d := time.Since(rt.Now()); d < -time.Minute || d > time.Minute {
			t.Fatalf("time.Now() in a real test is %v off the machine's clock", d)
		}
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Skipf("no real network here: %v", err)
		}
		defer l.Close()
		go func() {
			if c, err := l.Accept(); err == nil {
				defer c.Close()
				c.Read(make([]byte, 1))
			}
		}()
		c, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.SetWriteDeadline(rt.Now().Add(10 * time.Second))
		if _, err := c.Write([]byte("x")); err != nil {
			t.Fatalf("write with a deadline from time.Now(): %v", err)
		}
	})
	// Outside the real test, the outside clock again (outside.go).
	if rt.Now().Year() != 1999 {
		t.Errorf("after the real test, time.Now() outside control is %v, want the outside clock", rt.Now())
	}
}

// A test on the real network runs in the first test process only: the
// others skip it. The shard is one of the driver's settings, which the
// process takes out of its environment when it starts (env.go); before,
// RealTest looked for it in the environment, found nothing there, and
// every process ran the test at once (asaskevich/EventBus's
// TestNewClient then found its fixed port taken by the other process's).
func TestRealTestFirstShardOnly(t *testing.T) {
	if os.Getenv("RT_SHARD_CHILD") != "" {
		rt.RealTest(t, "a test of the shards", func(t *testing.T) { fmt.Println("the real test ran") })
		return
	}
	if testing.Short() {
		t.Skip("runs child processes")
	}
	for shard, ran := range map[string]bool{"0/2": true, "1/2": false} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRealTestFirstShardOnly$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "RT_SHARD_CHILD=1", "MORPHEUS_SHARD="+shard)
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "the real test ran") != ran {
			t.Errorf("shard %s: want the test run %v:\n%v\n%s", shard, ran, err, out)
		}
	}
}
