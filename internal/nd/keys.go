package nd

import "math"

// ObjectiveKey maps a value to a key where smaller is better, whatever the
// column's direction: comparing keys as unsigned integers is comparing the
// values in that direction, with NaN (the largest key) worse than every
// number and -0.0 equal to 0.0. Every kernel compares keys, so the NaN rule
// lives in one place, FastKey.
func ObjectiveKey(v float64, maximize bool) uint64 {
	var flip uint64
	if maximize {
		flip = math.MaxUint64
	}
	return FastKey(v, flip)
}

// KeyFlips gives each column the mask FastKey takes: all ones for a
// maximized column.
func KeyFlips(maximize []bool) []uint64 {
	return AppendKeyFlips(make([]uint64, 0, len(maximize)), maximize)
}

// AppendKeyFlips appends KeyFlips(maximize) to flip, for callers who keep
// the masks in an array of their own.
func AppendKeyFlips(flip []uint64, maximize []bool) []uint64 {
	for _, up := range maximize {
		f := uint64(0)
		if up {
			f = math.MaxUint64
		}
		flip = append(flip, f)
	}
	return flip
}

// KeyMatrix maps every value to its key.
func KeyMatrix(values []float64, dims int, flip []uint64) []uint64 {
	return keyMatrixInto(make([]uint64, len(values)), values, dims, flip)
}

// keyMatrixInto is KeyMatrix into keys, as long as values.
func keyMatrixInto(keys []uint64, values []float64, dims int, flip []uint64) []uint64 {
	for r := 0; r < len(values); r += dims {
		for c, v := range values[r : r+dims] {
			keys[r+c] = FastKey(v, flip[c])
		}
	}
	return keys
}

// FastKey is [ObjectiveKey] with the direction as a mask, flip all ones for
// a maximized column, so the passes over every value need no branch but
// the NaN test. Flipping every bit of a negative double and only the sign
// bit of a non-negative one gives the order-preserving image of IEEE 754;
// flipping all of that reverses the order for a maximized column, and keeps
// the image of -Inf, 0xFFF0…0, below NaN's MaxUint64.
func FastKey(v float64, flip uint64) uint64 {
	if v != v {
		return math.MaxUint64
	}
	b := math.Float64bits(v + 0) // -0 + 0 is +0 under round-to-nearest
	b ^= uint64(int64(b)>>63) | 1<<63
	return b ^ flip
}

// KeyValue inverts FastKey(v, 0) for a number v (not NaN), except that
// -0 comes back as +0.
func KeyValue(k uint64) float64 {
	if k>>63 != 0 {
		return math.Float64frombits(k &^ (1 << 63))
	}
	return math.Float64frombits(^k)
}

// KeysDominate reports whether key row a dominates key row b: no worse in
// every column and strictly better in one.
func KeysDominate(a, b []uint64) bool {
	strict := false
	for k, ka := range a {
		kb := b[k]
		if ka > kb {
			return false
		}
		if ka < kb {
			strict = true
		}
	}
	return strict
}

// OneIf is 1 if b holds and 0 if not, which the compiler makes a flag
// read (SETcc), not a branch: tests that data decides half the time are
// cheaper as arithmetic on such flags than as branches it mispredicts.
func OneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Covers reports whether keys a are no larger than keys b, one by one.
func Covers(a, b []uint64) bool {
	b = b[:len(a)]
	for j, v := range a {
		if v > b[j] {
			return false
		}
	}
	return true
}
