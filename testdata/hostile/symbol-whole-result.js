// expect: ok undefined
return Symbol("x");
