// Package fs is the fs built-in: files under the configured mounts,
// through internal/mountfs (symlink-proof resolution, deny globs, writes
// staged for the run and committed when it ends well).
package fs

import (
	"context"
	"embed"
	"encoding/base64"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/modebox/modebox/internal/builtin"
	"github.com/modebox/modebox/internal/codes"
	"github.com/modebox/modebox/internal/engine"
	"github.com/modebox/modebox/internal/errs"
	"github.com/modebox/modebox/internal/mountfs"
	"github.com/modebox/modebox/internal/policy"
)

//go:embed schema/*.json
var schemas embed.FS

//go:embed fs.d.ts
var decl string

// Config is fs's configuration (modebox.FSConfig).
type Config = mountfs.Config

type args struct {
	Path          string  `json:"path"`
	Pattern       string  `json:"pattern"`
	Encoding      string  `json:"encoding"`
	Content       *string `json:"content"`
	ContentBase64 string  `json:"contentBase64"`
}

func (a args) data() ([]byte, error) {
	if a.Content != nil {
		return []byte(*a.Content), nil
	}
	return base64.StdEncoding.DecodeString(a.ContentBase64)
}

type readResult struct {
	Content  string       `json:"content"`
	Encoding string       `json:"encoding"`
	Base     mountfs.Base `json:"base"`
}

type changeResult struct {
	Path string       `json:"path"`
	Size int          `json:"size,omitempty"`
	Base mountfs.Base `json:"base"`
}

// session is one run's fs state: its staged writes.
type session struct{ s *mountfs.Session }

// Finish commits the staged writes of a run that ended well and drops them
// otherwise (a paused run re-stages them when it resumes).
func (s session) Finish(ok bool) *builtin.Files {
	if !ok {
		s.s.Discard()
		return nil
	}
	rep := s.s.Commit()
	if len(rep.Committed) == 0 && len(rep.Conflicts) == 0 {
		return nil
	}
	out := &builtin.Files{Committed: rep.Committed}
	for _, c := range rep.Conflicts {
		out.Conflicts = append(out.Conflicts, builtin.Conflict{Path: c.Path, Reason: c.Reason})
	}
	return out
}

// op is one fs method.
type op struct {
	name, desc, schema string
	run                func(ctx context.Context, s *mountfs.Session, a args, c builtin.Call) (any, error)
	source             bool // reads: a call on a source mount is a data-flow source
	restore            func(s *mountfs.Session, a args, base mountfs.Base) error
}

var ops = []op{
	{name: "read", desc: "Reads a file (text, or bytes with {encoding: \"bytes\"}).", schema: "read", source: true,
		run: func(_ context.Context, s *mountfs.Session, a args, c builtin.Call) (any, error) {
			// a file of more bytes than a value may hold cannot be returned
			data, _, base, err := s.ReadLimit(a.Path, int64(c.MaxValue))
			if err != nil {
				return nil, err
			}
			switch a.Encoding {
			case "bytes", "base64":
				return readResult{Content: base64.StdEncoding.EncodeToString(data), Encoding: a.Encoding, Base: base}, nil
			}
			if !utf8.Valid(data) {
				return nil, &errs.Tool{Code: codes.FSNotText, Message: "fs.read(" + a.Path + "): the file is not UTF-8 text; read it with {encoding: \"bytes\"}"}
			}
			return readResult{Content: string(data), Encoding: "utf8", Base: base}, nil
		},
		restore: func(s *mountfs.Session, a args, base mountfs.Base) error { return s.NoteRead(a.Path, base) },
	},
	{name: "write", desc: "Writes a file (staged; committed when the run ends well).", schema: "write",
		run: func(_ context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			data, err := a.data()
			if err != nil {
				return nil, &errs.Tool{Code: codes.InvalidArgument, Message: "fs.write(): content is not valid base64", Err: err}
			}
			base, err := s.Write(a.Path, data)
			if err != nil {
				return nil, err
			}
			return changeResult{Path: a.Path, Size: len(data), Base: base}, nil
		},
		restore: func(s *mountfs.Session, a args, base mountfs.Base) error {
			data, err := a.data()
			if err != nil {
				return err
			}
			return s.Restage(a.Path, data, base)
		},
	},
	{name: "remove", desc: "Removes a file (staged; committed when the run ends well).", schema: "path",
		run: func(_ context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			base, err := s.Remove(a.Path)
			if err != nil {
				return nil, err
			}
			return changeResult{Path: a.Path, Base: base}, nil
		},
		restore: func(s *mountfs.Session, a args, base mountfs.Base) error { return s.RestageRemove(a.Path, base) },
	},
	{name: "list", desc: "Lists a directory.", schema: "path", source: true,
		run: func(_ context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			return s.List(a.Path)
		}},
	{name: "stat", desc: "Describes a file or directory.", schema: "path",
		run: func(_ context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			return s.Stat(a.Path)
		}},
	{name: "exists", desc: "Tells whether a path exists.", schema: "path",
		run: func(_ context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			return s.Exists(a.Path)
		}},
	{name: "glob", desc: "Finds files by pattern (*, ?, [..], **).", schema: "glob", source: true,
		run: func(ctx context.Context, s *mountfs.Session, a args, _ builtin.Call) (any, error) {
			return s.GlobContext(ctx, a.Pattern)
		}},
}

// New enables fs with cfg.
func New(cfg Config) (*builtin.Capability, error) {
	f, err := mountfs.New(cfg)
	if err != nil {
		return nil, &errs.Config{Field: "FS", Reason: err.Error(), Err: err}
	}
	c := &builtin.Capability{
		Name:   "fs",
		Decl:   decl,
		NewRun: func() builtin.Run { return session{f.NewSession()} },
		Close:  f.Close,
	}
	for _, o := range ops {
		sch, err := schemas.ReadFile("schema/" + o.schema + ".json")
		if err != nil {
			panic(err)
		}
		fn := &builtin.Func{
			Key: "fs." + o.name, Namespace: "fs", Description: o.desc, Schema: sch, Policy: policy.Allow,
			Handler: handler(o),
		}
		if o.source {
			fn.Gate = sourceGate(f, o.name)
		}
		if o.restore != nil {
			fn.Replay = replay(o.restore)
		}
		c.Funcs = append(c.Funcs, fn)
	}
	return c.Compile(), nil
}

func handler(o op) func(context.Context, builtin.Call, json.RawMessage) (any, error) {
	return func(ctx context.Context, c builtin.Call, raw json.RawMessage) (any, error) {
		s, err := builtin.StateOf[session]("fs", c)
		if err != nil {
			return nil, err
		}
		var a args
		if err := builtin.DecodeArgs("fs."+o.name+"()", raw, &a); err != nil {
			return nil, err
		}
		v, err := o.run(ctx, s.s, a, c)
		if err != nil {
			return nil, builtin.ToolError("", err)
		}
		return v, nil
	}
}

// sourceGate marks a read of a source mount as a data-flow source.
func sourceGate(f *mountfs.FS, op string) func(json.RawMessage) builtin.Gate {
	return func(raw json.RawMessage) builtin.Gate {
		var a args
		if json.Unmarshal(raw, &a) != nil {
			return builtin.Gate{}
		}
		p := a.Path
		if p == "" {
			p = a.Pattern
		}
		if !f.IsSource(p) {
			return builtin.Gate{}
		}
		return builtin.Gate{Source: true, SourceName: "fs." + op + "(" + strconv.Quote(p) + ")"}
	}
}

// replay makes the replay hook of an fs call: for a call the journal
// records as successful, it decodes the program's arguments and the base
// recorded in the result, and hands them to restore, which rebuilds the
// run's session (re-stage a write, re-note a read).
func replay(restore func(s *mountfs.Session, a args, base mountfs.Base) error) func(builtin.Run, engine.Call) error {
	return func(st builtin.Run, call engine.Call) error {
		s, ok := st.(session)
		if !call.RecordedOK || !ok {
			return nil
		}
		var a args
		var r struct {
			Base mountfs.Base `json:"base"`
		}
		if err := json.Unmarshal(call.Args, &a); err != nil {
			return err
		}
		if err := json.Unmarshal(call.Recorded, &r); err != nil {
			return err
		}
		return restore(s.s, a, r.Base)
	}
}
