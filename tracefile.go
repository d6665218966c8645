package morpheus

import (
	"os"

	"github.com/morpheus-go/morpheus/internal/explore"
	"github.com/morpheus-go/morpheus/trace"
)

// ReadTrace reads a trace file.
func ReadTrace(path string) (*trace.Trace, error) { return explore.ReadTrace(path) }

// WriteTrace writes a trace file.
func WriteTrace(path string, tr *trace.Trace) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := trace.Encode(f, tr); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
