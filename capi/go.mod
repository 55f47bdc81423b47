module github.com/linecomp/linecomp/capi

go 1.24.0

require github.com/linecomp/linecomp v0.0.0

require (
	github.com/klauspost/cpuid/v2 v2.4.2 // indirect
	golang.org/x/sys v0.41.0 // indirect
)

replace github.com/linecomp/linecomp => ../
