package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/linecomp/linecomp"
)

// identityCodec is the root's "none" codec: a baseline, not a compressor,
// so a line size that only it takes runs nothing worth measuring.
const identityCodec = "none"

// selectCodecs resolves a -codecs flag for lines of lineSize bytes, for any
// subcommand that runs codecs. A named list must name registered codecs
// that take lineSize, each once. An empty list means every registered codec
// that takes lineSize (noting on standard error which do not), and so does
// "all"; if no codec
// other than the identity codec takes it, that is a usage error naming the
// sizes the codecs take. Every problem is a usage error.
func (e *env) selectCodecs(list string, lineSize int) ([]string, error) {
	if strings.TrimSpace(list) == "all" {
		list = "" // every codec, as an empty list
	}
	if list != "" {
		var names []string
		for _, name := range strings.Split(list, ",") {
			name = strings.TrimSpace(name)
			switch {
			case name == "":
				return nil, usagef("-codecs %q: an empty codec name", list)
			case slices.Contains(names, name):
				return nil, usagef("-codecs %q: %s is listed twice", list, name)
			}
			if _, err := linecomp.New(name, lineSize); err != nil {
				return nil, usagef("-codecs %s: %v", name, err)
			}
			names = append(names, name)
		}
		return names, nil
	}
	var names, without []string
	var sizes []int // line sizes that some compressing codec takes
	for _, in := range linecomp.Infos() {
		if in.Name != identityCodec {
			for _, n := range in.LineSizes {
				if !slices.Contains(sizes, n) {
					sizes = append(sizes, n)
				}
			}
		}
		if slices.Contains(in.LineSizes, lineSize) {
			names = append(names, in.Name)
		} else {
			without = append(without, in.Name)
		}
	}
	if len(names) == 0 || (len(names) == 1 && names[0] == identityCodec) {
		slices.Sort(sizes)
		return nil, usagef("-line %d: no codec compresses %d-byte lines; the codecs take %s bytes", lineSize, lineSize, orList(sizes))
	}
	if len(without) > 0 {
		e.warnf("not run: %s (no encoding for %d-byte lines)", strings.Join(without, ", "), lineSize)
	}
	return names, nil
}

// orList words a list of numbers as "32, 64 or 128".
func orList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = fmt.Sprint(n)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

// replayCodecs is the -codecs flag of a replay (sim cache, sim mem), whose
// line size each trace gives: named codecs, each once, or "all", every
// registered codec that takes the trace's line size.
type replayCodecs struct {
	names []string // nil for all
}

// parseReplayCodecs parses list; a name that no codec has is a usage error.
func parseReplayCodecs(list string) (replayCodecs, error) {
	if strings.TrimSpace(list) == "all" {
		return replayCodecs{}, nil
	}
	var rc replayCodecs
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
			return rc, usagef("-codecs %q: an empty codec name", list)
		case slices.Contains(rc.names, name):
			return rc, usagef("-codecs %q: %s is listed twice", list, name)
		}
		if _, err := linecomp.Lookup(name); err != nil {
			return rc, usagef("-codecs %s: %v", name, err)
		}
		rc.names = append(rc.names, name)
	}
	return rc, nil
}

// check runs try, which builds the model with one codec at a line size,
// for every named codec before any trace is read, at a line size the
// trace may have (see checkAtSomeSize); with all, only the geometry is
// checked, with none, which takes every size.
func (rc replayCodecs) check(line int, try func(codec string, lineSize int) error) error {
	names := rc.names
	if names == nil {
		names = []string{identityCodec}
	}
	for _, name := range names {
		if err := checkAtSomeSize(line, name, func(n int) error { return try(name, n) }); err != nil {
			return err
		}
	}
	return nil
}

// at returns the codecs to run on a trace of lineSize-byte lines: the
// named ones, or all that take lineSize.
func (rc replayCodecs) at(lineSize int) []string {
	if rc.names != nil {
		return rc.names
	}
	var names []string
	for _, in := range linecomp.Infos() {
		if slices.Contains(in.LineSizes, lineSize) {
			names = append(names, in.Name)
		}
	}
	return names
}

// build makes one model per codec of rc at lineSize with newModel. With
// all, a codec the model cannot take (one without a known latency, say) is
// left out with a note; a named one is an error.
func buildReplays[M any](e *env, rc replayCodecs, lineSize int, newModel func(codec string, lineSize int) (M, error)) ([]string, []M, error) {
	var names []string
	var models []M
	for _, name := range rc.at(lineSize) {
		m, err := newModel(name, lineSize)
		if err != nil {
			if rc.names != nil {
				return nil, nil, fmt.Errorf("%s: %w", name, err)
			}
			e.warnf("not run: %s (%v)", name, err)
			continue
		}
		names, models = append(names, name), append(models, m)
	}
	if len(models) == 0 {
		return nil, nil, fmt.Errorf("no codec runs on %d-byte lines", lineSize)
	}
	return names, models, nil
}

// commonSize returns the largest line size every named codec takes, or
// with all 128 (the papers' L2 line); 0 if the named ones share none.
func (rc replayCodecs) commonSize() int {
	if rc.names == nil {
		return 128
	}
	var common []int
	for i, name := range rc.names {
		info, _ := linecomp.Lookup(name) // parseReplayCodecs checked the name
		if i == 0 {
			common = slices.Clone(info.LineSizes)
			continue
		}
		common = slices.DeleteFunc(common, func(n int) bool { return !slices.Contains(info.LineSizes, n) })
	}
	if len(common) == 0 {
		return 0
	}
	return slices.Max(common)
}
