// expect: ok {"tool": "/echo", "args": {"s": "\ud800x\udfff"}}
return await tools.echo({ s: "\ud800x\udfff" });
