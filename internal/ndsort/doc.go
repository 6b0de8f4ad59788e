// Package ndsort is non-dominated sorting: it gives each row of a matrix its
// non-domination layer (Layers), and computes the NSGA-II crowding distance
// (Crowding). The root package validates its arguments and calls in here;
// everything in this package takes valid input. Dominance, keys and sorts
// are those of package nd.
//
// Layers sorts the rows lexicographically by their keys, so that every row
// that dominates another comes before it, then, by the number of columns d:
//
//   - d = 1: the rank of the row's distinct key, O(n log n).
//   - d = 2: Jensen's sweep, a binary search over each layer's last row,
//     O(n log n) (layers.go). Up to nd.SmallLexOrder2Max rows with no NaN
//     or infinite first value, the rows are ordered by counting sorts on
//     their first values instead (nd.LexOrder2), and the same sweep, a
//     patience sorting, runs on the values with pooled scratch
//     (layers2small.go).
//   - d = 3: ENS-BS, each row into the first layer that does not dominate
//     it, each layer kept as a staircase of its last two keys in blocks,
//     O(n log² n) comparisons (layers.go).
//   - d ≥ 4: layer 0 by nd.Front, then the other rows by Jensen's divide and
//     conquer with the equal-key handling of Fortin et al. and the rank
//     filter of Buzdalov and Shalyto, O(n log^(d−1) n) (dc.go, its pairwise
//     base case in dcbrute.go).
//
// Crowding orders each column by a radix sort, O(d n) (crowding.go).
//
// Papers:
//
//   - D. Aldous and P. Diaconis, "Longest increasing subsequences: from
//     patience sorting to the Baik-Deift-Johansson theorem", Bull. Amer.
//     Math. Soc. 36(4), 1999 (patience sorting).
//   - M. T. Jensen, "Reducing the run-time complexity of multiobjective EAs:
//     the NSGA-II and other algorithms", IEEE Trans. Evol. Comput. 7(5),
//     2003.
//   - X. Zhang, Y. Tian, R. Cheng and Y. Jin, "An efficient approach to
//     nondominated sorting for evolutionary multiobjective optimization",
//     IEEE Trans. Evol. Comput. 19(2), 2015 (ENS-BS).
//   - F.-A. Fortin, S. Grenier and M. Parizeau, "Generalizing the improved
//     run-time complexity algorithm for non-dominated sorting", GECCO 2013.
//   - M. Buzdalov and A. Shalyto, "A provably asymptotically fast version of
//     the generalized Jensen algorithm for non-dominated sorting", PPSN 2014.
//   - K. Deb, A. Pratap, S. Agarwal and T. Meyarivan, "A fast and elitist
//     multiobjective genetic algorithm: NSGA-II", IEEE Trans. Evol. Comput.
//     6(2), 2002 (crowding distance).
package ndsort
