// A 2-D float tensor's display offers its values as an image too: a grayscale heatmap
// (min black, max white) in a collapsed <details> below the table, for weights,
// attention maps and images in the notebook. Small tensors only: the PNG rides in
// the output, and beyond MAX_PIXELS a table summary is what is readable anyway.
import type { MimeBundle } from '../../language-session.js';
import { imagePng } from '../plots/image-png.js';
import { isTensorLike, readMatrix } from '../plots/plot-values.js';

const MAX_PIXELS = 256 * 256;
const FLOAT_DTYPES = ['float32', 'bfloat16'];

/** Whether a displayed value gets an image view. */
export function offersImageView(value: unknown): boolean {
  if (!isTensorLike(value)) return false;
  const { shape, dtype } = value as unknown as { shape: number[]; dtype?: string };
  return shape.length === 2 && FLOAT_DTYPES.includes(String(dtype)) && shape[0]! >= 2 && shape[1]! >= 2 && shape[0]! * shape[1]! <= MAX_PIXELS;
}

/** The bundle with the image view appended to its HTML. */
export async function withImageView(value: unknown, bundle: MimeBundle): Promise<MimeBundle> {
  if (typeof bundle['text/html'] !== 'string') return bundle;
  const png = Buffer.from(await imagePng(readMatrix(value, 'image view'), { colormap: 'gray' })).toString('base64');
  const view = `<details><summary style="cursor:pointer;font-family:monospace;font-size:12px">image view (min black, max white)</summary><img src="data:image/png;base64,${png}" alt="tensor as image" style="image-rendering:pixelated;border:1px solid #ccc"></details>`;
  return { ...bundle, 'text/html': bundle['text/html'] + view };
}
