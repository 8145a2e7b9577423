// expect: error UNCAUGHT_EXCEPTION ~ lies
// An Error subclass whose name claims to be a cap: the code comes from the
// host, not from the name.
class MemoryLimit extends Error { get name() { return "InternalError" } }
throw new MemoryLimit("lies: out of memory");
