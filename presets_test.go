package linecomp_test

import (
	"testing"

	"github.com/linecomp/linecomp"
)

// TestPresetsAreCopies: the preset tables are returned as copies, so one
// importer changing what it got changes nobody's defaults (they were
// exported variables, which any importer could rewrite for all).
func TestPresetsAreCopies(t *testing.T) {
	lat := linecomp.LatencyPresets()
	want, ok := linecomp.PresetLatency(lat[0].Source, lat[0].Algorithm)
	if !ok || want != lat[0].Latency {
		t.Fatalf("LatencyPresets()[0] is %+v; PresetLatency gives %+v, %v", lat[0], want, ok)
	}
	lat[0].Latency = linecomp.Latency{Compress: 999, Decompress: 999}
	if got, _ := linecomp.PresetLatency(lat[0].Source, lat[0].Algorithm); got != want {
		t.Errorf("changing a returned latency preset changed the table: %+v", got)
	}
	if again := linecomp.LatencyPresets(); again[0].Latency != want {
		t.Errorf("LatencyPresets()[0] after a caller changed its copy: %+v", again[0])
	}
	en := linecomp.EnergyPresets()
	before := en[0]
	en[0].PicoJoule = -1
	if got, _ := linecomp.PresetEnergy(before.Source, before.Algorithm, before.Op); got != before {
		t.Errorf("changing a returned energy preset changed the table: %+v", got)
	}
	// Every energy figure prices a codec's algorithm: the metadata cache's
	// figures are sim/mem's.
	algs := map[string]bool{}
	for _, in := range linecomp.Infos() {
		algs[in.Algorithm] = true
	}
	for _, p := range linecomp.EnergyPresets() {
		if !algs[p.Algorithm] {
			t.Errorf("energy preset %+v prices no codec's algorithm", p)
		}
	}
}
