package bench

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spica-search/spica"
)

// Detect names the tool that wrote data by the keys of its first object
// (the first line of JSON lines, the first element of a JSON array). Each
// tool is known by keys no other writes:
//
//   - dynamo: output_throughput_tok_s, duration_ms, gpu_hours,
//     mean_output_token_throughput_per_user, wall_time_ms or
//     goodput_output_throughput_tok_s
//   - vllm: duration with model_id, tokenizer_id, num_prompts,
//     burstiness, endpoint_type, request_goodput (or "request_goodput:")
//     or an e2el statistic
//   - sglang: duration with dataset_name, an e2e_latency_ms statistic,
//     random_input_len, sharegpt_output_len, server_info or
//     total_output_tokens_retokenized
//   - aiperf: records, or metric objects ({"unit", "avg", …}) with
//     benchmark_duration, aiperf_version, schema_version, telemetry_data,
//     error_summary or was_cancelled
//   - genai-perf: metric objects (request_throughput, request_latency,
//     time_to_first_token) without AIPerf's keys
//   - llmperf: a key starting "results_"
//   - trtllm-bench: world_info, or performance with request_info
//
// A document no tool matches, or more than one, is an error wrapping
// spica.ErrInvalidReport that names the candidates; set Options.Tool to
// read it. Malformed JSON is an error with its byte offset.
func Detect(data []byte) (Tool, error) {
	var tool Tool
	err := eachDocument(data, func(part []byte, base int, _ string, line int) error {
		d, err := parseDoc(part, nil)
		if err != nil {
			return locate(err, base, line, "")
		}
		i := 0
		if d.nodes[0].kind == kindArray {
			i = 1
			if len(d.nodes) < 2 {
				return locate(&spica.Error{Offset: 0, Err: spica.ErrInvalidReport, Msg: "an empty array holds no run"}, base, line, "")
			}
		}
		if d.nodes[i].kind != kindObject {
			return locate(&spica.Error{Offset: int64(d.nodes[i].off), Err: spica.ErrInvalidReport,
				Msg: "a run must be a JSON object, got " + kindName(d.nodes[i].kind)}, base, line, "")
		}
		tool, err = detectObject(&d, i)
		if err != nil {
			return locate(err, base, line, "")
		}
		return errStop
	})
	if err == errStop {
		err = nil
	}
	return tool, err
}

// errStop ends eachDocument after the first document; Detect never
// returns it.
var errStop = errors.New("stop")

// detectObject names the tool of the object at index i of d.
func detectObject(d *doc, i int) (Tool, error) {
	var has [toolCount]bool
	metricObjects, aiperfKeys := false, false
	for j := range d.members(i) {
		n := &d.nodes[j]
		key := string(n.key) // markers hold no escapes
		switch key {
		case "output_throughput_tok_s", "duration_ms", "gpu_hours", "mean_output_token_throughput_per_user",
			"wall_time_ms", "goodput_output_throughput_tok_s":
			has[toolDynamo] = true
		case "model_id", "tokenizer_id", "num_prompts", "burstiness", "endpoint_type", "request_goodput",
			"request_goodput:", "mean_e2el_ms", "median_e2el_ms":
			has[toolVLLM] = true
		case "dataset_name", "mean_e2e_latency_ms", "median_e2e_latency_ms", "random_input_len",
			"sharegpt_output_len", "server_info", "total_output_tokens_retokenized":
			has[toolSGLang] = true
		case "records":
			has[toolAIPerf] = n.kind == kindObject
		case "benchmark_duration", "aiperf_version", "schema_version", "telemetry_data", "error_summary", "was_cancelled":
			aiperfKeys = true
		case "request_throughput", "request_latency", "time_to_first_token":
			metricObjects = metricObjects || n.kind == kindObject
		case "world_info":
			has[toolTRTLLM] = true
		case "performance":
			has[toolTRTLLM] = has[toolTRTLLM] || d.field(i, "request_info") != noNode
		}
		if strings.HasPrefix(key, "results_") {
			has[toolLLMPerf] = true
		}
	}
	if metricObjects {
		if aiperfKeys {
			has[toolAIPerf] = true
		} else {
			has[toolGenAIPerf] = true
		}
	}
	// vLLM and SGLang are known by their header keys only beside the
	// duration in seconds both write.
	if d.field(i, "duration") == noNode {
		has[toolVLLM], has[toolSGLang] = false, false
	}
	var found []Tool
	for t, ok := range has {
		if ok {
			found = append(found, tools[t])
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", &spica.Error{Offset: int64(d.nodes[i].off), Err: spica.ErrInvalidReport,
			Msg: fmt.Sprintf("no tool matches the document's keys: want the output of one of %s", toolList(tools[:]))}
	}
	return "", &spica.Error{Offset: int64(d.nodes[i].off), Err: spica.ErrInvalidReport,
		Msg: fmt.Sprintf("the document's keys match %s: set Options.Tool to the one that wrote it", toolList(found))}
}

// The tools' indices in tools.
const (
	toolDynamo = iota
	toolVLLM
	toolSGLang
	toolAIPerf
	toolGenAIPerf
	toolLLMPerf
	toolTRTLLM
	toolCount
)
