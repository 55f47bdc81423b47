// Package bound checks the sizes of model configurations, so that a size a
// caller or a file declares is an error naming the field rather than an
// integer overflow, a wrapped product or an allocation the machine cannot
// hold.
package bound

// MaxCycles bounds every latency a model takes, in cycles: 2^30, a second
// at 1 GHz for one access, far beyond any memory the models describe and
// small enough that a simulation's sums of latencies in uint64 cycles
// cannot wrap.
const MaxCycles = 1 << 30

// Product returns the product of factors and true if every factor is
// positive and the product is at most limit; otherwise 0 and false. It
// never overflows: each step checks against limit before multiplying.
func Product(limit int, factors ...int) (int, bool) {
	p := 1
	for _, f := range factors {
		if f <= 0 || f > limit/p {
			return 0, false
		}
		p *= f
	}
	return p, true
}

// Cycles reports whether c is a latency a model can take: 0 to MaxCycles.
func Cycles(c int) bool { return c >= 0 && c <= MaxCycles }
