package nd

import "cmp"

// SelectNth reorders a so that a[k] holds the element of rank k by key,
// smaller or equal keys before it and greater or equal after (Hoare's
// quickselect with a median-of-three pivot, expected O(len(a))).
func SelectNth[E any, K cmp.Ordered](a []E, k int, key func(E) K) {
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		x, y, z := key(a[lo]), key(a[mid]), key(a[hi])
		pivot := max(min(x, y), min(max(x, y), z))
		i, j := lo, hi
		for i <= j {
			for key(a[i]) < pivot {
				i++
			}
			for key(a[j]) > pivot {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
