// expect: error NEVER_SETTLED
await new Promise(() => {});
