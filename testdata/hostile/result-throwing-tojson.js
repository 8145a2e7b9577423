// expect: error VALUE_NOT_SERIALIZABLE
return { toJSON() { throw Symbol("no") } };
