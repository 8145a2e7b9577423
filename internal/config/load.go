package config

import (
	"errors"
	"io/fs"
	"os"

	"github.com/modebox/modebox/internal/codes"
)

const (
	// DefaultFile is the config file looked for in the working directory.
	DefaultFile = "modebox.json"
	// EnvVar names the environment variable that can point at a config
	// file.
	EnvVar = "MODEBOX_CONFIG"
)

// Find locates the config file. The lookup order is:
//
//  1. flag, the value of the --config flag, if not empty;
//  2. $MODEBOX_CONFIG, if set and not empty;
//  3. ./modebox.json, if it exists.
//
// explicit reports that the path came from 1 or 2; such a path must exist,
// or Find returns an [*Error] (wrapping fs.ErrNotExist). When nothing is
// found Find returns "", false, nil: running without a config file is
// fine, and means [Default]. Find does not read the file; see [Load].
func Find(flag string) (path string, explicit bool, err error) {
	if flag != "" {
		return flag, true, mustExist(flag, "given by --config")
	}
	if env := os.Getenv(EnvVar); env != "" {
		return env, true, mustExist(env, "given by $"+EnvVar)
	}
	fi, err := os.Stat(DefaultFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", false, nil
	case err != nil:
		return "", false, &Error{Code: codes.ConfigNotFound, File: DefaultFile, Message: "cannot read config file: " + err.Error(), Err: err}
	case fi.IsDir():
		return "", false, &Error{Code: codes.ConfigNotFound, File: DefaultFile, Message: "is a directory, not a config file"}
	}
	return DefaultFile, false, nil
}

// mustExist checks that an explicitly named config file exists.
func mustExist(path, origin string) error {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Code: codes.ConfigNotFound, File: path, Message: "config file not found (" + origin + ")", Err: err}
	case err != nil:
		return &Error{Code: codes.ConfigNotFound, File: path, Message: "cannot read config file (" + origin + "): " + err.Error(), Err: err}
	case fi.IsDir():
		return &Error{Code: codes.ConfigNotFound, File: path, Message: "is a directory, not a config file (" + origin + ")"}
	}
	return nil
}

// Load reads and parses the config file at path. A missing file is an
// [*Error] wrapping fs.ErrNotExist; use [Find] first to treat "no config
// file" as the defaults.
func Load(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		msg := "cannot read config file: " + err.Error()
		if errors.Is(err, fs.ErrNotExist) {
			msg = "config file not found"
		}
		return nil, &Error{Code: codes.ConfigNotFound, File: path, Message: msg, Err: err}
	}
	return Parse(data, path)
}

// Parse parses a config file's contents. name is used in errors and as
// Config.File. Every error is an [*Error].
func Parse(data []byte, name string) (*Config, error) {
	root, serr := parseJSON(data)
	if serr != nil {
		line, col := lineCol(data, serr.off)
		return nil, &Error{Code: codes.ConfigSyntax, File: name, Line: line, Column: col, Message: "invalid JSON: " + serr.msg}
	}
	c := &checker{file: name, data: data}
	cfg, err := c.check(root)
	if err != nil {
		return nil, err
	}
	cfg.Warnings = c.warnings
	return cfg, nil
}
