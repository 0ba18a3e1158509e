// Package rlimit raises the process's open-file limit: every viewer socket is a file
// descriptor, and the default soft limit (often 1024) is far below what one node holds.
package rlimit

import "syscall"

// RaiseFiles lifts the soft RLIMIT_NOFILE to the hard limit and returns the new soft limit.
func RaiseFiles() (uint64, error) {
	var l syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	if l.Cur >= l.Max {
		return l.Cur, nil
	}
	l.Cur = l.Max
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &l); err != nil {
		return 0, err
	}
	return l.Cur, nil
}
