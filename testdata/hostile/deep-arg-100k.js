// expect: error TIMEOUT
// limits: timeout=1s
// A 100k-deep tool argument: encoding it runs past the deadline (see
// deep-result-100k); no call goes out and the host stops the run.
let v = [];
for (let i = 0; i < 100000; i++) v = { v };
await tools.echo(v);
return "sent";
