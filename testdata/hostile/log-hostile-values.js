// expect: ok "ok"
// log: [unprintable]
// Values that throw when printed do not break logging.
console.log(new Proxy({}, { ownKeys() { throw new Error("no") }, getPrototypeOf() { throw new Error("no") } }));
console.log({ get a() { throw new Error("no") } });
console.log("x".repeat(1 << 20));
return "ok";
