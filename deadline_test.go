package spica

import "github.com/spica-search/spica/internal/testkit"

// returnsWithin is [testkit.ReturnsWithin]: a call that panics fails the
// test, one that hangs stops the test binary within a second.
var returnsWithin = testkit.ReturnsWithin
