package guard

import (
	"errors"
	"testing"
	"unsafe"
)

func newRegion(t *testing.T, size int) *Region {
	t.Helper()
	r, err := New(size)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := r.Free(); err != nil {
			t.Error(err)
		}
	})
	return r
}

// byteAt returns a pointer to the byte i bytes from b's first, which may
// lie outside b.
func byteAt(b []byte, i int) *byte {
	return (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(b)), i))
}

// sink keeps the loads of TestGuards from being optimized away.
var sink byte

// TestGuards: every usable byte reads and writes; the byte after Tail's
// capacity and the one before Head's first fault, and Catch reports it.
func TestGuards(t *testing.T) {
	r := newRegion(t, 100)
	if r.Size() < 100 {
		t.Fatalf("Size %d, want at least 100", r.Size())
	}
	tail, head := r.Tail(10), r.Head(10)
	if len(tail) != 10 || cap(tail) != 10 || len(head) != 10 || cap(head) != 10 {
		t.Fatalf("Tail %d/%d, Head %d/%d bytes, want 10/10", len(tail), cap(tail), len(head), cap(head))
	}
	all := r.Head(r.Size())
	if err := Catch(func() {
		for i := range all {
			all[i]++
		}
	}); err != nil {
		t.Fatalf("writing the usable bytes: %v", err)
	}
	if err := Catch(func() { sink = *byteAt(tail, len(tail)) }); !errors.Is(err, ErrFault) {
		t.Errorf("reading the byte after Tail: %v, want an ErrFault", err)
	}
	if err := Catch(func() { *byteAt(tail, len(tail)) = 1 }); !errors.Is(err, ErrFault) {
		t.Errorf("writing the byte after Tail: %v, want an ErrFault", err)
	}
	if err := Catch(func() { sink = *byteAt(head, -1) }); !errors.Is(err, ErrFault) {
		t.Errorf("reading the byte before Head: %v, want an ErrFault", err)
	}
}

// TestCatchPassesPanics: a panic that is not a fault goes on.
func TestCatchPassesPanics(t *testing.T) {
	defer func() {
		if p := recover(); p != "boom" {
			t.Fatalf("recovered %v, want the panic boom", p)
		}
	}()
	Catch(func() { panic("boom") })
	t.Fatal("Catch returned")
}

// TestFree: a freed region frees again without error.
func TestFree(t *testing.T) {
	r, err := New(1)
	if errors.Is(err, ErrUnsupported) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Free(); err != nil {
		t.Fatal(err)
	}
	if err := r.Free(); err != nil {
		t.Fatalf("second Free: %v", err)
	}
}
