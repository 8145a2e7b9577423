// expect: error VALUE_NOT_SERIALIZABLE
return new Proxy({ a: 1 }, { ownKeys() { throw new Error("ownKeys") } });
