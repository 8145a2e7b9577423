//go:build race

package modebox

// raceEnabled reports whether the test binary was built with -race; the
// soak scales its default size down under the race detector.
const raceEnabled = true
