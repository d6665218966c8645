package writer

import (
	"os"
	"testing"
)

// upload creates upload.tmp in the package's directory, which must not
// exist yet, reads it back many times and removes it when the test ends:
// under go test, whose one process runs the tests one after another,
// nothing else touches it meanwhile.
func upload(t *testing.T, content string) {
	f, err := os.OpenFile("upload.tmp", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove("upload.tmp")
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	f.Close()
	done := make(chan string)
	go func() {
		got := ""
		for range 200 {
			b, err := os.ReadFile("upload.tmp")
			if err != nil {
				got = err.Error()
				break
			}
			got = string(b)
		}
		done <- got
	}()
	if got := <-done; got != content {
		t.Fatalf("upload.tmp holds %q, want %q", got, content)
	}
}

func TestUploadA(t *testing.T) { upload(t, "a") }

func TestUploadB(t *testing.T) { upload(t, "b") }

// TestAbove reads a file of the directory above the package's and writes
// one the test keeps in the package's, as a golden file's update does.
func TestAbove(t *testing.T) {
	b, err := os.ReadFile("../shared.txt")
	if err != nil || string(b) != "shared\n" {
		t.Fatalf("../shared.txt: %q, %v", b, err)
	}
	if got, err := Save("kept.tmp", "kept\n"); err != nil || got != "kept\n" {
		t.Fatalf("kept.tmp: %q, %v", got, err)
	}
}
