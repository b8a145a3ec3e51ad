// What a reply from a worker thread costs the main thread after a busy spell (a device
// thread's program of ~5 ms), by the way the main thread waits: a port message awaited
// through the event loop (as `await tpu.sync()` does), Atomics.waitAsync on a shared word (the
// same event loop), or a blocking Atomics.wait (as tpu.syncBlocking() does; it holds the
// event loop). And the request's way to a worker idle in its event loop. Interleaved; medians.
// `node test/bench/thread-crossing.bench.mjs` (BENCH_ROUNDS, default 60; BUSY_MS, default 5).
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const BUSY_MS = Number(process.env.BUSY_MS ?? 5);
const word = new Int32Array(new SharedArrayBuffer(4));
const worker = new Worker(
  `const { parentPort, workerData } = require('node:worker_threads');
  const word = new Int32Array(workerData);
  parentPort.on('message', (busy) => {
    const received = performance.timeOrigin + performance.now();
    const end = performance.now() + busy;
    while (performance.now() < end);
    const done = performance.timeOrigin + performance.now();
    parentPort.postMessage({ received, done });
    Atomics.add(word, 0, 1);
    Atomics.notify(word, 0);
  });`,
  { eval: true, workerData: word.buffer },
);
let resolveReply;
worker.on('message', (m) => resolveReply(m));
const now = () => performance.timeOrigin + performance.now();
const WAYS = {
  'port message, awaited': async (reply) => ({ ...(await reply), woke: now() }),
  'Atomics.waitAsync': async (reply, seen) => {
    const w = Atomics.waitAsync(word, 0, seen);
    if (w.async) await w.value;
    const woke = now();
    return { ...(await reply), woke };
  },
  'Atomics.wait (blocking)': async (reply, seen) => {
    Atomics.wait(word, 0, seen, 1000);
    const woke = now();
    return { ...(await reply), woke };
  },
};
const times = Object.fromEntries(Object.keys(WAYS).map((k) => [k, { to: [], back: [] }]));
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, wait] of Object.entries(WAYS)) {
    const reply = new Promise((resolve) => (resolveReply = resolve));
    const seen = Atomics.load(word, 0);
    const sent = now();
    worker.postMessage(BUSY_MS);
    const { received, done, woke } = await wait(reply, seen);
    times[name].to.push(received - sent);
    times[name].back.push(woke - done);
    await new Promise((resolve) => setTimeout(resolve, 2)); // both threads idle again
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
console.log(`thread crossings after a ${BUSY_MS} ms busy spell (load average ${loadavg()[0].toFixed(1)}; medians of ${ROUNDS} interleaved rounds)`);
for (const [name, t] of Object.entries(times)) {
  console.log(`  ${name.padEnd(26)} to the worker ${median(t.to).toFixed(3)} ms, back ${median(t.back).toFixed(3)} ms`);
}
await worker.terminate();
