//go:build pprofdebug

package main

import (
	"net/http"
	_ "net/http/pprof"
	"os"
)

// Profiling builds (go build -tags pprofdebug) serve net/http/pprof on OPENVIBE_PPROF_ADDR,
// for load tests only; release builds do not contain this file.
func init() {
	if addr := os.Getenv("OPENVIBE_PPROF_ADDR"); addr != "" {
		go func() { _ = http.ListenAndServe(addr, nil) }()
	}
}
