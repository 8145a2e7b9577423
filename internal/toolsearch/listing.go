package toolsearch

import "slices"

// Representative picks up to k of names (the tools of one namespace) for a
// short listing that shows what the namespace can do and which words to
// search for. Each name word weighs as many as the names that contain it,
// so the namespace's common concepts ("pull request", "issue", "file")
// weigh most. Picks are greedy: each next pick is the name whose words not
// yet covered weigh most per word of the name (a long name pays for its
// words already shown). Ties go to the shorter name, then the earlier one.
// The result is in pick order; names is not modified.
func Representative(names []string, k int) []string {
	if k <= 0 || len(names) == 0 {
		return nil
	}
	if k >= len(names) {
		return slices.Clone(names)
	}
	words := make([][]string, len(names))
	df := map[string]int{}
	for i, n := range names {
		words[i] = uniq(analyze(nil, n, true))
		for _, w := range words[i] {
			df[w]++
		}
	}
	covered := map[string]bool{}
	taken := make([]bool, len(names))
	out := make([]string, 0, k)
	for len(out) < k {
		best, bestGain := -1, -1.0
		for i, n := range names {
			if taken[i] {
				continue
			}
			gain := 0.0
			for _, w := range words[i] {
				if !covered[w] {
					gain += float64(df[w])
				}
			}
			gain /= float64(max(len(words[i]), 1))
			if best < 0 || gain > bestGain || gain == bestGain && len(n) < len(names[best]) {
				best, bestGain = i, gain
			}
		}
		taken[best] = true
		for _, w := range words[best] {
			covered[w] = true
		}
		out = append(out, names[best])
	}
	return out
}
