// How long a closed socket keeps trying to deliver the messages it still holds. ZeroMQ's
// default (forever) hung the kernel at exit when a client stopped reading (seen under load in
// the hosting test: "Waiting for queued ZeroMQ messages"). That wait is ZeroMQ's context
// termination during process teardown, after the event loop has ended: nothing keeps the loop
// alive, and process.exit() ends in the same wait, so only the linger bounds it (test:
// lifecycle.test.ts, a subscriber that reads nothing). A shutdown_reply needs far less than this.
export const SOCKET_LINGER_MS = 1000;
