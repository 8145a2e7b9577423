//go:build linux && amd64

package sandbox

import (
	"encoding/binary"
	"slices"
	"testing"

	"github.com/elastic/go-seccomp-bpf/arch"
	"golang.org/x/net/bpf"
)

const auditArchI386 = 0x40000003

// seccompData lays out struct seccomp_data for x/net/bpf's VM, which loads
// 32-bit words big-endian: each word is stored big-endian at the offset the
// kernel would read it from on x86-64 (low half of an argument first).
func seccompData(archID uint32, nr uint32, args ...uint64) []byte {
	b := make([]byte, 64)
	binary.BigEndian.PutUint32(b[0:], nr)
	binary.BigEndian.PutUint32(b[4:], archID)
	for i, a := range args {
		off := 16 + 8*i
		binary.BigEndian.PutUint32(b[off:], uint32(a))
		binary.BigEndian.PutUint32(b[off+4:], uint32(a>>32))
	}
	return b
}

// The filter's verdicts, evaluated by a BPF interpreter.
func TestFilterProgram(t *testing.T) {
	nr := func(name string) uint32 {
		n, ok := arch.X86_64.SyscallNames[name]
		if !ok {
			t.Fatalf("no syscall %s", name)
		}
		return uint32(n)
	}
	x86 := uint32(arch.X86_64.ID)
	cases := []struct {
		name  string
		data  []byte
		want  uint32
		unarm uint32 // verdict without the guard
	}{
		{"read", seccompData(x86, nr("read")), retAllow, retAllow},
		{"unshare", seccompData(x86, nr("unshare"), 0x400), retEPERM, retEPERM},
		{"mount", seccompData(x86, nr("mount")), retEPERM, retEPERM},
		{"io_uring_setup", seccompData(x86, nr("io_uring_setup")), retEPERM, retEPERM},
		{"ptrace", seccompData(x86, nr("ptrace")), retEPERM, retEPERM},
		{"fsopen", seccompData(x86, nr("fsopen")), retEPERM, retEPERM},
		{"clone thread", seccompData(x86, nr("clone"), 0x3d0f00), retAllow, retAllow},
		{"clone newuser", seccompData(x86, nr("clone"), 0x10000000|17), retEPERM, retEPERM},
		{"clone newnet", seccompData(x86, nr("clone"), 0x40000000), retEPERM, retEPERM},
		{"clone3", seccompData(x86, nr("clone3")), retENOSYS, retENOSYS},
		{"personality query", seccompData(x86, nr("personality"), 0xffffffff), retAllow, retAllow},
		{"personality linux", seccompData(x86, nr("personality"), 0), retAllow, retAllow},
		{"personality rie", seccompData(x86, nr("personality"), 0x400000), retEPERM, retEPERM},
		{"ioctl TCGETS", seccompData(x86, nr("ioctl"), 0, 0x5401), retAllow, retAllow},
		{"ioctl TIOCSTI", seccompData(x86, nr("ioctl"), 0, 0x5412), retEPERM, retEPERM},
		{"ioctl TIOCSTI high bits", seccompData(x86, nr("ioctl"), 0, 0xdead00005412), retEPERM, retEPERM},
		{"ioctl TIOCLINUX", seccompData(x86, nr("ioctl"), 0, 0x541c), retEPERM, retEPERM},
		{"chmod 0755", seccompData(x86, nr("chmod"), 0, 0o755), retAllow, retAllow},
		{"chmod 04755", seccompData(x86, nr("chmod"), 0, 0o4755), retEPERM, retEPERM},
		{"chmod 02755 high bits", seccompData(x86, nr("chmod"), 0, 0xdead<<32|0o2755), retEPERM, retEPERM},
		{"chmod 0755 high bits", seccompData(x86, nr("chmod"), 0, 0xdead<<32|0o755), retAllow, retAllow},
		{"fchmod 02000", seccompData(x86, nr("fchmod"), 3, 0o2000), retEPERM, retEPERM},
		{"fchmod 01777", seccompData(x86, nr("fchmod"), 3, 0o1777), retAllow, retAllow},
		{"fchmodat 06755", seccompData(x86, nr("fchmodat"), 0, 0, 0o6755), retEPERM, retEPERM},
		{"fchmodat 0644", seccompData(x86, nr("fchmodat"), 0, 0, 0o644), retAllow, retAllow},
		{"fchmodat2 04755", seccompData(x86, nr("fchmodat2"), 0, 0, 0o4755, 0x100), retEPERM, retEPERM},
		{"creat 04755", seccompData(x86, nr("creat"), 0, 0o4755), retEPERM, retEPERM},
		{"creat 0755", seccompData(x86, nr("creat"), 0, 0o755), retAllow, retAllow},
		{"open O_CREAT 04755", seccompData(x86, nr("open"), 0, 0o101, 0o4755), retEPERM, retEPERM},
		{"open O_CREAT 0644", seccompData(x86, nr("open"), 0, 0o101, 0o644), retAllow, retAllow},
		{"open O_RDONLY mode ignored", seccompData(x86, nr("open"), 0, 0, 0o4755), retAllow, retAllow},
		{"openat O_CREAT 06755", seccompData(x86, nr("openat"), 0, 0, 0o1101, 0o6755), retEPERM, retEPERM},
		{"openat O_TMPFILE 02755", seccompData(x86, nr("openat"), 0, 0, 0o20200002, 0o2755), retEPERM, retEPERM},
		{"openat O_DIRECTORY", seccompData(x86, nr("openat"), 0, 0, 0o200000, 0o6755), retAllow, retAllow},
		{"openat O_CREAT 0600", seccompData(x86, nr("openat"), 0, 0, 0o101, 0o600), retAllow, retAllow},
		{"mknod S_IFREG 04755", seccompData(x86, nr("mknod"), 0, 0o104755), retEPERM, retEPERM},
		{"mknodat S_IFIFO 0644", seccompData(x86, nr("mknodat"), 0, 0, 0o10644), retAllow, retAllow},
		{"openat2", seccompData(x86, nr("openat2")), retENOSYS, retENOSYS},
		{"mkdir 0777", seccompData(x86, nr("mkdir"), 0, 0o777), retAllow, retAllow},
		{"x32 read", seccompData(x86, 0x40000000|nr("read")), retENOSYS, retENOSYS},
		{"i386 unshare", seccompData(auditArchI386, 310, 0x10000000), retKillProcess, retAllow},
		{"i386 getpid", seccompData(auditArchI386, 20), retKillProcess, retAllow},
	}
	for _, guard := range []bool{true, false} {
		insts, err := filterInstructions(guard, true)
		if err != nil {
			t.Fatal(err)
		}
		vm, err := bpf.NewVM(insts)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			got, err := vm.Run(c.data)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if !guard {
				want = c.unarm
			}
			if uint32(got) != want {
				t.Errorf("guard=%v %s: verdict %#x, want %#x", guard, c.name, uint32(got), want)
			}
		}
	}
	prog, err := buildFilter(true, true)
	if err != nil || len(prog)%8 != 0 || len(prog) == 0 {
		t.Fatalf("buildFilter: %d bytes, %v", len(prog), err)
	}
}

func TestDeniedSyscalls(t *testing.T) {
	list := DeniedSyscalls()
	for _, must := range []string{"unshare", "setns", "mount", "umount2", "fsopen", "fsconfig", "fsmount",
		"fspick", "move_mount", "open_tree", "mount_setattr", "pivot_root", "chroot", "ptrace",
		"process_vm_readv", "process_vm_writev", "bpf", "perf_event_open", "userfaultfd",
		"io_uring_setup", "io_uring_enter", "io_uring_register", "kexec_load", "kexec_file_load",
		"init_module", "finit_module", "delete_module", "keyctl", "add_key", "request_key",
		"uselib", "ustat", "sysfs", "_sysctl"} {
		if !slices.Contains(list, must) {
			t.Errorf("DeniedSyscalls lacks %s", must)
		}
		// Must be in the arch table, or the filter would silently skip it.
		if _, ok := arch.X86_64.SyscallNames[must]; !ok {
			t.Errorf("%s is not in the x86-64 syscall table", must)
		}
	}
}

// Every jump in the set-ID rules lands inside them or on the first
// instruction after them: a jump past the end would skip an instruction of
// whatever rule the filter puts next.
func TestSetIDRulesJumpsStayInside(t *testing.T) {
	insts := setIDRules(arch.X86_64)
	if len(insts) == 0 {
		t.Fatal("no set-ID rules")
	}
	for i, in := range insts {
		j, ok := in.(bpf.JumpIf)
		if !ok {
			continue
		}
		for _, skip := range []uint8{j.SkipTrue, j.SkipFalse} {
			if target := i + 1 + int(skip); target > len(insts) {
				t.Errorf("instruction %d (%v) jumps to %d, past the end %d", i, in, target, len(insts))
			}
		}
	}
}
