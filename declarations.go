package modebox

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/modebox/modebox/internal/toolsearch"
	"github.com/modebox/modebox/internal/tsdecl"
)

// searchDecl declares tools.search, which every toolbox has.
const searchDecl = `  /**
   * Searches this toolbox by tool name, description and parameter names and
   * returns compact signatures, best first. With {full: true} each hit also
   * has the tool's full declaration.
   */
  search(query: string, options?: { limit?: number; full?: boolean }): Promise<Array<{ key: string; signature: string; description?: string; declaration?: string; score: number }>>;
`

// Declarations returns TypeScript declarations (.d.ts text) for the whole
// toolbox: every callable tool with its input and output types and doc
// comments, tools.search, and the namespaces that are also globals. Denied
// tools are left out: the model should not plan with them.
func (e *Engine) Declarations() (string, error) {
	var tools []tsdecl.Tool
	for _, en := range e.box.entries {
		if en.Policy == PolicyDeny {
			continue
		}
		tools = append(tools, en.decl())
	}
	d, err := tsdecl.Declarations(tools, e.box.globals)
	if err != nil {
		return "", err
	}
	const head = "declare const tools: {\n"
	if i := strings.Index(d, head); i >= 0 {
		return d[:i+len(head)] + searchDecl + d[i+len(head):] + e.builtinDecls(), nil
	}
	return d + "\ndeclare const tools: {\n" + searchDecl + "};\n" + e.builtinDecls(), nil
}

// Limits returns the limits a run of e gets when it sets none: the
// engine's, with the defaults where it sets none either.
func (e *Engine) Limits() Limits {
	return DefaultLimits().Merge(e.limits)
}

// IndexBudget is the most bytes Index takes. While every tool's name fits,
// it lists them all: 1,500 bytes is about 80 tools of typical names (the
// captured npm reference servers' 36 tools take 681, with the github
// server's 62 take 1,178); past that, it is about 30 namespaces with a
// tool each. docs/benchmarks.md has the measurements it comes from.
const IndexBudget = 1500

// maxPerNamespace caps the tools Index names per namespace when it cannot
// name them all.
const maxPerNamespace = 6

// Index returns a compact index of the toolbox for a model's context, at
// most IndexBudget bytes plus a line for the built-ins. While it fits it
// lists every callable tool, one line per namespace ("filesystem:
// read_file, write_file"). Past that it lists each namespace with its
// count and its most representative tools (see toolsearch.Representative),
// as many per namespace as fit; past even that, namespaces and counts,
// largest first, as many as fit. Namespaces with the same tools share a
// line ("github, gitea (26 each): ..."). So it grows with the number of
// namespaces, not of tools, and tools.search(query) finds the rest. It
// says nothing about how to call tools: that is the caller's manual.
func (e *Engine) Index() string {
	groups := map[string][]string{}
	n := 0
	for _, en := range e.box.entries {
		if en.Policy == PolicyDeny {
			continue
		}
		groups[en.ns] = append(groups[en.ns], en.js)
		n++
	}
	lines := indexLines(groups)
	var b strings.Builder
	fmt.Fprintf(&b, "%d tools:\n", n)
	for _, l := range lines {
		fmt.Fprintf(&b, "%s: %s\n", l.label(0), strings.Join(l.names, ", "))
	}
	if b.Len() > IndexBudget {
		b.Reset()
		b.WriteString(indexSample(n, len(groups), lines))
	}
	var bi []string
	for _, en := range e.box.builtins {
		if en.Policy != PolicyDeny {
			bi = append(bi, en.key+"()")
		}
	}
	if len(bi) > 0 {
		fmt.Fprintf(&b, "built-in globals: %s\n", strings.Join(bi, ", "))
	}
	return b.String()
}

// indexLine is one line of the index: namespaces with the same tools.
type indexLine struct {
	labels []string // "github", "gitea"
	names  []string // the tools, in the toolbox's order
}

// label names the line's namespaces, at most max of them (0: all).
func (l indexLine) label(max int) string {
	if max <= 0 || len(l.labels) <= max {
		return strings.Join(l.labels, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(l.labels[:max], ", "), len(l.labels)-max)
}

// count is the line's tool count: "26", or "26 each".
func (l indexLine) count() string {
	if len(l.labels) > 1 {
		return fmt.Sprintf("%d each", len(l.names))
	}
	return fmt.Sprint(len(l.names))
}

// maxLabels caps the namespaces named on one line of a sampled index.
const maxLabels = 8

// indexLines groups namespaces by their tools, in namespace order.
func indexLines(groups map[string][]string) []indexLine {
	var lines []indexLine
	at := map[string]int{}
	for _, ns := range slices.Sorted(maps.Keys(groups)) {
		label := ns
		if label == "" {
			label = "(no namespace)" // tools.<name>
		}
		key := strings.Join(groups[ns], ",")
		if i, ok := at[key]; ok {
			lines[i].labels = append(lines[i].labels, label)
			continue
		}
		at[key] = len(lines)
		lines = append(lines, indexLine{labels: []string{label}, names: groups[ns]})
	}
	return lines
}

// indexSample is the index of a toolbox too large to list whole.
func indexSample(n, namespaces int, lines []indexLine) string {
	var b strings.Builder
	for k := maxPerNamespace; k > 0; k-- {
		b.Reset()
		fmt.Fprintf(&b, "%d tools in %d namespaces; some of each (search for the rest):\n", n, namespaces)
		for _, l := range lines {
			fmt.Fprintf(&b, "%s (%s): %s", l.label(maxLabels), l.count(), strings.Join(toolsearch.Representative(l.names, k), ", "))
			if len(l.names) > k {
				b.WriteString(", …")
			}
			b.WriteString("\n")
		}
		if b.Len() <= IndexBudget {
			return b.String()
		}
	}
	// Namespaces and counts only, the largest first, as many as fit.
	byCount := slices.Clone(lines)
	slices.SortStableFunc(byCount, func(a, c indexLine) int { return len(c.names) - len(a.names) })
	b.Reset()
	fmt.Fprintf(&b, "%d tools in %d namespaces (search for them):\n", n, namespaces)
	left := namespaces
	for i, l := range byCount {
		item := fmt.Sprintf("%s (%s)", l.label(maxLabels), l.count())
		rest := fmt.Sprintf("; and %d more\n", left)
		if i > 0 && b.Len()+2+len(item)+len(rest) > IndexBudget {
			b.WriteString(rest)
			return b.String()
		}
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(item)
		left -= len(l.labels)
	}
	b.WriteString("\n")
	return b.String()
}

// Declarations of the built-in capabilities, added when enabled.
const (
	shDecl = `/**
 * Runs a shell command (/bin/sh -c) in a sandbox: it can write only in the
 * workspace and temp dirs, credential stores are hidden, and the network is
 * off unless configured (then only listed hosts, through a proxy).
 * timeout is milliseconds or a duration like "5s".
 */
declare function sh(command: string, options?: { cwd?: string; timeout?: number | string; env?: Record<string, string>; stdin?: string | Uint8Array }): Promise<{ exitCode: number; stdout: string; stderr: string; timedOut: boolean; truncated: boolean }>;
`
	fetchDecl = `/**
 * Makes a web request from the host (http and https only). Listed hosts go
 * through directly; others need approval. Loopback and private addresses
 * are reachable only when configured by exact host and port.
 */
declare function fetch(url: string, init?: { method?: string; headers?: Record<string, string> | Array<[string, string]> | Headers; body?: string | Uint8Array | ArrayBuffer; redirect?: "follow" }): Promise<Response>;
declare class Headers { constructor(init?: Record<string, string> | Array<[string, string]> | Headers); get(name: string): string | null; has(name: string): boolean; set(name: string, value: string): void; append(name: string, value: string): void; delete(name: string): void; entries(): IterableIterator<[string, string]>; keys(): IterableIterator<string>; values(): IterableIterator<string>; forEach(fn: (value: string, name: string) => void): void; }
declare class Response { readonly status: number; readonly statusText: string; readonly ok: boolean; readonly url: string; readonly redirected: boolean; readonly headers: Headers; readonly bodyUsed: boolean; text(): Promise<string>; json(): Promise<any>; arrayBuffer(): Promise<ArrayBuffer>; bytes(): Promise<Uint8Array>; base64(): Promise<string>; clone(): Response; }
`
	fsDecl = `/** One entry of fs.list, or fs.stat's answer. */
interface FileInfo { path: string; name: string; kind: "file" | "dir"; size: number; modTime: string; readOnly?: boolean }
/**
 * Files under the configured mounts (absolute guest paths such as
 * "/data/a.txt"). Writes are staged and committed when the run ends well,
 * each only if the file did not change meanwhile.
 */
declare const fs: {
  read(path: string, options?: { encoding?: "utf8" }): Promise<string>;
  read(path: string, options: { encoding: "bytes" }): Promise<Uint8Array>;
  read(path: string, options: { encoding: "base64" }): Promise<string>;
  write(path: string, data: string | Uint8Array | ArrayBuffer): Promise<void>;
  remove(path: string): Promise<void>;
  list(path: string): Promise<FileInfo[]>;
  stat(path: string): Promise<FileInfo>;
  exists(path: string): Promise<boolean>;
  /** Finds files: patterns use *, ?, [...] and ** (any depth of directories). */
  glob(pattern: string): Promise<string[]>;
};
`
)

// builtinDecls declares the enabled built-ins (those not denied).
func (e *Engine) builtinDecls() string {
	var b strings.Builder
	seen := map[string]bool{}
	for _, en := range e.box.builtins {
		if en.Policy == PolicyDeny {
			continue
		}
		root := en.key
		if en.ns != "" {
			root = en.ns
		}
		if seen[root] {
			continue
		}
		seen[root] = true
		switch root {
		case "sh":
			b.WriteString(shDecl)
		case "fetch":
			b.WriteString(fetchDecl)
		case "fs":
			b.WriteString(fsDecl)
		}
	}
	return b.String()
}
