import { tpu } from 'tpu-kernel/runtime';
const mode = process.argv[2] ?? 'fused';
const x = tpu.ones([8]);
const med = (xs) => [...xs].sort((a,b)=>a-b)[xs.length>>1];
const r = [], host = [];
await tpu.withMode(mode, async () => {
  for (let k = 0; k < 60; k++) {
    const t0 = performance.now();
    let y = x;
    for (let i = 0; i < 10000; i++) y = y.add(x);
    const t1 = performance.now();
    await y.data();
    r.push((performance.now() - t0) / 10); host.push((t1 - t0) / 10);
  }
});
console.log(mode, 'µs/op total', med(r).toFixed(3), 'host', med(host).toFixed(3));
process.exit(0);
