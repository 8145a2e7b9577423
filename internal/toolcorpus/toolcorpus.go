// Package toolcorpus loads tools/list results captured from real MCP
// servers (testdata/mcp-schemas, written by scripts/capture-mcp-schemas.mjs)
// and grows them into larger toolboxes of renamed copies, for the tests and
// benchmarks of search quality and of what a model reads up front.
//
// A copy is a whole server under another service's name: its namespace
// changes and the words that name the service and its things are replaced
// in the tools' names, descriptions and schemas ("GitHub" becomes "GitLab",
// "pull request" becomes "merge request"), so copies differ the way real
// servers of one kind do.
package toolcorpus

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Tool is one tool of a server's tools/list.
type Tool struct {
	// Server is the server's name, which modebox uses as the namespace.
	Server string
	// Family is the captured server the tool comes from (its Server for an
	// original, the copied server's for a copy).
	Family string
	// Name and Description are the tool's.
	Name, Description string
	// InputSchema and OutputSchema are the tool's schemas (OutputSchema may
	// be empty).
	InputSchema, OutputSchema json.RawMessage
	// Raw is the whole tool object as the server lists it.
	Raw json.RawMessage
}

// Servers are the captured servers, in the order Load reads them.
var Servers = []string{"everything", "filesystem", "memory", "github"}

// Load reads the captured tools of the named servers (default: Servers)
// from dir, the testdata/mcp-schemas directory.
func Load(dir string, servers ...string) ([]Tool, error) {
	if len(servers) == 0 {
		servers = Servers
	}
	var out []Tool
	for _, s := range servers {
		b, err := os.ReadFile(filepath.Join(dir, s+".json"))
		if err != nil {
			return nil, err
		}
		var f struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(b, &f); err != nil {
			return nil, fmt.Errorf("%s: %w", s, err)
		}
		for _, raw := range f.Tools {
			t, err := parse(s, s, raw)
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
	}
	return out, nil
}

func parse(server, family string, raw json.RawMessage) (Tool, error) {
	var m struct {
		Name         string          `json:"name"`
		Description  string          `json:"description"`
		InputSchema  json.RawMessage `json:"inputSchema"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(raw, &m); err != nil {
		return Tool{}, fmt.Errorf("%s: %w", server, err)
	}
	return Tool{Server: server, Family: family, Name: m.Name, Description: m.Description,
		InputSchema: m.InputSchema, OutputSchema: m.OutputSchema, Raw: raw}, nil
}

// Copy is one renamed copy of a captured server.
type Copy struct {
	// Server is the copy's name (its namespace).
	Server string
	// Family is the captured server it copies.
	Family string
	// Replace lists word replacements, applied in order at word
	// boundaries (letters and digits on neither side), in every string of
	// the tools, property names included.
	Replace [][2]string
}

// Copies are the renamed copies Grow makes, in the order it makes them:
// round by round, one copy of each family per round.
var Copies = func() []Copy {
	gh := func(name, brand string, extra ...[2]string) Copy {
		r := [][2]string{{"GitHub", brand}, {"Github", brand}, {"github", strings.ToLower(brand)}}
		return Copy{Server: strings.ToLower(brand), Family: "github", Replace: append(r, extra...)}
	}
	mr := [][2]string{{"merge_pull_request", "accept_merge_request"}, {"pull requests", "merge requests"}, {"pull request", "merge request"}, {"Pull Request", "Merge Request"},
		{"pull_requests", "merge_requests"}, {"pull_request", "merge_request"}, {"pull_number", "merge_request_iid"}}
	fsCopy := func(server, place string, extra ...[2]string) Copy {
		r := [][2]string{{"filesystem", place}, {"file system", place}}
		return Copy{Server: server, Family: "filesystem", Replace: append(r, extra...)}
	}
	folder := [][2]string{{"directories", "folders"}, {"directory", "folder"}, {"Directories", "Folders"}, {"Directory", "Folder"}}
	object := [][2]string{{"files", "objects"}, {"file", "object"}, {"Files", "Objects"}, {"File", "Object"},
		{"directories", "prefixes"}, {"directory", "prefix"}, {"Directory", "Prefix"}}
	memCopy := func(server, graph, entity, entities, relation, relations, observation, observations string) Copy {
		return Copy{Server: server, Family: "memory", Replace: [][2]string{
			{"knowledge graph", graph}, {"Knowledge Graph", graph}, {"memory", server},
			{"entities", entities}, {"Entities", entities}, {"entity", entity}, {"Entity", entity},
			{"relations", relations}, {"Relations", relations}, {"relation", relation}, {"Relation", relation},
			{"observations", observations}, {"Observations", observations}, {"observation", observation}, {"Observation", observation},
		}}
	}
	evCopy := func(server string) Copy {
		return Copy{Server: server, Family: "everything", Replace: [][2]string{{"everything", server}, {"Everything", server}}}
	}
	rounds := [][]Copy{
		{evCopy("demo"), fsCopy("gdrive", "Google Drive", folder...), memCopy("crm", "CRM", "contact", "contacts", "link", "links", "note", "notes"), gh("gitlab", "GitLab", mr...)},
		{evCopy("sample"), fsCopy("s3", "S3 bucket", object...), memCopy("wiki", "wiki", "page", "pages", "link", "links", "paragraph", "paragraphs"), gh("gitea", "Gitea")},
		{evCopy("playground"), fsCopy("dropbox", "Dropbox", folder...), memCopy("notes", "notebook", "note", "notes", "backlink", "backlinks", "line", "lines"), gh("bitbucket", "Bitbucket")},
		{evCopy("testbed"), fsCopy("sftp", "SFTP server"), memCopy("people", "people directory", "person", "persons", "relationship", "relationships", "fact", "facts"), gh("codeberg", "Codeberg")},
		{evCopy("lab"), fsCopy("onedrive", "OneDrive", folder...), memCopy("catalog", "product catalog", "product", "products", "association", "associations", "attribute", "attributes"), gh("forgejo", "Forgejo")},
		{evCopy("staging"), fsCopy("webdav", "WebDAV share"), memCopy("ontology", "ontology", "concept", "concepts", "edge", "edges", "property", "properties"), gh("gogs", "Gogs")},
		{evCopy("mock"), fsCopy("nas", "NAS volume"), memCopy("research", "research graph", "paper", "papers", "citation", "citations", "finding", "findings"), gh("sourcehut", "SourceHut")},
		{evCopy("preview"), fsCopy("smb", "SMB share", folder...), memCopy("assets", "asset inventory", "asset", "assets", "dependency", "dependencies", "detail", "details"), gh("gerrit", "Gerrit")},
	}
	var out []Copy
	for _, r := range rounds {
		out = append(out, r...)
	}
	return out
}()

// Grow returns the first n tools of originals followed by renamed copies
// of their servers (see Copies), round by round, tool by tool, until there
// are n. originals must hold every family a copy needs; a round's copy of
// a family with no originals is skipped. Grow fails if Copies run out.
func Grow(originals []Tool, n int) ([]Tool, error) {
	byFamily := map[string][]Tool{}
	for _, t := range originals {
		byFamily[t.Family] = append(byFamily[t.Family], t)
	}
	out := append([]Tool(nil), originals[:min(n, len(originals))]...)
	for _, c := range Copies {
		for _, t := range byFamily[c.Family] {
			if len(out) == n {
				return out, nil
			}
			ct, err := c.apply(t)
			if err != nil {
				return nil, err
			}
			out = append(out, ct)
		}
	}
	if len(out) < n {
		return nil, fmt.Errorf("toolcorpus: only %d tools from %d originals and %d copies, want %d", len(out), len(originals), len(Copies), n)
	}
	return out, nil
}

// apply renames t as a tool of c.
func (c Copy) apply(t Tool) (Tool, error) {
	var v any
	if err := json.Unmarshal(t.Raw, &v); err != nil {
		return Tool{}, err
	}
	v = c.rewrite(v)
	raw, err := json.Marshal(v)
	if err != nil {
		return Tool{}, err
	}
	return parse(c.Server, c.Family, raw)
}

// rewrite applies the replacements to every string and object key of v.
func (c Copy) rewrite(v any) any {
	switch x := v.(type) {
	case string:
		return c.Text(x)
	case []any:
		for i := range x {
			x[i] = c.rewrite(x[i])
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			if k == "$schema" || k == "type" || k == "format" {
				out[k] = e
				continue
			}
			out[c.Text(k)] = c.rewrite(e)
		}
		return out
	}
	return v
}

// Text applies the copy's replacements to s: to a tool's strings, or to a
// query written for the original server.
func (c Copy) Text(s string) string {
	for _, r := range c.Replace {
		s = replaceWord(s, r[0], r[1])
	}
	return s
}

// replaceWord replaces old by new in s where old is not part of a longer
// run of letters and digits ("file" in "read_file" and "a file", not in
// "profile" or "filesystem").
func replaceWord(s, old, new string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		j := i + len(old)
		if (i > 0 && isWordByte(s[i-1])) || (j < len(s) && isWordByte(s[j])) {
			b.WriteString(s[:j])
			s = s[j:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(new)
		s = s[j:]
	}
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
