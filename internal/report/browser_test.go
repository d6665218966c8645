package report

import (
	"bytes"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/morpheus-go/morpheus/internal/htmlpage/headless"
	"github.com/morpheus-go/morpheus/trace"
)

// TestBrowser loads reports in headless Chromium and checks what it renders:
// a lane per task, laid out left to right; an arrow per message, each with a
// length; the failing step in red; the script's linked highlights; a
// screenshot that shows the diagram. It skips when no Chromium is installed
// (.ci/run installs it). Set MORPHEUS_SCREENSHOTS to a directory to keep the
// screenshots.
func TestBrowser(t *testing.T) {
	path := headless.Find()
	if path == "" {
		t.Skip("no Chromium found (install the Debian package chromium, or set MORPHEUS_CHROMIUM); .ci/run installs it")
	}
	b, err := headless.Start(path, 1280, 900)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, name := range []string{"storage", "bugA"} {
		t.Run(name, func(t *testing.T) { checkInBrowser(t, b, load(t, name+".trace"), name) })
	}
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

	tasks, recvs, crashes := map[int32]bool{}, 0, 0
	for _, e := range tr.Events {
		if e.IsStep() {
			tasks[e.Task] = true
			if e.Kind == trace.KindRecv && e.Flag&trace.FlagTimeout == 0 {
				recvs++
			}
			if e.Kind == trace.KindCrash {
				crashes++
			}
		}
	}
	// Lanes: one per task, their titles laid out left to right.
	var laneX []float64
	eval(`Array.from(document.querySelectorAll("svg.seq g.lane .lane-title")).map(e => e.getBoundingClientRect().x)`, &laneX)
	if len(laneX) != len(tasks) {
		t.Errorf("%d lanes rendered, want %d", len(laneX), len(tasks))
	}
	for i := 1; i < len(laneX); i++ {
		if laneX[i] <= laneX[i-1] {
			t.Errorf("lane %d at x=%v is not right of lane %d at x=%v", i, laneX[i], i-1, laneX[i-1])
		}
	}
	// Arrows: one per message received, each drawn with a length.
	var lengths []float64
	eval(`Array.from(document.querySelectorAll("svg.seq path.arrow.msg")).map(e => e.getTotalLength())`, &lengths)
	if len(lengths) != recvs {
		t.Errorf("%d message arrows rendered, want %d", len(lengths), recvs)
	}
	for i, l := range lengths {
		if l < 5 {
			t.Errorf("message arrow %d has length %v", i, l)
		}
	}
	var nCrash int
	eval(`Array.from(document.querySelectorAll("svg.seq path.crash")).filter(e => e.getBBox().width > 0).length`, &nCrash)
	if nCrash != crashes {
		t.Errorf("%d crashes drawn, want %d", nCrash, crashes)
	}
	// The failing step: one, and red.
	var failed []string
	eval(`Array.from(document.querySelectorAll("svg.seq circle.step.failed")).map(e => getComputedStyle(e).fill)`, &failed)
	if len(failed) != 1 || failed[0] != "rgb(209, 36, 47)" {
		t.Errorf("failing steps drawn with fills %v, want one in rgb(209, 36, 47)", failed)
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
	// The screenshot shows the steps (the accent blue) and the failure (red).
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
