// Package cpu selects the kernel level that linecomp's SIMD code paths run
// at: the best the CPU and the build allow, or a lower one that a test or
// benchmark asks for so that every level can be checked against the others.
package cpu

import (
	"sync/atomic"

	"github.com/klauspost/cpuid/v2"
)

// Level is a kernel implementation level, ordered from the portable one up.
type Level int32

const (
	// Generic is the pure-Go path: always compiled, the only level under
	// the purego and noasm build tags and on other architectures.
	Generic Level = iota
	// AVX2 is amd64 assembly using AVX2, BMI1/BMI2, POPCNT, LZCNT and
	// MOVBE (every AVX2 CPU has the last three, but each is a CPUID bit of
	// its own): the x86-64-v3 set.
	AVX2
	// AVX512 is amd64 assembly using AVX-512 F, BW, DQ, VL (mask
	// registers, unsigned compares, 64-byte vectors) and CD (VPLZCNT) on
	// top of AVX2: the x86-64-v4 set.
	AVX512
)

func (l Level) String() string {
	switch l {
	case Generic:
		return "generic"
	case AVX2:
		return "avx2"
	case AVX512:
		return "avx512"
	}
	return "unknown"
}

// Best is the best level that this CPU and build support.
var Best = detect()

// ByteOps reports that the CPU also has AVX-512 VBMI (byte permutes across
// a vector), GFNI (affine byte transforms, here the bit reversal of each
// byte) and AVX-512 CD (VPLZCNT; every CPU with VBMI has it), and the build
// allows assembly. Kernels that need them are an
// addition to the AVX512 level: they run when Active() is AVX512 and
// ByteOps is set, so Set(AVX2) or Set(Generic) turns them off too.
var ByteOps = Best == AVX512 && cpuid.CPU.Supports(cpuid.AVX512VBMI, cpuid.GFNI, cpuid.AVX512CD)

// VectorPopcount reports that the CPU also has AVX-512 VPOPCNTDQ (a
// popcount in each lane) and the build allows assembly. It is an addition
// to the AVX512 level, as ByteOps is, for the kernels that have a variant
// with it and one without (Skylake and Cascade Lake lack it): they take
// the variant with it when Active() is AVX512 and VectorPopcount is set.
// Tests turn it off with SetVectorPopcount to check the other variant.
var VectorPopcount = hasVectorPopcount

var hasVectorPopcount = Best == AVX512 && cpuid.CPU.Supports(cpuid.AVX512VPOPCNTDQ)

// SetVectorPopcount sets VectorPopcount to on, or to false where the CPU
// or the build lacks it, and returns the function that restores it. Like
// Set, it is for tests and benchmarks, not for concurrent use.
func SetVectorPopcount(on bool) (restore func()) {
	prev := VectorPopcount
	VectorPopcount = on && hasVectorPopcount
	return func() { VectorPopcount = prev }
}

var active atomic.Int32

func init() { active.Store(int32(Best)) }

func detect() Level {
	switch {
	case !asmEnabled || !cpuid.CPU.Supports(cpuid.AVX2, cpuid.BMI1, cpuid.BMI2, cpuid.POPCNT, cpuid.LZCNT, cpuid.MOVBE):
		return Generic
	case cpuid.CPU.Supports(cpuid.AVX512F, cpuid.AVX512BW, cpuid.AVX512DQ, cpuid.AVX512VL, cpuid.AVX512CD):
		return AVX512
	}
	return AVX2
}

// Active returns the level kernels dispatch to now.
func Active() Level { return Level(active.Load()) }

// Levels returns every level this CPU and build support, Generic first.
func Levels() []Level {
	var out []Level
	for l := Generic; l <= Best; l++ {
		out = append(out, l)
	}
	return out
}

// Set makes kernels run at level l (at most Best) and returns a function
// that restores the previous level. It is for tests and benchmarks; it must
// not be called while codecs are in use on other goroutines.
func Set(l Level) (restore func()) {
	prev := active.Load()
	active.Store(int32(min(l, Best)))
	return func() { active.Store(prev) }
}

// Name is the CPU's brand string, for benchmark reports.
func Name() string { return cpuid.CPU.BrandName }
