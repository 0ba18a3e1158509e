package tool

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode/utf8"
)

const (
	readDefaultLimit = 2000
	readMaxLineLen   = 2000
	readMaxBytes     = 50 << 10
)

// ReadParams are the read tool's parameters.
type ReadParams struct {
	FilePath string `json:"file_path" jsonschema_description:"Path of the file to read (absolute or relative to the working directory)"`
	Offset   int    `json:"offset,omitempty" jsonschema_description:"Line number to start from (1-based)" jsonschema:"minimum=0"`
	Limit    int    `json:"limit,omitempty" jsonschema_description:"Number of lines to read (default 2000)" jsonschema:"minimum=0"`
}

// Read returns the read tool.
func Read() Tool {
	return New(Def[ReadParams]{
		Name: "read",
		Description: "Read a text file. Returns numbered lines (\"<n>\\t<text>\"); use offset and limit for large " +
			"files. Refuses binary files. Read a file before editing or overwriting it.",
		Kind: KindRead,
		Perm: func(tc *Context, p ReadParams) Perm { return pathPerm(tc, p.FilePath, "Read") },
		Run:  runRead,
	})
}

func runRead(ctx context.Context, tc *Context, p ReadParams) (Result, error) {
	path, err := tc.Resolve(ctx, p.FilePath)
	if err != nil {
		return Result{}, err
	}
	fi, err := Ensure(path)
	if err != nil {
		return Result{}, err
	}
	if fi.IsDir() {
		return Result{}, Errorf("%s is a directory; use glob to list files", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Result{}, fmt.Errorf("open %s: %w", path, err)
	}
	defer f.Close()
	if binary, err := isBinary(f); err != nil {
		return Result{}, err
	} else if binary {
		return Result{}, Errorf("%s is a binary file (%d bytes) and cannot be read as text", path, fi.Size())
	}
	offset, limit := max(p.Offset, 1), p.Limit
	if limit <= 0 {
		limit = readDefaultLimit
	}
	var b strings.Builder
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	n, shown, more := 0, 0, false
	for sc.Scan() {
		n++
		if n < offset {
			continue
		}
		if shown >= limit || b.Len() >= readMaxBytes {
			more = true
			break
		}
		line := sc.Text()
		if len(line) > readMaxLineLen {
			line = line[:readMaxLineLen] + "… [line truncated]"
		}
		fmt.Fprintf(&b, "%6d\t%s\n", n, line)
		shown++
	}
	if err := sc.Err(); err != nil {
		return Result{}, fmt.Errorf("read %s: %w", path, err)
	}
	tc.Files.Record(tc.SessionID, path)
	switch {
	case n == 0:
		b.WriteString("(empty file)\n")
	case shown == 0:
		fmt.Fprintf(&b, "(offset %d is past the end of the file, which has %d lines)\n", offset, n)
	case more:
		fmt.Fprintf(&b, "\n(more lines follow; continue with offset %d)\n", offset+shown)
	}
	return Result{Title: tc.Rel(path), Output: b.String(), Metadata: map[string]any{"lines": shown}}, nil
}

// isBinary sniffs the first 8 KiB: a NUL byte or mostly invalid UTF-8 means binary.
func isBinary(f *os.File) (bool, error) {
	buf := make([]byte, 8<<10)
	n, err := f.Read(buf)
	if err != nil && err != io.EOF {
		return false, fmt.Errorf("read: %w", err)
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return false, fmt.Errorf("seek: %w", err)
	}
	buf = buf[:n]
	if strings.IndexByte(string(buf), 0) >= 0 {
		return true, nil
	}
	bad := 0
	for len(buf) > 0 {
		r, size := utf8.DecodeRune(buf)
		if r == utf8.RuneError && size == 1 && len(buf) >= utf8.UTFMax {
			bad++
		}
		buf = buf[size:]
	}
	return n > 0 && bad*10 > n, nil
}
