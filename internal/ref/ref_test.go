package ref

import "testing"

func TestBits(t *testing.T) {
	var s bits
	s.put(0b101, 3)
	s.put(0xFFFFFFFFFFFFFFFF, 64)
	s.put(7, 0)
	s.zeros(2)
	want := "101" + "1111111111111111111111111111111111111111111111111111111111111111" + "00"
	if s.String() != want {
		t.Fatalf("got %s", s.String())
	}
	if signed(0xFF, 1) != -1 || signed(0x80, 1) != -128 || signed(0x7F, 1) != 127 {
		t.Fatal("signed")
	}
	if !fitsSigned(-128, 8) || fitsSigned(128, 8) || fitsSigned(-129, 8) {
		t.Fatal("fitsSigned")
	}
	if word([]byte{1, 2, 3, 4, 5, 6, 7, 8}, 4, 1) != 0x08070605 {
		t.Fatal("word")
	}
}
