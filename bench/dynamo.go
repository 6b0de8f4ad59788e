package bench

import (
	"github.com/spica-search/spica"
)

// readDynamo reads the replay's trace_report (SPEC §4) with
// spica.ParseReport, so that Read(data)[0].Report equals
// spica.ParseReport(data) by construction: every number under every key,
// the strings "NaN", "Infinity", "-Infinity" and Python's bare tokens
// accepted, a repeated key an error. data is the object's bytes, at offset
// base in the document. Nothing is derived: the report already has
// gpu_hours, the per-user rate and goodput in spica's definitions. Meta
// holds its string and boolean fields, and used_gpus from Options.GPUs.
func readDynamo(r *reader, obj int, data []byte, base int) {
	rep, err := spica.ParseReport(data)
	if err != nil {
		r.err = locate(err, base, 0, "")
		return
	}
	r.rep = rep
	for j := range r.d.members(obj) {
		switch n := &r.d.nodes[j]; n.kind {
		case kindString, kindTrue, kindFalse:
			v, _ := r.metaValue(j)
			r.meta[n.keyText()] = v
		}
	}
}
