// expect: ok "VALUE_TOO_LARGE"
// limits: maxValue=64KiB
// The arguments are just under the cap, echo's result (which wraps them)
// just over: the call rejects with VALUE_TOO_LARGE, catchable.
try { await tools.echo({ s: "x".repeat(60000), t: "y".repeat(5515) }) } catch (e) { return e.code }
return "not rejected";
