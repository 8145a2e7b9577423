// Package integration holds modebox's black-box test suites: tests that
// use only the public API of package modebox (and its public helper
// packages), as an embedder would. Soak, hammer, hostile programs, fuzzing
// of values across the sandbox boundary, the built-ins (sh, fetch, fs),
// approvals, pause and resume, run limits, search and the Node
// differential all live here; white-box tests stay next to the code they
// test.
//
// Run them with the rest: `scripts/test.sh`, or `go test ./integration/`.
// The test data they share with internal packages is in the repository's
// top-level testdata directory; the fuzz corpus of FuzzValues is in
// testdata/fuzz here.
//
// This package has no code of its own: it holds only this comment and
// tests.
package integration
