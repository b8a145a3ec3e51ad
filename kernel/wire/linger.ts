// How long a closed socket keeps trying to deliver the messages it still holds. ZeroMQ's
// default (forever) can hang the kernel at exit when a client left before reading its last
// messages (seen under load in the hosting test: "Waiting for queued ZeroMQ messages");
// a shutdown_reply needs far less than this on a loopback or ipc link.
export const SOCKET_LINGER_MS = 1000;
