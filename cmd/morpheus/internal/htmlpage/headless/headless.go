// Package headless drives a headless Chromium from tests, with the standard
// library only: it starts the browser with --remote-debugging-pipe and speaks
// the DevTools protocol over that pipe (JSON messages ended by a NUL byte), so
// no WebSocket client and no network port are needed.
//
// It is made for testing generated pages (package htmlpage): open a file,
// evaluate JavaScript in it to ask what the browser laid out, click things,
// take a screenshot. Tests call Find first and skip when no browser is
// installed, so that they pass anywhere; CI installs Chromium.
package headless

import (
	"bufio"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// names are the executables Find looks for, in order.
var names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}

// Find returns the path of a Chromium-based browser: $MORPHEUS_CHROMIUM if
// set, else the first of chromium, chromium-browser, google-chrome,
// google-chrome-stable and chrome found on $PATH. It returns "" if there is
// none.
func Find() string {
	if p := os.Getenv("MORPHEUS_CHROMIUM"); p != "" {
		return p
	}
	for _, n := range names {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// Browser is a running headless browser with one page (tab) open.
type Browser struct {
	cmd     *exec.Cmd
	in      io.WriteCloser // the browser's fd 3: commands
	out     *os.File       // the browser's fd 4: replies and events
	dir     string         // its profile directory
	session string         // the page's session id
	stderr  *strings.Builder

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan reply
	events  chan event
	done    chan struct{} // closed when the browser's output ends
	readErr error
}

type reply struct {
	Result json.RawMessage
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	}
}

type event struct {
	Method string
	Params json.RawMessage
}

// Start starts the browser at path with a window of width × height pixels and
// opens a blank page. Close must be called to stop it.
func Start(path string, width, height int) (*Browser, error) {
	dir, err := os.MkdirTemp("", "headless-profile-")
	if err != nil {
		return nil, err
	}
	cmdR, cmdW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		cmdR.Close()
		cmdW.Close()
		os.RemoveAll(dir)
		return nil, err
	}
	b := &Browser{
		dir: dir, in: cmdW, out: outR, stderr: new(strings.Builder),
		waiting: map[int]chan reply{}, events: make(chan event, 256), done: make(chan struct{}),
	}
	b.cmd = exec.Command(path,
		"--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
		"--disable-extensions", "--disable-background-networking", "--disable-sync", "--mute-audio",
		"--hide-scrollbars", "--remote-debugging-pipe", "--user-data-dir="+dir,
		fmt.Sprintf("--window-size=%d,%d", width, height), "about:blank")
	b.cmd.ExtraFiles = []*os.File{cmdR, outW} // fd 3 and fd 4
	b.cmd.Stderr = limitWriter{b.stderr, 64 << 10}
	if err := b.cmd.Start(); err != nil {
		for _, f := range []*os.File{cmdR, cmdW, outR, outW} {
			f.Close()
		}
		os.RemoveAll(dir)
		return nil, err
	}
	cmdR.Close()
	outW.Close()
	go b.read()
	var created struct{ TargetID string }
	if err := b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &created); err != nil {
		b.Close()
		return nil, err
	}
	var attached struct{ SessionID string }
	if err := b.call("", "Target.attachToTarget", map[string]any{"targetId": created.TargetID, "flatten": true}, &attached); err != nil {
		b.Close()
		return nil, err
	}
	b.session = attached.SessionID
	if err := b.call(b.session, "Page.enable", nil, nil); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// limitWriter keeps the first n bytes written to it.
type limitWriter struct {
	b *strings.Builder
	n int
}

func (w limitWriter) Write(p []byte) (int, error) {
	if room := w.n - w.b.Len(); room > 0 {
		w.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// read dispatches the browser's messages: replies to their callers, events
// to the events channel (dropping them when nobody reads).
func (b *Browser) read() {
	defer close(b.done)
	r := bufio.NewReader(b.out)
	for {
		msg, err := r.ReadBytes(0)
		if err != nil {
			b.mu.Lock()
			b.readErr = err
			b.mu.Unlock()
			return
		}
		var m struct {
			ID     int
			Method string
			Params json.RawMessage
			reply
		}
		if err := json.Unmarshal(msg[:len(msg)-1], &m); err != nil {
			continue
		}
		if m.Method != "" {
			select {
			case b.events <- event{m.Method, m.Params}:
			default:
			}
			continue
		}
		b.mu.Lock()
		ch := b.waiting[m.ID]
		delete(b.waiting, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m.reply
		}
	}
}

// timeout bounds every exchange with the browser. It only ends a wedged
// browser: every wait is for the browser's reply or event, so the bound has
// room for a Chromium starting on a heavily loaded machine (CI runs these
// tests next to the race-instrumented rest).
const timeout = 2 * time.Minute

// call sends a command and decodes its result into result (if not nil).
func (b *Browser) call(session, method string, params any, result any) error {
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan reply, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method}
	if params != nil {
		msg["params"] = params
	}
	if session != "" {
		msg["sessionId"] = session
	}
	data, err := json.Marshal(msg)
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(data, 0)); err != nil {
		return fmt.Errorf("headless: %s: %v", method, err)
	}
	select {
	case r := <-ch:
		if r.Error != nil {
			return fmt.Errorf("headless: %s: %s (code %d)", method, r.Error.Message, r.Error.Code)
		}
		if result != nil {
			return json.Unmarshal(r.Result, result)
		}
		return nil
	case <-b.done:
		return fmt.Errorf("headless: %s: the browser quit: %v; its stderr:\n%s", method, b.readErr, b.stderr)
	case <-time.After(timeout):
		return fmt.Errorf("headless: %s: no reply in %v", method, timeout)
	}
}

// Open loads url in the page and waits for its load event.
func (b *Browser) Open(url string) error {
	for len(b.events) > 0 { // forget the events of earlier pages
		<-b.events
	}
	var nav struct{ ErrorText string }
	if err := b.call(b.session, "Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("headless: open %s: %s", url, nav.ErrorText)
	}
	deadline := time.After(timeout)
	for {
		select {
		case ev := <-b.events:
			if ev.Method == "Page.loadEventFired" {
				return nil
			}
		case <-b.done:
			return errors.New("headless: the browser quit while loading " + url)
		case <-deadline:
			return fmt.Errorf("headless: %s did not load in %v", url, timeout)
		}
	}
}

// Eval evaluates the JavaScript expression expr in the page and stores its
// value, converted through JSON, in result. A thrown exception is an error.
func (b *Browser) Eval(expr string, result any) error {
	var r struct {
		Result struct {
			Value json.RawMessage
		}
		ExceptionDetails *struct {
			Text      string
			Exception struct{ Description string }
		}
	}
	err := b.call(b.session, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &r)
	if err != nil {
		return err
	}
	if e := r.ExceptionDetails; e != nil {
		return fmt.Errorf("headless: %s: %s %s", expr, e.Text, e.Exception.Description)
	}
	if result == nil {
		return nil
	}
	if len(r.Result.Value) == 0 {
		return fmt.Errorf("headless: %s has no value", expr)
	}
	return json.Unmarshal(r.Result.Value, result)
}

// Screenshot returns a PNG image of the whole page, not just the window.
func (b *Browser) Screenshot() ([]byte, error) {
	var r struct{ Data string }
	if err := b.call(b.session, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &r); err != nil {
		return nil, err
	}
	return base64.StdEncoding.DecodeString(r.Data)
}

// Close stops the browser and removes its profile.
func (b *Browser) Close() error {
	_ = b.call("", "Browser.close", nil, nil)
	b.in.Close()
	exited := make(chan error, 1)
	go func() { exited <- b.cmd.Wait() }()
	select {
	case <-exited:
	case <-time.After(10 * time.Second):
		b.cmd.Process.Kill()
		<-exited
	}
	b.out.Close()
	return os.RemoveAll(b.dir)
}
