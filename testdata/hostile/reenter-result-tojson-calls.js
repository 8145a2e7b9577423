// expect: ok {"v": 1}
// The result's toJSON starts a slow call as the result is being encoded:
// the run ends with the value; the call is abandoned with the run.
return { toJSON() { tools.slow({}); return { v: 1 } } };
