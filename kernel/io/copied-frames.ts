// Frames the IO worker hands to ZeroMQ so that ZeroMQ never hands them back. A Buffer over 128
// bytes is sent without a copy and, once ZeroMQ is done with it (on one of its own threads), is
// queued for release in the sending thread's zeromq module state. The worker's module state is
// freed when the worker ends, but the process-wide ZeroMQ context, still sending or dropping the
// worker's last frames, outlives it: the release then writes into freed memory and the process
// aborts at exit (heap corruption, SIGABRT). A string frame is copied, and ZeroMQ frees the copy
// itself. So the signature and the JSON parts (UTF-8 text) go as strings; identities and binary
// buffers stay Buffers (identities are short: copied anyway).
import { delimiterIndex, isTextFrame } from '../wire/message.js';

export function copiedTextFrames(frames: Buffer[]): (Buffer | string)[] {
  const delimiter = delimiterIndex(frames);
  return frames.map((frame, i) => (isTextFrame(i, delimiter) ? frame.toString('utf8') : frame));
}
