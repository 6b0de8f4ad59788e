// Package nd finds the non-dominated rows (the maxima, or Pareto front) of a
// matrix, and holds the key and sort machinery every engine of spica shares.
// The root package validates its arguments and calls in here; everything in
// this package takes valid input: n·dims values, dims ≥ 1, one direction per
// column.
//
// Keys (keys.go). Every engine compares 64-bit keys, not floats: FastKey
// maps a value to an unsigned integer whose order is the column's order in
// its direction, "smaller is better", NaN the largest key and -0.0 equal to
// 0.0, so the NaN rule lives in one place.
//
// Sorting (radixsort.go, selectnth.go). Records of a key and a payload (Rec)
// are sorted by a most-significant-digit radix sort, O(n) passes of 11-bit
// digits below the keys' common prefix; SelectNth is Hoare's quickselect,
// expected O(n).
//
// The front (front.go), by the number of columns d:
//
//   - d = 1: one pass for the best key, O(n).
//   - d = 2: a sort and one sweep, O(n) after the radix sort, or counting
//     sorts on the first column's values for pools of a few thousand rows
//     (sweep2.go).
//   - d = 3: a lexicographic sort and a sweep over a prefix-minimum Fenwick
//     tree, O(n log n) (sweep3.go).
//   - d ≥ 4: the divide and conquer of Kung, Luccio and Preparata in
//     Bentley's form, in rank space, O(n log^(d−2) n), with a dimension sweep
//     for the last three columns (kung.go); halves of up to 8192 rows are
//     settled by the bit-set dominance of merge non-dominated sorting,
//     O(m²(d−1)/64) word operations for m rows (kungbits.go).
//
// Before any sort, a pool of a few hundred rows or more passes a pivot
// pre-filter (prefilter.go): rows that one of a few pivot rows (each column's
// best, the knee of least normalized sum and, with four or more columns,
// weighted knees) dominates are dropped in one read of the matrix, so on data
// with a small front the whole call costs about that read.
//
// Papers:
//
//   - H. T. Kung, F. Luccio and F. P. Preparata, "On finding the maxima of a
//     set of vectors", JACM 22(4), 1975.
//   - J. L. Bentley, "Multidimensional divide-and-conquer", CACM 23(4), 1980.
//   - J. Moreno, D. Rodriguez, A. J. Nebro and J. A. Lozano, "Merge
//     nondominated sorting algorithm for many-objective optimization", IEEE
//     Trans. Cybernetics 51(12), 2021.
//   - C. A. R. Hoare, "Algorithm 65: Find", CACM 4(7), 1961 (SelectNth).
package nd
