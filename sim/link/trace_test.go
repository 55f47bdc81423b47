package link_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/linecomp/linecomp/internal/codectest"
	"github.com/linecomp/linecomp/sim/link"
	"github.com/linecomp/linecomp/trace"
)

// The replay takes trace records as they come from trace.Reader: Op
// converts by value, and Add keeps nothing of Data, which the reader
// reuses. Written and read back through the trace format, a stream
// replays exactly as the same transfers given directly.
func TestReplayFromTrace(t *testing.T) {
	if link.Op(trace.Read) != link.Read || link.Op(trace.Write) != link.Write {
		t.Fatal("link.Op and trace.Op values differ")
	}
	cands := tavanaCandidates(t, 64)
	ts := syntheticTraffic(codectest.Sample()[2].Data, 64, 5, 8000)
	var buf bytes.Buffer
	w, err := trace.NewWriter(&buf, trace.Header{LineSize: 64, Source: "synthetic traffic over a sample image"})
	if err != nil {
		t.Fatal(err)
	}
	for k, tr := range ts {
		if err := w.Write(trace.Record{Time: tr.Time, Src: tr.Src, Dst: tr.Dst, Op: trace.Op(tr.Op), Addr: uint64(64 * k), Data: tr.Data}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}

	direct := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands}, NewChooser: link.Static(1)})
	for _, tr := range ts {
		mustAdd(t, direct, tr)
	}
	want := mustFinish(t, direct)

	rd, err := trace.NewReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	fromTrace := mustReplay(t, link.ReplayConfig{Link: link.Config{Candidates: cands}, NewChooser: link.Static(1)})
	for {
		rec, err := rd.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		mustAdd(t, fromTrace, link.Transfer{Time: rec.Time, Src: rec.Src, Dst: rec.Dst, Op: link.Op(rec.Op), Data: rec.Data})
	}
	got := mustFinish(t, fromTrace)
	if got.PayloadBits != want.PayloadBits || got.WireBytes != want.WireBytes || got.CompletionCycle != want.CompletionCycle || got.Transfers != uint64(len(ts)) {
		t.Fatalf("from the trace %+v\ndirect %+v", got, want)
	}
}
