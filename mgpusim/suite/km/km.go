// Package km is the suite's k-means (Rodinia's kmeans, LATTE-CC's KM
// row): the points are transposed to feature-major order once, then each
// round the GPU assigns every point its nearest centre and the host moves
// the centres to their members' means, until no point changes centre or
// MaxIter rounds have run. The host repeats the kernels' float32
// operations in their order, so memberships and centres must agree
// exactly.
package km

import (
	_ "embed"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"

	"github.com/linecomp/linecomp/mgpusim/suite"
	"github.com/sarchlab/mgpusim/v4/amd/driver"
)

//go:generate go run ../internal/clbuild kernels.cl

//go:embed kernels.hsaco
var object []byte

// Object is the compiled code object.
func Object() []byte { return object }

type swapArgs struct {
	Feature, FeatureSwap driver.Ptr
	NPoints, NFeatures   int32
	HiddenGlobalOffsetX  int64
	HiddenGlobalOffsetY  int64
	HiddenGlobalOffsetZ  int64
}

type assignArgs struct {
	FeatureSwap, Clusters, Membership driver.Ptr
	NPoints, NClusters, NFeatures     int32
	Pad                               int32
	HiddenGlobalOffsetX               int64
	HiddenGlobalOffsetY               int64
	HiddenGlobalOffsetZ               int64
}

// Data is the points, row-major: Points×Features float32.
type Data struct {
	Points, Features int
	Values           []float32
}

// ErrData is wrapped by ReadData for a file that is not a point set.
var ErrData = errors.New("km: bad point data")

// ReadData reads raw little-endian float32 points, features values per
// point (the layout of the corpora's .f32 tables).
func ReadData(path string, features int) (*Data, error) {
	if features < 1 {
		return nil, fmt.Errorf("%w: %d features", ErrData, features)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, 1<<30+1))
	if err != nil {
		return nil, err
	}
	if len(raw) > 1<<30 {
		return nil, fmt.Errorf("%w: %s is larger than 1 GiB", ErrData, path)
	}
	if len(raw) == 0 || len(raw)%(4*features) != 0 {
		return nil, fmt.Errorf("%w: %s has %d bytes, not a whole number of %d-feature float32 points", ErrData, path, len(raw), features)
	}
	d := &Data{Points: len(raw) / (4 * features), Features: features, Values: make([]float32, len(raw)/4)}
	for i := range d.Values {
		v := math.Float32frombits(binary.LittleEndian.Uint32(raw[4*i:]))
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return nil, fmt.Errorf("%w: %s: value %d (point %d, feature %d) is %v", ErrData, path, i, i/features, i%features, v)
		}
		d.Values[i] = v
	}
	return d, nil
}

// Generate makes points uniform in [0, 1) from a seed, as Rodinia's
// generated inputs are.
func Generate(points, features int, seed uint64) *Data {
	rng := rand.New(rand.NewPCG(seed, 0x4b4d))
	d := &Data{Points: points, Features: features, Values: make([]float32, points*features)}
	for i := range d.Values {
		d.Values[i] = rng.Float32()
	}
	return d
}

// Benchmark clusters Data into Clusters centres.
type Benchmark struct {
	dev      *suite.Device
	Data     *Data
	Clusters int
	MaxIter  int

	Membership []int32   // the GPU's memberships after Run
	Centres    []float32 // the centres after Run
	Rounds     int
}

// New makes the benchmark on a driver.
func New(d *driver.Driver, data *Data, clusters, maxIter int) *Benchmark {
	return &Benchmark{dev: suite.NewDevice(d), Data: data, Clusters: clusters, MaxIter: maxIter}
}

// Check reports whether the benchmark can run.
func Check(data *Data, clusters, maxIter int) error {
	if data.Points < 1 || data.Features < 1 || int64(data.Points)*int64(data.Features) > 1<<28 {
		return fmt.Errorf("km: %d points of %d features: want at least one of each, at most 2^28 values", data.Points, data.Features)
	}
	if clusters < 1 || clusters > data.Points {
		return fmt.Errorf("km: %d clusters: want 1..%d (the points)", clusters, data.Points)
	}
	if maxIter < 1 {
		return fmt.Errorf("km: %d rounds: want at least 1", maxIter)
	}
	return nil
}

// SelectGPU implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SelectGPU(gpus []int) { b.dev.Select(gpus) }

// SetUnifiedMemory implements MGPUSim's benchmarks.Benchmark.
func (b *Benchmark) SetUnifiedMemory() { b.dev.SetUnifiedMemory() }

// initialCentres are points i·N/k, Rodinia's choice made deterministic.
func initialCentres(d *Data, k int) []float32 {
	c := make([]float32, k*d.Features)
	for i := 0; i < k; i++ {
		p := int(int64(i) * int64(d.Points) / int64(k))
		copy(c[i*d.Features:(i+1)*d.Features], d.Values[p*d.Features:])
	}
	return c
}

// Run runs rounds until no point moves or MaxIter rounds.
func (b *Benchmark) Run() {
	d := b.Data
	swap := suite.LoadKernel(object, "kmeans_swap")
	assign := suite.LoadKernel(object, "kmeans_assign")
	feature := b.dev.Upload(d.Values)
	featureSwap := b.dev.Alloc(4 * len(d.Values))
	b.dev.Launch(swap, d.Points, &swapArgs{Feature: feature, FeatureSwap: featureSwap,
		NPoints: int32(d.Points), NFeatures: int32(d.Features)})
	centres := initialCentres(d, b.Clusters)
	dCentres := b.dev.Alloc(4 * len(centres))
	membership := make([]int32, d.Points)
	for i := range membership {
		membership[i] = -1
	}
	dMembership := b.dev.Alloc(4 * d.Points)
	next := make([]int32, d.Points)
	for b.Rounds = 0; b.Rounds < b.MaxIter; {
		b.dev.Copy(dCentres, centres)
		b.dev.Launch(assign, d.Points, &assignArgs{FeatureSwap: featureSwap, Clusters: dCentres,
			Membership: dMembership, NPoints: int32(d.Points), NClusters: int32(b.Clusters), NFeatures: int32(d.Features)})
		b.dev.Download(next, dMembership)
		b.Rounds++
		moved := update(d, next, membership, centres)
		if moved == 0 {
			break
		}
	}
	b.Membership, b.Centres = membership, centres
}

// update copies next into membership, moves the centres to the means of
// their members (a centre without members stays) and returns how many
// points changed centre.
func update(d *Data, next, membership []int32, centres []float32) int {
	moved := 0
	for i, m := range next {
		if m != membership[i] {
			moved++
		}
		membership[i] = m
	}
	k := len(centres) / d.Features
	sums := make([]float32, len(centres))
	counts := make([]int, k)
	for p, m := range membership {
		counts[m]++
		for f := 0; f < d.Features; f++ {
			sums[int(m)*d.Features+f] += d.Values[p*d.Features+f]
		}
	}
	for c := 0; c < k; c++ {
		if counts[c] == 0 {
			continue
		}
		for f := 0; f < d.Features; f++ {
			centres[c*d.Features+f] = sums[c*d.Features+f] / float32(counts[c])
		}
	}
	return moved
}

// Verify implements MGPUSim's benchmarks.Benchmark: it panics if a
// membership or centre differs from the host's rounds.
func (b *Benchmark) Verify() {
	membership, centres, rounds := Reference(b.Data, b.Clusters, b.MaxIter)
	if msg := suite.Mismatch("km membership", b.Membership, membership); msg != "" {
		panic(msg)
	}
	if msg := suite.Mismatch("km centre", b.Centres, centres); msg != "" {
		panic(msg)
	}
	if b.Rounds != rounds {
		panic(fmt.Sprintf("km: %d rounds, the host took %d", b.Rounds, rounds))
	}
}

// Nearest is kmeans_assign for one point: the first centre at the least
// squared distance, with the kernel's float32 operations in its order.
func Nearest(d *Data, centres []float32, p int) int32 {
	index := int32(0)
	best := float32(math.MaxFloat32)
	for c := 0; c < len(centres)/d.Features; c++ {
		var dist float32
		for f := 0; f < d.Features; f++ {
			diff := d.Values[p*d.Features+f] - centres[c*d.Features+f]
			dist = dist + float32(diff*diff) // rounded as the GPU's mac rounds, never fused
		}
		if dist < best {
			best, index = dist, int32(c)
		}
	}
	return index
}

// Reference runs the rounds on the host.
func Reference(d *Data, clusters, maxIter int) (membership []int32, centres []float32, rounds int) {
	centres = initialCentres(d, clusters)
	membership = make([]int32, d.Points)
	for i := range membership {
		membership[i] = -1
	}
	next := make([]int32, d.Points)
	for rounds = 0; rounds < maxIter; {
		for p := range next {
			next[p] = Nearest(d, centres, p)
		}
		rounds++
		if update(d, next, membership, centres) == 0 {
			break
		}
	}
	return membership, centres, rounds
}
