package shadowdep

import (
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"testing"

	"example.com/suffix"
)

// TestJar keeps a server's cookie in a jar that uses another module's
// suffix list.
func TestJar(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.SetCookie(w, &http.Cookie{Name: "n", Value: "1"})
	}))
	defer srv.Close()
	jar, err := cookiejar.New(&cookiejar.Options{PublicSuffixList: suffix.List{}})
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	resp, err := c.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if got := len(jar.Cookies(resp.Request.URL)); got != 1 {
		t.Errorf("%d cookies", got)
	}
}
