package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strconv"
)

// alignedSize is the size from which a constant is moved to the text
// section, where it starts on a 64-byte boundary.
//
// Go's linker aligns a data symbol to at most 32 bytes on amd64, so a
// 64-byte constant starts at 0 or 32 modulo 64 depending on what the
// linker placed before it. At 32, every 512-bit load of it straddles two
// cache lines, and every kernel that takes it as a memory operand pays for
// a split load each time. Which case a binary gets changes with unrelated
// code: BenchmarkPeers BDI-64-encode read 6,400 MB/s in one test binary
// and 5,300 in the next one, whose only change was in a test file, because
// the second put the BDI kernels' constants at 32 modulo 64. A text
// symbol, by contrast, takes the alignment of the PCALIGN at its start, so
// the constants move there: each becomes a file-local TEXT symbol that is
// never called, holding its bytes as QUAD and BYTE directives, and the
// kernels' references to it stay as they are.
const alignedSize = 64

var (
	dataLine  = regexp.MustCompile(`^DATA (\w+<>)\+(\d+)\(SB\)/(\d), \$(0x[0-9a-f]+)$`)
	globlLine = regexp.MustCompile(`^GLOBL (\w+<>)\(SB\), RODATA\|NOPTR, \$(\d+)$`)
)

// alignConstants rewrites the generated assembly file at path, moving
// every constant of at least alignedSize bytes to a 64-byte aligned text
// symbol of the same name and bytes.
func alignConstants(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := bytes.Split(src, []byte("\n"))
	sizes := map[string]int{}
	for _, l := range lines {
		if m := globlLine.FindSubmatch(l); m != nil {
			n, _ := strconv.Atoi(string(m[2]))
			if n >= alignedSize {
				sizes[string(m[1])] = n
			}
		}
	}
	contents := map[string][]byte{}
	var order []string
	var out [][]byte
	for _, l := range lines {
		if m := globlLine.FindSubmatch(l); m != nil && sizes[string(m[1])] > 0 {
			continue
		}
		m := dataLine.FindSubmatch(l)
		if m == nil || sizes[string(m[1])] == 0 {
			if len(l) == 0 && len(out) > 0 && len(out[len(out)-1]) == 0 {
				continue // the blank line after a moved constant
			}
			out = append(out, l)
			continue
		}
		name := string(m[1])
		off, _ := strconv.Atoi(string(m[2]))
		width, _ := strconv.Atoi(string(m[3]))
		v, err := strconv.ParseUint(string(m[4]), 0, 8*width)
		if err != nil {
			return fmt.Errorf("%s: %q: %w", path, l, err)
		}
		c, ok := contents[name]
		if !ok {
			c = make([]byte, sizes[name])
			contents[name] = c
			order = append(order, name)
		}
		if off+width > len(c) {
			return fmt.Errorf("%s: %q: past the end of its %d-byte symbol", path, l, len(c))
		}
		for i := range width {
			c[off+i] = byte(v >> (8 * i))
		}
	}
	for len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	var b bytes.Buffer
	b.Write(bytes.Join(out, []byte("\n")))
	b.WriteString("\n")
	for _, name := range order {
		c := contents[name]
		fmt.Fprintf(&b, "\n// %s: a %d-byte constant, 64-byte aligned (alignConstants in _asm/align.go).\n", name, len(c))
		fmt.Fprintf(&b, "TEXT %s(SB), NOSPLIT|NOFRAME, $0\n\tPCALIGN $64\n", name)
		i := 0
		for ; i+8 <= len(c); i += 8 {
			var q uint64
			for j := range 8 {
				q |= uint64(c[i+j]) << (8 * j)
			}
			fmt.Fprintf(&b, "\tQUAD $0x%016x\n", q)
		}
		for ; i < len(c); i++ {
			fmt.Fprintf(&b, "\tBYTE $0x%02x\n", c[i])
		}
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
