// Which backend a new session runs on: TPU_KERNEL_BACKEND, read when the session starts (so
// a changed variable takes effect at the next session, after tpu.reset() or a failed start).
export const BACKENDS = ['onnx', 'tpu'] as const;
export type BackendName = (typeof BACKENDS)[number];

export function backendName(): BackendName {
  const v = process.env.TPU_KERNEL_BACKEND;
  if (v === undefined || v === '') return 'onnx';
  if ((BACKENDS as readonly string[]).includes(v)) return v as BackendName;
  throw new RangeError(`TPU_KERNEL_BACKEND must be one of ${BACKENDS.map((b) => `'${b}'`).join(', ')}; got ${JSON.stringify(v)}`);
}
