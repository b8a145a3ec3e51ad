// The Output widget (ipywidgets' widgets.Output, @jupyter-widgets/output): an area shown in a
// cell that collects what code outputs inside `capture(fn)`, e.g. in a slider's onChange
// handler, whose output otherwise belongs to the comm message that ran it (JupyterLab shows
// that in its log console only). The kernel keeps the outputs in the model's `outputs` state, as
// ipywidgets' append_stdout / append_display_data do, so every view and a saved notebook
// see them.
import type { MimeBundle, Publisher } from '../../language-session.js';
import { modelIdentity, Widget, WidgetModel, type WidgetRegistry } from './widget-model.js';

type StoredOutput =
  | { output_type: 'stream'; name: 'stdout' | 'stderr'; text: string }
  | { output_type: 'display_data'; data: MimeBundle; metadata: Record<string, unknown> };

/** Runs `fn` with the session's outputs sent to `publisher` instead (the session's redirection). */
export type Redirect = <T>(publisher: Publisher, fn: () => T) => T;

export class OutputWidget extends Widget {
  private outputs: StoredOutput[] = [];
  /** Display ids of stored displays, so update() reaches them here too. */
  private readonly shown = new Map<string, Set<StoredOutput>>();
  private clearPending = false;

  constructor(registry: WidgetRegistry, private readonly redirect: Redirect, private readonly outer: () => Publisher | undefined) {
    const layout = new WidgetModel(registry, modelIdentity('base', 'Layout', 'Layout'));
    super(new WidgetModel(registry, {
      ...modelIdentity('output', 'Output', 'Output'), layout: layout.reference,
      _dom_classes: [], msg_id: '', outputs: [], tabbable: null, tooltip: null,
    }));
  }

  /**
   * Runs `fn`; what it outputs (console.log, display, plots, errors it reports) goes into this
   * widget instead of the cell or comm message running it. Returns what fn returns. Only fn's
   * synchronous part is captured (a display it starts lands here when rendered): Node has no
   * cheap way to follow fn's promises without tracking every promise of the kernel.
   */
  capture<T>(fn: () => T): T {
    if (typeof fn !== 'function') throw new TypeError(`output.capture: expected a function, got ${typeof fn}`);
    return this.redirect(this.publisher(this.outer()), fn);
  }

  /** Removes every output shown in the widget (clear_output). */
  clear(): void {
    this.empty();
    this.publishState();
  }

  protected summary(): string {
    return `Output(${this.outputs.length} output${this.outputs.length === 1 ? '' : 's'})`;
  }

  /** Where captured outputs go; `outer` is the publisher capture() took over (a cell's, a comm message's). */
  private publisher(outer: Publisher | undefined): Publisher {
    const add = (output: StoredOutput) => {
      if (this.clearPending) this.empty();
      const last = this.outputs[this.outputs.length - 1];
      if (output.output_type === 'stream' && last?.output_type === 'stream' && last.name === output.name) last.text += output.text;
      else this.outputs.push(output);
      this.publishState();
    };
    return {
      stream: (name, text) => add({ output_type: 'stream', name, text }),
      display: (data, metadata = {}, displayId) => {
        const output: StoredOutput = { output_type: 'display_data', data, metadata };
        if (displayId !== undefined) this.shown.set(displayId, (this.shown.get(displayId) ?? new Set()).add(output));
        add(output);
      },
      updateDisplay: (data, metadata = {}, displayId) => {
        // The same display may also be shown outside the widget: frontends update it there by id.
        outer?.updateDisplay(data, metadata, displayId);
        const here = this.shown.get(displayId);
        if (!here) return;
        for (const output of here) Object.assign(output, { data, metadata });
        this.publishState();
      },
      clearOutput: (wait) => (wait ? (this.clearPending = true) : this.clear()),
      input: (prompt, options) => outer?.input(prompt, options) ?? Promise.reject(new Error('input: no request is running')),
    };
  }

  private empty(): void {
    this.clearPending = false;
    this.outputs = [];
    this.shown.clear();
  }

  private publishState(): void {
    this.model.set({ outputs: this.outputs.map((output) => ({ ...output })) });
  }
}
