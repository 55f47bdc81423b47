package linecomp

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Factory makes a codec for one line size, or returns an error wrapping
// ErrLineSize if the codec has no encoding for that size.
type Factory func(lineSize int) (Codec, error)

// Info describes a registered codec: what it is, where it comes from and
// what it takes. The first five fields are given to [Register]; the rest are
// filled in by Register from codecs built at each line size.
type Info struct {
	// Name is the registry name, e.g. "cpack-z-gem5".
	Name string
	// Algorithm is the key of the latency and energy presets
	// ([LatencyPresets], [EnergyPresets]): "cpack-z" for "cpack-z-gem5",
	// "magbdi" for every MAG-aware BDI. It defaults to Name.
	Algorithm string
	// Paper cites the publication that defines the algorithm.
	Paper string
	// Variant says why this variant exists, where it departs from the
	// algorithm's default; it is empty for the default itself.
	Variant string
	// LineSizes are the line sizes in bytes that New accepts, ascending.
	LineSizes []int

	// TagBits holds TagBits() of the codec at each of LineSizes.
	TagBits []int
	// Latency is the codec's default latency (the same at every size).
	Latency Latency
	// Trainable reports that the codec implements [Trainable].
	Trainable bool
	// Encodings lists the names of the codec's line-level encodings at the
	// largest line size, if it implements [EncodingReporter].
	Encodings []string
}

// TagBitsAt returns the codec's tag bits at lineSize, and false if it does
// not take that size.
func (in Info) TagBitsAt(lineSize int) (int, bool) {
	i := slices.Index(in.LineSizes, lineSize)
	if i < 0 || i >= len(in.TagBits) {
		return 0, false
	}
	return in.TagBits[i], true
}

type entry struct {
	info    Info
	factory Factory
}

var registry struct {
	sync.RWMutex
	m map[string]*entry
}

// Register makes a codec available under info.Name. Codec packages call it
// from init. Like database/sql.Register, it panics if the name is empty or
// taken, if LineSizes is empty, not ascending or not positive, or if f is
// nil: each of those is a programming error in the registering package,
// found the first time the program starts.
//
// Register builds the codec at each of LineSizes to fill in the rest of its
// Info, and panics if that fails or if a built codec does not report
// info.Name and its line size: New(info.Name, n) then accepts exactly the
// sizes in LineSizes and returns a codec named info.Name.
func Register(info Info, f Factory) {
	if info.Name == "" || f == nil {
		panic("linecomp: Register with empty name or nil factory")
	}
	if len(info.LineSizes) == 0 || info.LineSizes[0] <= 0 || !slices.IsSorted(info.LineSizes) {
		panic("linecomp: Register " + info.Name + ": LineSizes must be positive and ascending")
	}
	if info.Algorithm == "" {
		info.Algorithm = info.Name
	}
	info.LineSizes = slices.Clone(info.LineSizes)
	if err := info.fill(f); err != nil {
		panic(err.Error())
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.m == nil {
		registry.m = make(map[string]*entry)
	}
	if _, dup := registry.m[info.Name]; dup {
		panic("linecomp: Register called twice for " + info.Name)
	}
	registry.m[info.Name] = &entry{info: info, factory: f}
}

// RegisterNew is Register for a codec package's own constructor, which
// returns its concrete type. It turns a failed construction into a nil
// Codec, never an interface holding a nil pointer.
func RegisterNew[C Codec](info Info, newCodec func(lineSize int) (C, error)) {
	Register(info, func(n int) (Codec, error) {
		c, err := newCodec(n)
		if err != nil {
			return nil, err
		}
		return c, nil
	})
}

func lookup(name string) (*entry, error) {
	registry.RLock()
	e := registry.m[name]
	registry.RUnlock()
	if e == nil {
		return nil, fmt.Errorf("%w %q (registered: %s)", ErrUnknownCodec, name, strings.Join(Names(), ", "))
	}
	return e, nil
}

// New returns the codec registered under name, configured for lines of
// lineSize bytes. A size the codec does not take gives an error wrapping
// ErrLineSize.
func New(name string, lineSize int) (Codec, error) {
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if !slices.Contains(e.info.LineSizes, lineSize) {
		return nil, LineSizeError(name, lineSize, sizeList(e.info.LineSizes))
	}
	return e.factory(lineSize)
}

// sizeList words a list of line sizes for an error message.
func sizeList(sizes []int) string {
	s := make([]string, len(sizes))
	for i, n := range sizes {
		s[i] = fmt.Sprint(n)
	}
	if len(s) == 1 {
		return s[0] + " bytes"
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1] + " bytes"
}

// Lookup returns the description of the codec registered under name. An
// unknown name gives an error wrapping ErrUnknownCodec.
func Lookup(name string) (Info, error) {
	e, err := lookup(name)
	if err != nil {
		return Info{}, err
	}
	return e.info.clone(), nil
}

// fill completes in from a codec built by f at each line size.
func (in *Info) fill(f Factory) error {
	in.TagBits, in.Encodings = nil, nil
	for i, n := range in.LineSizes {
		c, err := f(n)
		if err != nil {
			return fmt.Errorf("linecomp: Register %s: cannot build it for %d-byte lines: %v", in.Name, n, err)
		}
		if c.Name() != in.Name || c.LineSize() != n {
			return fmt.Errorf("linecomp: Register %s: the codec built for %d-byte lines calls itself %s at %d bytes", in.Name, n, c.Name(), c.LineSize())
		}
		in.TagBits = append(in.TagBits, c.TagBits())
		if i == len(in.LineSizes)-1 {
			in.Latency = c.Latency()
			_, in.Trainable = c.(Trainable)
			if r, ok := c.(EncodingReporter); ok {
				for _, enc := range r.Encodings() {
					in.Encodings = append(in.Encodings, enc.Name)
				}
			}
		}
	}
	return nil
}

func (in Info) clone() Info {
	in.LineSizes = slices.Clone(in.LineSizes)
	in.TagBits = slices.Clone(in.TagBits)
	in.Encodings = slices.Clone(in.Encodings)
	return in
}

// Infos returns the description of every registered codec, sorted by name.
func Infos() []Info {
	registry.RLock()
	defer registry.RUnlock()
	out := make([]Info, 0, len(registry.m))
	for _, e := range registry.m {
		out = append(out, e.info.clone())
	}
	slices.SortFunc(out, func(a, b Info) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Names returns the registered codec names in sorted order.
func Names() []string {
	registry.RLock()
	defer registry.RUnlock()
	names := make([]string, 0, len(registry.m))
	for n := range registry.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
