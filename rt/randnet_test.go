package rt_test

import (
	"errors"
	"io"
	mrand "math/rand"
	"slices"
	"strings"
	"syscall"
	"testing"
	"testing/quick"

	"github.com/morpheus-go/morpheus"
	"github.com/morpheus-go/morpheus/rt"
)

// draws returns, per schedule, what math/rand's and math/rand/v2's
// globals drew in it.
func draws(t *testing.T, seed uint64, n int) [][]int64 {
	t.Helper()
	var out [][]int64
	_, err := morpheus.Explore(func(*morpheus.Env) {
		d := []int64{int64(rt.RandIntn(1000)), rt.RandInt63(), int64(rt.Rand2IntN(1000)), int64(rt.Rand2N[int64](1 << 40))}
		d = append(d, int64(len(rt.RandPerm(5))), int64(rt.Rand2Uint64N(7)))
		out = append(out, d)
	}, morpheus.Iterations(n), morpheus.Workers(1), morpheus.Seed(seed))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The globals draw from the schedule's generator: the same seed gives the
// same draws, another schedule others; Seed reseeds the schedule's
// generator only.
func TestRandPerSchedule(t *testing.T) {
	a, b := draws(t, 5, 4), draws(t, 5, 4)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Fatalf("same seed, other draws:\n%v\n%v", a, b)
	}
	if slices.Equal(a[0], a[1]) || slices.Equal(a[1], a[2]) {
		t.Errorf("two schedules drew the same: %v", a)
	}
	if c := draws(t, 6, 1); slices.Equal(a[0], c[0]) {
		t.Errorf("seeds 5 and 6 drew the same: %v", c[0])
	}
	var x, y int
	explore(t, 1, func() {
		rt.RandSeed(42)
		x = rt.RandIntn(1 << 30)
		rt.RandSeed(42)
		y = rt.RandIntn(1 << 30)
	})
	if x != y {
		t.Errorf("after Seed(42) twice: %d, %d", x, y)
	}
	// Outside control, the real generator: it works, nothing more to say.
	if n := rt.RandIntn(10); n < 0 || n >= 10 {
		t.Errorf("Intn(10) outside control: %d", n)
	}
}

// Dial and Listen reach the schedule's in-memory network: port 0 is a
// fresh port, hosts of this machine are one host, bytes arrive, and a
// dial nobody listens to is refused.
func TestNet(t *testing.T) {
	f := explore(t, 30, func() {
		l, err := rt.Listen("tcp", ":0")
		if err != nil {
			panic(err)
		}
		if got := l.Addr().String(); got != "127.0.0.1:32768" {
			panic("listener address " + got)
		}
		done := rt.Make[chan string](1)
		rt.Go(func() {
			c, err := l.Accept()
			if err != nil {
				panic(err)
			}
			b, _ := io.ReadAll(c)
			rt.Send(done, string(b))
		})
		c, err := rt.Dial("tcp", "localhost:32768")
		if err != nil {
			panic(err)
		}
		c.Write([]byte("hello"))
		c.Close()
		if got := rt.Recv(done); got != "hello" {
			panic("read " + got)
		}
		if _, err := rt.DialTimeout("tcp", "127.0.0.1:1", 0); !errors.Is(err, syscall.ECONNREFUSED) {
			panic("dial of a closed port: " + errString(err))
		}
		if _, err := rt.Dial("ip4:icmp", "127.0.0.1"); err == nil || !strings.Contains(err.Error(), "morpheus controls tcp, udp, unix and unixgram") {
			panic("ip: " + errString(err))
		}
		if _, err := rt.Listen("tcp", "127.0.0.1:http"); err == nil {
			panic("a named port was accepted")
		}
	})
	if f != nil {
		t.Fatal(f.Report())
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// testing/quick's Check tries values from a generator of the schedule when
// its config has none: the same seed tries the same values, another
// schedule others; a config's own generator is kept.
func TestQuickConfigPerSchedule(t *testing.T) {
	tried := func(seed uint64) [][]int64 {
		var out [][]int64
		_, err := morpheus.Explore(func(*morpheus.Env) {
			var xs []int64
			err := quick.Check(func(x int64) bool { xs = append(xs, x); return true },
				rt.QuickConfig[quick.Config](&quick.Config{MaxCount: 3}))
			if err != nil {
				panic(err)
			}
			out = append(out, xs)
		}, morpheus.Iterations(2), morpheus.Workers(1), morpheus.Seed(seed))
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b := tried(5), tried(5)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Fatalf("same seed, other values tried:\n%v\n%v", a, b)
	}
	if slices.Equal(a[0], a[1]) {
		t.Errorf("two schedules tried the same values: %v", a)
	}
	own := &quick.Config{Rand: mrand.New(mrand.NewSource(1))}
	explore(t, 1, func() {
		if got := rt.QuickConfig[quick.Config](own); got != own {
			t.Errorf("a config with its own generator was replaced")
		}
		if got := rt.QuickConfig[quick.Config](nil); got == nil || got.Rand == nil {
			t.Errorf("a nil config got no generator: %+v", got)
		}
	})
	if got := rt.QuickConfig[quick.Config](nil); got != nil {
		t.Errorf("outside control, a nil config became %+v", got)
	}
}
