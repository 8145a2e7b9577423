// expect: ok 2
// A failing tool call never awaited, still pending when the run returns.
tools.fail();
tools.fail({ x: 1 });
return 2;
