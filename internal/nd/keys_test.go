package nd

import (
	"cmp"
	"math"
	"testing"

	"pgregory.net/rapid"
)

// oracleOrder compares two values the way the spec orders them, written
// with float comparisons and no bits: -1 when a is better, +1 when b is,
// 0 when they are equal (-0.0 equals 0.0; NaN equals NaN, whatever its
// payload or sign, and is worse than every number).
func oracleOrder(a, b float64, maximize bool) int {
	switch an, bn := a != a, b != b; {
	case an && bn:
		return 0
	case an:
		return 1
	case bn:
		return -1
	case a == b:
		return 0
	case (a > b) == maximize:
		return -1
	}
	return 1
}

// keyValues are the values where an order-preserving bit trick can go
// wrong: both zeros, both infinities, NaNs of several payloads and both
// signs, the subnormal extremes, the smallest normals, the largest finite
// values, and neighbours of 1.
var keyValues = []float64{
	0, math.Copysign(0, -1),
	math.Inf(1), math.Inf(-1),
	math.NaN(), -math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000001), math.Float64frombits(0x7fffffffffffffff),
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64,
	math.Float64frombits(0x000fffffffffffff), -math.Float64frombits(0x000fffffffffffff), // largest subnormals
	0x1p-1022, -0x1p-1022, // smallest normals
	math.MaxFloat64, -math.MaxFloat64, math.Nextafter(math.MaxFloat64, 0), -math.Nextafter(math.MaxFloat64, 0),
	1, -1, math.Nextafter(1, 2), math.Nextafter(1, 0), -math.Nextafter(1, 2),
}

func checkKeyOrder(t interface{ Fatalf(string, ...any) }, a, b float64, maximize bool) {
	want := oracleOrder(a, b, maximize)
	flip := uint64(0)
	if maximize {
		flip = math.MaxUint64
	}
	if got := cmp.Compare(FastKey(a, flip), FastKey(b, flip)); got != want {
		t.Fatalf("FastKey orders %v against %v (maximize %v) as %d, want %d", a, b, maximize, got, want)
	}
	if got := cmp.Compare(ObjectiveKey(a, maximize), ObjectiveKey(b, maximize)); got != want {
		t.Fatalf("ObjectiveKey orders %v against %v (maximize %v) as %d, want %d", a, b, maximize, got, want)
	}
}

// TestKeysOrderSpecialValues compares every pair of special values, in both
// orders and both directions, with the spec's order.
func TestKeysOrderSpecialValues(t *testing.T) {
	for _, a := range keyValues {
		for _, b := range keyValues {
			checkKeyOrder(t, a, b, false)
			checkKeyOrder(t, a, b, true)
		}
	}
}

func TestKeysOrderArbitraryValues(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		bits := rapid.OneOf(rapid.Uint64(), rapid.SampledFrom([]uint64{0, 1 << 63, 0x7ff0000000000000, 0xfff0000000000000}))
		a := math.Float64frombits(bits.Draw(t, "a"))
		b := math.Float64frombits(bits.Draw(t, "b"))
		if rapid.Bool().Draw(t, "near") {
			b = math.Nextafter(a, math.Float64frombits(bits.Draw(t, "towards")))
		}
		maximize := rapid.Bool().Draw(t, "maximize")
		checkKeyOrder(t, a, b, maximize)
		checkKeyOrder(t, b, a, maximize)
	})
}

// TestKeyValueInvertsFastKey checks the decoding the three-column sweeps
// use to read heights back from their sort keys.
func TestKeyValueInvertsFastKey(t *testing.T) {
	check := func(t interface{ Fatalf(string, ...any) }, v float64) {
		if v != v {
			return
		}
		want := math.Float64bits(v + 0) // -0 comes back as +0
		if got := math.Float64bits(KeyValue(FastKey(v, 0))); got != want {
			t.Fatalf("KeyValue(FastKey(%v)) has bits %#x, want %#x", v, got, want)
		}
	}
	for _, v := range keyValues {
		check(t, v)
	}
	rapid.Check(t, func(t *rapid.T) { check(t, math.Float64frombits(rapid.Uint64().Draw(t, "bits"))) })
}

// TestKeysDominate pins the dominance of key rows, smaller keys better: no
// worse in every column and strictly better in one. The pre-filter is its
// only caller in this package, and a filter that drops nothing is still
// right, so no front test here would notice it wrong.
func TestKeysDominate(t *testing.T) {
	for _, tc := range []struct {
		a, b []uint64
		want bool
	}{
		{[]uint64{1, 2, 3}, []uint64{1, 2, 3}, false}, // equal rows
		{[]uint64{1, 2, 3}, []uint64{1, 2, 4}, true},  // better in the last column only
		{[]uint64{0, 2, 3}, []uint64{1, 2, 3}, true},  // better in the first column only
		{[]uint64{0, 1, 2}, []uint64{1, 2, 3}, true},  // better everywhere
		{[]uint64{0, 2, 4}, []uint64{1, 2, 3}, false}, // better, then worse
		{[]uint64{2, 2, 3}, []uint64{1, 2, 4}, false}, // worse, then better
		{[]uint64{1, 2, 4}, []uint64{1, 2, 3}, false}, // worse in one, equal elsewhere
		{[]uint64{5}, []uint64{6}, true},
		{[]uint64{6}, []uint64{5}, false},
		{[]uint64{1 << 63}, []uint64{1<<63 + 1}, true}, // keys compare unsigned
	} {
		if got := KeysDominate(tc.a, tc.b); got != tc.want {
			t.Errorf("KeysDominate(%v, %v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
