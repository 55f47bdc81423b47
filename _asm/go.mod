module github.com/linecomp/linecomp/_asm

go 1.24

require github.com/mmcloughlin/avo v0.6.0

require (
	golang.org/x/mod v0.27.0 // indirect
	golang.org/x/sync v0.16.0 // indirect
	golang.org/x/tools v0.36.0 // indirect
)
