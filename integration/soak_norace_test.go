//go:build !race

package integration_test

// raceEnabled reports whether the test binary was built with -race; the
// soak scales its default size down under the race detector.
const raceEnabled = false
