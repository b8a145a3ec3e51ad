// Rich output from cells: `display(value)`, `display.html/markdown/svg/png/json/text`,
// handles whose `update(...)` re-renders in place (update_display_data), and
// the mime bundle of any value (the cell result uses it too). Values that
// implement `[Symbol.for('Jupyter.display')]()` render through it; the method
// may return a Promise (a tensor's display is a device sync point).
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { JUPYTER_DISPLAY, type MimeBundle, type Publisher } from '../../language-session.js';
import type { OrderedOutputs } from './ordered-outputs.js';
import { offersImageView, withImageView } from './tensor-image-view.js';

export function plainText(value: unknown): string {
  return typeof value === 'string' ? value : inspect(value, { depth: 4, colors: false, maxArrayLength: 100 });
}

/** The mime bundle of a value; a Promise only when its Jupyter.display method is async. */
export function mimeBundleOf(value: unknown): MimeBundle | Promise<MimeBundle> {
  const render = (value as { [JUPYTER_DISPLAY]?: unknown } | null | undefined)?.[JUPYTER_DISPLAY];
  if ((typeof value === 'object' || typeof value === 'function') && typeof render === 'function') {
    const bundle = render.call(value) as unknown;
    if (offersImageView(value)) return Promise.resolve(bundle).then((b) => withImageView(value, checkedBundle(value, b)));
    return bundle instanceof Promise || isThenable(bundle) ? Promise.resolve(bundle).then((b) => checkedBundle(value, b)) : checkedBundle(value, bundle);
  }
  return { 'text/plain': typeof value === 'string' ? inspect(value) : plainText(value) };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

function checkedBundle(value: unknown, bundle: unknown): MimeBundle {
  if (typeof bundle !== 'object' || bundle === null) {
    throw new TypeError(`[Symbol.for('Jupyter.display')]() must return a mime bundle object, got ${plainText(bundle)}`);
  }
  return 'text/plain' in bundle ? (bundle as MimeBundle) : { ...bundle, 'text/plain': inspect(value, { depth: 1 }) };
}

/** What display() returns; a cell ending in display(...) shows the display only, not the handle. */
export class DisplayHandle {
  constructor(
    readonly displayId: string,
    /** Replaces the displayed output (update_display_data). */
    readonly update: (value: unknown) => Promise<void>,
  ) {}
}

type Renderer = (value: unknown) => MimeBundle | Promise<MimeBundle>;

const text = (mime: string) => (value: unknown): MimeBundle => {
  if (typeof value !== 'string') throw new TypeError(`display: ${mime} content must be a string, got ${typeof value}`);
  return { [mime]: value, 'text/plain': mime === 'text/plain' ? value : `<${mime} output>` };
};

const renderers = {
  html: text('text/html'),
  markdown: text('text/markdown'),
  svg: text('image/svg+xml'),
  text: text('text/plain'),
  png: (value: unknown): MimeBundle => {
    if (typeof value === 'string') return { 'image/png': value, 'text/plain': '<image/png output>' };
    if (value instanceof Uint8Array) return { 'image/png': Buffer.from(value).toString('base64'), 'text/plain': '<image/png output>' };
    throw new TypeError(`display.png: expected base64 string or Uint8Array, got ${plainText(value)}`);
  },
  json: (value: unknown): MimeBundle => ({ 'application/json': JSON.parse(JSON.stringify(value ?? null)), 'text/plain': plainText(value) }),
} satisfies Record<string, Renderer>;

type DisplayOptions = { metadata?: Record<string, unknown> };

export type DisplayFunction = ((...values: unknown[]) => DisplayHandle)
  & { [K in keyof typeof renderers]: (value: unknown) => DisplayHandle };

/**
 * Whether display's last argument is its options rather than a value to show: a plain object
 * with no key but `metadata` (what the declared `display(value, options?)` overload accepts).
 */
function isDisplayOptions(value: unknown): value is DisplayOptions {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  // A cell's objects have the cell context's Object.prototype: any realm's one is plain.
  return (proto === null || Object.getPrototypeOf(proto) === null) && Object.keys(value).every((key) => key === 'metadata');
}

/**
 * Displays go out through `outputs`, in call order with the cell's other
 * outputs; `track` lets the session wait for async renders before the cell ends.
 */
export function createDisplay(outputs: OrderedOutputs, track: (work: Promise<unknown>) => void): DisplayFunction {
  const show = (render: Renderer, value: unknown, metadata?: Record<string, unknown>): DisplayHandle => {
    const displayId = randomUUID();
    // Rendering starts synchronously so bad input throws at the caller's line.
    const publish = (v: unknown, update: boolean): Promise<void> => {
      const bundle = render(v);
      const send = (target: Publisher, ready: MimeBundle) =>
        update ? target.updateDisplay(ready, metadata, displayId) : target.display(ready, metadata, displayId);
      if (!(bundle instanceof Promise)) return (outputs.emit((target) => send(target, bundle)), Promise.resolve());
      const published = outputs.emitWhenReady(bundle, send);
      track(published);
      return published;
    };
    publish(value, false);
    return new DisplayHandle(displayId, (next: unknown) => publish(next, true));
  };
  // display(a, b, ...) shows each value in turn (IPython's display(*objs)); the handle is the last one's.
  const display = ((...args: unknown[]) => {
    const options = args.length > 1 && isDisplayOptions(args.at(-1)) ? (args.pop() as DisplayOptions) : undefined;
    if (!args.length) args.push(undefined);
    return args.map((value) => show(mimeBundleOf, value, options?.metadata)).at(-1)!;
  }) as DisplayFunction;
  for (const [kind, render] of Object.entries(renderers)) {
    (display as unknown as Record<string, unknown>)[kind] = (value: unknown) => show(render, value);
  }
  return display;
}
