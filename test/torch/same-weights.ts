// The same deterministic weights in a tpu.nn module and the PyTorch module of the same layout:
// parameter i (in parameters() order, which is PyTorch's) gets 0.5·sin(1.7·j + 0.9·i + 0.3) at
// flat index j, computed in float64 on both sides, then rounded to float32. And PyTorch's
// parameter names of such modules, as tpu.nn spells them.
import { spawnSync } from 'node:child_process';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

type AnyModule = InstanceType<typeof tpu.nn.Module>;

/** m with every parameter filled as SAME_WEIGHTS_PY fills PyTorch's `m`. */
export function withSameWeights<M extends AnyModule>(m: M): M {
  tpu.noGrad(() => m.parameters().forEach((p, i) => {
    const t = p as Tensor;
    const values = Array.from({ length: t.numel() }, (_, j) => 0.5 * Math.sin(1.7 * j + 0.9 * i + 0.3));
    t.copy_(tpu.tensor(values).reshape([...t.shape]));
  }));
  return m;
}

/** Python statements filling every parameter of the module `m` as withSameWeights does. */
export const SAME_WEIGHTS_PY = [
  'with torch.no_grad():',
  '    for i, p in enumerate(m.parameters()):',
  '        p.copy_((0.5 * torch.sin(torch.arange(p.numel(), dtype=torch.float64) * 1.7 + 0.9 * i + 0.3)).float().reshape(p.shape))',
].join('\n');

/** PyTorch's state_dict keys of the modules built by `makes` (one Python process), camelCased as tpu.nn names them. */
export function torchKeys(...makes: string[]): string[][] {
  const run = spawnSync('python3', ['-c', `import torch, json\nprint(json.dumps([list(m.state_dict().keys()) for m in [${makes.join(', ')}]]))`], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`python3 failed (python3 -m pip install torch==2.13.0+cpu): ${run.stderr}`);
  return (JSON.parse(run.stdout) as string[][]).map((keys) => keys.map((k) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())));
}
