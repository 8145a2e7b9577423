package engine

// Stable error codes of a run. Never rename one; the public package
// re-exports them.
const (
	CodeTimeout            = "TIMEOUT"
	CodeMemoryLimit        = "MEMORY_LIMIT"
	CodeFuelExhausted      = "FUEL_EXHAUSTED"
	CodeHostCallLimit      = "HOST_CALL_LIMIT"
	CodeValueTooLarge      = "VALUE_TOO_LARGE"
	CodeStackOverflow      = "STACK_OVERFLOW"
	CodeGuestCrash         = "GUEST_CRASH"
	CodeSyntaxError        = "SYNTAX_ERROR"
	CodeUncaughtException  = "UNCAUGHT_EXCEPTION"
	CodeValueNotSerialized = "VALUE_NOT_SERIALIZABLE"
	CodeNeverSettled       = "NEVER_SETTLED"
	CodeCancelled          = "CANCELLED"
	CodeReplayMismatch     = "REPLAY_MISMATCH"
	CodeToolError          = "TOOL_ERROR"
	CodeToolNotFound       = "TOOL_NOT_FOUND"
)
