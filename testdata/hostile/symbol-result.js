// expect: ok {"a": [null, null], "n": 1}
return { [Symbol("k")]: 1, s: Symbol("v"), a: [Symbol("x"), () => 1], n: 1 };
