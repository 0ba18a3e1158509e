package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// histogram counts latencies in 50 µs buckets up to 10 s; lock-free.
type histogram struct {
	buckets [200_001]atomic.Uint64
}

const bucketWidth = 50 * time.Microsecond

func (h *histogram) observe(d time.Duration) {
	i := int(d / bucketWidth)
	if i < 0 {
		i = 0
	}
	if i >= len(h.buckets) {
		i = len(h.buckets) - 1
	}
	h.buckets[i].Add(1)
}

func (h *histogram) snapshot() []uint64 {
	out := make([]uint64, len(h.buckets))
	for i := range h.buckets {
		out[i] = h.buckets[i].Load()
	}
	return out
}

// quantile returns the latency below which q of the observations in counts fall.
func quantile(counts []uint64, q float64) time.Duration {
	var total uint64
	for _, c := range counts {
		total += c
	}
	if total == 0 {
		return 0
	}
	want := uint64(q*float64(total) + 0.5)
	var seen uint64
	for i, c := range counts {
		seen += c
		if seen >= want {
			return time.Duration(i+1) * bucketWidth
		}
	}
	return time.Duration(len(counts)) * bucketWidth
}

func diff(a, b []uint64) []uint64 {
	out := make([]uint64, len(a))
	for i := range a {
		out[i] = a[i] - b[i]
	}
	return out
}

// processSample is the server's CPU time and resident memory from its /metrics.
type processSample struct {
	CPUSeconds float64
	RSSBytes   float64
	Goroutines float64
}

func scrape(ctx context.Context, url string) (processSample, error) {
	var s processSample
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return s, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return s, fmt.Errorf("metrics: %s", resp.Status)
	}
	return parseMetrics(resp.Body)
}

func parseMetrics(r io.Reader) (processSample, error) {
	var s processSample
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(value), 64)
		if err != nil {
			continue
		}
		switch name {
		case "process_cpu_seconds_total":
			s.CPUSeconds = v
		case "process_resident_memory_bytes":
			s.RSSBytes = v
		case "go_goroutines":
			s.Goroutines = v
		}
	}
	return s, sc.Err()
}

// selfCPU returns this process's user+system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
