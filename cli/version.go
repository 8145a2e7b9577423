package cli

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
)

// versionInfo is what `modebox version --json` prints.
type versionInfo struct {
	Version   string   `json:"version"`
	ImageHash string   `json:"imageHash"`
	Imports   []string `json:"imports"`
	QuickJS   string   `json:"quickjs"`
	Go        string   `json:"go"`
}

func newVersionCmd(s Streams, g *globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print the version, engine image hash and imports",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			info := versionInfo{
				Version:   modebox.Version,
				ImageHash: modebox.ImageHash(),
				Imports:   modebox.Imports(),
				QuickJS:   "2021-03-27",
				Go:        runtime.Version(),
			}
			if g.json() {
				b, _ := json.MarshalIndent(info, "", "  ")
				fmt.Fprintln(s.Stdout, string(b))
				return nil
			}
			fmt.Fprintf(s.Stdout, "modebox %s\nengine image sha256:%s\nquickjs %s\nimports %s\n%s\n",
				info.Version, info.ImageHash, info.QuickJS, strings.Join(info.Imports, ", "), info.Go)
			return nil
		},
	}
	withJSONAlias(cmd, g)
	return cmd
}
