// Where the names a cell declares live: `let` bindings of the context's script scope, shared by
// every later script in it (V8's script context table). A cell's declarations are rewritten to
// assignments (top-level-rewrite.ts), so a later cell may redefine a name; the binding itself is
// declared once, by a script of its own, before the first cell that assigns it runs. Reading a
// script-scope binding is a slot load; a property of vm's global object goes through Node's
// interceptor every time: a loop over `data[i] = raw[i] / 255` at a cell's top level ran about
// 10x slower that way than inside a function.
import vm from 'node:vm';

const IDENTIFIER = /^[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u;

export class CellBindings {
  private readonly declared = new Set<string>();

  constructor(private readonly context: vm.Context) {}

  /** Whether a cell declared `name` (the global object does not show it). */
  has(name: string): boolean {
    return this.declared.has(name);
  }

  /** Declares the names not yet declared, in one script; one the script scope refuses stays a global property. */
  declare(names: Iterable<string>): void {
    const fresh = [...new Set(names)].filter((name) => !this.declared.has(name));
    if (!fresh.length) return;
    // A refused name fails the whole script before it binds anything: then each goes alone.
    if (fresh.length === 1 || !this.bind(fresh)) for (const name of fresh) this.bind([name]);
  }

  /** Runs `let a, b;`; false when the script scope refuses it. */
  private bind(names: string[]): boolean {
    try {
      const bad = names.find((name) => !IDENTIFIER.test(name));
      if (bad !== undefined) throw new SyntaxError(`not an identifier: ${bad}`);
      new vm.Script(`let ${names.join(', ')};`, { filename: 'tpu-kernel-bindings' }).runInContext(this.context);
      for (const name of names) this.declared.add(name);
      return true;
    } catch {
      // A non-configurable global (e.g. `undefined`, `NaN`) cannot be shadowed by a `let`.
      if (names.length === 1 && !(names[0]! in this.context)) this.context[names[0]!] = undefined;
      return false;
    }
  }
}
