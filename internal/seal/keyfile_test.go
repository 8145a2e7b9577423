package seal

import (
	"encoding/base64"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

func TestKeyFileCreated(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	path := filepath.Join(t.TempDir(), "cfg", "modebox", "secret")
	if _, err := LoadKeyringFile(path, false); err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("missing file without create: %v", err)
	}
	kr, err := LoadKeyringFile(path, true)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("key file mode %v", fi.Mode())
	}
	di, _ := os.Stat(filepath.Dir(path))
	if di.Mode().Perm() != 0o700 {
		t.Errorf("key directory mode %v", di.Mode())
	}
	data, _ := os.ReadFile(path)
	if string(data) != kr.Active.Encode()+"\n" || len(kr.Previous) != 0 {
		t.Errorf("file holds %q, keyring %v", data, kr)
	}
	again, err := LoadKeyringFile(path, true)
	if err != nil || again.Active.ID != kr.Active.ID {
		t.Fatalf("second load: %v, %v", again, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".secret-*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

func TestKeyFileConcurrentCreate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "modebox", "secret")
	ids := make([]string, 16)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Go(func() {
			kr, err := LoadKeyringFile(path, true)
			if err != nil {
				t.Error(err)
				return
			}
			ids[i] = kr.Active.ID
		})
	}
	wg.Wait()
	for _, id := range ids {
		if id != ids[0] {
			t.Fatalf("concurrent first uses disagree: %v", ids)
		}
	}
}

func writeKeyFile(t *testing.T, content string, mode os.FileMode) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(path, mode); err != nil { // umask
		t.Fatal(err)
	}
	return path
}

func TestKeyFilePermissions(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Unix permissions")
	}
	k := fixedKey(3).Encode() + "\n"
	for _, mode := range []os.FileMode{0o644, 0o640, 0o604, 0o660, 0o666, 0o700 | 0o044} {
		path := writeKeyFile(t, k, mode)
		_, err := LoadKeyringFile(path, true)
		if err == nil || !strings.Contains(err.Error(), "chmod 600 "+path) {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	for _, mode := range []os.FileMode{0o600, 0o400} {
		if _, err := LoadKeyringFile(writeKeyFile(t, k, mode), false); err != nil {
			t.Errorf("mode %04o: %v", mode, err)
		}
	}
	if _, err := LoadKeyringFile(t.TempDir(), false); err == nil {
		t.Error("a directory was accepted as a key file")
	}
}

func TestKeyFileFormat(t *testing.T) {
	a, b, c := fixedKey(1), fixedKey(2), fixedKey(3)
	kr, err := LoadKeyringFile(writeKeyFile(t, "# modebox keys\n"+a.Encode()+"\r\n\n  "+
		base64.StdEncoding.EncodeToString(b.Secret)+"  \n"+c.Encode(), 0o600), false)
	if err != nil {
		t.Fatal(err)
	}
	if kr.Active.ID != a.ID || len(kr.Previous) != 2 || kr.Previous[0].ID != b.ID || kr.Previous[1].ID != c.ID {
		t.Fatalf("keyring %v", kr)
	}
	for name, content := range map[string]string{
		"empty":     "",
		"comments":  "# nothing\n\n",
		"short key": base64.RawURLEncoding.EncodeToString(make([]byte, 16)) + "\n",
		"garbage":   "not a key\n",
		"two a row": a.Encode() + " " + b.Encode() + "\n",
		"bad 2nd":   a.Encode() + "\n" + a.Encode()[1:] + "\n",
		"duplicate": a.Encode() + "\n" + a.Encode() + "\n",
	} {
		_, err := LoadKeyringFile(writeKeyFile(t, content, 0o600), false)
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), a.Encode()) {
			t.Errorf("%s: error shows the key: %v", name, err)
		}
	}
}

func TestLoadKeyringEnv(t *testing.T) {
	a, b := fixedKey(10), fixedKey(20)
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // must not be touched
	for _, v := range []string{
		a.Encode(),
		base64.StdEncoding.EncodeToString(a.Secret),
		a.Encode() + "," + b.Encode(),
		a.Encode() + ", " + base64.URLEncoding.EncodeToString(b.Secret),
	} {
		t.Setenv(EnvSecret, v)
		kr, err := LoadKeyring()
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if kr.Active.ID != a.ID || strings.Contains(v, ",") && (len(kr.Previous) != 1 || kr.Previous[0].ID != b.ID) {
			t.Errorf("%q: keyring %v", v, kr)
		}
	}
	for _, v := range []string{
		"", " ", ",", a.Encode() + ",", a.Encode() + ",," + b.Encode(), a.Encode() + "\n",
		a.Encode() + ";" + b.Encode(), a.Encode()[:42], a.Encode() + "A", "=" + a.Encode(),
		a.Encode() + "," + a.Encode(), base64.StdEncoding.EncodeToString(a.Secret) + "=",
	} {
		t.Setenv(EnvSecret, v)
		if _, err := LoadKeyring(); err == nil {
			t.Errorf("%q accepted", v)
		} else if !strings.Contains(err.Error(), "MODEBOX_SECRET") {
			t.Errorf("%q: error does not name the variable: %v", v, err)
		}
	}
	if entries, _ := os.ReadDir(os.Getenv("XDG_CONFIG_HOME")); len(entries) != 0 {
		t.Errorf("key file created although $%s is set", EnvSecret)
	}
}

func TestLoadKeyringDefaultFile(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("relies on $XDG_CONFIG_HOME")
	}
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(EnvSecret, "") // restores the variable at cleanup
	os.Unsetenv(EnvSecret)
	kr, err := LoadKeyring()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "modebox", "secret")
	if p, _ := DefaultKeyPath(); p != path {
		t.Errorf("DefaultKeyPath = %s", p)
	}
	again, err := LoadKeyringFile(path, false)
	if err != nil || again.Active.ID != kr.Active.ID {
		t.Fatalf("%v, %v", again, err)
	}
}
