package capture

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/linecomp/linecomp/trace"
	"github.com/linecomp/linecomp/trace/warp"
)

// TestCommittedTraces reads every trace in ../../sample/testdata/traces to the
// end: each must be a complete trace of its kind whose header names the
// simulator versions and its stream, with the record counts that
// sample/testdata/traces/README.md gives for it.
func TestCommittedTraces(t *testing.T) {
	want := map[string][3]int{ // records, reads, writes
		"warps-fir.lct":                  {25088, 24064, 1024},
		"warps-bfs.lct":                  {70237, 64991, 5246},
		"warps-kmeans.lct":               {59552, 58368, 1184},
		"warps-matrixmultiplication.lct": {4624, 4112, 512},
		"warps-floydwarshall.lct":        {83016, 73728, 9288},
		"warps-pagerank.lct":             {27164, 23068, 4096},
		"warps-spmv.lct":                 {78171, 78107, 64},
		"rdma-fir.lct":                   {792, 408, 384},
		"rdma-aes.lct":                   {452, 260, 192},
		"rdma-matrixtranspose.lct":       {6144, 3072, 3072},
		"rdma-simpleconvolution.lct":     {14572, 11563, 3009},
		"rdma-kmeans.lct":                {41792, 39936, 1856},
		"dram-fir.lct":                   {1035, 523, 512},
		"dram-matrixtranspose.lct":       {8209, 4113, 4096},
		"dram-kmeans.lct":                {14770, 12402, 2368},
		"l1-fir.lct":                     {1328, 1264, 64},
		"l1-kmeans.lct":                  {21584, 20992, 592},
		"l1-matrixtranspose.lct":         {512, 256, 256},
		"l1-bfs.lct":                     {793, 715, 78},
		"l1-floydwarshall.lct":           {1540, 1152, 388},
		// The suite's kernels (package suite).
		"warps-bc.lct":    {37751, 37334, 417},
		"warps-color.lct": {71230, 70719, 511},
		"warps-gbfs.lct":  {22589, 18044, 4545},
		"warps-km.lct":    {19072, 18432, 640},
		"warps-mis.lct":   {19679, 19575, 104},
		"warps-pf.lct":    {2637, 2249, 388},
		"warps-prk.lct":   {27460, 27268, 192},
		"warps-sssp.lct":  {32159, 31014, 1145},
		"l1-sssp.lct":     {16728, 16115, 613},
		"dram-prk.lct":    {636, 540, 96},
		"rdma-bc.lct":     {180, 139, 41},
	}
	files, err := filepath.Glob(filepath.Join("..", "..", "sample", "testdata", "traces", "*.lct"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no traces found (%v)", err)
	}
	for _, path := range files {
		name := filepath.Base(path)
		counts, ok := want[name]
		if !ok {
			t.Errorf("%s is not in the README's table", name)
			continue
		}
		delete(want, name)
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		stream, _, _ := strings.Cut(name, "-")
		var source string
		var got [3]int
		if stream == StreamWarps {
			source, got, err = countWarpTrace(bufio.NewReader(f))
		} else {
			source, got, err = countLineTrace(bufio.NewReader(f))
		}
		f.Close()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if got != counts {
			t.Errorf("%s: records, reads, writes = %v, README says %v", name, got, counts)
		}
		if !strings.Contains(source, MGPUSimVersion) || !strings.Contains(source, AkitaVersion) ||
			!strings.Contains(source, "stream="+stream) {
			t.Errorf("%s: header source %q", name, source)
		}
	}
	for name := range want {
		t.Errorf("%s is missing", name)
	}
}

func countLineTrace(r io.Reader) (string, [3]int, error) {
	var n [3]int
	tr, err := trace.NewReader(r)
	if err != nil {
		return "", n, err
	}
	for {
		rec, err := tr.Read()
		if err == io.EOF {
			return tr.Header().Source, n, nil
		}
		if err != nil {
			return "", n, err
		}
		n[0]++
		if rec.Op == trace.Read {
			n[1]++
		} else {
			n[2]++
		}
	}
}

func countWarpTrace(r io.Reader) (string, [3]int, error) {
	var n [3]int
	wr, err := warp.NewReader(r)
	if err != nil {
		return "", n, err
	}
	for {
		if _, err := wr.NextKernel(); err == io.EOF {
			return wr.Header().Source, n, nil
		} else if err != nil {
			return "", n, err
		}
		for {
			in, err := wr.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				return "", n, err
			}
			n[0] += len(in.Lines)
			switch in.Kind {
			case warp.Load:
				n[1] += len(in.Lines)
			case warp.Store:
				n[2] += len(in.Lines)
			}
		}
	}
}
