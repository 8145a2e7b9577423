package modebox

// canPause reports whether the engine can seal continuation tokens.
func (e *Engine) canPause() bool { return false }

// sealPause seals a paused run into res.Token.
func (e *Engine) sealPause(res *Result, code string, lang interface{ String() string }, filename string, lim Limits, opts RunOptions, h *runHost) error {
	return nil
}
