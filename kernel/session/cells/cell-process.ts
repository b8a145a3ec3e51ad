// The `process` cells see: Node's own, except that `process.stdout.write` and
// `process.stderr.write` go to the cell's streams, as console.log does (Node's idiom for
// text without a newline). Without it they wrote to the kernel's terminal, which a
// notebook user never sees. Everything else (env, pid, events, exit) is the real process.

type Write = (name: 'stdout' | 'stderr', text: string) => void;
type Callback = (error?: Error | null) => void;

const decoder = new TextDecoder();

export function cellProcess(write: Write): NodeJS.Process {
  const streams = {
    stdout: cellStream(process.stdout, (text) => write('stdout', text)),
    stderr: cellStream(process.stderr, (text) => write('stderr', text)),
  };
  return new Proxy(process, {
    get: (target, key) => (key === 'stdout' || key === 'stderr' ? streams[key] : Reflect.get(target, key, target)),
  });
}

/** `stream` with its write sent to `send`; its other members (isTTY, columns, on ...) are the real stream's. */
function cellStream<S extends NodeJS.WriteStream>(stream: S, send: (text: string) => void): S {
  const write = (chunk: string | Uint8Array, encoding?: BufferEncoding | Callback, callback?: Callback): boolean => {
    const done = typeof encoding === 'function' ? encoding : callback;
    const text = typeof chunk === 'string' ? chunk : typeof encoding === 'string' ? Buffer.from(chunk).toString(encoding) : decoder.decode(chunk);
    send(text);
    if (done) queueMicrotask(() => done(null));
    return true;
  };
  return new Proxy(stream, {
    get: (target, key) => (key === 'write' ? write : Reflect.get(target, key, target)),
  });
}
