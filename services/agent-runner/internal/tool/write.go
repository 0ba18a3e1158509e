package tool

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// WriteParams are the write tool's parameters.
type WriteParams struct {
	FilePath string `json:"file_path" jsonschema_description:"Path of the file to write"`
	Content  string `json:"content" jsonschema_description:"The complete new content of the file"`
}

// Write returns the write tool.
func Write() Tool {
	return New(Def[WriteParams]{
		Name: "write",
		Description: "Create a file or replace its whole content. An existing file must have been read first " +
			"and not changed since. Prefer edit for changes to existing files.",
		Kind: KindWrite,
		Perm: func(tc *Context, p WriteParams) Perm { return pathPerm(tc, p.FilePath, "Write") },
		Run: func(ctx context.Context, tc *Context, p WriteParams) (Result, error) {
			path, err := tc.Resolve(ctx, p.FilePath)
			if err != nil {
				return Result{}, err
			}
			if fi, err := os.Stat(path); err == nil && fi.IsDir() {
				return Result{}, Errorf("%s is a directory", path)
			}
			if err := tc.Files.Check(tc.SessionID, path); err != nil {
				return Result{}, err
			}
			_, statErr := os.Stat(path)
			if err := writeFile(path, []byte(p.Content)); err != nil {
				return Result{}, err
			}
			tc.Files.Record(tc.SessionID, path)
			verb := "Updated"
			if os.IsNotExist(statErr) {
				verb = "Created"
			}
			return Result{Title: tc.Rel(path), Output: fmt.Sprintf("%s %s (%d bytes).", verb, path, len(p.Content)),
				Metadata: map[string]any{"created": verb == "Created", "bytes": len(p.Content)}}, nil
		},
	})
}

// writeFile writes data keeping an existing file's mode, creating parent directories.
func writeFile(path string, data []byte) error {
	mode := os.FileMode(0o644)
	if fi, err := os.Stat(path); err == nil {
		mode = fi.Mode().Perm()
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create directory: %w", err)
	}
	if err := os.WriteFile(path, data, mode); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
