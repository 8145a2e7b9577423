// Command library shows modebox as a Go library: one typed tool, one run.
//
//	go run ./examples/library
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"strings"

	"github.com/modebox/modebox"
)

type wordsIn struct {
	Text string `json:"text" jsonschema:"the text to split into words"`
}

func main() {
	words := modebox.MustTool("words", "Splits text into words.",
		func(_ context.Context, in wordsIn) ([]string, error) {
			return strings.Fields(in.Text), nil
		})
	eng, err := modebox.New(modebox.EngineConfig{Tools: []modebox.Tool{words}})
	if err != nil {
		log.Fatal(err)
	}
	program := `
		const texts = ["the quick brown fox", "jumps over", "the lazy dog"];
		const lists = await Promise.all(texts.map(text => tools.words({ text })));
		const counts = new Map<string, number>();
		for (const w of lists.flat()) counts.set(w, (counts.get(w) ?? 0) + 1);
		return Object.fromEntries([...counts].filter(([, n]) => n > 1));`
	res, err := eng.Run(context.Background(), program, modebox.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	if res.Error != nil {
		log.Fatal(res.Error)
	}
	out, _ := json.Marshal(res)
	fmt.Println(string(out))
}
