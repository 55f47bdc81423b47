// Package bpc implements Bit-Plane Compression (Kim, Sullivan, Choukse,
// Erez, ISCA 2016).
package bpc
