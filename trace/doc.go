// Package trace reads and writes line-traffic traces: streams of cache
// lines moving between the components of a simulated system, each with its
// payload. The layout is described here in full; package trace/warp uses the
// same container for warp instruction traces.
package trace
