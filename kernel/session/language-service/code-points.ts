// Jupyter counts cursor positions in Unicode code points (protocol 5.2+);
// JavaScript strings and TypeScript count UTF-16 units.

export function codePointsToUtf16(text: string, codePoints: number): number {
  let offset = 0;
  for (let i = 0; i < codePoints && offset < text.length; i++) offset += text.codePointAt(offset)! > 0xffff ? 2 : 1;
  return offset;
}

export function utf16ToCodePoints(text: string, offset: number): number {
  return [...text.slice(0, offset)].length;
}
