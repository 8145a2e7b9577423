package engine

import (
	"bytes"
	"encoding/binary"
	"errors"
)

// spExport is the name under which the engine exports the image's one
// mutable global (the C stack pointer), so that an instance reused for
// another run can have it set back to its snapshot value.
const spExport = "mb_sp"

// withStackPointerExport returns the image with its only global exported
// as spExport, or ok false (and the image unchanged) if the image is not
// shaped as expected: no imported global, exactly one global, a mutable
// i32. The new export is appended to the export section; no index of the
// module changes.
func withStackPointerExport(img []byte) (out []byte, ok bool) {
	if len(img) < 8 || !bytes.Equal(img[:4], []byte("\x00asm")) {
		return img, false
	}
	type section struct {
		id         byte
		start, end int // payload
		head       int // where the section's id byte is
	}
	var secs []section
	for p := 8; p < len(img); {
		id := img[p]
		n, w := binary.Uvarint(img[p+1:])
		if w <= 0 || p+1+w+int(n) > len(img) {
			return img, false
		}
		secs = append(secs, section{id: id, head: p, start: p + 1 + w, end: p + 1 + w + int(n)})
		p += 1 + w + int(n)
	}
	var exp *section
	for i := range secs {
		s := &secs[i]
		switch s.id {
		case 2: // imports: must hold no global
			if hasGlobalImport(img[s.start:s.end]) {
				return img, false
			}
		case 6: // globals: exactly one, a mutable i32
			g := img[s.start:s.end]
			if len(g) < 3 || g[0] != 1 || g[1] != 0x7f || g[2] != 1 {
				return img, false
			}
		case 7:
			exp = s
		}
	}
	if exp == nil {
		return img, false
	}
	count, w := binary.Uvarint(img[exp.start:exp.end])
	if w <= 0 {
		return img, false
	}
	payload := binary.AppendUvarint(nil, count+1)
	payload = append(payload, img[exp.start+w:exp.end]...)
	payload = binary.AppendUvarint(payload, uint64(len(spExport)))
	payload = append(payload, spExport...)
	payload = append(payload, 3, 0) // a global, index 0
	out = append(out, img[:exp.head]...)
	out = append(out, 7)
	out = binary.AppendUvarint(out, uint64(len(payload)))
	out = append(out, payload...)
	out = append(out, img[exp.end:]...)
	return out, true
}

// hasGlobalImport reports whether an import section's payload imports a
// global (or cannot be read).
func hasGlobalImport(p []byte) bool {
	n, w := binary.Uvarint(p)
	if w <= 0 {
		return true
	}
	p = p[w:]
	name := func() bool {
		l, w := binary.Uvarint(p)
		if w <= 0 || w+int(l) > len(p) {
			return false
		}
		p = p[w+int(l):]
		return true
	}
	for range n {
		for range 2 { // module name, then field name
			if !name() {
				return true
			}
		}
		if len(p) == 0 {
			return true
		}
		kind := p[0]
		p = p[1:]
		var err error
		switch kind {
		case 0: // func: type index
			err = skipUvarint(&p)
		case 1: // table: reftype, limits
			if len(p) == 0 {
				return true
			}
			p = p[1:]
			err = skipLimits(&p)
		case 2: // memory: limits
			err = skipLimits(&p)
		default: // global, tag or unknown
			return true
		}
		if err != nil {
			return true
		}
	}
	return false
}

var errImage = errors.New("engine: malformed image")

func skipUvarint(p *[]byte) error {
	_, w := binary.Uvarint(*p)
	if w <= 0 {
		return errImage
	}
	*p = (*p)[w:]
	return nil
}

func skipLimits(p *[]byte) error {
	if len(*p) == 0 {
		return errImage
	}
	flags := (*p)[0]
	*p = (*p)[1:]
	if err := skipUvarint(p); err != nil {
		return err
	}
	if flags&1 != 0 {
		return skipUvarint(p)
	}
	return nil
}

// withoutData returns the image with its data segments taken out (the data
// section left with none, the data count section, if any, saying none),
// and the segments, to be written by the host into the one instance that
// takes the snapshot. Every other instance gets its memory from the
// snapshot, which holds the segments' bytes already: a fresh instance then
// starts with zero memory and nothing written to it, which a
// copy-on-write mapping of the snapshot needs (a write would copy the
// page). ok is false (the image unchanged) if a segment is not an active
// segment of memory 0 at an i32.const offset.
func withoutData(img []byte) (out []byte, segs []chunk, ok bool) {
	if len(img) < 8 {
		return img, nil, false
	}
	out = append(out, img[:8]...)
	for p := 8; p < len(img); {
		id := img[p]
		n, w := binary.Uvarint(img[p+1:])
		if w <= 0 || p+1+w+int(n) > len(img) {
			return img, nil, false
		}
		start, end := p+1+w, p+1+w+int(n)
		switch id {
		case 11:
			var err error
			if segs, err = dataSegments(img[start:end]); err != nil {
				return img, nil, false
			}
			out = append(out, 11, 1, 0) // a section of one byte: no segment
		case 12:
			out = append(out, 12, 1, 0)
		default:
			out = append(out, img[p:end]...)
		}
		p = end
	}
	return out, segs, true
}

func dataSegments(p []byte) ([]chunk, error) {
	n, w := binary.Uvarint(p)
	if w <= 0 {
		return nil, errImage
	}
	p = p[w:]
	segs := make([]chunk, 0, n)
	for range n {
		if len(p) < 2 || p[0] != 0 || p[1] != 0x41 { // active, memory 0, i32.const
			return nil, errImage
		}
		off, w := sleb(p[2:])
		if w <= 0 || len(p) < 2+w+1 || p[2+w] != 0x0b {
			return nil, errImage
		}
		p = p[2+w+1:]
		l, w2 := binary.Uvarint(p)
		if w2 <= 0 || w2+int(l) > len(p) {
			return nil, errImage
		}
		segs = append(segs, chunk{off: uint32(int32(off)), data: p[w2 : w2+int(l)]})
		p = p[w2+int(l):]
	}
	return segs, nil
}

// sleb reads a signed LEB128 value.
func sleb(p []byte) (int64, int) {
	var v int64
	var shift uint
	for i, b := range p {
		if i == 10 {
			return 0, -1
		}
		v |= int64(b&0x7f) << shift
		shift += 7
		if b&0x80 == 0 {
			if shift < 64 && b&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1
		}
	}
	return 0, -1
}
