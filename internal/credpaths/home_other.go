//go:build !unix

package credpaths

// ownerHome is "" where owners have no passwd home.
func ownerHome(string) string { return "" }
