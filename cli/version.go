package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"runtime"
	"strings"

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

func versionCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	info := versionInfo{
		Version:   modebox.Version,
		ImageHash: modebox.ImageHash(),
		Imports:   modebox.Imports(),
		QuickJS:   "2021-03-27",
		Go:        runtime.Version(),
	}
	if *asJSON {
		b, _ := json.MarshalIndent(info, "", "  ")
		fmt.Fprintln(s.Stdout, string(b))
		return ExitOK
	}
	fmt.Fprintf(s.Stdout, "modebox %s\nengine image sha256:%s\nquickjs %s\nimports %s\n%s\n",
		info.Version, info.ImageHash, info.QuickJS, strings.Join(info.Imports, ", "), info.Go)
	return ExitOK
}
