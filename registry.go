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

var registry struct {
	sync.RWMutex
	m map[string]Factory
}

// Register makes a codec available under name. Codec packages call it from
// init. Like database/sql.Register, it panics if name is empty, f is nil or
// name is already registered: each of those is a programming error in the
// registering package, found the first time the program starts.
func Register(name string, f func(lineSize int) (Codec, error)) {
	if name == "" || f == nil {
		panic("linecomp: Register with empty name or nil factory")
	}
	registry.Lock()
	defer registry.Unlock()
	if registry.m == nil {
		registry.m = make(map[string]Factory)
	}
	if _, dup := registry.m[name]; dup {
		panic("linecomp: Register called twice for " + name)
	}
	registry.m[name] = f
}

// RegisterNew is Register for a codec package's own constructor, which
// returns its concrete type. It turns a failed construction into a nil
// Codec, never an interface holding a nil pointer.
func RegisterNew[C Codec](name string, newCodec func(lineSize int) (C, error)) {
	Register(name, func(n int) (Codec, error) {
		c, err := newCodec(n)
		if err != nil {
			return nil, err
		}
		return c, nil
	})
}

// New returns the codec registered under name, configured for lines of
// lineSize bytes.
func New(name string, lineSize int) (Codec, error) {
	registry.RLock()
	f := registry.m[name]
	registry.RUnlock()
	if f == nil {
		return nil, fmt.Errorf("%w %q (registered: %s)", ErrUnknownCodec, name, strings.Join(Names(), ", "))
	}
	return f(lineSize)
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
