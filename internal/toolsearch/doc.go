// Package toolsearch ranks tools against short natural-language or keyword
// queries, so that a model facing hundreds of tools can ask for the few it
// needs instead of reading every declaration.
//
// An [Index] is built once from a list of [Doc]s with [NewIndex] and is then
// immutable; [Index.Search] may be called from many goroutines at once.
//
// # Text
//
// Names, descriptions and queries are split at punctuation and whitespace,
// camelCase, snake_case, kebab-case, dots and letter/digit boundaries
// ("createIssue", "create-issue" and "create_issue" all give "create",
// "issue"; a camelCase word such as "GitHub" is also kept whole),
// lowercased, stripped of a small list of stop words and lightly stemmed
// (plural "s"/"es"/"ies", "ing", "ed", a final "e"). An indexed word that is
// two other indexed words written together ("worklog", "freebusy") is also
// indexed, at half weight, under its parts.
//
// # Ranking
//
// Scoring is BM25F: each tool is a document with five weighted fields (tool
// name, namespace, parameter names, description, parameter descriptions).
// Term frequencies are length-normalised per field, combined by field weight
// and then saturated, so a word in the name counts for more than the same
// word in the description. On top of BM25F:
//
//   - Each query word is expanded with a small built-in table of synonyms
//     for common tool verbs and nouns (read/get/fetch, delete/remove/rm,
//     directory/folder, issue/ticket, ...) and, when the word is unknown to
//     the index, with indexed words it is a prefix of. Expansions count for
//     less than the word itself. A query word scores a tool once, through
//     whichever of its alternatives matches that tool best, and its inverse
//     document frequency is that of all its alternatives together.
//   - A tool whose name words are matched by the query is boosted in
//     proportion to the share of its name matched, so "open a new issue"
//     prefers create_issue (via new → create) to update_issue.
//   - When a query word is a tool's namespace ("github"), the score the
//     tool gets from the other query words is boosted.
//   - A query that is exactly a tool's name, original name or ID (ignoring
//     case and punctuation: "read_file", "readFile", "fs.read_file") ranks
//     that tool above everything else.
//
// Ties are broken by ID, so results are deterministic.
package toolsearch
