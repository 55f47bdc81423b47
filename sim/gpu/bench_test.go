package gpu_test

import (
	"bytes"
	"errors"
	"io"
	"testing"

	"github.com/linecomp/linecomp"
	_ "github.com/linecomp/linecomp/all"
	"github.com/linecomp/linecomp/sample"
	"github.com/linecomp/linecomp/sim/gpu"
	"github.com/linecomp/linecomp/trace/warp"
)

// sampleKernels reads every kernel of the committed sample warp traces.
func sampleKernels(t testing.TB) map[string][]*gpu.Kernel {
	t.Helper()
	out := map[string][]*gpu.Kernel{}
	for _, tr := range sample.Traces() {
		if tr.Stream != "warps" {
			continue
		}
		r, err := warp.NewReader(bytes.NewReader(tr.Data))
		if err != nil {
			t.Fatal(err)
		}
		for {
			_, err := r.NextKernel()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			k, err := gpu.ReadKernel(r)
			if err != nil {
				t.Fatal(err)
			}
			out[tr.Bench] = append(out[tr.Bench], k)
		}
	}
	if len(out) == 0 {
		t.Skip("no sample warp trace is committed")
	}
	return out
}

// BenchmarkReplay replays each sample warp trace on LATTE-CC's machine with
// a BDI L1 and reports L1 accesses per second and allocations per access.
func BenchmarkReplay(b *testing.B) {
	for bench, kernels := range sampleKernels(b) {
		b.Run(bench, func(b *testing.B) {
			bd, err := linecomp.New("bdi", 128)
			if err != nil {
				b.Fatal(err)
			}
			cfg, err := gpu.LatteConfig(bd)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var accesses uint64
			for i := 0; i < b.N; i++ {
				g, err := gpu.New(cfg)
				if err != nil {
					b.Fatal(err)
				}
				for _, k := range kernels {
					if _, err := g.Run(k); err != nil {
						b.Fatal(err)
					}
				}
				accesses += g.Stats().L1.Accesses
			}
			b.ReportMetric(float64(accesses)/b.Elapsed().Seconds(), "L1-accesses/s")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(accesses), "ns/access")
		})
	}
}
