// Which primitives are collectives (ops/collectives.ts): a program holding one runs on every
// chip of its group together, split at them on the embedded backend (device/ici/).
export const COLLECTIVE_PRIMITIVES: ReadonlySet<string> = new Set([
  'all_reduce', 'all_gather', 'reduce_scatter', 'all_to_all', 'collective_permute', 'collective_broadcast',
]);

export function hasCollective(nodes: readonly { readonly op: string }[]): boolean {
  return nodes.some((n) => COLLECTIVE_PRIMITIVES.has(n.op));
}
