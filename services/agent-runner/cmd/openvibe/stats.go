package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"text/tabwriter"
	"time"

	"openvibe.live/backend/services/agent-runner/runner"
)

// stats prints the local user's usage: all of it by model, and the last days by day.
func (c *cli) stats(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("stats", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	days := fs.Int("days", 7, "how many days to show by day (0: all)")
	asJSON := fs.Bool("json", false, "print the reports as JSON")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	if *days < 0 {
		return usageErrorf("stats: --days must not be negative")
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	byModel, err := r.Usage(ctx, runner.LocalUserID, runner.UsageQuery{Group: "model"})
	if err != nil {
		return err
	}
	q := runner.UsageQuery{Group: "day"}
	if *days > 0 {
		q.From = time.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -(*days - 1))
	}
	byDay, err := r.Usage(ctx, runner.LocalUserID, q)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]runner.UsageReport{"model": byModel, "day": byDay})
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "\tCALLS\tINPUT\tOUTPUT\tCACHE READ\tCACHE WRITE\tCOST\t")
	row(tw, "all models", byModel.Total)
	for _, r := range byModel.Rows {
		row(tw, r.Key, r)
	}
	fmt.Fprintln(tw, "\t\t\t\t\t\t\t")
	for _, r := range byDay.Rows {
		row(tw, r.Key, r)
	}
	return tw.Flush()
}

func row(w io.Writer, name string, r runner.UsageRow) {
	fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%d\t$%.4f\t\n", name, r.Calls, r.InputTokens, r.OutputTokens, r.CacheReadTokens,
		r.CacheWriteTokens, r.Cost)
}

// models prints the models of the configured providers, the default marked with *.
func (c *cli) models(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("models", flag.ContinueOnError)
	db := fs.String("db", "", "state database")
	refresh := fs.Bool("refresh", false, "ask the providers again instead of using the lists of the last five minutes")
	asJSON := fs.Bool("json", false, "print the catalogue as JSON")
	dir := fs.String("dir", "", "project whose openvibe.json to read (default: the current directory)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	wt := *dir
	if wt == "" {
		wt, _ = os.Getwd()
	}
	r, err := c.open(ctx, *db, "", slog.New(slog.DiscardHandler))
	if err != nil {
		return err
	}
	defer r.Close()
	cat, err := r.Models(ctx, wt, *refresh)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(c.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(cat)
	}
	for _, p := range cat.Providers {
		if p.Error != "" {
			fmt.Fprintf(c.stderr, "openvibe: %s: %s\n", p.Name, p.Error)
		}
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "  MODEL\tCONTEXT\tINPUT $/M\tOUTPUT $/M")
	for _, m := range cat.Models {
		mark, window, in, out := " ", "", "", ""
		if m.Default {
			mark = "*"
		}
		if m.ContextWindow > 0 {
			window = fmt.Sprint(m.ContextWindow)
		}
		if m.Cost != nil && (m.Cost.Input > 0 || m.Cost.Output > 0) {
			in, out = fmt.Sprint(m.Cost.Input), fmt.Sprint(m.Cost.Output)
		}
		fmt.Fprintf(tw, "%s %s\t%s\t%s\t%s\n", mark, m.ID, window, in, out)
	}
	return tw.Flush()
}
