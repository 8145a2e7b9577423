package engine

// sliceMemory is the portable fallback: a Go slice that grows by copying,
// still refusing to grow past the run's hard cap.
type sliceMemory struct {
	buf   []byte
	limit uint64
}

func (m *sliceMemory) Reallocate(size uint64) []byte {
	if size > m.limit {
		return nil
	}
	if size <= uint64(cap(m.buf)) {
		m.buf = m.buf[:size]
		return m.buf
	}
	nb := make([]byte, size, min(max(size, uint64(cap(m.buf))*2), m.limit))
	copy(nb, m.buf)
	m.buf = nb
	return nb
}

func (m *sliceMemory) Free() { m.buf = nil }
