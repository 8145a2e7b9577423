// expect: error VALUE_NOT_SERIALIZABLE
return { ok: 1, get bad() { throw new Error("getter") } };
