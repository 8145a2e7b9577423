//go:build linux

package sandbox

import (
	"context"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// bothIdentities are the tests that run as root and again, from
// TestUnprivileged, as a throwaway unprivileged user.
var bothIdentities = []string{
	"TestWrites", "TestCredentialMasks", "TestMountAndNamespaceAttacks", "TestPtraceDenied",
	"TestIoUringDenied", "TestInt80", "TestArchGuard", "TestRunSocketHidden", "TestNoNetwork",
	"TestDNS", "TestTimeoutKillsTree", "TestCancelKillsTree", "TestEnvLeak", "TestTIOCSTI",
	"TestCloneAndPersonality", "TestTools", "TestConfigValidation", "TestFailClosed",
	"TestNetworkBridge", "TestUnixSocketsRefused", "TestBridgeMain", "TestProbe", "TestFilterProgram", "TestDeniedSyscalls",
	"TestKernelSettingsReadOnly", "TestPrivateState", "TestProtectedNames", "TestNoProcessWritable", "TestSocketFamilies", "TestResourceLimits", "TestInvalidCommand", "TestNewCredentialMasks", "TestRunsAsUnprivileged",
	"TestInheritedDescriptors", "TestSetuidBitsRefused", "TestEnvNotOnCommandLine",
}

const testUser = "mbxtest"

// createdTestUser is set when this process made the throwaway user;
// TestMain removes it after every test has run (not at the end of one
// test: other tests, and files they chowned, still use it).
var createdTestUser atomic.Bool

// ensureTestUser returns the uid and gid of the throwaway user, creating
// it if needed; TestMain removes a user this process created.
func ensureTestUser(t testing.TB) (int, int) {
	t.Helper()
	u, err := user.Lookup(testUser)
	if err != nil {
		out, err := exec.Command("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", testUser).CombinedOutput()
		if u2, err2 := user.Lookup(testUser); err2 == nil { // another worker may have raced us
			u = u2
			if err == nil {
				createdTestUser.Store(true)
			}
		} else {
			skipOrFail(t, "cannot create the test user: "+err.Error()+" "+string(out))
		}
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	return uid, gid
}

// TestUnprivileged re-runs bothIdentities from a copy of this test binary
// as an unprivileged user (with its own HOME and TMPDIR) and requires
// every one of them to pass there too.
func TestUnprivileged(t *testing.T) {
	if os.Getenv(envUnpriv) != "" {
		t.Skip("already the unprivileged run")
	}
	if os.Geteuid() != 0 {
		t.Skip("not root: the other tests already ran unprivileged")
	}
	requireSandbox(t)
	uid, gid := ensureTestUser(t)

	dir := scratch(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "sandbox.test")
	src, err := os.Open(exe)
	if err != nil {
		t.Fatal(err)
	}
	dst, err := os.OpenFile(bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	src.Close()
	dst.Close()
	home := mkdir(t, filepath.Join(dir, "home"))
	tmp := mkdir(t, filepath.Join(home, "tmp"))
	for _, p := range []string{home, tmp} {
		if err := os.Chown(p, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	// The /run socket test needs a socket only root can create.
	runSock := "/run/mbxtest-" + randHex(4) + ".sock"
	ln, err := net.Listen("unix", runSock)
	if err != nil {
		t.Fatal(err)
	}
	defer os.Remove(runSock)
	defer ln.Close()
	os.Chmod(runSock, 0o777)
	go serveUnix(ln, "HELLO\n")

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-test.run", "^("+strings.Join(bothIdentities, "|")+")$", "-test.v", "-test.count=1")
	cmd.Dir = home
	cmd.Env = []string{
		"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=" + home, "TMPDIR=" + tmp, "LANG=C.UTF-8",
		envUnpriv + "=1", "MBX_SANDBOX_RUN_SOCK=" + runSock, "CI=" + os.Getenv("CI"),
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}}
	out, err := cmd.CombinedOutput()
	t.Logf("unprivileged run (uid %d):\n%s", uid, out)
	if err != nil {
		t.Fatalf("unprivileged run failed: %v", err)
	}
	passed := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^--- PASS: (\S+)`).FindAllStringSubmatch(string(out), -1) {
		passed[m[1]] = true
	}
	for _, name := range bothIdentities {
		if !passed[name] {
			t.Errorf("%s did not pass as the unprivileged user (skipped?)", name)
		}
	}
}

// BenchmarkRunTrue measures one sandboxed `true` (bwrap, namespaces,
// masks, seccomp).
func BenchmarkRunTrue(b *testing.B) {
	s := newSB(b, Config{})
	ctx := context.Background()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res, err := s.Run(ctx, Command{Script: "true"})
		if err != nil || res.ExitCode != 0 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkExecTrue is the unconfined baseline.
func BenchmarkExecTrue(b *testing.B) {
	for i := 0; i < b.N; i++ {
		if err := exec.Command("/bin/sh", "-c", "true").Run(); err != nil {
			b.Fatal(err)
		}
	}
}
