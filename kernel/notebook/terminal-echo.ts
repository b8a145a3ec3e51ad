// What `tpu-kernel run` shows in the terminal while a notebook runs: stream
// text as it arrives, the text/plain of displays and results as they come, and
// displays whose text an update changed (live profiles, live charts) once more,
// in their final state, when their cell ends. An update that changes other mime
// types only (a chart's SVG fallback) is not echoed again.
import type { Output } from './nbformat.js';
import type { RunObserver } from './run-notebook.js';

const withNewline = (text: string) => (text.endsWith('\n') ? text : text + '\n');

const isRunningProfile = (data: Record<string, unknown>) =>
  (data['application/vnd.tpu-kernel.profile+json'] as { state?: string } | undefined)?.state === 'running';

export function createTerminalEcho(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): RunObserver {
  let updated = new Set<Output>();
  /** The text/plain last echoed for each display. */
  const echoed = new WeakMap<Output, string>();
  const print = (out: Output) => {
    if (out.output_type !== 'display_data' && out.output_type !== 'execute_result') return;
    if (isRunningProfile(out.data)) return; // a live profile: echoed once, final, when its cell ends
    const text = out.data['text/plain'];
    if (typeof text !== 'string' || echoed.get(out) === text) return;
    echoed.set(out, text);
    stdout.write(withNewline(out.output_type === 'execute_result' ? `Out[${out.execution_count}]: ${text}` : text));
  };
  return {
    stream: (name, text) => (name === 'stdout' ? stdout : stderr).write(text),
    output: print,
    updated: (out) => updated.add(out),
    cellFinished: (_index, cell) => {
      for (const out of cell.outputs) if (updated.has(out)) print(out);
      updated = new Set();
    },
  };
}
