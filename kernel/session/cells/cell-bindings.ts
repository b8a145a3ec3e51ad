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

  /** Declares the names not yet declared; one the script scope refuses stays a global property. */
  declare(names: Iterable<string>): void {
    for (const name of names) {
      if (this.declared.has(name)) continue;
      try {
        if (!IDENTIFIER.test(name)) throw new SyntaxError(`not an identifier: ${name}`);
        new vm.Script(`let ${name};`, { filename: 'tpu-kernel-bindings' }).runInContext(this.context);
        this.declared.add(name);
      } catch {
        // A non-configurable global (e.g. `undefined`, `NaN`) cannot be shadowed by a `let`.
        if (!(name in this.context)) this.context[name] = undefined;
      }
    }
  }
}
