// expect: ok ["__date_clock"]
// Nothing of the bridge is reachable as a global: no send function, no
// settle, no hooks, no pending table. __date_clock is QuickJS's own
// microsecond clock; it reads the same journaled host clock as Date.now.
const names = [];
for (const k of Object.getOwnPropertyNames(globalThis)) {
  if (/modebox|send|settle|hook|pending|host|__/i.test(k)) names.push(k);
}
for (const k of ["__modebox_send", "send", "settle", "start", "format", "host_event", "hook_settle"]) {
  if (typeof globalThis[k] !== "undefined") names.push("typeof " + k);
}
return names;
