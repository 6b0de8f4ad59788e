package testkit

import (
	"fmt"
	"runtime/debug"
	"time"
)

// callDeadline is how long one call on a small input may take before
// ReturnsWithin takes it for a call that never returns.
const callDeadline = time.Second

// Fataler is what ReturnsWithin needs of a *testing.T or a *rapid.T.
type Fataler interface {
	Helper()
	Fatalf(format string, args ...any)
}

// ReturnsWithin runs f on a goroutine of its own and fails t, naming call
// (the function and its inputs), if f panics. If f has not returned after
// callDeadline it stops the test binary the way go test's -timeout does,
// with every goroutine's stack, so that a hang fails in a second instead of
// stalling CI until its own limit: a goroutine that never returns cannot be
// stopped, and failing only the test would leave it spinning (and rapid
// would start more of them while shrinking).
func ReturnsWithin(t Fataler, call string, f func()) {
	t.Helper()
	alarm := time.AfterFunc(callDeadline, func() {
		debug.SetTraceback("all")
		panic(fmt.Sprintf("%s did not return within %v", call, callDeadline))
	})
	var (
		recovered any
		stack     []byte
	)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if recovered = recover(); recovered != nil {
				stack = debug.Stack()
			}
		}()
		f()
	}()
	<-done
	alarm.Stop()
	if recovered != nil {
		t.Fatalf("%s panicked: %v\n%s", call, recovered, stack)
	}
}
