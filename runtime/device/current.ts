// The TPU session of this process (a new one after tpu.reset()): one DeviceSession per
// emulated chip, each with its own device thread, memory account and queue; with several
// chips their device threads are linked by an emulated interconnect (ici.ts).
import { MessageChannel } from 'node:worker_threads';
import { DeviceSession } from './session.js';
import { onChipsInUse, settings } from './settings.js';
import type { IciEnd } from './protocol.js';
import { backendName } from './backend-choice.js';
import { checkTpuChipCount, hostTpuChips } from './host-tpu-chips.js';
import { forgetReportedFailures } from './device-errors.js';

let chips: DeviceSession[] = [];
/** Chip 0, the session every single-chip path uses (kept apart: the hot path reads one variable). */
let session: DeviceSession | null = null;
/** Counts sessions closed, so what lives as long as one session (the program cache) knows it is stale. */
let closed = 0;
/** The current sessions and any still closing (a tpu.reset() not awaited): each may have a device thread. */
const open = new Set<DeviceSession>();

// Node terminates the device threads after the 'exit' listeners; none may be inside ONNX
// Runtime then (see DeviceSession.stopForExit).
process.on('exit', () => {
  closeInterconnect();
  open.forEach((s) => s.stopForExit());
});
onChipsInUse(() => session !== null);

/** Every chip's session, made together (their interconnect links each pair). */
function openChips(): DeviceSession[] {
  const n = settings.chips();
  if (n > 1 && backendName() === 'tpu') checkTpuChipCount(n, hostTpuChips());
  const ends = n > 1 ? interconnect(n) : [null];
  chips = ends.map((ici, c) => new DeviceSession(c, ici));
  chips.forEach((s) => open.add(s));
  session = chips[0]!;
  return chips;
}

/** The shared words of the current chips' interconnect (null with one chip). */
let iciSignal: SharedArrayBuffer | null = null;

/**
 * A MessageChannel per pair of chips, one shared wake-up word per chip and a last word that
 * closes the interconnect (a closing session's threads stop waiting for peers).
 */
function interconnect(n: number): IciEnd[] {
  const signal = new SharedArrayBuffer(4 * (n + 1));
  iciSignal = signal;
  const ports = Array.from({ length: n }, () => new Array<IciEnd['ports'][number]>(n).fill(null));
  for (let a = 0; a < n; a++) {
    for (let b = a + 1; b < n; b++) {
      const { port1, port2 } = new MessageChannel();
      ports[a]![b] = port1;
      ports[b]![a] = port2;
    }
  }
  return ports.map((p) => ({ ports: p, signal, peerTimeoutMs: settings.peerTimeoutMs() }));
}

/** Chip 0's session. */
export function currentSession(): DeviceSession {
  return session ?? openChips()[0]!;
}

/** The session of chip `chip` (checked against the chip count by the callers that take user input). */
export function chipSession(chip: number): DeviceSession {
  if (chip === 0) return currentSession();
  if (!session) openChips();
  return chips[chip]!;
}

/** Every chip's session (opens them). */
export function chipSessions(): readonly DeviceSession[] {
  if (!session) openChips();
  return chips;
}

/** Sends every chip's batched commands: a chip waiting in a collective needs its peers' commands sent. */
export function postAllChips(): void {
  for (const s of chips) s.post();
}

/** Wakes every device thread waiting for a peer, for good: their collectives fail. */
function closeInterconnect(): void {
  if (!iciSignal) return;
  const words = new Int32Array(iciSignal);
  Atomics.store(words, words.length - 1, 1);
  for (let i = 0; i < words.length - 1; i++) Atomics.notify(words, i);
  iciSignal = null;
}

/** Which session is current: changes when one is closed (the next use opens a new one). */
export function sessionNumber(): number {
  return closed;
}

/** Closes the session: every device buffer is gone; a new session starts on next use. */
export async function closeSession(): Promise<void> {
  closeInterconnect();
  forgetReportedFailures();
  const all = chips;
  session = null;
  chips = [];
  closed++;
  await Promise.all(all.map(async (s) => {
    try {
      await s.close();
    } finally {
      open.delete(s);
    }
  }));
}
