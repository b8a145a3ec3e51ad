// Which rewrite a cell's tensor operators get. Where the cell is type-checked (`%typecheck
// error`, or `warn` once the language service is built), its program knows the tensor operands:
// the typed rewrite, exact and free at run time (an operand typed any or unknown is dispatched
// at run time). Elsewhere (`%typecheck off`, and the first cells of `warn`, before the service is
// built), no program is made for them: operators are dispatched at run time, so the cell still
// gets PyTorch's answer without a build on its path.
import { maskMagics } from '../magics/magic-lines.js';
import type { Magic, TypecheckMode } from '../magics/magic.js';
import type { LazyLanguageService } from '../language-service/lazy-language-service.js';
import { runtimeModule } from '../tensor-runtime.js';
import { typescript } from '../typescript.js';
import { dispatchOperators } from './dispatch-rewrite.js';
import { DISPATCH_DIR, createOperatorDispatch } from './operator-dispatch.js';
import type { RewriteResult } from './typed-operator-rewrite.js';

export class CellOperators {
  /** The run-time half of the dispatched rewrite: the cells' `__tpuOps`. */
  readonly dispatch = createOperatorDispatch();
  private tensorClassKnown: Promise<void> | undefined;

  constructor(private readonly languageService: LazyLanguageService, private readonly magics: ReadonlyMap<string, Magic>) {}

  /** The cell with its operators rewritten; undefined when it needs none (`mayMeetTensors`: no tensor can exist yet). */
  async rewrite(cell: string, mode: TypecheckMode, mayMeetTensors: boolean): Promise<RewriteResult | undefined> {
    const typed = mode === 'error' || (mode === 'warn' && this.languageService.ready);
    if (!typed && !mayMeetTensors) return undefined;
    // The class tensors are recognized by (a typed cell's conditions on tensors, and its operators
    // on untyped operands, are dispatched too); the runtime failing to load means no tensor exists.
    await (this.tensorClassKnown ??= runtimeModule().then((m) => {
      m.skipCallerFrames(DISPATCH_DIR);
      this.dispatch.recognize(m.Tensor, m.tpu);
    }, () => undefined));
    if (typed) return this.languageService.rewriteOperators(cell, this.magics);
    return dispatchOperators(cell, maskMagics(cell, this.magics), typescript());
  }
}
