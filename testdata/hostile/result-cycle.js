// expect: error VALUE_NOT_SERIALIZABLE
const a = { b: {} };
a.b.a = a;
return a;
