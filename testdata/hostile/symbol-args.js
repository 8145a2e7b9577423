// expect: ok {"tool": "/echo", "args": {"arr": [null]}}
return await tools.echo({ [Symbol("k")]: 1, s: Symbol("s"), arr: [Symbol()] });
