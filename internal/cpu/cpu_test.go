package cpu

import "testing"

func TestLevels(t *testing.T) {
	ls := Levels()
	if len(ls) == 0 || ls[0] != Generic || ls[len(ls)-1] != Best {
		t.Fatalf("Levels() = %v, Best = %v", ls, Best)
	}
	if Active() != Best {
		t.Fatalf("Active() = %v at start, want Best %v", Active(), Best)
	}
	restore := Set(Generic)
	if Active() != Generic {
		t.Errorf("after Set(Generic): %v", Active())
	}
	inner := Set(Best + 1) // above Best is clamped
	if Active() != Best {
		t.Errorf("Set above Best gave %v", Active())
	}
	inner()
	if Active() != Generic {
		t.Errorf("restore of inner Set gave %v", Active())
	}
	restore()
	if Active() != Best {
		t.Errorf("restore gave %v, want %v", Active(), Best)
	}
	for _, l := range ls {
		if l.String() == "unknown" {
			t.Errorf("level %d has no name", l)
		}
	}
	if !asmEnabled && Best != Generic {
		t.Errorf("assembly disabled by the build, yet Best = %v", Best)
	}
	if ByteOps && Best != AVX512 {
		t.Errorf("ByteOps set at best level %v: the byte kernels are part of the AVX512 level", Best)
	}
	if VectorPopcount && Best != AVX512 {
		t.Errorf("VectorPopcount set at best level %v: it is part of the AVX512 level", Best)
	}
	on := VectorPopcount
	restore = SetVectorPopcount(false)
	if VectorPopcount {
		t.Error("SetVectorPopcount(false) left it set")
	}
	restore()
	if VectorPopcount != on {
		t.Errorf("restore gave VectorPopcount %v, want %v", VectorPopcount, on)
	}
	t.Logf("CPU %q, best kernel level %v, VBMI, GFNI and CD %v, VPOPCNTDQ %v", Name(), Best, ByteOps, VectorPopcount)
}
