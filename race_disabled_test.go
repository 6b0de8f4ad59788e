//go:build !race

package spica

// raceEnabled reports whether the tests run under the race detector, which
// changes what some calls allocate (sync.Pool drops a quarter of what it is
// given).
const raceEnabled = false
