// The SVG a Vega-Lite spec draws, rendered headless by Vega itself, for frontends
// without a Vega-Lite renderer (nbconvert, Colab, the classic Notebook).
// Vega is loaded on the first plot, not with the kernel.
import type { TopLevelSpec } from 'vega-lite';

let libraries: Promise<[typeof import('vega'), typeof import('vega-lite')]> | undefined;

export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, vegaLite] = await (libraries ??= Promise.all([import('vega'), import('vega-lite')]));
  // Vega marks the data objects it reads (a symbol key): draw from a copy, the published spec stays plain.
  const view = new vega.View(vega.parse(vegaLite.compile(structuredClone(spec)).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}

/** Vega's color schemes (viridis, magma, greys, ...) as interpolators from [0, 1] to CSS colors. */
export async function colorScheme(name: string): Promise<((t: number) => string) | undefined> {
  const [vega] = await (libraries ??= Promise.all([import('vega'), import('vega-lite')]));
  const scheme = vega.scheme(name) as unknown;
  return typeof scheme === 'function' ? (scheme as (t: number) => string) : undefined;
}
