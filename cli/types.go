package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/modebox/modebox"
	"github.com/modebox/modebox/internal/prompt"
)

func newTypesCmd(s Streams, g *globals) *cobra.Command {
	return &cobra.Command{
		Use:   "types",
		Short: "Print the toolbox's TypeScript declarations",
		Long: `Prints the toolbox's TypeScript declarations (the tools a program sees).
With --output json it prints {"declarations": TEXT}, the same text as a
JSON string.`,
		Args: cobra.NoArgs,
		RunE: jsonCommandErrors(g, s, func(cmd *cobra.Command, args []string) error {
			eng, stop, err := openEngine(context.Background(), g, false, s)
			if err != nil {
				return err
			}
			defer stop()
			d, err := eng.Declarations()
			if err != nil {
				return failure(err)
			}
			if g.json() {
				// a JSON string: no control character reaches the terminal raw
				enc := json.NewEncoder(s.Stdout)
				enc.SetEscapeHTML(false)
				return enc.Encode(struct {
					Declarations string `json:"declarations"`
				}{d})
			}
			fmt.Fprint(s.Stdout, prompt.Sanitize(d)) // descriptions come from servers
			return nil
		}),
	}
}

func newSearchCmd(s Streams, g *globals) *cobra.Command {
	var (
		limit int
		full  bool
	)
	cmd := &cobra.Command{
		Use:   "search [flags] QUERY",
		Short: "Find tools by name, description and parameters",
		Args: func(cmd *cobra.Command, args []string) error {
			if strings.TrimSpace(strings.Join(args, " ")) == "" {
				return usageError("expected a QUERY")
			}
			return nil
		},
		RunE: jsonCommandErrors(g, s, func(cmd *cobra.Command, args []string) error {
			query := strings.Join(args, " ")
			eng, stop, err := openEngine(context.Background(), g, false, s)
			if err != nil {
				return err
			}
			defer stop()
			hits := eng.Search(query, modebox.SearchOptions{Limit: limit, Full: full})
			if hits == nil {
				hits = []modebox.SearchHit{}
			}
			if g.json() {
				b, _ := json.MarshalIndent(hits, "", "  ")
				fmt.Fprintln(s.Stdout, string(b))
				return nil
			}
			if len(hits) == 0 {
				fmt.Fprintln(s.Stderr, "no tools match")
				return nil
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
			return nil
		}),
	}
	limit = 5
	cmd.Flags().Var(intCount(&limit), "limit", "number of results")
	cmd.Flags().BoolVar(&full, "full", false, "print each tool's full declaration")
	withJSONAlias(cmd, g)
	return cmd
}
