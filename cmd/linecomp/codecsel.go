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
// that takes lineSize (noting on standard error which do not); if no codec
// other than the identity codec takes it, that is a usage error naming the
// sizes the codecs take. Every problem is a usage error.
func (e *env) selectCodecs(list string, lineSize int) ([]string, error) {
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
