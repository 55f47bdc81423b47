package tracefile

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Dict is the writer's side of the payload dictionary: the last Entries
// distinct literal payloads, first in first out. A payload equal to one of
// them is written as its distance from the newest (0 = the payload inserted
// last). The writer indexes the ring with a hash map from payload hash to
// insertion number; the reader mirrors the ring alone (Ring), so both sides
// hold at most Entries × LineSize payload bytes.
type Dict struct {
	size    int      // payload length
	entries uint64   // capacity; 0 disables the dictionary
	ring    []byte   // slot s holds payload of insertion number ≡ s (mod entries); grown lazily
	hashes  []uint64 // hash of each slot's payload, to unindex it on eviction
	index   map[uint64]uint64
	next    uint64 // insertion number of the next literal = literals so far
	hash    func([]byte) uint64
}

// NewDict returns a dictionary of the given capacity for payloads of size
// bytes. Memory grows with the distinct payloads actually inserted.
func NewDict(size, entries int) *Dict {
	return &Dict{size: size, entries: uint64(entries), index: make(map[uint64]uint64), hash: hashPayload}
}

// Lookup returns the distance of a stored payload equal to p. When there is
// none it inserts p (evicting the oldest when full) and returns ok = false:
// the caller then writes p as a literal, which the reader inserts the same way.
func (d *Dict) Lookup(p []byte) (distance uint64, ok bool) {
	if d.entries == 0 {
		return 0, false
	}
	h := d.hash(p)
	if seq, found := d.index[h]; found && d.next-seq <= d.entries {
		slot := int(seq % d.entries)
		if bytes.Equal(d.ring[slot*d.size:(slot+1)*d.size], p) {
			return d.next - 1 - seq, true
		}
	}
	// Insert as the newest. A hash collision with a live entry simply
	// re-points the index at the newer payload: the older one can no longer be
	// found, which costs a literal later but never a wrong reference, since a
	// hit is confirmed byte by byte.
	slot := d.next % d.entries
	if d.next >= d.entries {
		old := d.hashes[slot]
		if seq, found := d.index[old]; found && seq == d.next-d.entries {
			delete(d.index, old)
		}
		copy(d.ring[int(slot)*d.size:], p)
		d.hashes[slot] = h
	} else {
		d.ring = appendCapped(d.ring, p, int(d.entries)*d.size)
		d.hashes = append(d.hashes, h)
	}
	d.index[h] = d.next
	d.next++
	return 0, false
}

// hashPayload is a fixed (seedless) hash, so that the same trace always
// encodes to the same bytes.
func hashPayload(p []byte) uint64 {
	const k = 0x9E3779B97F4A7C15
	h := uint64(len(p)) * k
	for len(p) >= 8 {
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64(p))*k, 31)
		p = p[8:]
	}
	for _, c := range p {
		h = bits.RotateLeft64((h^uint64(c))*k, 31)
	}
	return h ^ h>>29
}

// Ring is the reader's side of the dictionary: the same first-in-first-out
// ring of literal payloads, without the index.
type Ring struct {
	size    int
	entries uint64
	ring    []byte
	next    uint64
}

// NewRing returns an empty ring matching NewDict(size, entries).
func NewRing(size, entries int) *Ring {
	return &Ring{size: size, entries: uint64(entries)}
}

// Add inserts a literal payload as the newest entry.
func (r *Ring) Add(p []byte) {
	if r.entries == 0 {
		return
	}
	slot := r.next % r.entries
	if r.next >= r.entries {
		copy(r.ring[int(slot)*r.size:], p)
	} else {
		r.ring = appendCapped(r.ring, p, int(r.entries)*r.size)
	}
	r.next++
}

// Get returns the payload at the given distance from the newest entry, or
// ok = false when no entry is that old. The slice aliases the ring.
func (r *Ring) Get(distance uint64) (p []byte, ok bool) {
	if distance >= r.next || distance >= r.entries {
		return nil, false
	}
	slot := int((r.next - 1 - distance) % r.entries)
	return r.ring[slot*r.size : (slot+1)*r.size], true
}

// appendCapped appends p to b, growing b by doubling but never beyond limit
// bytes of capacity, so a full ring holds exactly its entries.
func appendCapped(b, p []byte, limit int) []byte {
	if len(b)+len(p) > cap(b) {
		n := max(2*cap(b), len(b)+len(p), 4096)
		n = min(n, max(limit, len(b)+len(p)))
		nb := make([]byte, len(b), n)
		copy(nb, b)
		b = nb
	}
	return append(b, p...)
}
