// A 2-D float tensor's display offers an image view: a grayscale PNG of its values
// in a collapsed <details> after the table; other tensors display as before.
import { describe, expect, it } from 'vitest';
import { decode } from 'fast-png';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-image-view-')();

async function html(code: string): Promise<string> {
  const { outcome } = await driver.run(code);
  if (outcome.status !== 'ok') throw new Error(`${outcome.ename}: ${outcome.evalue}`);
  return outcome.result!.data['text/html'] as string;
}

describe('tensor image view', () => {
  it('a 2-D float tensor: the table, then a PNG of its values, min black and max white', async () => {
    const shown = await html('tpu.tensor([[0, 1], [2, 4]], { dtype: "float32" })');
    const table = shown.indexOf('<table>'), details = shown.indexOf('<details>');
    expect(table).toBe(0);
    expect(details).toBeGreaterThan(table);
    const base64 = /<img src="data:image\/png;base64,([^"]+)"/.exec(shown)![1]!;
    const image = decode(Buffer.from(base64, 'base64'));
    // 2x2 values enlarged to 256x256 (128-pixel blocks); 1 of 0..4 is level round(255/4) = 64, 2 is 128.
    expect([image.width, image.height]).toEqual([256, 256]);
    const at = (x: number, y: number) => image.data[(y * 256 + x) * 4];
    expect([at(0, 0), at(200, 0), at(0, 200), at(255, 255)]).toEqual([0, 64, 128, 255]);
  });

  it('no image view for int, 1-D or large tensors', async () => {
    expect(await html("tpu.tensor([[1, 2], [3, 4]], { dtype: 'int32' })")).not.toContain('<details>'); // int32
    expect(await html('tpu.tensor([1.5, 2])')).not.toContain('<details>');
    expect(await html('tpu.zeros([257, 256])')).not.toContain('<details>');
    expect(await html('tpu.zeros([256, 256])')).toContain('<details>');
  });
});
