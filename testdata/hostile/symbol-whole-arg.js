// expect: ok {"tool": "/echo", "args": null}
return await tools.echo(Symbol("x"));
