package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"

	"openvibe.live/backend/services/agent-runner/internal/engine"
	"openvibe.live/backend/services/agent-runner/internal/store"
	"openvibe.live/backend/services/agent-runner/runner"
)

// export writes a session as one JSON document, to stdout or --out.
func (c *cli) export(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("export", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	out := fs.String("out", "", "file to write (default: stdout)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("export: exactly one session ID is required")
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	s, err := r.Store().GetSession(ctx, pos[0])
	if store.IsNotFound(err) {
		return fmt.Errorf("session %s not found", pos[0])
	}
	if err != nil {
		return err
	}
	doc, err := r.Engine().Export(ctx, s)
	if err != nil {
		return err
	}
	w := c.stdout
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			return err
		}
		defer f.Close()
		w = f
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}

// importSession makes a session from an export file ("-": stdin) and prints its ID.
func (c *cli) importSession(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	dir := fs.String("dir", "", "directory of the new session (default: the export's)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("import: exactly one file (or - for stdin) is required")
	}
	var in io.Reader = os.Stdin
	if pos[0] != "-" {
		f, err := os.Open(pos[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	var doc engine.Export
	if err := json.NewDecoder(in).Decode(&doc); err != nil {
		return fmt.Errorf("%s: %w: %v", pos[0], engine.ErrBadExport, err)
	}
	target := *dir
	if target != "" {
		if target, err = filepath.Abs(target); err != nil {
			return err
		}
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	s, err := r.Engine().Import(ctx, engine.ImportInput{OwnerID: runner.LocalUserID, Directory: target, Doc: doc})
	if err != nil {
		return err
	}
	fmt.Fprintln(c.stdout, s.ID)
	return nil
}
