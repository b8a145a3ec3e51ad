// A backend's lowering rules, keyed by primitive name (as JAX registers lowerings per
// platform): ops/ holds the shape rules and gradients, each backend its own table, so a
// backend is added beside the others without touching an op file.
import type { Abstract } from '../ops/op.js';

/** Shapes and dtypes of one node, as inferred on the host. */
export interface NodeTypes {
  readonly inputs: readonly Abstract[];
  readonly output: Abstract;
}

/** Lowers one node: `inputs` are the backend's values of the operands; returns the result's value. */
export type LoweringRule<Ctx, Value> = (ctx: Ctx, inputs: readonly Value[], attrs: any, types: NodeTypes) => Value;

export class LoweringTable<Rule> {
  private readonly rules = new Map<string, Rule>();

  /**
   * `claimed`: the primitives this backend promises to lower; undefined means every
   * registered primitive but `runElsewhere` (the coverage test holds the table to it).
   * `runElsewhere`: primitives its executor runs itself, outside the lowered graphs.
   */
  constructor(readonly backend: string, readonly claimed?: readonly string[], readonly runElsewhere: ReadonlySet<string> = new Set()) {}

  register(rules: Record<string, Rule>): void {
    for (const [name, rule] of Object.entries(rules)) {
      if (this.rules.has(name)) throw new Error(`${this.backend} lowerings: '${name}' is registered twice`);
      this.rules.set(name, rule);
    }
  }

  get(name: string): Rule {
    const rule = this.rules.get(name);
    if (!rule) throw new Error(`the ${this.backend} backend has no lowering for the primitive '${name}'`);
    return rule;
  }

  names(): string[] {
    return [...this.rules.keys()];
  }
}

/** Claimed primitives with no rule, and rules naming no primitive. */
export function loweringGaps(table: LoweringTable<unknown>, primitives: readonly string[]): { unlowered: string[]; unknown: string[] } {
  const lowered = new Set(table.names());
  const known = new Set(primitives);
  const claimed = table.claimed ?? primitives.filter((p) => !table.runElsewhere.has(p));
  return {
    unlowered: claimed.filter((p) => !lowered.has(p)),
    unknown: table.names().filter((n) => !known.has(n)),
  };
}
