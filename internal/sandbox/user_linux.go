//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/modebox/modebox/internal/codes"
)

// UserRoot is the Config.User value that lets commands run as host uid 0
// when modebox runs as root.
const UserRoot = "root"

// identity is who commands run as on the host.
type identity struct {
	uid, gid int
	groups   []int
	name     string
}

func (id identity) String() string {
	if id.name != "" {
		return fmt.Sprintf("%s (uid %d, gid %d)", id.name, id.uid, id.gid)
	}
	return fmt.Sprintf("uid %d, gid %d", id.uid, id.gid)
}

// resolveUser decides who commands run as. Not root: as modebox itself
// (User may only name that). Root: User "root" keeps host uid 0; a name,
// uid or uid:gid names the user; empty means the owner of the first
// workspace when that is not root, else nobody.
func (s *Sandbox) resolveUser() error {
	u := s.cfg.User
	if !s.root {
		if u == "" {
			return nil
		}
		id, err := lookupIdentity(u)
		if err != nil {
			return err
		}
		if id.uid != os.Getuid() {
			return configError("shell user %q: commands can run as another user only when modebox runs as root", u)
		}
		return nil
	}
	if u == UserRoot || u == "0" || u == "0:0" {
		return nil // explicitly: host uid 0
	}
	var id identity
	var err error
	switch {
	case u != "":
		id, err = lookupIdentity(u)
	case len(s.workspaces) > 0:
		var st unix.Stat_t
		if err := unix.Stat(s.workspaces[0], &st); err == nil && st.Uid != 0 {
			id, err = lookupIdentity(strconv.Itoa(int(st.Uid)))
			if err != nil {
				id, err = identity{uid: int(st.Uid), gid: int(st.Gid)}, nil
			}
			break
		}
		fallthrough
	default:
		id, err = lookupIdentity("nobody")
		if err != nil {
			id, err = identity{uid: 65534, gid: 65534, name: "nobody"}, nil
		}
	}
	if err != nil {
		return err
	}
	if id.uid == 0 {
		return configError("shell user %q is root: write \"user\": \"root\" to run commands as host uid 0", u)
	}
	for _, w := range s.workspaces {
		if !id.may(w, unix.W_OK|unix.X_OK) {
			who := "whom commands run as (the first workspace's owner, else nobody)"
			if u != "" {
				who = "named in the shell's \"user\""
			}
			fix := fmt.Sprintf("give the workspace to %s, %s: chown %d:%d %s (add -R for what it holds, but leave files the host trusts, such as modebox.json, to their owner); "+
				"or name in \"user\" one who can write it; or set \"user\": \"root\" to run commands as host uid 0 (not recommended)", id, who, id.uid, id.gid, w)
			return &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("modebox runs as root and commands run as %s, who cannot write the workspace %s", id, w), Fix: fix}
		}
	}
	s.as = &id
	return nil
}

// lookupIdentity reads "name", "uid" or "uid:gid".
func lookupIdentity(spec string) (identity, error) {
	name, gidPart, hasGid := strings.Cut(spec, ":")
	var u *user.User
	var err error
	if _, nerr := strconv.Atoi(name); nerr == nil {
		u, err = user.LookupId(name)
	} else {
		u, err = user.Lookup(name)
	}
	var id identity
	if err != nil {
		uid, nerr := strconv.Atoi(name)
		if nerr != nil || uid < 0 || !hasGid {
			return identity{}, &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("shell user %q: %v", spec, err), Fix: "name an existing user, or a uid:gid pair", Err: err}
		}
		id.uid = uid
	} else {
		id.uid, _ = strconv.Atoi(u.Uid)
		id.gid, _ = strconv.Atoi(u.Gid)
		id.name = u.Username
		if gids, err := u.GroupIds(); err == nil {
			for _, g := range gids {
				if n, err := strconv.Atoi(g); err == nil && n != id.gid {
					id.groups = append(id.groups, n)
				}
			}
		}
	}
	if hasGid {
		g, err := strconv.Atoi(gidPart)
		if err != nil || g < 0 {
			return identity{}, configError("shell user %q: %q is not a gid", spec, gidPart)
		}
		id.gid = g
	}
	return id, nil
}

// may reports whether the identity has access (unix.R_OK, W_OK, X_OK) to
// p and can search every directory on the way, by the permission bits. A
// file with an access ACL counts as allowed (the ACL may grant it).
func (id identity) may(p string, mode uint32) bool {
	dirs := []string{}
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == "/" || d == "." {
			break
		}
	}
	for _, d := range dirs {
		if !id.allowed(d, unix.X_OK) {
			return false
		}
	}
	return id.allowed(p, mode)
}

func (id identity) allowed(p string, mode uint32) bool {
	var st unix.Stat_t
	if unix.Stat(p, &st) != nil {
		return false
	}
	var bits uint32
	switch {
	case int(st.Uid) == id.uid:
		bits = (st.Mode >> 6) & 7
	case int(st.Gid) == id.gid || containsInt(id.groups, int(st.Gid)):
		bits = (st.Mode >> 3) & 7
	default:
		bits = st.Mode & 7
	}
	if bits&mode == mode {
		return true
	}
	sz, err := unix.Getxattr(p, "system.posix_acl_access", nil)
	return err == nil && sz > 0
}

func containsInt(l []int, v int) bool {
	for _, x := range l {
		if x == v {
			return true
		}
	}
	return false
}

// credential returns the credential bwrap starts with, nil for modebox's
// own.
func (s *Sandbox) credential() *syscall.Credential {
	if s.as == nil {
		return nil
	}
	c := &syscall.Credential{Uid: uint32(s.as.uid), Gid: uint32(s.as.gid)}
	for _, g := range s.as.groups {
		c.Groups = append(c.Groups, uint32(g))
	}
	return c
}

// prepareRunDir gives the run-as user what bwrap needs outside the
// workspace: a copy of the network bridge and a link to the proxy's socket
// in a directory only root may change (mode 0711), the socket owned by
// that user.
func (s *Sandbox) prepareRunDir() error {
	if s.as == nil || s.proxySock == "" {
		return nil
	}
	dir, err := os.MkdirTemp("", "modebox-sh-")
	if err != nil {
		return &Error{Code: codes.SandboxConfig, Reason: "cannot create the sandbox's run directory: " + err.Error(), Err: err}
	}
	s.runDir = dir
	fail := func(what string, err error) error {
		os.RemoveAll(dir)
		s.runDir = ""
		return &Error{Code: codes.SandboxConfig, Reason: fmt.Sprintf("cannot prepare the network bridge for %s: %s: %v", s.as, what, err), Err: err}
	}
	if err := os.Chmod(dir, 0o711); err != nil {
		return fail("chmod", err)
	}
	sock := filepath.Join(dir, "proxy.sock")
	if err := os.Link(s.proxySock, sock); err != nil {
		return fail("link the proxy socket (it must be on the same file system as "+os.TempDir()+")", err)
	}
	if err := os.Lchown(sock, s.as.uid, s.as.gid); err != nil {
		return fail("chown the proxy socket", err)
	}
	if err := os.Chmod(sock, 0o700); err != nil {
		return fail("chmod the proxy socket", err)
	}
	src, err := os.Open(s.bridge)
	if err != nil {
		return fail("open the bridge", err)
	}
	defer src.Close()
	bridge := filepath.Join(dir, "bridge")
	dst, err := os.OpenFile(bridge, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o555)
	if err != nil {
		return fail("copy the bridge", err)
	}
	_, err = io.Copy(dst, src)
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fail("copy the bridge", err)
	}
	s.proxySock, s.bridge = sock, bridge
	return nil
}

// Close removes what New made for the run-as user (a copy of the network
// bridge). Commands already running are not affected; Run after Close may
// fail.
func (s *Sandbox) Close() error {
	if s.runDir == "" {
		return nil
	}
	err := os.RemoveAll(s.runDir)
	s.runDir = ""
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return nil
}

// RunsAs describes who commands run as on the host, for `modebox doctor`.
func (s *Sandbox) RunsAs() string {
	if s.as != nil {
		return s.as.String()
	}
	if s.root {
		return "host uid 0 (root), as the configuration says"
	}
	return fmt.Sprintf("uid %d (modebox's own)", os.Getuid())
}

// ownedPipes connects the command's standard streams through pipes owned
// by the run-as user. A pipe the host makes belongs to root with mode
// 0600, so a command running as another user could not reopen its own
// streams by name ("echo x >/dev/stderr" opens /proc/self/fd/2 afresh and
// checks the pipe's owner). With no run-as user, exec's own pipes serve.
type ownedPipes struct {
	host    []*os.File // our ends, closed by wait
	command []*os.File // the command's ends, closed after Start
	done    chan struct{}
	pending int
}

// connect sets cmd's stdin (if any), stdout and stderr to pipes owned by
// uid:gid; copying starts at once and wait ends it.
func (p *ownedPipes) connect(cmd *exec.Cmd, uid, gid int, stdin []byte, stdout, stderr io.Writer) error {
	p.done = make(chan struct{}, 3)
	pipe := func() (r, w *os.File, err error) {
		r, w, err = os.Pipe()
		if err != nil {
			return nil, nil, err
		}
		for _, f := range []*os.File{r, w} {
			if err := f.Chown(uid, gid); err != nil {
				r.Close()
				w.Close()
				return nil, nil, err
			}
		}
		return r, w, nil
	}
	for i, dst := range []io.Writer{stdout, stderr} {
		r, w, err := pipe()
		if err != nil {
			p.close()
			return err
		}
		p.host = append(p.host, r)
		p.command = append(p.command, w)
		if i == 0 {
			cmd.Stdout = w
		} else {
			cmd.Stderr = w
		}
		p.pending++
		go func() {
			_, _ = io.Copy(dst, r)
			p.done <- struct{}{}
		}()
	}
	if len(stdin) > 0 {
		r, w, err := pipe()
		if err != nil {
			p.close()
			return err
		}
		p.host = append(p.host, w)
		p.command = append(p.command, r)
		cmd.Stdin = r
		go func() {
			_, _ = w.Write(stdin)
			w.Close()
		}()
	}
	return nil
}

// started closes the command's ends in this process.
func (p *ownedPipes) started() {
	for _, f := range p.command {
		f.Close()
	}
	p.command = nil
}

// wait lets the copies drain (up to grace, for output still buffered
// after the command ended), then closes everything.
func (p *ownedPipes) wait(grace time.Duration) {
	p.started()
	timer := time.NewTimer(grace)
	defer timer.Stop()
	for ; p.pending > 0; p.pending-- {
		select {
		case <-p.done:
		case <-timer.C:
			// something still holds a write end: stop reading, and
			// wait for the copies to see that
			p.close()
			for ; p.pending > 0; p.pending-- {
				<-p.done
			}
			return
		}
	}
	p.close()
}

func (p *ownedPipes) close() {
	for _, f := range append(p.command, p.host...) {
		f.Close()
	}
	p.command, p.host = nil, nil
}
