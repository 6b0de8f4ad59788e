package spicabeam

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"
	"github.com/spica-search/spica"
)

func init() {
	beam.RegisterType(reflect.TypeOf(Item{}))
	beam.RegisterCoder(reflect.TypeOf((*frontAcc)(nil)), encodeFrontAcc, decodeFrontAcc)
	register.Combiner3[*frontAcc, Item, []Item](&frontFn{})
	register.Function3x0(emitFront)
	register.Iter1[[]Item]()
	register.Emitter1[[]Item]()
}

// Item is one candidate of a pool on its way through a pipeline: the
// candidate as JSON (what [spica.Candidate.MarshalJSON] writes, or any JSON
// that [spica.Candidate.UnmarshalJSON] accepts) and its place in the pool.
//
// The pool's order is the order of (Source, Index): sources by byte-wise
// comparison of their names, then indices ascending. [ReadPool] gives each
// line the file's path and its line number, so the pool is the files in
// lexical order of their paths, each read top to bottom; [ItemsOf] gives
// the i-th candidate of a slice Source "" and Index i. Items of one pool
// should have distinct places: ties of equal places are broken in no
// particular order.
type Item struct {
	Source string // where the candidate was read, such as a file path
	Index  int64  // its place within Source, such as a line number
	JSON   []byte // the candidate
}

// comparePlace orders items by their place in the pool.
func comparePlace(a, b *Item) int {
	if c := cmp.Compare(a.Source, b.Source); c != 0 {
		return c
	}
	return cmp.Compare(a.Index, b.Index)
}

// where names an item's place in errors: "pool.jsonl:17", or "item 17" for
// a pool without sources.
func (it *Item) where() string {
	if it.Source == "" {
		return "item " + strconv.FormatInt(it.Index, 10)
	}
	return it.Source + ":" + strconv.FormatInt(it.Index, 10)
}

// ItemsOf encodes a pool held in memory as items, cands[i] at Source "" and
// Index i, so [ParetoFront] orders ties as [spica.ParetoFront] does on
// cands. It fails only when a candidate cannot be encoded (a NaN or a
// channel in its Config, a negative UsedGPUs, which no line may hold). O(total size of the JSON).
func ItemsOf(cands []spica.Candidate) ([]Item, error) {
	items := make([]Item, len(cands))
	for i := range cands {
		b, err := json.Marshal(cands[i])
		if err != nil {
			return nil, fmt.Errorf("spicabeam: candidate %d: %w", i, err)
		}
		items[i] = Item{Index: int64(i), JSON: b}
	}
	return items, nil
}

// Candidates decodes items, such as the front [ParetoFront] outputs, in
// their order. An item that is not a candidate is an error that names its
// place and wraps the decoder's error (and so [spica.ErrInvalidCandidate]).
func Candidates(items []Item) ([]spica.Candidate, error) {
	out := make([]spica.Candidate, len(items))
	for i := range items {
		if err := decode(&items[i], &out[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// decode reads an item's candidate with [spica.Candidate.UnmarshalJSON]
// itself, exactly as the library reads a line: the bare tokens NaN,
// Infinity and -Infinity that Python's json module writes are read where a
// float is expected, and rejected inside config, which is standard JSON
// (turning them into strings there, as NormalizeJSON would, changes the
// config). The item keeps the bytes it came with.
func decode(it *Item, c *spica.Candidate) error {
	*c = spica.Candidate{}
	if err := c.UnmarshalJSON(it.JSON); err != nil {
		return fmt.Errorf("spicabeam: %s: %w", it.where(), err)
	}
	return nil
}

// atItem names err, which the library gave about the only candidate of a
// list, by the item's place: the library's "candidate 0" would be every
// line's name. The *spica.Error inside keeps its sentinel, its Path
// relative to the candidate ("objectives.throughput_per_gpu").
func atItem(it *Item, err error) error {
	var e *spica.Error
	if errors.As(err, &e) {
		own := *e
		own.Path = strings.TrimPrefix(own.Path, "candidate 0.")
		own.Msg = strings.TrimPrefix(own.Msg, "candidate 0 ")
		err = &own
	}
	return fmt.Errorf("spicabeam: %s: %w", it.where(), err)
}

// ParetoFront returns a PCollection of exactly one element, of type []Item:
// the Pareto front over objectives of the pool cands, a PCollection of
// [Item]. The front holds the same candidates, in the same order, as
// [spica.ParetoFront] on the whole pool in the pool's order (see [Item]):
// sorted by the last objective ascending, ties in pool order, candidates
// with equal objective vectors all kept. Each member keeps the JSON it came
// with, byte for byte. An empty pool gives an empty front.
//
// It is a global [beam.Combine] whose accumulator is a front, so each
// worker reduces its share of the pool to that share's front and the
// runner merges fronts, exactly, since the front of A∪B is the front of
// front(A)∪front(B) (the mergeability of [spica.ParetoFront]); only fronts
// cross the network. Every front is computed by [spica.ParetoFront], so the
// dominance rules, NaN handling and the rule for a candidate's values are
// the library's own. With n candidates whose front has F members, the work
// is about that of [spica.ParetoFront] on the pool (each worker folds new
// candidates into its front in batches at least as large as the front), plus
// one [spica.ParetoFront] on the two fronts of each merge; a worker holds
// O(F + 1024) candidates.
//
// An invalid objective list panics when the pipeline is built, as
// [beam.Combine] does on a bad argument; [TryParetoFront] returns it as an
// error instead. A pool item that is not a candidate, or a candidate
// without a value for an objective, fails the pipeline with an error that
// names the item's place and wraps the library's error (so
// [spica.ErrInvalidCandidate]).
func ParetoFront(s beam.Scope, cands beam.PCollection, objectives []spica.OptimizationTarget) beam.PCollection {
	return beam.Must(TryParetoFront(s, cands, objectives))
}

// TryParetoFront is [ParetoFront] returning an invalid objective list (or
// a cands that is not a PCollection of [Item]) as an error, which wraps
// [spica.ErrInvalidParetoObjectives] in the first case.
func TryParetoFront(s beam.Scope, cands beam.PCollection, objectives []spica.OptimizationTarget) (beam.PCollection, error) {
	// The library checks the objective list before it reads any candidate.
	if _, err := spica.ParetoFront(nil, objectives); err != nil {
		return beam.PCollection{}, err
	}
	s = s.Scope("spica.ParetoFront")
	fronts, err := beam.TryCombine(s, &frontFn{Objectives: slices.Clone(objectives)}, cands)
	if err != nil {
		return beam.PCollection{}, err
	}
	// A global combine of an empty PCollection outputs nothing; reading it
	// as a side input beside one impulse gives exactly one output always.
	return beam.ParDo(s, emitFront, beam.Impulse(s), beam.SideInput{Input: fronts}), nil
}

// emitFront emits the front of the side input, or an empty front when the
// pool was empty.
func emitFront(_ []byte, fronts func(*[]Item) bool, emit func([]Item)) {
	var front []Item
	if !fronts(&front) {
		front = []Item{}
	}
	emit(front)
}

// frontFn is the CombineFn of [ParetoFront]. Its fields are exported only
// so that Beam can ship it to workers.
type frontFn struct {
	Objectives []spica.OptimizationTarget `json:"objectives"`
}

// minBatch is the fewest new candidates a front collects before they are
// folded into it: folding costs a pass over the front, so folding only
// when the batch is as large as the front (or this) keeps the cost of
// adding a candidate amortized constant.
const minBatch = 1024

// frontAcc is the accumulator: entries[:settled] is a front, and
// entries[settled:] candidates not yet folded into it. Its value, the
// front of all its entries, is what [frontFn.MergeAccumulators] and
// [frontFn.ExtractOutput] compute.
type frontAcc struct {
	entries []entry
	settled int
}

// entry is an item and its decoded candidate.
type entry struct {
	item Item
	cand spica.Candidate
}

// CreateAccumulator returns an empty front.
func (fn *frontFn) CreateAccumulator() *frontAcc { return &frontAcc{} }

// AddInput decodes a candidate, checks that it has a value for every
// objective, and adds it to the front's batch, folding the batch in when
// it is as large as the front.
func (fn *frontFn) AddInput(a *frontAcc, it Item) (*frontAcc, error) {
	var e entry
	e.item = it
	if err := decode(&it, &e.cand); err != nil {
		return nil, err
	}
	// The library's one rule for a candidate's values (SPEC §6), asked
	// through its exported face: a candidate ParetoFront would reject fails
	// here, where its place is known.
	if _, _, err := spica.ObjectiveMatrix([]spica.Candidate{e.cand}, fn.Objectives); err != nil {
		return nil, atItem(&it, err)
	}
	a.entries = append(a.entries, e)
	if pending := len(a.entries) - a.settled; pending >= max(a.settled, minBatch) {
		if err := fn.settle(a); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// MergeAccumulators returns the front of the union of two fronts, computed
// by spica.ParetoFront on their entries together.
func (fn *frontFn) MergeAccumulators(a, b *frontAcc) (*frontAcc, error) {
	a.entries = append(a.entries, b.entries...)
	if err := fn.settle(a); err != nil {
		return nil, err
	}
	return a, nil
}

// ExtractOutput returns the front in the order of spica.ParetoFront on the
// pool: the entries are put in pool order first, so its ties in input
// order are ties in pool order.
func (fn *frontFn) ExtractOutput(a *frontAcc) ([]Item, error) {
	slices.SortStableFunc(a.entries, func(x, y entry) int { return comparePlace(&x.item, &y.item) })
	if err := fn.settle(a); err != nil {
		return nil, err
	}
	out := make([]Item, len(a.entries))
	for i := range a.entries {
		out[i] = a.entries[i].item
	}
	return out, nil
}

// settle replaces a's entries with their front, in spica.ParetoFront's
// order on them.
func (fn *frontFn) settle(a *frontAcc) error {
	// spica.ParetoFront reads a candidate's values only from Objectives and
	// Metrics (SPEC §6). Proxies carrying those two maps, and in UsedGPUs
	// their index, which nothing in the front's computation reads, give
	// the library's front together with where each member came from.
	proxies := make([]spica.Candidate, len(a.entries))
	for i := range a.entries {
		c := &a.entries[i].cand
		proxies[i] = spica.Candidate{UsedGPUs: i, Metrics: c.Metrics, Objectives: c.Objectives}
	}
	front, err := spica.ParetoFront(proxies, fn.Objectives)
	if err != nil {
		// AddInput checked every candidate, so only a corrupt accumulator
		// gets here.
		return fmt.Errorf("spicabeam: front of %d candidates: %w", len(proxies), err)
	}
	kept := make([]entry, len(front))
	for i, c := range front {
		kept[i] = a.entries[c.UsedGPUs]
	}
	a.entries, a.settled = kept, len(kept)
	return nil
}

// The accumulator's wire form, for the runner to move fronts between
// workers: uvarint settled, uvarint count, then per entry uvarint
// len(Source), Source, varint Index, uvarint len(JSON), JSON. The
// candidate travels as its JSON, decoded again on arrival.

func encodeFrontAcc(a *frontAcc) ([]byte, error) {
	size := 2 * binary.MaxVarintLen64
	for i := range a.entries {
		it := &a.entries[i].item
		size += 3*binary.MaxVarintLen64 + len(it.Source) + len(it.JSON)
	}
	b := make([]byte, 0, size)
	b = binary.AppendUvarint(b, uint64(a.settled))
	b = binary.AppendUvarint(b, uint64(len(a.entries)))
	for i := range a.entries {
		it := &a.entries[i].item
		b = binary.AppendUvarint(b, uint64(len(it.Source)))
		b = append(b, it.Source...)
		b = binary.AppendVarint(b, it.Index)
		b = binary.AppendUvarint(b, uint64(len(it.JSON)))
		b = append(b, it.JSON...)
	}
	return b, nil
}

func decodeFrontAcc(b []byte) (*frontAcc, error) {
	bad := func(what string) (*frontAcc, error) {
		return nil, fmt.Errorf("spicabeam: corrupt front accumulator: %s", what)
	}
	uvarint := func() (uint64, bool) {
		v, n := binary.Uvarint(b)
		if n <= 0 {
			return 0, false
		}
		b = b[n:]
		return v, true
	}
	chunk := func() ([]byte, bool) {
		n, ok := uvarint()
		if !ok || n > uint64(len(b)) {
			return nil, false
		}
		c := b[:n:n]
		b = b[n:]
		return c, true
	}
	b = slices.Clone(b) // the entries keep slices of it; the caller's buffer may be reused
	settled, ok1 := uvarint()
	count, ok2 := uvarint()
	// Each entry takes at least three bytes, which bounds count before any
	// allocation trusts it.
	if !ok1 || !ok2 || settled > count || count > uint64(len(b))/3 {
		return bad("bad header")
	}
	a := &frontAcc{entries: make([]entry, count), settled: int(settled)}
	for i := range a.entries {
		e := &a.entries[i]
		src, ok := chunk()
		if !ok {
			return bad("bad source of entry " + strconv.Itoa(i))
		}
		e.item.Source = string(src)
		idx, n := binary.Varint(b)
		if n <= 0 {
			return bad("bad index of entry " + strconv.Itoa(i))
		}
		b = b[n:]
		e.item.Index = idx
		if e.item.JSON, ok = chunk(); !ok {
			return bad("bad JSON of entry " + strconv.Itoa(i))
		}
		if err := decode(&e.item, &e.cand); err != nil {
			return nil, err
		}
	}
	if len(b) != 0 {
		return bad(strconv.Itoa(len(b)) + " trailing bytes")
	}
	return a, nil
}
