package proto

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// ErrLineTooLong is returned by ReadLine for a line longer than MaxLine.
var ErrLineTooLong = fmt.Errorf("line longer than %d bytes", MaxLine)

// NewReader returns a reader sized for ReadLine.
func NewReader(r io.Reader) *bufio.Reader { return bufio.NewReaderSize(r, MaxLine) }

// ReadLine reads one '\n'-terminated line from r (made by NewReader) and
// returns it without the '\n'. A line cut by the end of the stream returns
// io.ErrUnexpectedEOF; a line longer than MaxLine returns ErrLineTooLong.
func ReadLine(r *bufio.Reader) (string, error) {
	b, err := r.ReadSlice('\n')
	switch {
	case err == nil:
		return string(b[:len(b)-1]), nil
	case errors.Is(err, bufio.ErrBufferFull):
		return "", ErrLineTooLong
	case errors.Is(err, io.EOF) && len(b) > 0:
		return "", io.ErrUnexpectedEOF
	}
	return "", err
}
