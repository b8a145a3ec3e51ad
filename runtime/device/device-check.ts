// A composed op's check of its own result, made on the device (a singular matrix given to inv,
// one that is not positive-definite to cholesky): the program computes a failure code, 0 when
// the result is good, and the backend fails the launch with the check's text, so the call
// reports a DeviceError at the next sync point instead of returning a made-up number, with no
// host read per call. The code names the first failing batch element and position, as
// PyTorch's messages do (positions 1-based).

/** What a failing check says: plain data, it crosses to the device thread in the program. */
export interface DeviceCheck {
  /** The op's name that starts the text, as PyTorch writes it ('linalg.inv'). */
  readonly op: string;
  /** The text after it; `{k}` stands for the failing position (1-based). */
  readonly text: string;
  /** Positions per batch element: a failure of element b at position k has the code b·n + k. */
  readonly n: number;
  /** Whether the input was batched: the text then names the batch element, as PyTorch's. */
  readonly batched: boolean;
}

/** The message of `check` failing with `code` (b·n + k, k in 1..n). */
export function checkFailureText(check: DeviceCheck, code: number): string {
  const b = Math.floor((code - 1) / check.n);
  const k = code - b * check.n;
  return `${check.op}: ${check.batched ? `(Batch element ${b}): ` : ''}${check.text.replace('{k}', String(k))}`;
}
