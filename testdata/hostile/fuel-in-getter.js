// expect: error FUEL_EXHAUSTED
// limits: fuel=50
// A getter that spins while a call's arguments are encoded uses fuel.
await tools.echo({ get x() { for (;;) {} } });
