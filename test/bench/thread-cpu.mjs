// CPU time of each thread of this process (Linux: /proc/self/task/*/stat, clock ticks of 10 ms),
// to split a bench's CPU between the host thread, the busiest other (the device thread) and
// the rest (ONNX Runtime's pool, V8's compiler and collector threads). Nothing elsewhere.
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const TASKS = '/proc/self/task';

/** ms of CPU per thread id, now. */
export function threadCpu() {
  const out = new Map();
  if (!existsSync(TASKS)) return out;
  for (const t of readdirSync(TASKS)) {
    try {
      const fields = readFileSync(`${TASKS}/${t}/stat`, 'utf8').split(') ')[1].split(' ');
      out.set(t, (Number(fields[11]) + Number(fields[12])) * 10); // utime + stime
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return out;
}

/** CPU ms since `before` (a threadCpu() reading): { host, busiest other thread, all the others }, or null off Linux. */
export function threadSplit(before) {
  const now = threadCpu();
  if (now.size === 0) return null;
  const host = String(process.pid);
  const spent = [...now].map(([t, ms]) => [t, ms - (before.get(t) ?? 0)]);
  const others = spent.filter(([t]) => t !== host).map(([, ms]) => ms).sort((a, b) => b - a);
  return { host: spent.find(([t]) => t === host)?.[1] ?? 0, device: others[0] ?? 0, rest: others.slice(1).reduce((a, b) => a + b, 0) };
}
