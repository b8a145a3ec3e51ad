// The controls cells create: sliders and dropdowns with a `value` synced to every view
// and `onChange` handlers for changes made in a frontend or in code.
import { modelIdentity, Widget, WidgetModel, type WidgetRegistry, type WidgetState } from './widget-model.js';

type ChangeHandler<V> = (value: V) => void;

function checkOptions(kind: string, options: object, known: readonly string[]): void {
  for (const name of Object.keys(options)) {
    if (!known.includes(name)) throw new TypeError(`widgets.${kind}: unknown option '${name}' (options: ${known.join(', ')})`);
  }
}

/** Layout and style are models of their own, referenced from the control's state (as ipywidgets sends them). */
function control(registry: WidgetRegistry, name: string, style: string, state: WidgetState, received: (changed: WidgetState) => void): WidgetModel {
  const layout = new WidgetModel(registry, modelIdentity('base', 'Layout', 'Layout'));
  const styleModel = new WidgetModel(registry, { ...modelIdentity('controls', style, null), _view_module: '@jupyter-widgets/base', _view_name: 'StyleView' });
  return new WidgetModel(registry, {
    ...modelIdentity('controls', name, name), layout: layout.reference, style: styleModel.reference,
    disabled: false, description_allow_html: false, _dom_classes: [], tabbable: null, tooltip: null, ...state,
  }, received);
}

abstract class ValueWidget<V> extends Widget {
  private readonly handlers: ChangeHandler<V>[] = [];

  abstract get value(): V;

  /** Calls `handler` with the new value after each change, from a frontend or from code. Returns a function that removes it. */
  onChange(handler: ChangeHandler<V>): () => void {
    this.handlers.push(handler);
    return () => void this.handlers.splice(this.handlers.indexOf(handler) >>> 0, 1);
  }

  protected changed(): void {
    const value = this.value;
    for (const handler of [...this.handlers]) handler(value);
  }
}

export interface SliderOptions {
  min?: number;
  max?: number;
  value?: number;
  step?: number;
  description?: string;
  /** Send values while dragging (default) or on release only. */
  continuousUpdate?: boolean;
}

const SLIDER_OPTIONS = ['min', 'max', 'value', 'step', 'description', 'continuousUpdate'] as const;

export class Slider extends ValueWidget<number> {
  constructor(registry: WidgetRegistry, options: SliderOptions) {
    checkOptions('slider', options, SLIDER_OPTIONS);
    const { min = 0, max = 100, step, description = '' } = options;
    for (const [name, v] of Object.entries({ min, max, step, value: options.value })) {
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v))) throw new TypeError(`widgets.slider: ${name} must be a finite number, got ${String(v)}`);
    }
    if (min > max) throw new RangeError(`widgets.slider: min (${min}) is above max (${max})`);
    const integer = [min, max, step ?? 1, options.value ?? min].every(Number.isInteger);
    const value = Math.min(max, Math.max(min, options.value ?? min));
    super(control(registry, integer ? 'IntSlider' : 'FloatSlider', 'SliderStyle', {
      value, min, max, step: step ?? (integer ? 1 : (max - min) / 100), description,
      orientation: 'horizontal', readout: true, readout_format: integer ? 'd' : '.2f',
      continuous_update: options.continuousUpdate ?? true, behavior: 'drag-tap',
    }, (changed) => ('value' in changed ? this.changed() : undefined)));
  }

  get value(): number {
    return this.model.state.value as number;
  }

  /** Moves every view of the slider (clamped to [min, max], as ipywidgets does). */
  set value(value: number) {
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new TypeError(`slider.value must be a finite number, got ${String(value)}`);
    const { min, max } = this.model.state as { min: number; max: number };
    this.model.set({ value: Math.min(max, Math.max(min, value)) });
    this.changed();
  }

  protected summary(): string {
    const { _model_name, value, min, max } = this.model.state;
    return `${String(_model_name).replace(/Model$/, '')}(value=${value}, min=${min}, max=${max})`;
  }
}

export interface DropdownOptions<V> {
  /** Labels, or [label, value] pairs, or { label: value }. */
  options: readonly string[] | readonly (readonly [string, V])[] | Record<string, V>;
  /** The value selected first (default the first option). */
  value?: V;
  description?: string;
}

const DROPDOWN_OPTIONS = ['options', 'value', 'description'] as const;

export class Dropdown<V = string> extends ValueWidget<V> {
  private readonly values: V[];

  constructor(registry: WidgetRegistry, options: DropdownOptions<V>) {
    checkOptions('dropdown', options, DROPDOWN_OPTIONS);
    const pairs: [string, V][] = Array.isArray(options.options)
      ? options.options.map((o: string | readonly [string, V]) => (typeof o === 'string' ? [o, o as V] : [String(o[0]), o[1]]))
      : typeof options.options === 'object' && options.options !== null
        ? Object.entries(options.options as Record<string, V>)
        : [];
    if (pairs.length === 0) throw new TypeError('widgets.dropdown: options must be a non-empty array of labels, of [label, value] pairs, or an object { label: value }');
    const index = options.value === undefined ? 0 : pairs.findIndex(([, v]) => v === options.value);
    if (index < 0) throw new RangeError(`widgets.dropdown: value ${JSON.stringify(options.value)} is not among the options`);
    super(control(registry, 'Dropdown', 'DescriptionStyle', {
      _options_labels: pairs.map(([label]) => label), index, description: options.description ?? '',
    }, (changed) => ('index' in changed ? this.changed() : undefined)));
    this.values = pairs.map(([, v]) => v);
  }

  get index(): number {
    return this.model.state.index as number;
  }

  get value(): V {
    return this.values[this.index]!;
  }

  set value(value: V) {
    const index = this.values.indexOf(value);
    if (index < 0) throw new RangeError(`dropdown.value: ${JSON.stringify(value)} is not among the options`);
    this.model.set({ index });
    this.changed();
  }

  protected summary(): string {
    return `Dropdown(value=${JSON.stringify(this.value)}, options=${JSON.stringify(this.model.state._options_labels)})`;
  }
}
