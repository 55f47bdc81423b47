// Package caba implements the three cache-line formats of CABA
// (Vijaykumar et al., ISCA 2015, §5), which a GPU compresses and
// decompresses with assist warps.
package caba
