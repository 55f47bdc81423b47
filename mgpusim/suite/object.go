package suite

import (
	"bytes"
	"debug/elf"
	"encoding/binary"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/sarchlab/mgpusim/v4/amd/driver"
	"github.com/sarchlab/mgpusim/v4/amd/insts"
)

// Arg is one argument of a kernel's argument segment, as the code
// object's metadata (the NT_AMD_HSA_METADATA note of code object v2)
// declares it.
type Arg struct {
	Size, Align int
	ValueKind   string // GlobalBuffer, ByValue, HiddenGlobalOffsetX, …
}

// KernelArgs reads the argument list of every kernel in a code object.
func KernelArgs(object []byte) (map[string][]Arg, error) {
	f, err := elf.NewFile(bytes.NewReader(object))
	if err != nil {
		return nil, err
	}
	var meta string
	for _, s := range f.Sections {
		if s.Type != elf.SHT_NOTE {
			continue
		}
		data, err := s.Data()
		if err != nil {
			return nil, err
		}
		// Notes: namesz, descsz, type, name (padded to 4), desc (padded).
		for len(data) >= 12 {
			nameSize := int(binary.LittleEndian.Uint32(data))
			descSize := int(binary.LittleEndian.Uint32(data[4:]))
			typ := binary.LittleEndian.Uint32(data[8:])
			nameEnd := 12 + (nameSize+3)&^3
			descEnd := nameEnd + (descSize+3)&^3
			if descEnd > len(data) {
				return nil, fmt.Errorf("suite: truncated ELF note")
			}
			const ntAMDHSAMetadata = 10
			if typ == ntAMDHSAMetadata {
				meta = string(data[nameEnd : nameEnd+descSize])
			}
			data = data[descEnd:]
		}
	}
	if meta == "" {
		return nil, fmt.Errorf("suite: no AMD HSA metadata note (want code object v2)")
	}
	return parseArgs(meta)
}

// parseArgs reads the kernels' Args lists from the metadata's YAML, which
// clang writes in one fixed shape: "  - Name: K" starts a kernel, "      - "
// starts an argument, "Size:", "Align:" and "ValueKind:" are its fields.
func parseArgs(meta string) (map[string][]Arg, error) {
	out := make(map[string][]Arg)
	var kernel string
	inArgs := false
	for _, line := range strings.Split(meta, "\n") {
		trimmed := strings.TrimSpace(line)
		indent := len(line) - len(strings.TrimLeft(line, " "))
		if indent == 2 && strings.HasPrefix(trimmed, "- Name:") {
			kernel = strings.TrimSpace(strings.TrimPrefix(trimmed, "- Name:"))
			out[kernel] = []Arg{}
			inArgs = false
			continue
		}
		if indent == 4 {
			inArgs = trimmed == "Args:"
			continue
		}
		if !inArgs || kernel == "" || indent < 6 {
			continue
		}
		if strings.HasPrefix(trimmed, "- ") {
			out[kernel] = append(out[kernel], Arg{})
			trimmed = strings.TrimPrefix(trimmed, "- ")
		}
		args := out[kernel]
		if len(args) == 0 {
			return nil, fmt.Errorf("suite: metadata of %s: field before the first argument", kernel)
		}
		a := &args[len(args)-1]
		key, value, _ := strings.Cut(trimmed, ":")
		value = strings.TrimSpace(value)
		var err error
		switch key {
		case "Size":
			a.Size, err = strconv.Atoi(value)
		case "Align":
			a.Align, err = strconv.Atoi(value)
		case "ValueKind":
			a.ValueKind = value
		}
		if err != nil {
			return nil, fmt.Errorf("suite: metadata of %s: %q: %v", kernel, trimmed, err)
		}
	}
	return out, nil
}

// CheckArgStruct checks that a Go argument struct lays out a kernel's
// explicit arguments and its three hidden global offsets where the
// metadata puts them, as encoding/binary writes it (packed, in field
// order; fields named Pad are padding). Pointers must be driver.Ptr.
func CheckArgStruct(args []Arg, v any) error {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("suite: argument %v is not a struct", t)
	}
	// The metadata's offsets of the arguments the struct must hold.
	var want []int
	var kinds []Arg
	off := 0
	for _, a := range args {
		if a.Align > 0 {
			off = (off + a.Align - 1) / a.Align * a.Align
		}
		switch {
		case a.ValueKind == "GlobalBuffer" || a.ValueKind == "ByValue" ||
			strings.HasPrefix(a.ValueKind, "HiddenGlobalOffset"):
			want = append(want, off)
			kinds = append(kinds, a)
		}
		off += a.Size
	}
	ptr := reflect.TypeOf(driver.Ptr(0))
	off = 0
	i := 0
	for fi := 0; fi < t.NumField(); fi++ {
		f := t.Field(fi)
		size := binary.Size(reflect.Zero(f.Type).Interface())
		if size < 0 {
			return fmt.Errorf("suite: %v.%s has no fixed size", t, f.Name)
		}
		if !f.IsExported() {
			return fmt.Errorf("suite: %v.%s is not exported (MGPUSim's driver panics on it)", t, f.Name)
		}
		if strings.HasPrefix(f.Name, "Pad") {
			off += size
			continue
		}
		if i == len(want) {
			return fmt.Errorf("suite: %v.%s: the kernel has only %d arguments", t, f.Name, len(want))
		}
		a := kinds[i]
		switch {
		case off != want[i]:
			return fmt.Errorf("suite: %v.%s is at byte %d; the kernel's argument %d is at %d", t, f.Name, off, i, want[i])
		case size != a.Size:
			return fmt.Errorf("suite: %v.%s has %d bytes; the kernel's argument %d has %d", t, f.Name, size, i, a.Size)
		case a.ValueKind == "GlobalBuffer" && f.Type != ptr:
			return fmt.Errorf("suite: %v.%s is %v; the kernel's argument %d is a buffer (driver.Ptr)", t, f.Name, f.Type, i)
		case strings.HasPrefix(a.ValueKind, "Hidden") && f.Name != a.ValueKind:
			return fmt.Errorf("suite: %v.%s is the kernel's %s", t, f.Name, a.ValueKind)
		}
		off += size
		i++
	}
	if i != len(want) {
		return fmt.Errorf("suite: %v holds %d of the kernel's %d arguments and global offsets", t, i, len(want))
	}
	return nil
}

// Unsupported are the GCN3 instructions MGPUSim v4.2.0 decodes but cannot
// execute in emulation or timing, by name; CheckObject also rejects every
// instruction its decoder does not know (FLAT atomics), every MUBUF, MTBUF
// and MIMG instruction, every LDS atomic, and v_lshlrev_b32 in its VOP3
// encoding.
var Unsupported = []string{
	"flat_store_byte", "flat_store_short",
	"v_cmp_eq_u16", "v_ffbl_b32", "s_orn2_b64", "v_alignbit_b32",
	"s_cselect_b64", // found writing pf: clang makes a uniform test a lane mask with it
}

// CheckObject decodes every instruction of every kernel of a code object
// with MGPUSim's own loader and decoder, as its compute units do, and
// returns an error naming the first one MGPUSim cannot execute. It also
// requires code object version 2 (its metadata note and the
// amd_kernel_code_t header of every kernel) and returns the kernels' names
// and instruction counts.
func CheckObject(object []byte) (map[string]int, error) {
	f, err := elf.NewFile(bytes.NewReader(object))
	if err != nil {
		return nil, err
	}
	syms, err := f.Symbols()
	if err != nil {
		return nil, err
	}
	text := f.Section(".text")
	if text == nil {
		return nil, fmt.Errorf("suite: code object has no .text")
	}
	if _, err := KernelArgs(object); err != nil {
		return nil, err
	}
	counts := make(map[string]int)
	dec := insts.NewDisassembler()
	for _, s := range syms {
		// MGPUSim's loader takes every sized symbol in .text as a
		// kernel (code object v2 types them STT_AMDGPU_HSA_KERNEL).
		if s.Size == 0 || int(s.Section) >= len(f.Sections) || f.Sections[s.Section] != text {
			continue
		}
		k := insts.LoadKernelCodeObjectFromBytes(object, s.Name)
		// MGPUSim loads a code object v2 kernel by its 256-byte
		// amd_kernel_code_t, a path it labels CodeObjectV3; objects of
		// v3 and later take the descriptor path, which breaks gfx803
		// kernels at launch.
		if k == nil || k.Version != insts.CodeObjectV3 {
			return nil, fmt.Errorf("suite: kernel %s: MGPUSim does not find its amd_kernel_code_t (want code object v2)", s.Name)
		}
		code := k.Data
		for pc := 0; pc < len(code); {
			inst, err := dec.Decode(code[pc:])
			if err != nil {
				return nil, fmt.Errorf("suite: kernel %s +%#x: MGPUSim cannot decode %08x: %v",
					s.Name, pc, binary.LittleEndian.Uint32(code[pc:]), err)
			}
			if why := unsupported(inst); why != "" {
				return nil, fmt.Errorf("suite: kernel %s +%#x: %s: %s", s.Name, pc, inst.InstName, why)
			}
			pc += inst.ByteSize
			counts[s.Name]++
		}
	}
	if len(counts) == 0 {
		return nil, fmt.Errorf("suite: code object has no kernels")
	}
	return counts, nil
}

func unsupported(inst *insts.Inst) string {
	for _, name := range Unsupported {
		if inst.InstName == name {
			return "MGPUSim v4.2.0 does not execute it"
		}
	}
	switch {
	case inst.FormatType == insts.MUBUF || inst.FormatType == insts.MTBUF || inst.FormatType == insts.MIMG:
		return "buffer and image instructions (scratch: spills, private arrays) are not executed"
	case inst.FormatType == insts.FLAT && !strings.HasPrefix(inst.InstName, "flat_load") &&
		!strings.HasPrefix(inst.InstName, "flat_store"):
		return "the timing model executes only FLAT loads and stores"
	case inst.FormatType == insts.DS && (strings.Contains(inst.InstName, "_add") ||
		strings.Contains(inst.InstName, "_min") || strings.Contains(inst.InstName, "_max") ||
		strings.Contains(inst.InstName, "_inc") || strings.Contains(inst.InstName, "_dec") ||
		strings.Contains(inst.InstName, "_and") || strings.Contains(inst.InstName, "_or") ||
		strings.Contains(inst.InstName, "_xor") || strings.Contains(inst.InstName, "_cmpst") ||
		strings.Contains(inst.InstName, "wrxchg")):
		return "LDS atomics are decoded but not executed"
	case inst.FormatType == insts.VOP3a && inst.InstName == "v_lshlrev_b32":
		return "MGPUSim does not execute the VOP3 encoding of v_lshlrev_b32"
	}
	return ""
}
