package ref

// none: the stream is the line's bytes in memory order.
func init() {
	register("none", func(line []byte) string {
		var s bits
		s.raw(line)
		return s.String()
	})
}
