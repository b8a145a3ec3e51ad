// A minimal PNG encoder (8-bit RGBA, one IDAT) so the kernelspec logos are
// generated at install time rather than committed as binaries.
import { deflateSync } from 'node:zlib';

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const typed = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/** pixel(x, y) returns [r, g, b, a], each 0..255. */
export function encodePng(size: number, pixel: (x: number, y: number) => [number, number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // bit depth 8, RGBA, deflate, no filter, no interlace
  const rows = Buffer.alloc(size * (1 + 4 * size));
  for (let y = 0; y < size; y++) {
    const row = y * (1 + 4 * size); // filter byte 0 (none) then pixels
    for (let x = 0; x < size; x++) rows.set(pixel(x, y), row + 1 + 4 * x);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** The logo: a blue rounded tile with a 3x3 grid of light "cores" (a TPU chip, schematically). */
export function logoPng(size: number): Buffer {
  const radius = size / 6;
  return encodePng(size, (x, y) => {
    const cx = Math.min(Math.max(x + 0.5, radius), size - radius);
    const cy = Math.min(Math.max(y + 0.5, radius), size - radius);
    if (Math.hypot(x + 0.5 - cx, y + 0.5 - cy) > radius) return [0, 0, 0, 0];
    const cell = size / 4;
    const gx = (x - cell / 2) / cell;
    const gy = (y - cell / 2) / cell;
    const core = gx >= 0 && gy >= 0 && gx < 3 && gy < 3 && gx % 1 < 0.7 && gy % 1 < 0.7;
    return core ? [224, 236, 255, 255] : [49, 120, 198, 255];
  });
}
