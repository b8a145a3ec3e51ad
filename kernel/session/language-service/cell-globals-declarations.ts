// The types of the globals every cell has, for the language service: the cell API (display,
// clearOutput, input, comms), `tpu` and the type names Tensor, BoolTensor, DTensor and DType, typed by
// the tensor runtime's built declarations (dist/runtime) when they exist.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { dispatchDeclarations } from '../operators/dispatch-declarations.js';
import { plotDeclarations } from '../plots/plot-declarations.js';
import { progressDeclarations } from '../progress/progress-declarations.js';
import { widgetDeclarations } from '../widgets/widget-declarations.js';

export function cellGlobalsDeclarations(packageRoot: string): string {
  const runtimeTypes = path.join(packageRoot, 'dist', 'runtime', 'index.d.ts');
  const contractTypes = path.join(packageRoot, 'dist', 'kernel', 'language-session.d.ts');
  const tpu = existsSync(runtimeTypes) ? `typeof import(${JSON.stringify(runtimeTypes)}).tpu` : 'any';
  const runtimeType = (name: string, absent = 'never') => (existsSync(runtimeTypes) ? `import(${JSON.stringify(runtimeTypes)}).${name}` : absent);
  const comms = existsSync(contractTypes) ? `import(${JSON.stringify(contractTypes)}).CommRegistry` : 'any';
  return `
/** An output shown by display(); update() replaces it in place. */
interface DisplayHandle {
  readonly displayId: string;
  /** Replaces the displayed output with a new value (update_display_data). */
  update(value: unknown): Promise<void>;
}
interface DisplayFunction {
  /** Shows a value as a cell output: through its [Symbol.for('Jupyter.display')]() mime bundle, else as text. */
  (value: unknown, options?: { metadata?: Record<string, unknown> }): DisplayHandle;
  /** Shows each value as its own output, in turn (IPython's display(*objs)); the handle is the last value's. */
  (value: unknown, ...more: unknown[]): DisplayHandle;
  /** Shows an HTML fragment. */
  html(html: string): DisplayHandle;
  /** Shows Markdown text. */
  markdown(markdown: string): DisplayHandle;
  /** Shows an SVG image. */
  svg(svg: string): DisplayHandle;
  /** Shows a PNG image: base64 text or bytes. */
  png(png: string | Uint8Array): DisplayHandle;
  /** Shows JSON data (application/json). */
  json(value: unknown): DisplayHandle;
  /** Shows plain text. */
  text(text: string): DisplayHandle;
}
/** Shows a value as a cell output; display.html / markdown / svg / png / json / text for one mime type. */
declare const display: DisplayFunction;
/** Clears the outputs of the running cell; with wait, when the next output arrives. */
declare function clearOutput(options?: { wait?: boolean }): void;
/** Asks the user for a line of text (stdin); password hides what is typed. */
declare function input(prompt?: string, options?: { password?: boolean }): Promise<string>;
/** Comm channels with the frontend (widgets and other tools). */
declare const comms: ${comms};
/** The TPU session: tensors, modes, memory, profiling. */
declare const tpu: ${tpu};
/** A tensor, for annotations (\`(x: Tensor) => ...\`); values come from \`tpu\`. */
type Tensor = ${runtimeType('Tensor', 'any')};
/** A tensor of dtype bool (comparisons, masks): its item() is a boolean. */
type BoolTensor = ${runtimeType('BoolTensor', 'any')};
/** A tensor held as one piece per chip of a mesh (tpu.distributeTensor), for annotations. */
type DTensor = ${runtimeType('DTensor', 'any')};
/** A tensor's dtype: 'float32', 'bfloat16', 'int32', 'int64' or 'bool'. */
type DType = ${runtimeType('DType', 'string')};
${plotDeclarations}${progressDeclarations}${widgetDeclarations}${dispatchDeclarations(runtimeType('Tensor'), runtimeType('BoolTensor'))}`;
}
