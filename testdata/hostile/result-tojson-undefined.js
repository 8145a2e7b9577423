// expect: ok undefined
return { toJSON() { return undefined } };
