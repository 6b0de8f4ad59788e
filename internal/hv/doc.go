// Package hv computes hypervolumes: the volume a set of rows dominates up to
// a reference point (Volume), each row's exclusive share of it
// (Contributions), the volume of every prefix of the rows (History), and a
// subset of k rows of largest volume (Subset). The root package validates
// its arguments (shape, directions, a finite reference point, k ≥ 0) and
// calls in here; everything in this package takes valid input. Keys, sorts
// and the front filter are those of package nd.
//
// The kernels work on extents: a row's distance from the reference point
// towards the good side of each column, so one set of kernels serves every
// mix of directions; the contribution kernels take oriented coordinates
// instead, for accuracy. A volume that overflows although it fits in a
// float64 is measured again with each column scaled by a power of two.
//
// Volume, by the number of columns d:
//
//   - d ≤ 2: a sweep, O(n) after a radix sort (hypervolume.go).
//   - d = 3: the dimension sweep of Beume et al. over a staircase kept in a
//     64-ary bit tree (rankset.go), O(n log n) (hv3.go), or a plain sweep for
//     a few rows (hv3small.go).
//   - d = 4: HV4D+ of Guerreiro and Fonseca, O(n²) time, O(n) space (hv4d.go).
//   - d = 5: the dimension sweep of Fonseca, Paquete and López-Ibáñez over
//     HV4D+, O(n³) (hv5d.go).
//   - d ≥ 6: WFG of While et al., exclusive volumes over limited sets, time
//     exponential in d in the worst case, with the sweeps above as its base
//     case (wfg.go).
//
// Contributions: O(n) after a radix sort for d ≤ 2, O(n log n) for three
// columns by an extension of Emmerich and Fonseca to dominated rows
// (contributions.go, contributions3small.go), one WFG exclusive volume per
// row above.
//
// History is incremental: O(n) for one column, O(n log n) for two (a
// staircase in a bit tree), with three a row measured against its
// neighbours on the current front found in a k-d tree, about O(log n) per
// row on spread data but O(n) in the worst case; with four or more, WFG's
// exclusive volume of each row entering the front (history.go).
//
// Subset is exact for d ≤ 2, by the dynamic program of Bringmann, Friedrich
// and Klitzke in O(n log n + k·m) for m candidates, and greedy for d ≥ 3,
// with lazily re-measured gains (Minoux), within 1 − 1/e of the best volume
// by submodularity (subset.go).
//
// Papers:
//
//   - N. Beume, C. M. Fonseca, M. López-Ibáñez, L. Paquete and
//     J. Vahrenhold, "On the complexity of computing the hypervolume
//     indicator", IEEE TEVC 13(5), 2009.
//   - A. P. Guerreiro and C. M. Fonseca, "Computing and updating
//     hypervolume contributions in up to four dimensions", IEEE TEVC 22(3),
//     2018 (HV4D+).
//   - C. M. Fonseca, L. Paquete and M. López-Ibáñez, "An improved
//     dimension-sweep algorithm for the hypervolume indicator", IEEE CEC
//     2006.
//   - L. While, L. Bradstreet and L. Barone, "A fast way of calculating
//     exact hypervolumes", IEEE TEVC 16(1), 2012 (WFG).
//   - M. T. M. Emmerich and C. M. Fonseca, "Computing hypervolume
//     contributions in low dimensions: asymptotically optimal algorithm and
//     complexity results", EMO 2011.
//   - K. Bringmann, T. Friedrich and P. Klitzke, "Two-dimensional subset
//     selection for hypervolume and epsilon-indicator", GECCO 2014.
//   - G. L. Nemhauser, L. A. Wolsey and M. L. Fisher, "An analysis of
//     approximations for maximizing submodular set functions", Math.
//     Program. 14, 1978; A. P. Guerreiro, C. M. Fonseca and L. Paquete,
//     "Greedy hypervolume subset selection in low dimensions", Evol.
//     Comput. 24(3), 2016.
//   - M. Minoux, "Accelerated greedy algorithms for maximizing submodular
//     set functions", Optimization Techniques, LNCIS 7, 1978.
package hv
