//go:build linux

package sandbox

import (
	"context"
	"os"
	"testing"
)

func TestMain(m *testing.M) {
	MaybeBridge()
	os.Exit(m.Run())
}

func TestSmoke(t *testing.T) {
	ws := t.TempDir()
	s, err := New(Config{Workspace: []string{ws}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(s.args(ws, s.env(nil), mustMasks(t, s), []string{"/bin/sh", "-c", "X"}))
	res, err := s.Run(context.Background(), Command{Script: "id; echo $$; env; ls -la /run /tmp; touch x && ls; grep Seccomp /proc/self/status; python3 -c 'print(1)'; kill -9 $$"})
	t.Logf("%+v %v", res, err)
	t.Log(Probe(Config{}))
}

func mustMasks(t *testing.T, s *Sandbox) []mask { m, err := s.masks(); if err != nil { t.Fatal(err) }; return m }
