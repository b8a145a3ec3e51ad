// The runtime's speed goals as time ratios measured in one bench run, each line saying
// the measured ratio, the bound and whether it is met ('-' where a figure is missing).
const time = (rows, id, k) => rows.find((r) => r.id === id)?.[k]?.medianMs;

function goal(text, a, b, bound) {
  if (a === undefined || b === undefined) return `${text}: - (not measured)`;
  const ratio = a / b;
  return `${text}: ${ratio.toFixed(2)} (goal <= ${bound}) ${ratio <= bound ? 'met' : 'NOT met'}`;
}

export function goals(rows) {
  const out = [];
  for (const id of ['W1', 'W4', 'W5', 'W6']) out.push(goal(`${id} fused / PyTorch eager`, time(rows, id, 'fused'), time(rows, id, 'torch'), 1));
  out.push(goal('W2 fused / torch.compile', time(rows, 'W2', 'fused'), time(rows, 'W2', 'torch.compile'), 0.6));
  out.push(goal('W6 compiled / torch.compile', time(rows, 'W6', 'compiled'), time(rows, 'W6', 'torch.compile'), 1));
  for (const id of ['W2', 'W3', 'W4', 'W5', 'W6']) out.push(goal(`${id} strict / PyTorch eager`, time(rows, id, 'strict'), time(rows, id, 'torch'), 1.5));
  out.push(goal('W1 strict / raw ORT (one Add per run)', time(rows, 'W1', 'strict'), time(rows, 'W1', 'raw'), 1));
  const host = rows.find((r) => r.id === 'W1')?.strict?.hostUsPerOp;
  out.push(host === undefined ? 'W1 strict host dispatch: - (not measured)' : `W1 strict host dispatch: ${host.toFixed(2)} µs/op (goal < 2) ${host < 2 ? 'met' : 'NOT met'}`);
  // W3 as time: the best peer's time over strict's must stay >= 0.95.
  const peers = ['raw', 'torch'].map((k) => time(rows, 'W3', k)).filter((t) => t !== undefined);
  const strict = time(rows, 'W3', 'strict');
  if (!peers.length || strict === undefined) out.push('W3 strict GFLOP/s / best of raw ORT and PyTorch: - (not measured)');
  else {
    const ratio = Math.min(...peers) / strict;
    out.push(`W3 strict GFLOP/s / best of raw ORT and PyTorch: ${ratio.toFixed(2)} (goal >= 0.95) ${ratio >= 0.95 ? 'met' : 'NOT met'}`);
  }
  return out;
}
