package linearize

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/anishathalye/porcupine"
	"github.com/morpheus-go/morpheus"
)

// DefaultTimeout bounds how long Check lets porcupine search, in wall-clock
// time. It must stay well below morpheus's watchdog limit (5 s by default),
// which reports a task that does not come back to the scheduler.
const DefaultTimeout = time.Second

// AttachmentName is the name under which Check attaches the visualisation
// of a violation: morpheus.Check writes it beside the saved trace as
// <trace>.linearizability.html.
const AttachmentName = "linearizability.html"

// Option configures Check.
type Option func(*config)

type config struct {
	timeout time.Duration
}

// Timeout sets the wall-clock time porcupine may search (default
// DefaultTimeout; 0 means none, which leaves morpheus's watchdog as the
// limit). Checking linearizability is NP-hard; a search cut short proves
// nothing, and Check logs it instead of failing.
func Timeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// Check checks with porcupine that the operations recorded in h are
// linearizable with respect to model, the sequential specification of the
// system (such as KVModel). Call it at the end of the iteration, once the
// clients are done; operations that have not returned by then count as
// pending (see History.Operations).
//
// If the history is not linearizable, Check attaches porcupine's HTML
// visualisation of the history and its longest partial linearizations as
// "linearizability.html" (see morpheus.Env.Attach) and fails the iteration
// with an assertion failure whose message starts with "linearizability:",
// names the number of operations, and shows the longest linearizable prefix
// and the operations that cannot follow it.
//
// If porcupine runs out of time (see Timeout), Check logs that the result is
// unknown (morpheus.Env.Logf) and lets the iteration pass. The time bound is
// the check's only dependence on wall-clock time; the histories of a test
// iteration are small and are checked in microseconds.
//
// Porcupine runs the model's Step functions on goroutines of its own; Check
// waits for them, and a panic in the model fails the iteration as a panic of
// the calling task instead of crashing the test binary.
func Check(e *morpheus.Env, model porcupine.Model, h *History, opts ...Option) {
	e.Helper() // a violation is reported at the caller's line
	c := config{timeout: DefaultTimeout}
	for _, o := range opts {
		o(&c)
	}
	ops := h.Operations()
	if len(ops) == 0 {
		return
	}
	var g guard
	m := g.wrap(model)
	// Partition once here, so that the partitions porcupine reports on are
	// known, in a known order.
	parts := [][]porcupine.Operation{ops}
	if model.Partition != nil {
		parts = model.Partition(ops)
	}
	m.Partition = func([]porcupine.Operation) [][]porcupine.Operation { return parts }
	m.PartitionEvent = nil
	res, info := porcupine.CheckOperationsVerbose(m, ops, c.timeout)
	g.rethrow()
	switch res {
	case porcupine.Ok:
		return
	case porcupine.Unknown:
		e.Logf("linearizability: the check of %d operations ran out of time (%v): result unknown, not reported", len(ops), c.timeout)
		return
	}
	var html bytes.Buffer
	if err := porcupine.Visualize(m, info, &html); err != nil {
		e.Logf("linearizability: no visualisation: %v", err)
	} else {
		e.Attach(AttachmentName, html.Bytes())
	}
	e.Fatalf("linearizability: %s", describe(m, h, ops, parts, info.PartialLinearizations()))
}

// guard turns a panic in the model, which would happen on one of porcupine's
// goroutines and crash the whole process, into a panic of the calling task.
type guard struct {
	once  sync.Once
	val   any
	stack []byte
}

func (g *guard) catch() {
	if v := recover(); v != nil {
		g.once.Do(func() { g.val, g.stack = v, debug.Stack() })
	}
}

func (g *guard) wrap(model porcupine.Model) porcupine.Model {
	if step := model.Step; step != nil {
		model.Step = func(state, input, output any) (ok bool, next any) {
			defer g.catch()
			return step(state, input, output)
		}
	}
	if step := model.StepContext; step != nil {
		model.StepContext = func(ctx context.Context, state, input, output any) (ok bool, next any) {
			defer g.catch()
			return step(ctx, state, input, output)
		}
	}
	describe := model.DescribeOperationMetadata
	model.DescribeOperationMetadata = func(info any) string {
		if m, ok := info.(*meta); ok {
			return m.String()
		}
		if describe != nil {
			return describe(info)
		}
		return fmt.Sprint(info)
	}
	return model
}

func (g *guard) rethrow() {
	g.once.Do(func() {}) // the checker's goroutines are done: read safely
	if g.val != nil {
		panic(fmt.Sprintf("linearize: the model panicked: %v\n%s", g.val, g.stack))
	}
}

// Limits of a failure message.
const (
	maxPrefix = 8 // operations of the linearizable prefix shown
	maxRest   = 6 // operations that cannot follow it shown
)

// describe explains a violation: how many operations, the longest
// linearizable prefix of the first partition that has no linearization, and
// the operations that cannot follow it.
func describe(m porcupine.Model, h *History, ops []porcupine.Operation, parts [][]porcupine.Operation, partials [][][]int) string {
	clients := map[int]bool{}
	for i := range h.ops {
		clients[h.ops[i].client] = true
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d operations", len(ops))
	if n := h.Pending(); n > 0 {
		fmt.Fprintf(&b, " (%d pending)", n)
	}
	fmt.Fprintf(&b, " of %d clients are not linearizable", len(clients))
	p, best := -1, []int(nil)
	for i, part := range parts {
		if i >= len(partials) {
			break
		}
		l := longest(partials[i])
		if len(l) < len(part) {
			p, best = i, l
			break
		}
	}
	if p < 0 {
		return b.String()
	}
	part := parts[p]
	if len(parts) > 1 {
		fmt.Fprintf(&b, " (longest linearizable prefix: %d of the %d operations of partition %d of %d)", len(best), len(part), p+1, len(parts))
	} else {
		fmt.Fprintf(&b, " (longest linearizable prefix: %d of %d operations)", len(best), len(part))
	}
	line := func(o porcupine.Operation) {
		b.WriteString("\n    " + m.DescribeOperation(o.Input, o.Output))
		if md, ok := o.Metadata.(*meta); ok {
			b.WriteString("  [" + md.String() + "]")
		}
	}
	b.WriteString("\nlinearizable prefix:")
	if len(best) == 0 {
		b.WriteString(" none")
	}
	from := max(0, len(best)-maxPrefix)
	if from > 0 {
		fmt.Fprintf(&b, "\n    ... %d earlier operations", from)
	}
	for _, id := range best[from:] {
		line(part[id])
	}
	in := make([]bool, len(part))
	for _, id := range best {
		in[id] = true
	}
	var rest []porcupine.Operation
	for id, o := range part {
		if !in[id] {
			rest = append(rest, o)
		}
	}
	slices.SortStableFunc(rest, func(x, y porcupine.Operation) int { return cmp.Compare(x.Call, y.Call) })
	b.WriteString("\ncannot be linearized after it:")
	for i, o := range rest {
		if i == maxRest {
			fmt.Fprintf(&b, "\n    ... %d more", len(rest)-i)
			break
		}
		line(o)
	}
	fmt.Fprintf(&b, "\nsee the attachment %s", AttachmentName)
	return b.String()
}

// longest returns the longest partial linearization, the lexicographically
// first of equally long ones (porcupine returns them in no fixed order).
func longest(ls [][]int) []int {
	var best []int
	for _, l := range ls {
		if best == nil || len(l) > len(best) || len(l) == len(best) && slices.Compare(l, best) < 0 {
			best = l
		}
	}
	return best
}
