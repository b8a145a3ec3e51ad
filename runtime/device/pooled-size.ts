// Which device buffers are recycled: the ONNX backend's pool keeps freed buffers of at least
// this size (a fresh one costs a zero-fill and a page fault per 4 KiB); smaller ones are left
// to V8. The host frees buffers of a pooled size right after their last use in a batch
// (session.ts) and watches their tensors for a scavenge (young-tensors.ts): reused warm, they
// pay; for the many tiny ones, placing each free costs more than it could give.
const MIN_POOLED_BYTES = 64 * 1024;

export function isPooledSize(bytes: number): boolean {
  return bytes >= MIN_POOLED_BYTES;
}
