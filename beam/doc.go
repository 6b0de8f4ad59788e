// Package spicabeam computes the exact Pareto front of a pool of candidates
// too big for one machine on Apache Beam (SPEC §12), with the front engine
// of [github.com/spica-search/spica].
//
// A pool is a PCollection of [Item]: each candidate as its JSON, so a
// config of any shape survives, together with its place in the pool.
// [ParetoFront] is a global combine whose accumulator is a front: workers
// reduce their shares to fronts, and fronts merge exactly because the front
// of A∪B is the front of front(A)∪front(B). Its one output equals
// [spica.ParetoFront] on the whole pool, members and order alike; the place
// of each item stands in for the input order that a PCollection lacks.
// [ReadPool], [WriteFront] and [FrontOfFiles] read pools from and write
// fronts to JSON-lines files.
//
// The package is named spicabeam, not beam, so that it and Apache Beam's
// package can be imported side by side without renaming either.
package spicabeam
