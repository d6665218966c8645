package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// dateProxy is a Go module proxy in front of the real one that answers as
// the real one would have at a date: a module's version list holds only the
// versions published by then, so that the go command, resolving an old
// application's imports, picks the newest version not later than the
// application's commit. A module none of whose versions is that old lists
// its oldest one, the nearest to the date. Everything else (.info, .mod,
// .zip, @latest, the checksum database) is the real proxy's, by redirect.
//
// The date is the first element of the path: GOPROXY=http://HOST/UNIXTIME.
type dateProxy struct {
	upstream string
	client   *http.Client

	mu    sync.Mutex
	times map[string]time.Time // "module/@v/version" -> its time
}

// startDateProxy serves a dateProxy in front of upstream on a loopback
// port and returns its base URL and a function that stops it.
func startDateProxy(upstream string) (string, func(), error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	p := &dateProxy{upstream: strings.TrimSuffix(upstream, "/"), client: &http.Client{Timeout: time.Minute}, times: map[string]time.Time{}}
	srv := &http.Server{Handler: p}
	go func() { _ = srv.Serve(l) }()
	return "http://" + l.Addr().String(), func() { _ = srv.Close() }, nil
}

// upstreamProxy is the first proxy URL of a GOPROXY value ("" when it
// names none: direct, off).
func upstreamProxy(goproxy string) string {
	for _, p := range strings.FieldsFunc(goproxy, func(r rune) bool { return r == ',' || r == '|' }) {
		if strings.HasPrefix(p, "https://") || strings.HasPrefix(p, "http://") {
			return p
		}
	}
	return ""
}

func (p *dateProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	stamp, rest, _ := strings.Cut(strings.TrimPrefix(r.URL.Path, "/"), "/")
	secs, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	mod, ok := strings.CutSuffix(rest, "/@v/list")
	if !ok {
		http.Redirect(w, r, p.upstream+"/"+rest, http.StatusFound)
		return
	}
	body, status := p.get(rest)
	if status != http.StatusOK {
		w.WriteHeader(status)
		_, _ = w.Write(body)
		return
	}
	vers := p.versionsBy(mod, strings.Fields(string(body)), time.Unix(secs, 0))
	_, _ = io.WriteString(w, strings.Join(vers, "\n"))
}

// versionsBy keeps the versions of mod published by cutoff; when there is
// none, the oldest one.
func (p *dateProxy) versionsBy(mod string, vers []string, cutoff time.Time) []string {
	type dated struct {
		v string
		t time.Time
	}
	all := make([]dated, len(vers))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 8)
	for i, v := range vers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			all[i] = dated{v, p.versionTime(mod, v)}
		}()
	}
	wg.Wait()
	// The go command orders the list itself; here by time.
	sort.SliceStable(all, func(i, j int) bool { return all[i].t.Before(all[j].t) })
	var keep []string
	for _, d := range all {
		if !d.t.IsZero() && !d.t.After(cutoff) {
			keep = append(keep, d.v)
		}
	}
	if len(keep) == 0 {
		for _, d := range all {
			if !d.t.IsZero() {
				return []string{d.v}
			}
		}
	}
	return keep
}

// versionTime is a version's time from the real proxy's .info (zero when
// it cannot be had).
func (p *dateProxy) versionTime(mod, v string) time.Time {
	key := mod + "/@v/" + v
	p.mu.Lock()
	t, ok := p.times[key]
	p.mu.Unlock()
	if ok {
		return t
	}
	body, status := p.get(key + ".info")
	var info struct{ Time time.Time }
	if status == http.StatusOK {
		_ = json.Unmarshal(body, &info)
	}
	p.mu.Lock()
	p.times[key] = info.Time
	p.mu.Unlock()
	return info.Time
}

func (p *dateProxy) get(rest string) ([]byte, int) {
	resp, err := p.client.Get(p.upstream + "/" + rest)
	if err != nil {
		return []byte(err.Error()), http.StatusBadGateway
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return []byte(err.Error()), http.StatusBadGateway
	}
	return body, resp.StatusCode
}
