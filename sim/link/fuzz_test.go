package link_test

import (
	"errors"
	"testing"

	"github.com/linecomp/linecomp"
	"github.com/linecomp/linecomp/sim/link"
)

// FuzzReplay feeds arbitrary transfers (valid or not) through a replay with
// small buffers: Add must reject the invalid ones with ErrTransfer and never
// panic, and after Finish every accepted transfer's messages must have
// been delivered.
func FuzzReplay(f *testing.F) {
	f.Add([]byte{1, 0, 1, 0, 10, 2, 1, 0, 5, 3})
	f.Add([]byte{0, 1, 1, 2, 0, 0, 2, 2, 1, 1, 250, 7, 9, 1, 3, 3, 255, 255})
	cands := []linecomp.Codec{
		noneCodec(f, 16),
		fake{"fast", 16, linecomp.Latency{Compress: 2, Decompress: 1}},
		fake{"slow", 16, linecomp.Latency{Compress: 16, Decompress: 9}},
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		if len(in) < 2 {
			return
		}
		buf := 29 + int(in[0]) // the smallest buffers New takes: 13 + 16
		r, err := link.NewReplay(link.ReplayConfig{
			Link:       link.Config{Candidates: cands, Nodes: 2 + int(in[1]%4), InputBuffer: buf, OutputBuffer: buf},
			NewChooser: func([]linecomp.Codec) (link.Chooser, error) { return byLine{}, nil },
		})
		if err != nil {
			t.Fatal(err)
		}
		var at uint64
		var reads, writes uint64
		for p := in[2:]; len(p) >= 5; p = p[5:] {
			at += uint64(p[3]) * 700
			line := make([]byte, 16+int(p[4]>>7)) // 1 in 2 of the wrong length
			line[0] = p[4] & 0x3f
			err := r.Add(link.Transfer{Time: at, Src: uint32(p[1] % 7), Dst: uint32(p[2] % 7), Op: link.Op(p[0] % 4), Data: line})
			switch {
			case err == nil && link.Op(p[0]%4) == link.Read:
				reads++
			case err == nil:
				writes++
			case !errors.Is(err, link.ErrTransfer):
				t.Fatalf("error %v does not wrap ErrTransfer", err)
			}
		}
		res, err := r.Finish()
		if err != nil {
			t.Fatal(err)
		}
		st := r.Link().Stats()
		want := [link.NumKinds]uint64{reads, reads, writes, writes}
		if res.Transfers != reads+writes || st.Messages != want || st.Delivered != want {
			t.Fatalf("%d transfers, messages %v, delivered %v; want %v", res.Transfers, st.Messages, st.Delivered, want)
		}
	})
}
