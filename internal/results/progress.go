package results

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
)

// Progress is one progress line of a running Check.
type Progress struct {
	Test          string `json:"test"`
	Package       string `json:"package,omitempty"` // the test's package, as in Record
	Shard         string `json:"shard,omitempty"`
	Planned       int    `json:"planned"` // iterations this shard runs (0: a time budget)
	Iterations    int    `json:"iterations"`
	Failures      int    `json:"failures"`
	PartialOrders int    `json:"partial_orders"`
	Steps         int64  `json:"steps"`
	ElapsedNS     int64  `json:"elapsed_ns"`            // wall time since the Check started exploring
	Done          bool   `json:"done,omitempty"`        // the Check's last line
	Interrupted   bool   `json:"interrupted,omitempty"` // with Done: a signal stopped the Check early
	// Heartbeat: a rewritten test's line (iterations are its schedules),
	// shown only once the test has run a while, as a sign of life of a
	// long run; its verdict is the summary's.
	Heartbeat bool `json:"heartbeat,omitempty"`
}

// Follower reads the progress lines appended to a file since it last read.
type Follower struct {
	Path string
	off  int64
	part []byte // an incomplete last line
}

// Next returns the complete lines appended since the last call; lines that
// do not parse are skipped (the file is a report, not an input).
func (f *Follower) Next() []Progress {
	fh, err := os.Open(f.Path)
	if err != nil {
		return nil
	}
	defer fh.Close()
	if _, err := fh.Seek(f.off, io.SeekStart); err != nil {
		return nil
	}
	b, err := io.ReadAll(fh)
	if err != nil || len(b) == 0 {
		return nil
	}
	f.off += int64(len(b))
	b = append(f.part, b...)
	end := bytes.LastIndexByte(b, '\n')
	f.part = append([]byte(nil), b[end+1:]...)
	var out []Progress
	for _, line := range bytes.Split(b[:end+1], []byte("\n")) {
		var p Progress
		if len(line) > 0 && json.Unmarshal(line, &p) == nil {
			out = append(out, p)
		}
	}
	return out
}
