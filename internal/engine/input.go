package engine

import "context"

// stackInputMax is how many bytes of inputs (program text, setup, a host
// call's result) a guest call may get on the guest's own stack: the host
// writes them just below the stack pointer and moves the pointer below
// them for the call, so the call needs no mb_alloc call before it (one
// guest call fewer a host call, and no call engine for mb_alloc). It is
// taken from the C stack's headroom under QuickJS's limit
// (guest.StackSize - guest.JSStackSize, 64 KiB). Larger inputs go to a
// block from mb_alloc; the guest frees only those (glue.c, free_input).
const stackInputMax = 8 << 10

// beginInputs starts the inputs of the next guest call: the stack pointer
// is at rest (every guest call returns with it where it was).
func (in *instance) beginInputs() {
	if in.sp != nil {
		in.spRest = in.sp.Get()
		in.spAt = in.spRest
	}
}

// put writes b, and a NUL after it when nul, where the next guest call
// reads it, and returns its address: on the guest's stack while the
// call's inputs fit in stackInputMax, else in a block from mb_alloc.
func (in *instance) put(ctx context.Context, b []byte, nul bool) (uint32, error) {
	n := uint64(len(b))
	if nul {
		n++
	}
	if in.sp != nil && n <= stackInputMax {
		at := (in.spAt - n) &^ 15 // the stack pointer stays 16-aligned
		if at < in.spAt && in.spRest-at <= stackInputMax {
			mem := in.mod.Memory()
			if !mem.Write(uint32(at), b) || (nul && !mem.WriteByte(uint32(at)+uint32(len(b)), 0)) {
				return 0, errOutOfGuestMemory
			}
			in.spAt = at
			in.sp.Set(at)
			return uint32(at), nil
		}
	}
	if in.alloc == nil {
		in.alloc = in.mod.ExportedFunction("mb_alloc")
	}
	return writeWith(ctx, in.mod, in.alloc, in.stack, b, nul)
}

// endInputs puts the stack pointer back at rest after the call returned.
func (in *instance) endInputs() {
	if in.sp != nil && in.spAt != in.spRest {
		in.sp.Set(in.spRest)
		in.spAt = in.spRest
	}
}
