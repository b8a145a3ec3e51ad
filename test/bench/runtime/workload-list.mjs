// The workloads of test/bench/runtime/ (each file's default export is a list), W1 first:
// the tiny-op dispatch figures are taken on a fresh session, not after training state.
import { readdirSync } from 'node:fs';

export async function loadWorkloads(only = []) {
  const dir = new URL('./', import.meta.url);
  const workloads = [];
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.mjs') || ['raw-ort.mjs', 'peers.mjs', 'goals.mjs', 'workload-list.mjs'].includes(f)) continue;
    const mod = await import(new URL(f, dir).href);
    if (Array.isArray(mod.default)) workloads.push(...mod.default.filter((w) => !only.length || only.includes(w.id)));
  }
  return workloads.sort((a, b) => Number(a.id.slice(1)) - Number(b.id.slice(1)));
}

/**
 * One workload prepared in one variant of a single-workload bench: a mode (debug, strict,
 * fused) or 'compiled' (tpu.compile of its prepareCompiled, run in strict mode). Returns the
 * prepared run and the mode its steps run in.
 */
export async function prepareVariant(tpu, id, variant) {
  const w = (await loadWorkloads([id]))[0];
  if (!w) throw new Error(`unknown workload ${id}`);
  const compiled = variant === 'compiled';
  if (compiled && !w.prepareCompiled) throw new Error(`${id} has no compiled variant`);
  const mode = compiled ? 'strict' : variant;
  const run = await tpu.withMode(mode, () => (compiled ? w.prepareCompiled(tpu) : w.prepare(tpu)));
  return { run, mode };
}
