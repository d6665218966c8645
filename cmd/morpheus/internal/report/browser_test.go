package report

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/morpheus-go/morpheus/cmd/morpheus/internal/htmlpage/headless"
	"github.com/morpheus-go/morpheus/trace"
)

// TestBrowser loads reports in headless Chromium and checks what it renders:
// a lane per task, laid out left to right; an arrow per message, each with a
// length; the failing step in red; crashes on their lanes; labels clear of
// the marks beside them and cut only between words; a deadlock's blocked
// ops ringed on their lanes with its wait-for arrows; a liveness failure's
// retries folded; the script's linked highlights; a screenshot that shows
// the diagram. The reports: storage (an assertion after a dropped message
// and a crash), bugA (a long run of the demo), deadlock (a lock-order
// inversion), crash (Chaos crashes a server, the client's retries are
// dropped), liveness (the same, 600 rounds of retries). It skips when no
// Chromium is installed (.ci/run installs it). Set MORPHEUS_SCREENSHOTS to a
// directory to keep the screenshots. Each report is a parallel subtest
// with a browser of its own: one after the other they took minutes on a
// busy machine.
func TestBrowser(t *testing.T) {
	path := headless.Find()
	if path == "" {
		t.Skip("no Chromium found (install the Debian package chromium, or set MORPHEUS_CHROMIUM); .ci/run installs it")
	}
	check := func(name string, tr func(t *testing.T) *trace.Trace) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			b, err := headless.Start(path, 1280, 900)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			checkInBrowser(t, b, tr(t), name)
		})
	}
	for _, name := range []string{"bugA", "liveness", "storage", "deadlock", "crash"} {
		check(name, func(t *testing.T) *trace.Trace { return load(t, name+".trace") })
	}
	check("drop", func(*testing.T) *trace.Trace { return dropTrace() })
}

// dropTrace: a client's message to a server on its right is dropped, and
// the client fails at that send (its label the longest a drop gets).
func dropTrace() *trace.Trace {
	tr := &trace.Trace{
		Header: trace.Header{Test: "TestDrop", Failure: &trace.Failure{Kind: "assertion", Task: 1, Step: 6, Message: "lost"}},
		Tasks:  []trace.Task{{ID: 0, Parent: -1, Name: "main"}, {ID: 1, Name: "client@n1"}, {ID: 2, Name: "server@n2"}},
		Msgs:   []any{"main.Req{N:1}"},
	}
	ev := func(task int32, k trace.Kind, obj int32, fl trace.Flag) {
		tr.Events = append(tr.Events, trace.Event{Task: task, Obj: obj, Kind: k, Flag: fl})
	}
	ev(0, trace.KindStart, -1, 0)
	ev(0, trace.KindSpawn, 1, 0)
	ev(0, trace.KindSpawn, 2, 0)
	ev(1, trace.KindStart, -1, 0)
	ev(2, trace.KindStart, -1, 0)
	ev(1, trace.KindSend, 2, trace.FlagDropped)
	return tr
}

func checkInBrowser(t *testing.T, b *headless.Browser, tr *trace.Trace, name string) {
	var buf bytes.Buffer
	if err := Write(&buf, failingData(tr)); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), name+".html")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := b.Open("file://" + file); err != nil {
		t.Fatal(err)
	}
	eval := func(expr string, v any) {
		t.Helper()
		if err := b.Eval(expr, v); err != nil {
			t.Fatal(err)
		}
	}
	var ready string
	eval(`document.body.dataset.ready || ""`, &ready)
	if ready != "1" {
		t.Fatal("the page's script did not run to its end")
	}

	// What the diagram should show, from its layout.
	all := stepsOf(tr)
	ws := waitsOf(tr)
	fail := failureEvent(tr, all)
	if len(ws) > 0 {
		fail = -1
	}
	d := newDiagram(tr, all, nil, fail, ws, resourceNames(tr, ws))
	msgs, crashes := 0, 0
	for _, a := range d.arrows {
		if a.class == "msg" {
			msgs++
		}
	}
	for _, s := range d.steps {
		if tr.Events[s.ev].Kind == trace.KindCrash {
			crashes += 1 + len(tr.CrashVictims(s.ev))
		}
	}
	// Lanes: one per task, their titles laid out left to right.
	var laneX []float64
	eval(`Array.from(document.querySelectorAll("svg.seq g.lane .lane-title")).map(e => { const r = e.getBoundingClientRect(); return r.x + r.width / 2 })`, &laneX)
	if len(laneX) != len(d.lanes) {
		t.Errorf("%d lanes rendered, want %d", len(laneX), len(d.lanes))
	}
	for i := 1; i < len(laneX); i++ {
		if laneX[i] <= laneX[i-1] {
			t.Errorf("lane %d at x=%v is not right of lane %d at x=%v", i, laneX[i], i-1, laneX[i-1])
		}
	}
	onLane := func(what string, xs []float64) {
		t.Helper()
		for _, x := range xs {
			ok := false
			for _, lx := range laneX {
				ok = ok || x > lx-2 && x < lx+2
			}
			if !ok {
				t.Errorf("%s at x=%v is on no lane (lanes at %v)", what, x, laneX)
			}
		}
	}
	// Arrows: one per message whose two ends are drawn, each with a length.
	var lengths []float64
	eval(`Array.from(document.querySelectorAll("svg.seq path.arrow.msg")).map(e => e.getTotalLength())`, &lengths)
	if len(lengths) != msgs {
		t.Errorf("%d message arrows rendered, want %d", len(lengths), msgs)
	}
	for i, l := range lengths {
		if l < 5 {
			t.Errorf("message arrow %d has length %v", i, l)
		}
	}
	// Crashes: a cross on the crashing task's lane and on each victim's.
	var crossX []float64
	eval(`Array.from(document.querySelectorAll("svg.seq path.crash")).filter(e => e.getBBox().width > 0).map(e => { const r = e.getBoundingClientRect(); return r.x + r.width / 2 })`, &crossX)
	if len(crossX) != crashes {
		t.Errorf("%d crash marks drawn, want %d", len(crossX), crashes)
	}
	onLane("a crash mark", crossX)
	// The failing step: one, and red; none for a deadlock, whose blocked
	// ops are ringed instead.
	wantFailed := 0
	if _, drawn := d.row[fail]; drawn {
		wantFailed = 1
	}
	var failed []string
	eval(`Array.from(document.querySelectorAll("svg.seq circle.step.failed")).map(e => getComputedStyle(e).fill)`, &failed)
	if len(failed) != wantFailed || wantFailed == 1 && failed[0] != "rgb(209, 36, 47)" {
		t.Errorf("failing steps drawn with fills %v, want %d in rgb(209, 36, 47)", failed, wantFailed)
	}
	// Blocked ops: ringed, red, on their tasks' lanes, on one row; the
	// wait-for arrows drawn with a length.
	var rings [][2]float64
	eval(`Array.from(document.querySelectorAll("svg.seq circle.blocked-ring")).map(e => { const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y] })`, &rings)
	if len(rings) != len(ws) {
		t.Errorf("%d blocked ops ringed, want %d", len(rings), len(ws))
	}
	for _, r := range rings {
		onLane("a blocked op", []float64{r[0]})
		if r[1] != rings[0][1] {
			t.Errorf("blocked ops on different rows: %v", rings)
		}
	}
	var waitArrows []float64
	eval(`Array.from(document.querySelectorAll("svg.seq path.arrow.waitfor")).map(e => e.getTotalLength())`, &waitArrows)
	wantWait := 0
	for _, w := range ws {
		wantWait += len(w.holder)
	}
	if len(waitArrows) != wantWait {
		t.Errorf("%d wait-for arrows, want %d", len(waitArrows), wantWait)
	}
	for _, l := range waitArrows {
		if l < 20 {
			t.Errorf("a wait-for arrow has length %v", l)
		}
	}
	// Labels: cut only between words, and clear of the dropped-message
	// crosses (a label used to sit under its own ×).
	var labels []string
	eval(`Array.from(document.querySelectorAll("svg.seq text.op")).map(e => e.textContent)`, &labels)
	for _, l := range labels {
		if strings.Contains(l, "…") && !strings.HasSuffix(l, " …") {
			t.Errorf("label %q is cut inside a word", l)
		}
	}
	var overlaps []string
	eval(`(() => {
		const boxes = Array.from(document.querySelectorAll("svg.seq path.dropped")).map(e => e.getBoundingClientRect());
		const out = [];
		document.querySelectorAll("svg.seq text.op").forEach(t => {
			const r = t.getBoundingClientRect();
			boxes.forEach(b => { if (r.left < b.right && b.left < r.right && r.top < b.bottom && b.top < r.bottom) out.push(t.textContent) });
		});
		return out })()`, &overlaps)
	if len(overlaps) > 0 {
		t.Errorf("labels under a dropped message's cross: %q", overlaps)
	}
	// Folded cycles: a visible band each.
	var bands []float64
	eval(`Array.from(document.querySelectorAll("svg.seq rect.fold-band")).map(e => e.getBoundingClientRect().width)`, &bands)
	wantBands := 0
	for _, it := range d.items {
		if it.fold != nil {
			wantBands++
		}
	}
	if len(bands) != wantBands {
		t.Errorf("%d fold bands, want %d", len(bands), wantBands)
	}
	for _, w := range bands {
		if w < 100 {
			t.Errorf("a fold band is %v wide", w)
		}
	}
	// Hovering a step's row highlights its mark in the diagram.
	var hot bool
	eval(`(() => { const row = document.querySelector("#steps tr[data-ref]"); row.dispatchEvent(new MouseEvent("mouseenter"));
		return document.querySelector("svg.seq circle[data-ref='" + row.dataset.ref + "']").classList.contains("hot") })()`, &hot)
	if !hot {
		t.Error("hovering a step's row does not highlight its mark")
	}
	// The coverage chart has its line.
	var covPoints int
	eval(`document.querySelector("#coverage polyline").points.numberOfItems`, &covPoints)
	if covPoints != 5 {
		t.Errorf("coverage line has %d points, want 5", covPoints)
	}

	img, err := b.Screenshot()
	if err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("MORPHEUS_SCREENSHOTS"); dir != "" {
		if err := os.WriteFile(filepath.Join(dir, name+".png"), img, 0o644); err != nil {
			t.Error(err)
		}
	}
	m, err := png.Decode(bytes.NewReader(img))
	if err != nil {
		t.Fatal(err)
	}
	// The screenshot shows the steps (the accent blue) and the failure (red:
	// the failing step, the crosses, the blocked rings, the kind's card).
	blue, red := countColor(m, 0x09, 0x69, 0xda), countColor(m, 0xd1, 0x24, 0x2f)
	if blue < 100 || red < 20 {
		t.Errorf("screenshot %v: %d blue and %d red pixels; the diagram did not paint", m.Bounds(), blue, red)
	}
}

// countColor counts the pixels of m within a small distance of the colour.
func countColor(m image.Image, r, g, b uint8) int {
	var pix []uint8 // 4 bytes a pixel, red first
	switch m := m.(type) {
	case *image.NRGBA:
		pix = m.Pix
	case *image.RGBA:
		pix = m.Pix
	default:
		bd := m.Bounds()
		c := image.NewRGBA(bd)
		draw.Draw(c, bd, m, bd.Min, draw.Src)
		pix = c.Pix
	}
	n := 0
	for i := 0; i+3 < len(pix); i += 4 {
		if near(pix[i], r) && near(pix[i+1], g) && near(pix[i+2], b) {
			n++
		}
	}
	return n
}

func near(a, b uint8) bool { return int(a)+8 >= int(b) && int(a) <= int(b)+8 }
