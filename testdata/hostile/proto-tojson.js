// expect: ok "replaced"
// Object.prototype.toJSON changes what JSON.stringify makes of every
// object: the tool receives what the program's JSON says, and so does the
// result. Values cross as the program's JSON, nothing else.
Object.prototype.toJSON = function () { return "replaced" };
const r = await tools.echo({ secret: 1 });
delete Object.prototype.toJSON;
if (r.args !== "replaced") throw new Error("tool saw " + JSON.stringify(r));
Object.prototype.toJSON = function () { return "replaced" };
return { a: 1 };
