//go:build !amd64 || !gc || purego || noasm

package cpu

const asmEnabled = false
