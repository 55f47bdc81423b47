module github.com/linecomp/linecomp/mgpusim

go 1.25

// MGPUSim's benchmarks draw their inputs from math/rand's global source,
// some after rand.Seed. Seeded as before Go 1.20 and with Seed honoured,
// the same command captures the same trace.
godebug (
	randautoseed=0
	randseednop=0
)

require (
	github.com/linecomp/linecomp v0.0.0
	github.com/sarchlab/akita/v4 v4.9.0
	github.com/sarchlab/mgpusim/v4 v4.2.0
)

require (
	github.com/go-ole/go-ole v1.3.0 // indirect
	github.com/google/pprof v0.0.0-20250820193118-f64d9cf942d6 // indirect
	github.com/gorilla/mux v1.8.1 // indirect
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	github.com/mattn/go-sqlite3 v1.14.32 // indirect
	github.com/rs/xid v1.6.0 // indirect
	github.com/shirou/gopsutil v3.21.11+incompatible // indirect
	github.com/syifan/goseth v0.1.2 // indirect
	github.com/tebeka/atexit v0.3.0 // indirect
	github.com/tklauser/go-sysconf v0.3.15 // indirect
	github.com/tklauser/numcpus v0.10.0 // indirect
	github.com/yusufpapurcu/wmi v1.2.4 // indirect
	go.uber.org/mock v0.6.0 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/linecomp/linecomp => ../
