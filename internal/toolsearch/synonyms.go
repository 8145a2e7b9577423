package toolsearch

import "slices"

// synonymGroups lists words that tool descriptions and the models querying
// them use interchangeably. A query word in a group is expanded to the
// other words of the group (with a lower weight than the word itself). A
// word may be in more than one group; groups are not transitive.
var synonymGroups = [][]string{
	// Verbs.
	{"read", "get", "fetch", "load", "retrieve", "view", "show", "display", "cat"},
	{"write", "save", "put", "store", "persist"},
	{"list", "ls", "enumerate", "show"},
	{"delete", "remove", "rm", "erase", "destroy", "del", "drop", "discard", "forget"},
	{"create", "new", "add", "make", "insert", "schedule", "open"},
	{"search", "find", "query", "lookup", "look", "locate", "grep"},
	{"update", "edit", "modify", "change", "patch", "alter"},
	{"move", "rename", "mv", "relocate"},
	{"copy", "duplicate", "cp", "clone"},
	{"run", "execute", "exec", "invoke"},
	{"send", "post", "deliver"},
	{"navigate", "visit", "browse", "goto", "go", "open"},
	{"click", "press", "tap"},
	{"fill", "enter", "input"},
	{"close", "resolve", "finish"},
	{"comment", "reply", "respond", "answer"},
	{"remember", "memorize", "memory", "recall"},
	{"screenshot", "capture", "snapshot"},
	// Nouns.
	{"file", "document", "doc"},
	{"directory", "folder", "dir"},
	{"issue", "ticket", "bug"},
	{"message", "msg", "chat"},
	{"repo", "repository"},
	{"pr", "pull"},
	{"email", "mail", "gmail", "inbox"},
	{"event", "meeting", "appointment"},
	{"calendar", "schedule", "agenda"},
	{"user", "person", "people", "member", "account", "profile"},
	{"fact", "observation", "note"},
	{"entity", "node"},
	{"relation", "relationship", "connection", "link"},
	{"url", "website", "site", "page", "webpage"},
	{"database", "db", "sql"},
	{"row", "record", "entry"},
	{"info", "information", "metadata", "detail", "stat"},
	{"tree", "hierarchy", "structure", "recursive"},
	{"content", "text", "body"},
	{"weather", "forecast", "temperature"},
	{"time", "clock", "timezone"},
	{"image", "picture", "photo"},
	{"error", "failure", "exception"},
	{"channel", "room"},
	{"status", "state", "transition"},
	{"log", "history"},
}

// synonyms maps a stemmed word to the stemmed words it expands to.
var synonyms = buildSynonyms(synonymGroups)

func buildSynonyms(groups [][]string) map[string][]string {
	m := make(map[string][]string)
	for _, g := range groups {
		stems := make([]string, 0, len(g))
		for _, w := range g {
			if s := stem(w); !slices.Contains(stems, s) {
				stems = append(stems, s)
			}
		}
		for _, s := range stems {
			for _, o := range stems {
				if o != s && !slices.Contains(m[s], o) {
					m[s] = append(m[s], o)
				}
			}
		}
	}
	return m
}
