package study

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strings"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all" // the studies name codecs by registry name
	"github.com/linecomp/linecomp/bdi"
	"github.com/linecomp/linecomp/sim/gpu"
)

// LatteCodec returns the codec of one LATTE-CC L1 mode, 128-byte lines, at
// LATTE-CC's own latencies (linecomp.SourceLatteCC): BDI 2/2 cycles
// (§IV-A1) instead of the BDI paper's 5/1, SC² 6/14 and BPC –/11 (their
// registry defaults already). "none" is the uncompressed mode.
func LatteCodec(name string) (linecomp.Codec, error) {
	if name == "bdi" {
		lat, _ := linecomp.PresetLatency(linecomp.SourceLatteCC, "bdi")
		return bdi.New(128, bdi.WithLatency(lat))
	}
	c, err := linecomp.New(name, 128)
	if err != nil {
		return nil, err
	}
	if name == "none" {
		return c, nil
	}
	in, err := linecomp.Lookup(name)
	if err != nil {
		return nil, err
	}
	if lat, ok := linecomp.PresetLatency(linecomp.SourceLatteCC, in.Algorithm); ok {
		got, _ := c.Latency().DecompressCycles()
		want, _ := lat.DecompressCycles()
		if got != want {
			return nil, fmt.Errorf("%w: %s decompresses in %d cycles, LATTE-CC says %d, and it cannot be retimed here", ErrParam, name, got, want)
		}
	}
	return c, nil
}

// LatteMachine returns LATTE-CC's Table II machine (gpu.LatteConfig) with
// the L1 modes named, each codec at LATTE-CC's latencies (LatteCodec): the
// machine of `linecomp sim gpu` and of the latte study. The caller attaches
// the L1 policy (AttachL1) for more than one mode.
func LatteMachine(modes ...string) (gpu.Config, error) {
	var cs []linecomp.Codec
	for _, m := range modes {
		c, err := LatteCodec(m)
		if err != nil {
			return gpu.Config{}, err
		}
		cs = append(cs, c)
	}
	return gpu.LatteConfig(cs...)
}

// Overrides change LATTE-CC's machine: a JSON object whose keys are the
// json tags below (`linecomp sim gpu -config FILE`, the latte study's
// "config" parameter). A key left out keeps the Table II value.
type Overrides struct {
	SMs          *int    `json:"sms" doc:"SMs (15)"`
	WarpsPerSM   *int    `json:"warps_per_sm" doc:"warp slots per SM (48)"`
	BlocksPerSM  *int    `json:"blocks_per_sm" doc:"block slots per SM (8)"`
	Schedulers   *int    `json:"schedulers" doc:"warp schedulers per SM (2)"`
	Scheduling   *string `json:"scheduling" doc:"\"gto\" (default) or \"lrr\""`
	MSHRs        *int    `json:"mshrs" doc:"MSHRs per L1 (32)"`
	L1Sets       *int    `json:"l1_sets" doc:"L1 sets, a power of two (32: 16 KB)"`
	L1Ways       *int    `json:"l1_ways" doc:"L1 ways (4)"`
	L1TagFactor  *int    `json:"l1_tag_factor" doc:"L1 tags per way (4)"`
	L1SubBlock   *int    `json:"l1_sub_block" doc:"L1 data sub-block bytes, dividing 128 (32)"`
	L1HitLatency *int    `json:"l1_hit_latency" doc:"L1 hit cycles before decompression (20)"`
	L2Sets       *int    `json:"l2_sets" doc:"sets per L2 slice, a power of two (128: 6 × 128 KB = 768 KB)"`
	L2Ways       *int    `json:"l2_ways" doc:"L2 ways (8)"`
	L2HitLatency *int    `json:"l2_hit_latency" doc:"cycles from an L1 miss to an L2 hit (120)"`
	MemLatency   *int    `json:"mem_latency" doc:"cycles below the L2 on an L2 miss (100: 220 in all)"`
}

// OverrideKeys returns every key Overrides takes, with what it sets and its
// default, in the order of the struct.
func OverrideKeys() [][2]string {
	var out [][2]string
	t := reflect.TypeOf(Overrides{})
	for i := range t.NumField() {
		f := t.Field(i)
		out = append(out, [2]string{f.Tag.Get("json"), f.Tag.Get("doc")})
	}
	return out
}

// ParseOverrides reads one JSON object of overrides. An unknown key is an
// error that lists the valid ones; so is anything after the object.
func ParseOverrides(data []byte) (Overrides, error) {
	var o Overrides
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		if strings.Contains(err.Error(), "unknown field") {
			var keys []string
			for _, k := range OverrideKeys() {
				keys = append(keys, k[0])
			}
			return o, fmt.Errorf("%w: machine config: %v; the keys are %s", ErrParam, err, strings.Join(keys, ", "))
		}
		return o, fmt.Errorf("%w: machine config: %v", ErrParam, err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return o, fmt.Errorf("%w: machine config: more after the JSON object", ErrParam)
	}
	return o, nil
}

// canonical returns the overrides as compact JSON with sorted keys (empty
// for none), the form a job's parameters carry.
func (o Overrides) canonical() string {
	b, _ := json.Marshal(o) // pointers to ints and strings always encode
	var m map[string]any
	json.Unmarshal(b, &m)
	for k, v := range m {
		if v == nil {
			delete(m, k)
		}
	}
	if len(m) == 0 {
		return ""
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	b, _ = json.Marshal(m) // encoding/json sorts map keys
	return string(b)
}

// Apply sets the overridden fields of c. It checks only what gpu.New
// cannot see (a scheduling name); gpu.New checks the rest.
func (o Overrides) Apply(c *gpu.Config) error {
	set := func(dst *int, v *int) {
		if v != nil {
			*dst = *v
		}
	}
	set(&c.SMs, o.SMs)
	set(&c.WarpsPerSM, o.WarpsPerSM)
	set(&c.BlocksPerSM, o.BlocksPerSM)
	set(&c.Schedulers, o.Schedulers)
	set(&c.MSHRs, o.MSHRs)
	set(&c.L1.Sets, o.L1Sets)
	set(&c.L1.Ways, o.L1Ways)
	set(&c.L1.TagFactor, o.L1TagFactor)
	set(&c.L1.SubBlock, o.L1SubBlock)
	set(&c.L1.HitLatency, o.L1HitLatency)
	set(&c.L2.Sets, o.L2Sets)
	set(&c.L2.Ways, o.L2Ways)
	set(&c.L2HitLatency, o.L2HitLatency)
	if o.MemLatency != nil {
		c.Memory = gpu.FixedLatency(*o.MemLatency) // gpu.New bounds it
	}
	if o.Scheduling != nil {
		switch *o.Scheduling {
		case "gto":
			c.Scheduling = gpu.GTO
		case "lrr":
			c.Scheduling = gpu.LRR
		default:
			return fmt.Errorf("%w: scheduling %q: want gto or lrr", ErrParam, *o.Scheduling)
		}
	}
	return nil
}

// CheckOverrides builds LATTE-CC's machine with o and reports what cannot
// work (a size no machine holds, a latency out of range, a bad cache
// geometry), naming the field, so that a command can refuse a
// configuration before it reads any trace.
func CheckOverrides(o Overrides) error {
	cfg, err := latteMachineFor(LattePolicy{Modes: []string{"none"}}, o)
	if err == nil {
		_, err = gpu.New(cfg)
	}
	return err
}
