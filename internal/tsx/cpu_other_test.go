//go:build !unix

package tsx

import "time"

// processCPU is not measured here: the cpu-ns/op metric is left out.
func processCPU() time.Duration { return 0 }
