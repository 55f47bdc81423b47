package ref

// tavana-best (multi/doc.go): the algorithm field, 2 bits, then the stream
// of the member that makes the fewest bits; a tie goes to the lower
// decompression latency of Tavana et al.'s Table III, then to the lower
// field value.
func init() {
	members := []struct {
		name       string
		decompress int // cycles, Table III; none has no decoder
	}{
		{"none", 0},
		{"bdi", 1},
		{"fpc-tavana", 5},
		{"cpack-z", 9},
	}
	register("tavana-best", func(line []byte) string {
		best, bestStream := -1, ""
		for i, m := range members {
			enc, ok := Lookup(m.name)
			if !ok {
				panic("ref: tavana-best needs the reference of " + m.name)
			}
			s := enc(line)
			if best < 0 || len(s) < len(bestStream) ||
				len(s) == len(bestStream) && m.decompress < members[best].decompress {
				best, bestStream = i, s
			}
		}
		var s bits
		s.put(uint64(best), 2)
		return s.String() + bestStream
	})
}
