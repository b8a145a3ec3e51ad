// A singular matrix given to inv, solve (tpu.inverse, x.inverse()) and one that is not
// positive-definite given to cholesky fail on the device with PyTorch's message, in every mode
// and under tpu.compile: a DeviceError at the next sync point, the session and its other
// tensors kept. The _ex forms return PyTorch's info instead. PyTorch 2.13 gives the messages
// and the values (its names mapped: torch.linalg.solve → linalg.solve, inv_ex → invEx).
import { spawnSync } from 'node:child_process';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { tpu, DeviceError, type Tensor } from 'tpu-kernel/runtime';

const SINGULAR = [[1, 2], [2, 4]]; // its second pivot is 0
const NOT_PD = [[1, 2], [2, 1]]; // its leading minor of order 2 is -3
/** Three matrices: the identity, SINGULAR (element 1, pivot 2), zeros (element 2, pivot 1). */
const BATCH = [[[1, 0], [0, 1]], SINGULAR, [[0, 0], [0, 0]]];
/** Its pivots are 1e-30 and 1: tiny, not zero, so no error (PyTorch's neither). */
const TINY = [[1e-30, 0], [0, 1]];
/** Positive-definite with a tiny leading minor of order 2: no error. */
const TINY_PD = [[1, 0, 0], [0, 1e-30, 0], [0, 0, 1]];

/** Python expressions over torch, A (SINGULAR), B (BATCH), N (NOT_PD), T (TINY), P (TINY_PD). */
const PY: Record<string, string> = {
  inv: 'torch.linalg.inv(A)',
  inverse: 'torch.inverse(A)',
  invBatch: 'torch.linalg.inv(B)',
  solve: 'torch.linalg.solve(A, torch.ones(2))',
  solveBatch: 'torch.linalg.solve(B, torch.ones(3, 2))',
  solveBroadcast: 'torch.linalg.solve(A, torch.ones(3, 2, 1))',
  cholesky: 'torch.linalg.cholesky(N)',
  choleskyUpper: 'torch.linalg.cholesky(N, upper=True)',
  choleskyBatch: 'torch.linalg.cholesky(B)',
  invExChecked: 'torch.linalg.inv_ex(B, check_errors=True)',
  solveExChecked: 'torch.linalg.solve_ex(B, torch.ones(3, 2), check_errors=True)',
  choleskyExChecked: 'torch.linalg.cholesky_ex(B, check_errors=True)',
  invExInfo: 'torch.linalg.inv_ex(B).info',
  invExSingleInfo: 'torch.linalg.inv_ex(A).info',
  solveExInfo: 'torch.linalg.solve_ex(B, torch.ones(3, 2)).info',
  solveExBroadcastInfo: 'torch.linalg.solve_ex(A, torch.ones(3, 2, 1)).info',
  choleskyExInfo: 'torch.linalg.cholesky_ex(B).info',
  choleskyExPdInfo: 'torch.linalg.cholesky_ex(torch.stack([torch.eye(2), 2 * torch.eye(2)])).info',
  invTiny: 'torch.linalg.inv(T)',
  choleskyTiny: 'torch.linalg.cholesky(P)',
  invWell: 'torch.linalg.inv(torch.tensor([[2., 1.], [1., 3.]], dtype=torch.float64)).float()',
};

const SCRIPT = `
import json, sys, torch
A = torch.tensor(${JSON.stringify(SINGULAR)}, dtype=torch.float32)
B = torch.tensor(${JSON.stringify(BATCH)}, dtype=torch.float32)
N = torch.tensor(${JSON.stringify(NOT_PD)}, dtype=torch.float32)
T = torch.tensor(${JSON.stringify(TINY)}, dtype=torch.float32)
P = torch.tensor(${JSON.stringify(TINY_PD)}, dtype=torch.float32)
out = {}
for name, expr in json.load(sys.stdin).items():
    try:
        r = eval(expr)
        out[name] = {'dtype': str(r.dtype), 'value': r.tolist()}
    except torch.linalg.LinAlgError as e:
        out[name] = {'error': str(e)}
print(json.dumps(out))
`;

type Answer = { error?: string; dtype?: string; value?: unknown };
let torch: Record<string, Answer> = {};

beforeAll(() => {
  const run = spawnSync('python3', ['-W', 'ignore', '-c', SCRIPT], { input: JSON.stringify(PY), encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed (python3 -m pip install torch==2.13.0+cpu): ${run.stderr}`);
  torch = JSON.parse(run.stdout) as Record<string, Answer>;
});

afterEach(() => tpu.mode('strict'));

/** PyTorch's error text for `name`, its op names in this runtime's spelling. */
function pytorchError(name: string): string {
  const text = torch[name]?.error;
  if (text === undefined) throw new Error(`PyTorch raised no LinAlgError for ${name}: ${JSON.stringify(torch[name])}`);
  return text.replace(/^torch\.linalg\./, 'linalg.').replace(/^linalg\.(inv|solve|cholesky)_ex:/, (_, f: string) => `linalg.${f}Ex:`);
}

const t = (values: unknown) => tpu.tensor(values as number[][]);

/** Calls that PyTorch refuses, by the name of its expression above. */
const REFUSED: [string, () => Tensor][] = [
  ['inv', () => tpu.linalg.inv(t(SINGULAR))],
  ['inverse', () => tpu.inverse(t(SINGULAR))],
  ['inverse', () => t(SINGULAR).inverse()],
  ['invBatch', () => tpu.linalg.inv(t(BATCH))],
  ['solve', () => tpu.linalg.solve(t(SINGULAR), tpu.ones([2]))],
  ['solveBatch', () => tpu.linalg.solve(t(BATCH), tpu.ones([3, 2]))],
  ['solveBroadcast', () => tpu.linalg.solve(t(SINGULAR), tpu.ones([3, 2, 1]))],
  ['cholesky', () => tpu.linalg.cholesky(t(NOT_PD))],
  ['choleskyUpper', () => tpu.linalg.cholesky(t(NOT_PD), { upper: true })],
  ['choleskyBatch', () => tpu.linalg.cholesky(t(BATCH))],
  ['invExChecked', () => tpu.linalg.invEx(t(BATCH), { checkErrors: true }).inverse],
  ['solveExChecked', () => tpu.linalg.solveEx(t(BATCH), tpu.ones([3, 2]), { checkErrors: true }).result],
  ['choleskyExChecked', () => tpu.linalg.choleskyEx(t(BATCH), { checkErrors: true }).L],
];

/** The error reading `make()`'s result gives (its message's last part is the check's text), or null. */
async function failure(make: () => Tensor): Promise<Error | null> {
  try {
    await make().data();
    return null;
  } catch (e) {
    return e as Error;
  }
}

describe.each(['debug', 'strict', 'fused', 'compile'] as const)('%s', (mode) => {
  const run = (make: () => Tensor) => {
    tpu.mode(mode === 'compile' ? 'strict' : mode);
    return mode === 'compile' ? () => tpu.compile((x: Tensor) => make().add(x))(tpu.zeros([1])) : make;
  };

  it.each(REFUSED.map(([name, make], i) => [`${name} #${i}`, name, make] as const))('%s fails with PyTorch\'s message', async (_, name, make) => {
    const keep = tpu.tensor([1, 2, 3]);
    const call = run(make);
    const other = keep.mul(2); // fused mode: in the failing call's region, reading nothing of it
    const err = await failure(call);
    expect(err, `${name}: no error`).toBeInstanceOf(DeviceError);
    expect(err!.message.endsWith(`: ${pytorchError(name)}`), `${err!.message}\n  PyTorch: ${pytorchError(name)}`).toBe(true);
    // the session goes on, other tensors kept
    expect(await keep.array()).toEqual([1, 2, 3]);
    expect(await other.array()).toEqual([2, 4, 6]);
    expect(await tpu.linalg.inv(t([[2, 1], [1, 3]])).array()).toEqual(torch['invWell']!.value);
  });

  it('a tiny pivot is no error: the values are PyTorch\'s', async () => {
    const close = (got: unknown, want: unknown) => (want as number[][]).flat().forEach((w, i) => expect(Math.abs((got as number[][]).flat()[i]! - w)).toBeLessThanOrEqual(1e-6 * Math.abs(w)));
    close(await run(() => tpu.linalg.inv(t(TINY)))().array(), torch['invTiny']!.value);
    close(await run(() => tpu.linalg.cholesky(t(TINY_PD)))().array(), torch['choleskyTiny']!.value);
  });
});

describe.each(['strict', 'fused'] as const)('%s: the _ex forms return info', (mode) => {
  const info = async (r: { info: Tensor }) => {
    expect(r.info.dtype).toBe('int32');
    return r.info.array();
  };
  it.each([
    ['invExInfo', () => tpu.linalg.invEx(t(BATCH))],
    ['invExSingleInfo', () => tpu.linalg.invEx(t(SINGULAR))],
    ['solveExInfo', () => tpu.linalg.solveEx(t(BATCH), tpu.ones([3, 2]))],
    ['solveExBroadcastInfo', () => tpu.linalg.solveEx(t(SINGULAR), tpu.ones([3, 2, 1]))],
    ['choleskyExInfo', () => tpu.linalg.choleskyEx(t(BATCH))],
    ['choleskyExPdInfo', () => tpu.linalg.choleskyEx(tpu.stack([tpu.eye(2), tpu.eye(2).mul(2)]))],
  ] as const)('%s is PyTorch\'s', async (name, make) => {
    tpu.mode(mode);
    expect(torch[name]!.dtype).toBe('torch.int32');
    expect(await info(make())).toEqual(torch[name]!.value);
  });

  it('their values of good matrices are the plain functions\', and destructure', async () => {
    tpu.mode(mode);
    const a = t([[4, 2], [2, 5]]);
    const [inverse, infoInv] = tpu.linalg.invEx(a);
    expect(await inverse!.array()).toEqual(await tpu.linalg.inv(a).array());
    expect(await infoInv!.array()).toBe(0);
    const { result } = tpu.linalg.solveEx(a, tpu.tensor([2, 2]));
    expect(await result.array()).toEqual(await tpu.linalg.solve(a, tpu.tensor([2, 2])).array());
    const { L } = tpu.linalg.choleskyEx(a, { upper: true });
    expect(await L.array()).toEqual([[2, 1], [0, 2]]); // hand-computed: [[2, 0], [1, 2]]ᵀ
  });
});

it('bad options are errors naming the option', () => {
  expect(() => tpu.linalg.invEx(t(SINGULAR), { checkErrors: 1 as unknown as boolean })).toThrow('linalg.invEx: checkErrors must be a boolean; got 1');
  expect(() => tpu.linalg.choleskyEx(t(SINGULAR), { check_errors: true } as never)).toThrow("linalg.choleskyEx: unknown option 'check_errors' (did you mean 'checkErrors'?)");
});

it('autograd through inv still runs; a singular matrix fails its forward', async () => {
  const a = tpu.tensor([[2, 1], [1, 3]], { requiresGrad: true });
  tpu.linalg.inv(a).sum().backward();
  // d Σ(A⁻¹) / dA = -A⁻ᵀ·1·1ᵀ·A⁻ᵀ; A⁻¹ = [[0.6, -0.2], [-0.2, 0.4]], its column sums 0.4, 0.2
  const g = (await a.grad!.array()) as number[][];
  [[-0.16, -0.08], [-0.08, -0.04]].flat().forEach((v, i) => expect(g.flat()[i]).toBeCloseTo(v, 6));
  const s = tpu.tensor(SINGULAR, { requiresGrad: true });
  await expect(tpu.linalg.inv(s).sum().data()).rejects.toThrow(DeviceError);
});
