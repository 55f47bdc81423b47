module github.com/linecomp/linecomp

go 1.24.0

require golang.org/x/sys v0.41.0

require github.com/klauspost/cpuid/v2 v2.4.2
