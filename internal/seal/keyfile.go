package seal

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// EnvSecret is the environment variable [LoadKeyring] reads keys from:
// one or more comma-separated keys in base64, the first active.
const EnvSecret = "MODEBOX_SECRET"

// maxKeyFile bounds how much of a key file is read.
const maxKeyFile = 64 << 10

// DefaultKeyPath returns the key file [LoadKeyring] uses when
// $MODEBOX_SECRET is not set: modebox/secret under [os.UserConfigDir]
// (~/.config/modebox/secret on Linux).
func DefaultKeyPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("seal: finding the key file: %w", err)
	}
	return filepath.Join(dir, "modebox", "secret"), nil
}

// LoadKeyring returns the keyring from $MODEBOX_SECRET if it is set (even
// to ""), else from the key file at [DefaultKeyPath], creating it with a
// fresh random key on first use. See [LoadKeyringFile].
//
// $MODEBOX_SECRET holds one or more keys separated by commas, the first
// active; spaces around the commas are ignored and each key is decoded as
// [ParseKey] does.
func LoadKeyring() (*Keyring, error) {
	if v, ok := os.LookupEnv(EnvSecret); ok {
		if strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("seal: $%s is set but empty; unset it to use the key file, "+
				"or set it to a key such as the output of: openssl rand -base64 32", EnvSecret)
		}
		parts := strings.Split(v, ",")
		for i, p := range parts {
			parts[i] = strings.Trim(p, " \t")
		}
		kr, err := ParseKeys("$"+EnvSecret, parts)
		if err != nil {
			return nil, fmt.Errorf("seal: %w", err)
		}
		return kr, nil
	}
	path, err := DefaultKeyPath()
	if err != nil {
		return nil, err
	}
	return LoadKeyringFile(path, true)
}

// LoadKeyringFile reads a key file: one key per line, the first active,
// each decoded as [ParseKey] does; blank lines and lines starting with "#"
// are ignored.
//
// The file must be a regular file that only its owner can read or write
// (mode 0600 or stricter; not checked on Windows) and, on Unix, owned by
// the current user; otherwise it is refused with an error saying how to
// fix it. A malformed key is refused too.
//
// If the file does not exist and create is true, it is created with one
// fresh random key, mode 0600, in a directory created with mode 0700. The
// file appears atomically (written to a temporary file, then linked into
// place), so concurrent first uses agree on one key.
func LoadKeyringFile(path string, create bool) (*Keyring, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) && create {
		if err := createKeyFile(path); err != nil {
			return nil, err
		}
		f, err = os.Open(path)
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("seal: key file %s does not exist; set $%s or create the file "+
			"(mode 0600) with a key such as the output of: openssl rand -base64 32", path, EnvSecret)
	}
	if err != nil {
		return nil, fmt.Errorf("seal: reading the key file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("seal: reading the key file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("seal: key file %s is not a regular file", path)
	}
	if err := checkPrivate(path, fi); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeyFile+1))
	if err != nil {
		return nil, fmt.Errorf("seal: reading the key file: %w", err)
	}
	if len(data) > maxKeyFile {
		return nil, fmt.Errorf("seal: key file %s is larger than %d bytes; it should hold one key per line", path, maxKeyFile)
	}
	var keys []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		keys = append(keys, line)
	}
	kr, err := ParseKeys("key file "+path, keys)
	if err != nil {
		return nil, fmt.Errorf("seal: %w", err)
	}
	return kr, nil
}

// createKeyFile creates path holding one fresh key, atomically: the key is
// written to a private temporary file in the same directory, which is then
// hard-linked to path. Linking fails if path exists, so when several
// processes race, the first link wins and the others use its key. Where
// hard links are unsupported it falls back to an exclusive create.
func createKeyFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("seal: creating the key file: %w", err)
	}
	k, err := GenerateKey()
	if err != nil {
		return err
	}
	content := []byte(k.Encode() + "\n")
	tmp, err := os.CreateTemp(dir, ".secret-*") // mode 0600
	if err != nil {
		return fmt.Errorf("seal: creating the key file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.Write(content)
	if werr == nil {
		werr = tmp.Sync()
	}
	if err := tmp.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		return fmt.Errorf("seal: creating the key file: %w", werr)
	}
	err = os.Link(tmp.Name(), path)
	if err == nil || errors.Is(err, fs.ErrExist) {
		syncDir(dir)
		return nil
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("seal: creating the key file: %w", err)
	}
	_, werr = f.Write(content)
	if werr == nil {
		werr = f.Sync()
	}
	if err := f.Close(); werr == nil {
		werr = err
	}
	if werr != nil {
		os.Remove(path)
		return fmt.Errorf("seal: creating the key file: %w", werr)
	}
	syncDir(dir)
	return nil
}

// syncDir flushes a directory's entries to disk, where the system allows
// it; errors are ignored, as this only adds durability.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
