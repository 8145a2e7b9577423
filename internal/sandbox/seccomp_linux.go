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
// socket(2) takes an allow list of families: AF_NETLINK with
// NETLINK_ROUTE (read-only in the sandbox's own network namespace:
// getaddrinfo and ip use it) always; with network also AF_INET, AF_INET6
// and AF_UNIX, because the network bridge listens on the sandbox's
// loopback and reaches the proxy's socket; the bridge then seals the
// command with unixFilter before exec, which refuses AF_UNIX again.
// socketpair(2) is not affected.
func buildFilter(guard, network bool) ([]byte, error) {
	insts, err := filterInstructions(guard, network)
	if err != nil {
		return nil, err
	}
	return assemble(insts)
}

// unixFilter is the filter the network bridge adds to the command: the
// architecture guard and the socket families of a networked command
// (AF_INET, AF_INET6, NETLINK_ROUTE; no AF_UNIX), on top of bwrap's filter.
func unixFilter() ([]byte, error) {
	rule, err := socketRule(true, false)
	if err != nil {
		return nil, err
	}
	guard, err := archGuard()
	if err != nil {
		return nil, err
	}
	return assemble(append(append(guard, rule...), bpf.RetConstant{Val: retAllow}))
}

// socketRule refuses socket(2) for every family outside the allow list
// (the domain and protocol are ints: only the low 32 bits count).
func socketRule(inet, unixSock bool) ([]bpf.Instruction, error) {
	info, err := arch.GetInfo("")
	if err != nil {
		return nil, fmt.Errorf("sandbox: seccomp: %w", err)
	}
	nr, ok := info.SyscallNames["socket"]
	if !ok {
		return nil, nil
	}
	lo := uint32(seccompArgsOffset)
	proto := uint32(seccompArgsOffset + 8*2)
	if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 { // big endian
		lo += 4
		proto += 4
	}
	var allowed []uint32
	if inet {
		allowed = append(allowed, unix.AF_INET, unix.AF_INET6)
	}
	if unixSock {
		allowed = append(allowed, unix.AF_UNIX)
	}
	// Layout: [nr check] [load domain] [one jeq per allowed family -> ok]
	// [jeq AF_NETLINK -> netlink] [deny] netlink: [load proto] [jeq ROUTE -> ok] [deny] ok:
	n := len(allowed)
	rest := 2 + n + 1 + 1 + 3 // instructions after the nr check
	insts := []bpf.Instruction{
		bpf.LoadAbsolute{Off: seccompNrOffset, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(nr), SkipFalse: uint8(rest - 1)},
		bpf.LoadAbsolute{Off: lo, Size: 4},
	}
	// after the family jeqs: netlink jeq (1), deny (1), load proto (1), jeq (1), deny (1)
	for k, fam := range allowed {
		insts = append(insts, bpf.JumpIf{Cond: bpf.JumpEqual, Val: fam, SkipTrue: uint8(n - k - 1 + 5)})
	}
	insts = append(insts,
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.AF_NETLINK, SkipTrue: 1},
		bpf.RetConstant{Val: retEPERM},
		bpf.LoadAbsolute{Off: proto, Size: 4},
		bpf.JumpIf{Cond: bpf.JumpEqual, Val: unix.NETLINK_ROUTE, SkipTrue: 1},
		bpf.RetConstant{Val: retEPERM},
	)
	if len(insts) != n+8 {
		return nil, fmt.Errorf("sandbox: seccomp: socket rule has %d instructions, want %d", len(insts), n+8)
	}
	return insts, nil
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

func filterInstructions(guard, network bool) ([]bpf.Instruction, error) {
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
			// openat2's mode is in a struct seccomp cannot read: ENOSYS,
			// so that callers fall back to openat, which is checked.
			{Names: []string{"clone3", "openat2"}, Action: seccomp.Action(retENOSYS)},
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
	rule, err := socketRule(network, network)
	if err != nil {
		return nil, err
	}
	prefix = append(prefix, rule...)
	prefix = append(prefix, setIDRules(info)...)
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

// setIDBits are the mode bits no command may set: S_ISUID and S_ISGID.
// The workspace is nosuid inside the sandbox but not on the host, where
// a set-ID file left there would run with its owner's ids for any user.
const setIDBits = unix.S_ISUID | unix.S_ISGID

// createFlags are the open flags with which open(2) uses its mode: O_CREAT
// and O_TMPFILE (without the O_DIRECTORY that O_TMPFILE includes).
const createFlags = unix.O_CREAT | (unix.O_TMPFILE &^ unix.O_DIRECTORY)

// setIDRule is a call that can give a file a mode: the argument holding
// the mode and, for the open calls, the one holding the flags (-1: none).
type setIDRule struct {
	name        string
	flags, mode int
}

var setIDCalls = []setIDRule{
	{"chmod", -1, 1}, {"fchmod", -1, 1}, {"fchmodat", -1, 2}, {"fchmodat2", -1, 2},
	{"creat", -1, 1}, {"open", 1, 2}, {"openat", 2, 3},
	{"mknod", -1, 1}, {"mknodat", -1, 2},
}

// setIDRules refuse (EPERM) every call that gives a file S_ISUID or
// S_ISGID: chmod, fchmod, fchmodat and fchmodat2 with such a mode (on
// directories too: seccomp cannot tell what the path or descriptor names,
// so a setgid directory cannot be made either), creat, mknod and mknodat
// with it, and open and openat with it and O_CREAT or O_TMPFILE (open
// with O_CREAT and such a mode is refused even when the file exists).
// mkdir and mkdirat need no rule: the kernel drops those bits from their
// mode (a directory inherits S_ISGID from a setgid parent only). openat2
// gets ENOSYS in the policy. Modes and flags are 32-bit (umode_t, int):
// only the low half of each argument is tested, as the kernel reads it.
// Calls missing from the architecture's table are skipped.
func setIDRules(info *arch.Info) []bpf.Instruction {
	low := func(arg int) uint32 {
		off := uint32(seccompArgsOffset + 8*arg)
		if binary.NativeEndian.Uint16([]byte{0, 1}) == 1 { // big endian
			off += 4
		}
		return off
	}
	var insts []bpf.Instruction
	for _, r := range setIDCalls {
		nr, ok := info.SyscallNames[r.name]
		if !ok {
			continue
		}
		// [ld nr] [jeq nr] ([ld flags] [jset createFlags]) [ld mode] [jset setIDBits] [ret EPERM];
		// every false branch lands on the first instruction after the
		// block: rest counts the instructions after the jeq.
		rest := uint8(3)
		if r.flags >= 0 {
			rest = 5
		}
		insts = append(insts,
			bpf.LoadAbsolute{Off: seccompNrOffset, Size: 4},
			bpf.JumpIf{Cond: bpf.JumpEqual, Val: uint32(nr), SkipFalse: rest},
		)
		if r.flags >= 0 {
			insts = append(insts,
				bpf.LoadAbsolute{Off: low(r.flags), Size: 4},
				bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: createFlags, SkipFalse: 3},
			)
		}
		insts = append(insts,
			bpf.LoadAbsolute{Off: low(r.mode), Size: 4},
			bpf.JumpIf{Cond: bpf.JumpBitsSet, Val: setIDBits, SkipFalse: 1},
			bpf.RetConstant{Val: retEPERM},
		)
	}
	return insts
}
