// What `tpu-kernel run` shows in the terminal while a notebook runs: stream
// text as it arrives, the text/plain of displays and results, and displays
// that can still be updated (live profiles) once, in their final state, when
// their cell ends.
import type { MimeBundle } from '../language-session.js';
import { joinLines, type Output } from './nbformat.js';
import type { RunObserver } from './run-notebook.js';

function plainText(data: MimeBundle): string | undefined {
  const text = data['text/plain'];
  if (typeof text === 'string') return text;
  return Array.isArray(text) ? joinLines(text as string[]) : undefined;
}

const withNewline = (text: string) => (text.endsWith('\n') ? text : text + '\n');

export function createTerminalEcho(stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream): RunObserver {
  let updatable: Output[] = [];
  const print = (out: Output) => {
    if (out.output_type !== 'display_data' && out.output_type !== 'execute_result') return;
    const text = plainText(out.data);
    if (text === undefined) return;
    stdout.write(withNewline(out.output_type === 'execute_result' ? `Out[${out.execution_count}]: ${text}` : text));
  };
  return {
    stream: (name, text) => (name === 'stdout' ? stdout : stderr).write(text),
    output: (out, displayId) => (displayId === undefined ? print(out) : updatable.push(out)),
    cellStarted: () => {
      updatable = [];
    },
    cellFinished: (_index, cell) => {
      for (const out of updatable) if (cell.outputs.includes(out)) print(out);
      updatable = [];
    },
  };
}
