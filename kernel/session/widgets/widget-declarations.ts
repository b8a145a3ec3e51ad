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
interface Widgets {
  /**
   * A slider widget (IntSlider when min, max, step and value are integers, else FloatSlider), shown when displayed or left as the cell's result.
   * @example const n = widgets.slider({ min: 1, max: 64, value: 8, description: 'n' });
   * n.onChange((v) => out.update(tpu.randn([v]).mean()));
   * n
   */
  slider(options?: { min?: number; max?: number; value?: number; step?: number; description?: string; continuousUpdate?: boolean }): ValueWidget<number>;
  /**
   * A dropdown of labels, [label, value] pairs or { label: value }.
   * @example const mode = widgets.dropdown({ options: ['debug', 'strict', 'fused'], value: 'strict' });
   */
  dropdown<V = string>(options: { options: readonly string[] | readonly (readonly [string, V])[] | Record<string, V>; value?: V; description?: string }): Dropdown<V>;
}
/** Jupyter widgets (ipywidgets' protocol): widgets.slider, widgets.dropdown. */
declare const widgets: Widgets;
`;
