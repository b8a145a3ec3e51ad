// The `widgets` cell global: Jupyter widgets (ipywidgets' protocol, no kernel-side Python)
// whose views JupyterLab and the Notebook draw with their built-in widget manager.
import type { CommRegistry, Publisher } from '../../language-session.js';
import { Dropdown, Slider, type DropdownOptions, type SliderOptions } from './controls.js';
import { OutputWidget, type Redirect } from './output-widget.js';
import { serveControlComm, WidgetRegistry, type Report } from './widget-model.js';

/**
 * `report` gets errors of onChange handlers run for a frontend's change (no cell is there to
 * fail); `redirect` and `publisher` let an Output widget take the session's outputs.
 */
export function createWidgets(comms: CommRegistry, report: Report, redirect: Redirect, publisher: () => Publisher | undefined) {
  const registry = new WidgetRegistry(comms, report);
  // The control comm target is there from the start: a reloaded page opens it before any cell runs.
  serveControlComm(registry);
  return {
    /** A slider (IntSlider when min, max, step and value are integers, else FloatSlider). */
    slider: (options: SliderOptions = {}) => new Slider(registry, options),
    /** A dropdown of labels, [label, value] pairs or { label: value }. */
    dropdown: <V = string>(options: DropdownOptions<V>) => new Dropdown<V>(registry, options),
    /** An output area: what runs inside `out.capture(fn)` outputs there (ipywidgets' Output). */
    output: () => new OutputWidget(registry, redirect, publisher),
  };
}
