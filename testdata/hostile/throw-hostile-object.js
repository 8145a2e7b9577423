// expect: error UNCAUGHT_EXCEPTION
// An object whose toString, valueOf, name, message and stack all throw.
const bad = () => { throw new Error("no") };
throw { toString: bad, valueOf: bad, get name() { bad() }, get message() { bad() }, get stack() { bad() }, get code() { bad() }, [Symbol.toPrimitive]: bad };
