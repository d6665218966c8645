package httpshadow

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"sync"
	"testing"
)

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Error(err)
		return ""
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Error(err)
	}
	return string(b)
}

// TestServe serves the counter and asks it twice, one request after the
// other.
func TestServe(t *testing.T) {
	srv := httptest.NewServer(&Counter{})
	defer srv.Close()
	if got := get(t, srv.URL); got != "1" {
		t.Fatalf("first request: %q", got)
	}
	if got := get(t, srv.URL); got != "2" {
		t.Fatalf("second request: %q", got)
	}
}

// TestConcurrent asks the counter from two goroutines at once, each on a
// connection of its own.
func TestConcurrent(t *testing.T) {
	srv := httptest.NewServer(&Counter{})
	defer srv.Close()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get(t, srv.URL)
		}()
	}
	wg.Wait()
}

// TestRacy asks the unlocked counter from two goroutines at once: their
// handlers race on its count.
func TestRacy(t *testing.T) {
	srv := httptest.NewServer(&Racy{})
	defer srv.Close()
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			get(t, srv.URL)
		}()
	}
	wg.Wait()
}

// TestLeakyHandler's handler waits for a channel nobody closes: the
// client gives up, the server's connection goroutine stays blocked.
func TestLeakyHandler(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		<-block
	}))
	client := &http.Client{Timeout: 1e9}
	if _, err := client.Get(srv.URL); err == nil {
		t.Error("the request did not time out")
	}
}

// TestDumpRequest dumps a request as the client would send it:
// httputil.DumpRequestOut writes it through an io.Pipe to a Transport of
// its own.
func TestDumpRequest(t *testing.T) {
	req, err := http.NewRequest("GET", "http://example.com/count", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := httputil.DumpRequestOut(req, false)
	if err != nil || !strings.HasPrefix(string(b), "GET /count HTTP/1.1\r\nHost: example.com\r\n") {
		t.Errorf("dump %q, %v", b, err)
	}
}
