// expect: ok "ok"
// log: Symbol(desc)
console.log(Symbol("desc"), { [Symbol.iterator]: 1 }, Symbol.for("x"));
return "ok";
