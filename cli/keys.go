package cli

import (
	"fmt"
	"os"
	"strings"

	"github.com/modebox/modebox"
)

// envSecret holds the continuation keys when set (comma-separated, the
// first sealing).
const envSecret = "MODEBOX_SECRET"

// cliKeys are the CLI's continuation keys: $MODEBOX_SECRET when it is set,
// else the key file ~/.config/modebox/secret, created on first use. The
// library reads neither; the CLI decides.
func cliKeys() ([][]byte, error) {
	if v, ok := os.LookupEnv(envSecret); ok {
		if strings.TrimSpace(v) == "" {
			return nil, fmt.Errorf("$%s is set but empty; unset it to use the key file, "+
				"or set it to a key such as the output of: openssl rand -base64 32", envSecret)
		}
		return modebox.LoadKeys(modebox.KeySource{Secret: v})
	}
	path, err := modebox.DefaultKeyFile()
	if err != nil {
		return nil, err
	}
	return modebox.LoadKeys(modebox.KeySource{File: path, Create: true})
}
