// expect: ok "unreachable"
// From a function the bridge calls (a toJSON run while a call's arguments
// are encoded, a getter read while an error is formatted) the program
// tries to climb to the bridge's functions through caller/arguments.
const found = [];
function probe() {
  try { if (typeof probe.caller === "function") found.push(String(probe.caller).slice(0, 40)) } catch (_) {}
  try { if (typeof arguments.callee.caller === "function") found.push("callee.caller") } catch (_) {}
  return 1;
}
const r = await tools.echo({ toJSON: probe });
try { throw { get message() { probe(); return "m" } } } catch (_) {}
return found.length ? found : "unreachable";
