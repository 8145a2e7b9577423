package cli

import (
	"strconv"

	"github.com/modebox/modebox/internal/config"
)

// ParseSize reads a byte count: plain bytes ("1048576"), binary units
// ("64MiB", "512KiB", "1GiB", also "64M"), or decimal units ("10MB"); the
// same syntax as sizes in modebox.json.
func ParseSize(s string) (int64, error) {
	return config.ParseSize(s)
}

// sizeFlag is a flag.Value for sizes.
type sizeFlag struct{ v *int64 }

func (f sizeFlag) String() string {
	if f.v == nil {
		return "0"
	}
	return strconv.FormatInt(*f.v, 10)
}

func (f sizeFlag) Set(s string) error {
	n, err := ParseSize(s)
	if err != nil {
		return err
	}
	*f.v = n
	return nil
}

// Type names the flag's value in usage text.
func (f sizeFlag) Type() string { return "size" }
