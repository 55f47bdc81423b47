package sample

import "testing"

func TestFiles(t *testing.T) {
	fs := Files()
	if len(fs) != 8 {
		t.Fatalf("got %d files, want 8", len(fs))
	}
	for _, f := range fs {
		if len(f.Data) != 32768 {
			t.Errorf("%s: %d bytes, want 32768", f.Name, len(f.Data))
		}
	}
}
