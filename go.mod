module github.com/linecomp/linecomp

go 1.24

require (
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/klauspost/cpuid/v2 v2.3.0 // indirect
	golang.org/x/sys v0.38.0 // indirect
)
