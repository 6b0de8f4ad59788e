package k8s

import (
	"fmt"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/spica-search/spica"
	"github.com/spica-search/spica/interop/k8s/api/v1alpha1"
	"pgregory.net/rapid"
)

var timeType = reflect.TypeFor[time.Time]()

// fill sets every exported field reachable from v (addressable) to drawn
// values: strings, numbers and bools; slices and maps nil, empty or of one
// or two elements; pointers nil or to a filled value; a spica target
// anywhere in range and one past it. Unexported fields (those of time.Time,
// drawn as a whole) are left alone.
func fill(t *rapid.T, v reflect.Value, path string) {
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(time.Unix(rapid.Int64Range(0, 1<<32).Draw(t, path), 0).UTC()))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				fill(t, v.Field(i), path+"."+f.Name)
			}
		}
	case reflect.Pointer:
		if rapid.IntRange(0, 3).Draw(t, path+" nil") == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		fill(t, p.Elem(), path)
		v.Set(p)
	case reflect.Slice:
		n := rapid.IntRange(-1, 2).Draw(t, path+" len")
		if n < 0 {
			v.SetZero()
			return
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			fill(t, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Map:
		n := rapid.IntRange(-1, 2).Draw(t, path+" len")
		if n < 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), n)
		for i := range n {
			k := reflect.New(v.Type().Key()).Elem()
			fill(t, k, fmt.Sprintf("%s key %d", path, i))
			e := reflect.New(v.Type().Elem()).Elem()
			fill(t, e, fmt.Sprintf("%s[%v]", path, k))
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.String:
		v.SetString(rapid.StringMatching(`[a-z]{0,3}`).Draw(t, path))
	case reflect.Bool:
		v.SetBool(rapid.Bool().Draw(t, path))
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if v.Type() == reflect.TypeFor[spica.OptimizationTarget]() {
			v.SetInt(int64(rapid.IntRange(0, len(names)).Draw(t, path)))
			return
		}
		v.SetInt(rapid.Int64Range(-3, 3).Draw(t, path))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(rapid.Uint64Range(0, 3).Draw(t, path))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(rapid.SampledFrom([]float64{0, 1, 2.5, 50, -1, 5e-324, math.MaxFloat64}).Draw(t, path))
	default:
		t.Fatalf("fill: %s has kind %s, which the deep-copy test does not draw", path, v.Kind())
	}
}

// mutate changes every exported leaf reachable from v (addressable) to a
// value other than its own: a string gets a suffix, a number another
// number, a bool its negation, a time an hour more; every element of a
// slice and value of a map is mutated in place, every map gains a key, and
// every pointer's target is mutated where it points. A copy that shares
// any storage with its original then changes the original too.
func mutate(v reflect.Value) {
	if v.Type() == timeType {
		v.Set(reflect.ValueOf(v.Interface().(time.Time).Add(time.Hour)))
		return
	}
	switch v.Kind() {
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				mutate(v.Field(i))
			}
		}
	case reflect.Pointer:
		if !v.IsNil() {
			mutate(v.Elem())
		}
	case reflect.Slice:
		for i := range v.Len() {
			mutate(v.Index(i))
		}
	case reflect.Map:
		if v.IsNil() {
			return
		}
		iter := v.MapRange()
		type kv struct{ k, v reflect.Value }
		var entries []kv
		for iter.Next() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(iter.Value())
			mutate(e)
			entries = append(entries, kv{iter.Key(), e})
		}
		for _, e := range entries {
			v.SetMapIndex(e.k, e.v)
		}
		// A key no filled map holds: fill draws keys of at most 3 letters.
		k := reflect.New(v.Type().Key()).Elem()
		if k.Kind() == reflect.String {
			k.SetString("added by mutate")
		}
		v.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
	case reflect.String:
		v.SetString(v.String() + "~")
	case reflect.Bool:
		v.SetBool(!v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(v.Int() ^ 1)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		v.SetUint(v.Uint() ^ 1)
	case reflect.Float32, reflect.Float64:
		if v.Float() == 1 {
			v.SetFloat(2)
		} else {
			v.SetFloat(1)
		}
	}
}

// leavesDiffer reports the first exported leaf of a that mutate left equal
// in b (its mutated copy), walking both alike: a check that mutate reaches
// every field, so that the deep-copy test cannot pass by skipping one.
func leavesDiffer(a, b reflect.Value, path string) error {
	if a.Type() == timeType {
		if a.Interface().(time.Time).Equal(b.Interface().(time.Time)) {
			return fmt.Errorf("%s unchanged", path)
		}
		return nil
	}
	switch a.Kind() {
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() {
				if err := leavesDiffer(a.Field(i), b.Field(i), path+"."+f.Name); err != nil {
					return err
				}
			}
		}
	case reflect.Pointer:
		if !a.IsNil() {
			return leavesDiffer(a.Elem(), b.Elem(), path)
		}
	case reflect.Slice:
		for i := range a.Len() {
			if err := leavesDiffer(a.Index(i), b.Index(i), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		if !a.IsNil() && b.Len() != a.Len()+1 {
			return fmt.Errorf("%s gained no key", path)
		}
		for iter := a.MapRange(); iter.Next(); {
			if err := leavesDiffer(iter.Value(), b.MapIndex(iter.Key()), fmt.Sprintf("%s[%v]", path, iter.Key())); err != nil {
				return err
			}
		}
	default:
		if a.Equal(b) {
			return fmt.Errorf("%s unchanged: %v", path, a)
		}
	}
	return nil
}

// checkDeepCopy draws a filled T, takes two deep copies, mutates every
// field of the second and checks that the original still equals the
// first; the first must equal the original as drawn (nil apart from empty,
// which cmp keeps apart).
func checkDeepCopy[T any](t *testing.T, deepCopy func(*T) *T) {
	rapid.Check(t, func(rt *rapid.T) {
		var orig T
		fill(rt, reflect.ValueOf(&orig).Elem(), reflect.TypeFor[T]().Name())
		before := deepCopy(&orig)
		if d := cmp.Diff(orig, *before); d != "" {
			rt.Fatalf("DeepCopy differs from the original (-original +copy):\n%s", d)
		}
		c := deepCopy(&orig)
		mutate(reflect.ValueOf(c).Elem())
		if err := leavesDiffer(reflect.ValueOf(before).Elem(), reflect.ValueOf(c).Elem(), "copy"); err != nil {
			// Either mutate skipped the field, or the two copies share
			// it, which makes the second's mutation the first's.
			rt.Fatalf("a mutated copy still equals an earlier copy: %v", err)
		}
		if d := cmp.Diff(*before, orig); d != "" {
			rt.Fatalf("mutating a deep copy changed the original (-before +after):\n%s", d)
		}
	})
}

// TestSearchDeepCopyIsDeep: controller-gen's DeepCopy of the sample API,
// which calls spica's DeepCopyInto for the goal, shares nothing with the
// original: not the objective list, nor anything in the object's metadata.
func TestSearchDeepCopyIsDeep(t *testing.T) {
	t.Run("Search", func(t *testing.T) { checkDeepCopy(t, (*v1alpha1.Search).DeepCopy) })
	t.Run("SearchSpec", func(t *testing.T) { checkDeepCopy(t, (*v1alpha1.SearchSpec).DeepCopy) })
	t.Run("SearchList", func(t *testing.T) { checkDeepCopy(t, (*v1alpha1.SearchList).DeepCopy) })
}

// TestMutateCatchesSharing: the deep-copy check fails for a copy that
// shares the objective list, as a struct assignment does, so it can fail.
func TestMutateCatchesSharing(t *testing.T) {
	orig := v1alpha1.SearchSpec{Goal: spica.OptimizationGoal{Target: spica.TargetPareto,
		ParetoObjectives: []spica.OptimizationTarget{spica.TargetThroughput, spica.TargetE2ELatency}}}
	before := orig.DeepCopy()
	shallow := orig // shares ParetoObjectives
	mutate(reflect.ValueOf(&shallow).Elem())
	// throughput (0) ^ 1 is throughput_per_gpu (1); e2e_latency (3) ^ 1 is
	// throughput_per_user (2).
	want := []spica.OptimizationTarget{spica.TargetThroughputPerGPU, spica.TargetThroughputPerUser}
	if !cmp.Equal(orig.Goal.ParetoObjectives, want) {
		t.Errorf("after mutating a shallow copy the original's list is %v, want %v", orig.Goal.ParetoObjectives, want)
	}
	if cmp.Equal(*before, orig) {
		t.Error("a shallow copy's mutation left the original equal to its deep copy")
	}
}
