// Package id makes the identifiers of sessions, messages, parts and permission requests.
//
// An ID is a prefix, an underscore and 26 lowercase hex-ish characters: 12 of milliseconds
// since the epoch, 4 of a per-process counter and 10 random. IDs made by one process sort in
// creation order, which keeps forked histories and listings ordered without extra columns.
package id

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"sync"
	"time"
)

var (
	mu      sync.Mutex
	lastMS  int64
	counter uint16
)

// New returns a fresh ID such as "ses_019a3f5c2b1e0001a1b2c3d4e5".
func New(prefix string) string {
	mu.Lock()
	ms := time.Now().UnixMilli()
	if ms <= lastMS {
		ms = lastMS
		counter++
		if counter == 0 { // 65536 IDs in one millisecond: borrow the next one
			ms++
		}
	} else {
		counter = 0
	}
	lastMS = ms
	c := counter
	mu.Unlock()
	var rnd [5]byte
	_, _ = rand.Read(rnd[:])
	return fmt.Sprintf("%s_%012x%04x%s", prefix, ms, c, hex.EncodeToString(rnd[:]))
}

// Prefixes used across the runner.
const (
	Session    = "ses"
	Message    = "msg"
	Part       = "prt"
	Permission = "per"
	Call       = "call"
)
