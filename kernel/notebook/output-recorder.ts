// A Publisher that records what a cell emits as nbformat 4 outputs, the way
// nbclient / JupyterLab keep them: consecutive stream text of one name merged,
// update_display_data applied in place to every output (in any cell) shown
// with that display id, clear_output(wait=true) deferred to the next output.
import type { MimeBundle, Publisher } from '../language-session.js';
import { joinLines, type Output } from './nbformat.js';

type DisplayOutput = Extract<Output, { output_type: 'display_data' }>;

/** Sees outputs as they are recorded (the terminal echo of `tpu-kernel run`). */
export interface OutputObserver {
  stream?(name: 'stdout' | 'stderr', text: string): void;
  /** A new display_data or execute_result. */
  output?(output: Output): void;
  /** An earlier display_data whose data an update_display_data replaced. */
  updated?(output: Output): void;
}

export class OutputRecorder {
  /** display id -> the recorded outputs that show it, across the whole notebook. */
  private readonly displays = new Map<string, Set<DisplayOutput>>();

  constructor(private readonly observer: OutputObserver = {}) {}

  /** A publisher appending to `outputs` (one cell's list) for one execution. */
  publisherFor(outputs: Output[]): Publisher {
    let clearPending = false;
    const beforeOutput = () => {
      if (!clearPending) return;
      clearPending = false;
      this.clear(outputs);
    };
    return {
      stream: (name, text) => {
        beforeOutput();
        const last = outputs[outputs.length - 1];
        if (last?.output_type === 'stream' && last.name === name) last.text = joinLines(last.text) + text;
        else outputs.push({ output_type: 'stream', name, text });
        this.observer.stream?.(name, text);
      },
      display: (data, metadata, displayId) => {
        beforeOutput();
        const out: DisplayOutput = { output_type: 'display_data', data, metadata: metadata ?? {} };
        outputs.push(out);
        if (displayId !== undefined) {
          const shown = this.displays.get(displayId) ?? new Set();
          shown.add(out);
          this.displays.set(displayId, shown);
        }
        this.observer.output?.(out);
      },
      updateDisplay: (data, metadata, displayId) => this.update(displayId, data, metadata),
      clearOutput: (wait) => {
        if (wait) clearPending = true;
        else this.clear(outputs);
      },
      input: () => Promise.reject(new Error('input(): stdin is not available in a headless notebook run (tpu-kernel run); pass values in the notebook instead')),
    };
  }

  /** Adds the cell's execute_result (after every output of the cell). */
  result(outputs: Output[], executionCount: number, data: MimeBundle, metadata?: Record<string, unknown>): void {
    const out: Output = { output_type: 'execute_result', execution_count: executionCount, data, metadata: metadata ?? {} };
    outputs.push(out);
    this.observer.output?.(out);
  }

  private update(displayId: string, data: MimeBundle, metadata: Record<string, unknown> | undefined): void {
    for (const out of this.displays.get(displayId) ?? []) {
      out.data = data;
      out.metadata = metadata ?? {};
      this.observer.updated?.(out);
    }
  }

  private clear(outputs: Output[]): void {
    for (const out of outputs) {
      if (out.output_type !== 'display_data') continue;
      for (const shown of this.displays.values()) shown.delete(out);
    }
    outputs.length = 0;
  }
}
