// V8 flags the kernel sets for itself once started (process-wide, worker threads included;
// kernel.ts says when).
//
// TurboFan's escape analysis: off. The kernel builds a TypeScript program and checker for every
// type-checked cell, and over a session's first few hundred cells V8 keeps optimizing
// TypeScript's large functions (about a thousand, each once, a few per cell); escape analysis
// of them alone took a background thread about 7 ms of CPU per cell (`perf record` on the
// kernel: TurboFan's VariableTracker and PersistentMap), on the cores the main thread needs.
// Without it the optimizing threads' CPU per cell halved and the round trip of typed cells
// fell to about 0.8x (docs/kernel.md, Speed), with the tensor runtime's host dispatch unchanged
// within noise. A flag given on Node's command line wins.
import v8 from 'node:v8';

const ESCAPE_FLAGS = ['--turbo-escape', '--no-turbo-escape'];

export function setKernelJitFlags(): void {
  // V8 reads `_` and `-` in flag names alike.
  if (!process.execArgv.some((arg) => ESCAPE_FLAGS.includes(arg.replaceAll('_', '-')))) v8.setFlagsFromString('--no-turbo-escape');
}
