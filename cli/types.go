package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"

	"github.com/modebox/modebox/internal/prompt"
)

func typesCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("types", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	cfgPath := configFlag(fs)
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	eng, stop, ok := openEngine(context.Background(), "types", *cfgPath, false, s)
	if !ok {
		return ExitUsage
	}
	defer stop()
	d, err := eng.Declarations()
	if err != nil {
		fmt.Fprintf(s.Stderr, "modebox types: %v\n", err)
		return ExitFailed
	}
	fmt.Fprint(s.Stdout, prompt.Sanitize(d)) // descriptions come from servers
	return ExitOK
}

func searchCmd(args []string, s Streams) int {
	fs := flag.NewFlagSet("search", flag.ContinueOnError)
	fs.SetOutput(s.Stderr)
	cfgPath := configFlag(fs)
	limit := fs.Int("limit", 5, "number of results")
	full := fs.Bool("full", false, "print each tool's full declaration")
	asJSON := fs.Bool("json", false, "print JSON")
	if err := fs.Parse(args); err != nil {
		return ExitUsage
	}
	query := strings.Join(fs.Args(), " ")
	if strings.TrimSpace(query) == "" {
		fmt.Fprintln(s.Stderr, "Usage: modebox search [flags] QUERY")
		return ExitUsage
	}
	eng, stop, ok := openEngine(context.Background(), "search", *cfgPath, false, s)
	if !ok {
		return ExitUsage
	}
	defer stop()
	hits := eng.Search(query, *limit, *full)
	if *asJSON {
		b, _ := json.MarshalIndent(hits, "", "  ")
		fmt.Fprintln(s.Stdout, string(b))
		return ExitOK
	}
	if len(hits) == 0 {
		fmt.Fprintln(s.Stderr, "no tools match")
		return ExitOK
	}
	for _, h := range hits {
		// names, descriptions and schemas come from servers: sanitised
		fmt.Fprintln(s.Stdout, prompt.Sanitize(h.Signature))
		if h.Description != "" {
			fmt.Fprintf(s.Stdout, "    %s\n", prompt.Sanitize(h.Description))
		}
		if h.Declaration != "" {
			fmt.Fprintln(s.Stdout, prompt.Sanitize(h.Declaration))
		}
	}
	return ExitOK
}
