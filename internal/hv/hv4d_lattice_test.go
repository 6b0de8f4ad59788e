package hv

import (
	"testing"

	"pgregory.net/rapid"
)

// TestHV4DOnALatticePlane puts rows on the lattice plane x+y+z+w = s, so
// that L grows past the length where locating a row turns from a scan to
// a bisection while rows keep tying in z and y, and compares with the grid
// oracle, exactly (every volume is a sum of integers).
func TestHV4DOnALatticePlane(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.IntRange(8, 13).Draw(t, "s")
		var all [][4]float64
		for x := 1; x < s; x++ {
			for y := 1; x+y < s; y++ {
				for z := 1; x+y+z < s; z++ {
					all = append(all, [4]float64{float64(x), float64(y), float64(z), float64(s - x - y - z)})
				}
			}
		}
		rows := rapid.Permutation(all).Draw(t, "rows")
		rows = rows[:rapid.IntRange(len(rows)/2, len(rows)).Draw(t, "n")]
		pts := make([]float64, 0, 4*len(rows))
		for _, r := range rows {
			pts = append(pts, r[:]...)
		}
		want := oracleOfExtents(pts, 4)
		if got := hv4d(pts); got != want {
			t.Fatalf("hv4d = %v, oracle %v", got, want)
		}
	})
}
