package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/netguard"
)

// Defaults for the zero values of Config.
const (
	DefaultDialTimeout      = 10 * time.Second
	DefaultHeaderTimeout    = 10 * time.Second
	DefaultHandshakeTimeout = 10 * time.Second
	DefaultIdleTimeout      = 5 * time.Minute
	DefaultHalfCloseTimeout = 10 * time.Second
	DefaultMaxConns         = 64
	DefaultMaxHeaderBytes   = 64 << 10
)

// overflowSlots bounds the connections accepted beyond MaxConns that are
// still read far enough to be told why they are refused (503, or SOCKS
// general failure); beyond that, excess connections are closed at once.
const overflowSlots = 8

// overflowTimeout bounds how long an excess connection may take to send
// its request before it is closed.
const overflowTimeout = 2 * time.Second

// Config configures a Server. The zero value of every field but Allow
// selects its default; with an empty Allow every target is refused.
type Config struct {
	// Allow lists the reachable targets as "host:port", "[v6]:port" or
	// "*.suffix:port" (netguard.ParseEntry; a scheme, which the proxy
	// cannot see, is ignored). A non-public address is reachable only
	// through an entry that names it literally, or a host entry marked
	// " private" (netguard.Entry.OpensPrivate).
	Allow []string
	// Resolver resolves host names on the host; nil means
	// net.DefaultResolver.
	Resolver netguard.Resolver
	// DialTimeout bounds name resolution plus the connect to a target
	// (default 10s).
	DialTimeout time.Duration
	// HeaderTimeout bounds the time from accepting a connection to the end
	// of its HTTP request header (default 10s).
	HeaderTimeout time.Duration
	// HandshakeTimeout bounds the time from accepting a connection to the
	// end of its SOCKS5 greeting and request (default 10s).
	HandshakeTimeout time.Duration
	// IdleTimeout closes a tunnel or forwarded request when no byte has
	// moved in either direction for this long (default 5 minutes).
	IdleTimeout time.Duration
	// HalfCloseTimeout closes a tunnel or forwarded request once the
	// client has ended its side (EOF: it went away, or half-closed) and
	// no byte has moved for this long (default 10s): an origin that
	// ignores the end of its request cannot keep a connection slot, which
	// every run of the engine shares, after the command has exited.
	HalfCloseTimeout time.Duration
	// MaxConns bounds concurrent client connections (default 64). Excess
	// connections are refused with 503 or SOCKS general failure.
	MaxConns int
	// MaxHeaderBytes bounds an HTTP request header (default 64 KiB);
	// larger headers are refused with 431.
	MaxHeaderBytes int
	// OnEvent, if set, receives one Event per decision. It is called from
	// connection goroutines, concurrently, and should return quickly.
	OnEvent func(Event)
}

// Protocols named in Event.Protocol.
const (
	ProtoConnect = "connect"
	ProtoHTTP    = "http"
	ProtoSOCKS5  = "socks5"
)

// Event records one decision about one client connection: a target
// allowed and connected, or a connection refused (at any stage).
type Event struct {
	// Time is when the decision was made.
	Time time.Time
	// Protocol is ProtoConnect, ProtoHTTP, ProtoSOCKS5, or "" when the
	// connection was refused before its protocol was known.
	Protocol string
	// Host is the target host: canonical when it was parsed, otherwise as
	// the client wrote it, truncated and with unprintable bytes replaced
	// by '?'. Empty when no target was read.
	Host string
	// Port is the target port, or 0.
	Port int
	// Allowed is true when the target was reached.
	Allowed bool
	// Entry is the allowlist entry that matched, or "".
	Entry string
	// Code is the refusal's code (one of the proxy's in the codes
	// registry), "" when allowed.
	Code codes.Code
	// Reason explains a refusal.
	Reason string
}

// Server is a filtering proxy listening on a Unix socket.
type Server struct {
	cfg    Config
	allow  netguard.Allowlist
	dialer *netguard.Dialer
	path   string
	ln     *net.UnixListener
	sockFI os.FileInfo

	ctx    context.Context
	cancel context.CancelFunc

	active   chan struct{} // MaxConns slots
	overflow chan struct{} // slots for refusing excess connections politely

	mu       sync.Mutex
	closed   bool
	serving  bool
	sessions map[*session]struct{}
	wg       sync.WaitGroup
}

// Listen validates cfg and creates the Unix socket at socketPath, ready
// for Serve.
//
// Permissions: the socket is mode 0600 from the moment it appears at
// socketPath (it is bound in a fresh 0700 directory next to socketPath,
// chmodded, then renamed into place). bwrap maps the invoking user into
// the sandbox, so the sandboxed command, which runs as that same uid,
// can connect; other users cannot. A missing parent directory is created
// with mode 0700; an existing one is left as it is (use a private
// directory, such as one under $XDG_RUNTIME_DIR). An existing socket at
// socketPath that nobody answers on is replaced; anything else there is
// an error.
func Listen(socketPath string, cfg Config) (*Server, error) {
	allow, err := netguard.ParseAllowlist(cfg.Allow)
	if err != nil {
		return nil, &Error{Code: codes.BadConfig, Message: "netproxy: bad allowlist entry", Err: err}
	}
	if cfg.DialTimeout <= 0 {
		cfg.DialTimeout = DefaultDialTimeout
	}
	if cfg.HeaderTimeout <= 0 {
		cfg.HeaderTimeout = DefaultHeaderTimeout
	}
	if cfg.HandshakeTimeout <= 0 {
		cfg.HandshakeTimeout = DefaultHandshakeTimeout
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = DefaultIdleTimeout
	}
	if cfg.HalfCloseTimeout <= 0 {
		cfg.HalfCloseTimeout = DefaultHalfCloseTimeout
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = DefaultMaxConns
	}
	if cfg.MaxHeaderBytes <= 0 {
		cfg.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	if socketPath == "" {
		return nil, &Error{Code: codes.BadConfig, Message: "netproxy: empty socket path"}
	}
	ln, fi, err := listenUnix(socketPath)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Server{
		cfg:      cfg,
		allow:    allow,
		dialer:   &netguard.Dialer{Resolver: cfg.Resolver, Timeout: cfg.DialTimeout},
		path:     socketPath,
		ln:       ln,
		sockFI:   fi,
		ctx:      ctx,
		cancel:   cancel,
		active:   make(chan struct{}, cfg.MaxConns),
		overflow: make(chan struct{}, overflowSlots),
		sessions: make(map[*session]struct{}),
	}, nil
}

func listenErr(reason string, err error) error {
	return &Error{Code: codes.ListenFailed, Message: "netproxy: " + reason, Err: err}
}

// listenUnix binds a socket in a private temporary directory, makes it
// 0600 and renames it to path, so it is never reachable with looser
// permissions.
func listenUnix(path string) (*net.UnixListener, os.FileInfo, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, nil, listenErr("cannot create the socket directory", err)
	}
	if fi, err := os.Lstat(path); err == nil {
		if fi.Mode()&os.ModeSocket == 0 {
			return nil, nil, listenErr(path+" exists and is not a socket", nil)
		}
		if c, err := net.DialTimeout("unix", path, 200*time.Millisecond); err == nil {
			c.Close()
			return nil, nil, listenErr(path+" is in use by another listener", nil)
		}
	}
	tmp, err := os.MkdirTemp(dir, ".np")
	if err != nil {
		return nil, nil, listenErr("cannot create a temporary directory", err)
	}
	defer os.RemoveAll(tmp)
	tmpSock := filepath.Join(tmp, "s")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: tmpSock, Net: "unix"})
	if err != nil {
		return nil, nil, listenErr("cannot listen on a Unix socket in "+dir, err)
	}
	ln.SetUnlinkOnClose(false)
	fail := func(reason string, err error) (*net.UnixListener, os.FileInfo, error) {
		ln.Close()
		return nil, nil, listenErr(reason, err)
	}
	if err := os.Chmod(tmpSock, 0o600); err != nil {
		return fail("cannot chmod the socket", err)
	}
	if err := os.Rename(tmpSock, path); err != nil {
		return fail("cannot move the socket to "+path, err)
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return fail("cannot stat the socket", err)
	}
	return ln, fi, nil
}

// Addr returns the socket path.
func (s *Server) Addr() string { return s.path }

// Serve accepts connections until Close, then returns ErrServerClosed.
// It may be called once.
func (s *Server) Serve() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return ErrServerClosed
	}
	if s.serving {
		s.mu.Unlock()
		return &Error{Code: codes.BadConfig, Message: "netproxy: Serve called twice"}
	}
	s.serving = true
	s.wg.Add(1)
	s.mu.Unlock()
	defer s.wg.Done()

	var backoff time.Duration
	for {
		c, err := s.ln.AcceptUnix()
		if err != nil {
			if s.isClosed() {
				return ErrServerClosed
			}
			if temporaryAcceptError(err) {
				if backoff == 0 {
					backoff = 5 * time.Millisecond
				} else if backoff *= 2; backoff > time.Second {
					backoff = time.Second
				}
				select {
				case <-time.After(backoff):
				case <-s.ctx.Done():
				}
				continue
			}
			return &Error{Code: codes.ListenFailed, Message: "netproxy: accept failed", Err: err}
		}
		backoff = 0
		s.accept(c)
	}
}

func temporaryAcceptError(err error) bool {
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return true
	}
	return errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE) ||
		errors.Is(err, syscall.ECONNABORTED) || errors.Is(err, syscall.ENOBUFS) ||
		errors.Is(err, syscall.ENOMEM) || errors.Is(err, syscall.EINTR)
}

// accept starts a goroutine for c, or closes it when even the overflow
// slots are taken.
func (s *Server) accept(c *net.UnixConn) {
	overloaded := false
	select {
	case s.active <- struct{}{}:
	default:
		select {
		case s.overflow <- struct{}{}:
			overloaded = true
		default:
			c.Close()
			s.emit(Event{Code: codes.TooManyConnections, Reason: fmt.Sprintf("too many connections (limit %d); closed without reading", s.cfg.MaxConns)})
			return
		}
	}
	release := func() {
		if overloaded {
			<-s.overflow
		} else {
			<-s.active
		}
	}
	ss := &session{srv: s, client: c, accepted: time.Now(), overloaded: overloaded}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		c.Close()
		release()
		return
	}
	s.sessions[ss] = struct{}{}
	s.wg.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.wg.Done()
		defer release()
		defer func() {
			s.mu.Lock()
			delete(s.sessions, ss)
			s.mu.Unlock()
		}()
		defer ss.close()
		defer func() {
			if r := recover(); r != nil {
				s.emit(Event{Protocol: ss.proto, Code: codes.Internal, Reason: fmt.Sprintf("internal error: %v", r)})
			}
		}()
		ss.serve()
	}()
}

func (s *Server) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// Close stops accepting, closes every live connection (tunnels included),
// waits for all of the server's goroutines to end, and removes the socket
// file. It returns nil when called again.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	s.cancel()
	err := s.ln.Close()
	for ss := range s.sessions {
		ss.close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	if fi, statErr := os.Lstat(s.path); statErr == nil && os.SameFile(fi, s.sockFI) {
		os.Remove(s.path)
	}
	if err != nil {
		return &Error{Code: codes.ListenFailed, Message: "netproxy: closing the listener", Err: err}
	}
	return nil
}

// emit passes ev to Config.OnEvent; a panic there is dropped, so that a
// faulty logger cannot take the accept loop down.
func (s *Server) emit(ev Event) {
	if s.cfg.OnEvent == nil {
		return
	}
	ev.Time = time.Now()
	defer func() { recover() }()
	s.cfg.OnEvent(ev)
}
