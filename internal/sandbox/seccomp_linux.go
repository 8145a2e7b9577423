//go:build linux

package sandbox

import (
	"encoding/binary"
	"fmt"

	seccomp "github.com/elastic/go-seccomp-bpf"
	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
	"golang.org/x/sys/unix"
)

// Offsets in struct seccomp_data.
const (
	seccompNrOffset   = 0
	seccompArchOffset = 4
	seccompArgsOffset = 16
	x32SyscallBit     = 0x40000000
)

// Namespace flags of clone(2). CLONE_NEWTIME (0x80) is not listed: in
// clone's flags that bit belongs to the exit signal, so clone cannot use it.
const cloneNewFlags = unix.CLONE_NEWNS | unix.CLONE_NEWCGROUP | unix.CLONE_NEWUTS |
	unix.CLONE_NEWIPC | unix.CLONE_NEWUSER | unix.CLONE_NEWPID | unix.CLONE_NEWNET

// Terminal ioctls that inject input or talk to the console.
const (
	ioctlTIOCSTI   = 0x5412
	ioctlTIOCLINUX = 0x541C
)

const (
	retAllow       = uint32(seccomp.ActionAllow)
	retKillProcess = uint32(seccomp.ActionKillProcess)
	retEPERM       = uint32(seccomp.ActionErrno) | uint32(unix.EPERM)
	retENOSYS      = uint32(seccomp.ActionErrno) | uint32(unix.ENOSYS)
)

// buildFilter assembles the seccomp program passed to bwrap, in the binary
// layout of struct sock_filter (8 bytes per instruction, native endian).
// With guard false the architecture guard is left out; that exists only so
// a test can show the guard is what stops 32-bit calls.
//
// With denyUnix, socket(AF_UNIX, ...) is refused too, so a command cannot
// reach a host socket wherever it lives (socketpair still works). A
// network sandbox leaves it out of bwrap's filter, because its bridge
// must reach the proxy's socket; the bridge then seals the command with
// unixFilter before exec.
func buildFilter(guard, denyUnix bool) ([]byte, error) {
	insts, err := filterInstructions(guard, denyUnix)
	if err != nil {
		return nil, err
	}
	return assemble(insts)
}

// unixFilter is the filter the network bridge adds to the command: the
// architecture guard and the AF_UNIX rule, on top of bwrap's filter.
func unixFilter() ([]byte, error) {
	rule, err := unixSocketRule()
	if err != nil {
		return nil, err
	}
	guard, err := archGuard()
	if err != nil {
		return nil, err
	}
	return assemble(append(append(guard, rule...), bpf.RetConstant{Val: retAllow}))
}

// unixSocketRule refuses socket(2) with domain AF_UNIX (an int: only the
// low 32 bits of the argument count).
func unixSocketRule() ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	nr, ok := info.SyscallNames["socket"]
	if !ok {
		return nil, nil
	}
	lo := uint32(seccompArgsOffset)
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 { // big endian
		lo += 4
	}
	return []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompNrOffset, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(nr), SkipFalse: 3},
		bpf.LoadAbsolute{Off: lo, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_UNIX, SkipFalse: 1},
		bpf.RetConstant{Val: retEPERM},
	}, nil
}

// archGuard kills calls from another architecture and refuses x32 numbers.
func archGuard() ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	g := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompArchOffset, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(info.ID), SkipTrue: 1},
		bpf.RetConstant{Val: retKillProcess},
	}
	if info.ID == arch.X86_64.ID {
		g = append(g,
			bpf.LoadAbsolute{Off: seccompNrOffset, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpGreaterOrEqual, Val: x32SyscallBit, SkipFalse: 1},
			bpf.RetConstant{Val: retENOSYS},
		)
	}
	return g, nil
}

func assemble(insts []bpf.Instruction) ([]byte, error) {
	raw, err := bpf.Assemble(insts)
	if err != nil {
		return nil, fmt.Errorf("sandbox: assembling seccomp filter: %w", err)
	}
	out := make([]byte, 0, 8*len(raw))
	for _, r := range raw {
		out = binary.NativeEndian.AppendUint16(out, r.Op)
		out = append(out, r.Jt, r.Jf)
		out = binary.NativeEndian.AppendUint32(out, r.K)
	}
	return out, nil
}

func filterInstructions(guard, denyUnix bool) ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	var names []string
	for _, n := range deniedNames {
		if _, ok := info.SyscallNames[n]; ok {
			names = append(names, n)
		}
	}
	policy := seccomp.Policy{
		DefaultAction: seccomp.ActionAllow,
		Syscalls: []seccomp.SyscallGroup{
			{Names: names, Action: seccomp.ActionErrno},
			{
				NamesWithCondtions: []seccomp.NameWithConditions{
					{Name: "clone", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.BitsSet, Value: cloneNewFlags},
					}},
					// personality(2) takes an unsigned int; a value with high
					// bits set is refused too, which only costs odd callers.
					{Name: "personality", Conditions: seccomp.ArgumentConditions{
						{Argument: 0, Operation: seccomp.NotEqual, Value: 0},
						{Argument: 0, Operation: seccomp.NotEqual, Value: 0xffffffff},
					}},
				},
				Action: seccomp.ActionErrno,
			},
			{Names: []string{"clone3"}, Action: seccomp.Action(retENOSYS)},
		},
	}
	body, err := policy.Assemble()
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp policy: %w", err)
	}

	var prefix []bpf.Instruction
	if guard {
		// Any call made through another architecture's entry point (on
		// x86-64: int $0x80 / sysenter, AUDIT_ARCH_I386) would otherwise
		// skip the whole deny list, whose default is "allow". Kill it;
		// x32 ABI numbers share AUDIT_ARCH_X86_64: refuse them.
		if prefix, err = archGuard(); err != nil {
			return nil, err
		}
	}
	if denyUnix {
		rule, err := unixSocketRule()
		if err != nil {
			return nil, err
		}
		prefix = append(prefix, rule...)
	}
	// ioctl's request is an unsigned int: compare only the low 32 bits of
	// the argument (the library's Equal would also compare the high half,
	// which the kernel ignores, and be bypassed by setting it).
	if nr, ok := info.SyscallNames["ioctl"]; ok {
		lo := uint32(seccompArgsOffset + 8*1)
		if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 { // big endian
			lo += 4
		}
		prefix = append(prefix,
			bpf.LoadAbsolute{Off: seccompNrOffset, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(nr), SkipFalse: 4},
			bpf.LoadAbsolute{Off: lo, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: ioctlTIOCSTI, SkipTrue: 1},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: ioctlTIOCLINUX, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM},
		)
	}
	return append(prefix, body...), nil
}
