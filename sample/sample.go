// Package sample holds a small embedded set of real data for demos,
// examples, tests and the command's default runs, which must work without
// the full corpora: memory images (256 KiB, eight workloads: graph, mesh,
// image, heap, NN weights, features, grid and ciphertext; testdata/README.md
// names the source and licence of every file) and traces captured from
// MGPUSim running real GPU kernels (Traces; testdata/traces/README.md gives
// the command that made each).
package sample

import "embed"

//go:embed testdata/*.i32 testdata/*.f32 testdata/*.rgba8 testdata/*.bin
var files embed.FS

// File is one embedded memory image.
type File struct {
	Name string // corpus file name, e.g. "graph_road_li.bfs.i32"
	Data []byte // 32 KiB; callers must not modify it
}

// Files returns the embedded images sorted by name (ReadDir sorts).
func Files() []File {
	entries, err := files.ReadDir("testdata")
	if err != nil {
		panic("sample: embedded directory unreadable: " + err.Error()) // cannot happen: fixed at build time
	}
	var out []File
	for _, e := range entries {
		data, err := files.ReadFile("testdata/" + e.Name())
		if err != nil {
			panic("sample: embedded file unreadable: " + err.Error())
		}
		out = append(out, File{Name: e.Name(), Data: data})
	}
	return out
}
