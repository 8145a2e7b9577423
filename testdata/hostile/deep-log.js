// expect: ok "logged"
// log: [Array]
let v = [];
for (let i = 0; i < 100000; i++) v = [v];
console.log(v);
return "logged";
