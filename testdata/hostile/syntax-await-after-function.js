// expect: ok 3
// known-bug: QuickJS 2021-03-27 lexes the token after a function declaration (or a function expression ended by a newline) outside the async context, so an expression statement starting with await right after a function is a SYNTAX_ERROR ("expecting ';'"); "const x = await ..." or a ";" after the function works
function helper(x) { return x }
await tools.add({ a: 1, b: 2 });
return helper(3);
