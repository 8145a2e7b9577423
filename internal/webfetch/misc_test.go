package webfetch

import (
	"errors"
	"net"
	"time"
)

var timeFixed = time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC)

func errorsIs(err, target error) bool { return errors.Is(err, target) }

func listen6() (net.Listener, error) { return net.Listen("tcp6", "[::1]:0") }
