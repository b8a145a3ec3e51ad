// The types of the `widgets` cell global, for completion and Shift+Tab in cells.
export const widgetDeclarations = `
interface Widget {
  readonly modelId: string;
  /** Sends a custom message to the frontend's view. */
  send(content: unknown): void;
  /** Calls handler with each custom message from the frontend's view. */
  onCustom(handler: (content: unknown) => void): void;
  /** Closes the widget; its views go away. */
  close(): void;
}
interface ValueWidget<V> extends Widget {
  /** The current value, synced with every view: setting it moves the views. */
  value: V;
  /** Calls handler with the new value after each change, from a frontend or from code; returns a function that removes it. */
  onChange(handler: (value: V) => void): () => void;
}
interface Dropdown<V> extends ValueWidget<V> {
  readonly index: number;
}
interface OutputWidget extends Widget {
  /**
   * Runs fn; what it outputs (console.log, display, plots) goes into this widget instead of the
   * cell or the widget event running it. Returns what fn returns. Only fn's synchronous part
   * is captured: after an await, call capture again.
   * @example slider.onChange((v) => out.capture(() => console.log('value', v)))
   */
  capture<T>(fn: () => T): T;
  /** Removes every output shown in the widget. */
  clear(): void;
}
interface Widgets {
  /**
   * A slider widget (IntSlider when min, max, step and value are integers, else FloatSlider), shown when displayed or left as the cell's result.
   * @example const n = widgets.slider({ min: 1, max: 64, value: 8, description: 'n' });
   * const shown = display(tpu.ones([8]).sum());
   * n.onChange((v) => shown.update(tpu.ones([v]).sum()));
   * n
   */
  slider(options?: { min?: number; max?: number; value?: number; step?: number; description?: string; continuousUpdate?: boolean }): ValueWidget<number>;
  /**
   * A dropdown of labels, [label, value] pairs or { label: value }.
   * @example const mode = widgets.dropdown({ options: ['debug', 'strict', 'fused'], value: 'strict' });
   */
  dropdown<V = string>(options: { options: readonly string[] | readonly (readonly [string, V])[] | Record<string, V>; value?: V; description?: string }): Dropdown<V>;
  /**
   * An output area (ipywidgets' Output): what runs inside out.capture(fn) shows there. Output of
   * a widget's handlers belongs to the frontend's widget message (JupyterLab shows it in its log
   * console only): capture it to see it in a cell.
   * @example const out = widgets.output();
   * const n = widgets.slider({ max: 10 });
   * n.onChange((v) => out.capture(() => { out.clear(); console.log('n =', v); }));
   * display(n); display(out);
   */
  output(): OutputWidget;
}
/** Jupyter widgets (ipywidgets' protocol): widgets.slider, widgets.dropdown, widgets.output. */
declare const widgets: Widgets;
`;
