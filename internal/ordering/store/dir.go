package store

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// File names in a campaign directory.
const (
	MetaFile = "campaign.txt"
	HeadFile = "HEAD"
)

// DeltaName is the file name of delta seq.
func DeltaName(seq int) string { return fmt.Sprintf("delta-%06d.gz", seq) }

// Dir is an open campaign directory.
type Dir struct {
	Path string
	seq  int // last saved delta
}

// Create starts a campaign in path, which must not hold one already.
func Create(path string, m *Meta) (*Dir, error) {
	if err := os.MkdirAll(path, 0o755); err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(path, MetaFile)); err == nil {
		return nil, fmt.Errorf("%s already holds a campaign: resume it with -resume or choose another -out", path)
	}
	var b bytes.Buffer
	if err := m.Encode(&b); err != nil {
		return nil, err
	}
	if err := writeAtomic(filepath.Join(path, MetaFile), b.Bytes()); err != nil {
		return nil, err
	}
	return &Dir{Path: path}, nil
}

// Open opens the campaign in path and calls each with its deltas in order,
// up to HEAD. Deltas written after HEAD (an interrupted save) are ignored.
func Open(path string, each func(*Delta) error) (*Dir, *Meta, error) {
	m, err := ReadMeta(path)
	if err != nil {
		return nil, nil, err
	}
	head := 0
	hf := filepath.Join(path, HeadFile)
	if b, err := os.ReadFile(hf); err == nil {
		s := strings.TrimSpace(string(b))
		if head, err = strconv.Atoi(s); err != nil || head < 0 {
			return nil, nil, fmt.Errorf("%s: line 1: %q: expected the number of the last delta", hf, s)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, nil, err
	}
	for seq := 1; seq <= head; seq++ {
		name := filepath.Join(path, DeltaName(seq))
		d, err := readDelta(name)
		if err != nil {
			return nil, nil, err
		}
		if d.Seq != seq {
			return nil, nil, fmt.Errorf("%s: seq %d, expected %d", name, d.Seq, seq)
		}
		if err := each(d); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	return &Dir{Path: path, seq: head}, m, nil
}

// ReadMeta reads the campaign file of the campaign in path.
func ReadMeta(path string) (*Meta, error) {
	mf := filepath.Join(path, MetaFile)
	raw, err := os.ReadFile(mf)
	if err != nil {
		return nil, fmt.Errorf("no campaign to resume: %w", err)
	}
	return DecodeMeta(bytes.NewReader(raw), mf)
}

func readDelta(name string) (*Delta, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	d, err := DecodeDelta(zr, name)
	if err != nil {
		return nil, err
	}
	return d, zr.Close()
}

// Seq is the number of the last saved delta.
func (d *Dir) Seq() int { return d.seq }

// Save writes delta (its Seq is set to the next number) and then moves HEAD
// to it. When Save returns nil the delta survives a crash.
func (d *Dir) Save(delta *Delta) error {
	delta.Seq = d.seq + 1
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if err := delta.Encode(zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(d.Path, DeltaName(delta.Seq)), b.Bytes()); err != nil {
		return err
	}
	if err := writeAtomic(filepath.Join(d.Path, HeadFile), []byte(strconv.Itoa(delta.Seq)+"\n")); err != nil {
		return err
	}
	d.seq = delta.Seq
	return nil
}

// writeAtomic replaces name with data: temporary file, fsync, rename, fsync
// of the directory.
func writeAtomic(name string, data []byte) error {
	tmp := name + ".tmp"
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp, name); err != nil {
		return err
	}
	dir, err := os.Open(filepath.Dir(name))
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.Sync()
}
