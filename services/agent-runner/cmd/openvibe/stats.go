package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
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
