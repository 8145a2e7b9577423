//go:build !linux

package ptytest

import (
	"errors"
	"os"
)

// Open is not implemented on this platform.
func Open() (master, slave *os.File, err error) {
	return nil, nil, errors.New("ptytest: pseudo-terminals are opened on Linux only")
}
