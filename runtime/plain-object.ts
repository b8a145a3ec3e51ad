// A plain object ({ ... }), from any realm: notebook cells run in their own vm context, so
// their object literals have that context's Object.prototype, not the runtime's.
export function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object') return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || (Object.getPrototypeOf(proto) === null && Object.prototype.toString.call(v) === '[object Object]');
}
