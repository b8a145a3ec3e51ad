// An operand typed a tensor or something else (`p.grad`: Tensor | null) is dispatched at run
// time in a type-checked cell, as under `%typecheck off`: the manual SGD step
// `w.sub_(w.grad * lr)` gives PyTorch's answer instead of "no operator overloading".
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { LazyLanguageService } from '../../kernel/session/language-service/lazy-language-service.js';
import { dispatchOperators } from '../../kernel/session/operators/dispatch-rewrite.js';
import { builtSessions } from './built-sessions.js';

describe('the typed rewrite of an operand typed Tensor | null', () => {
  const service = new LazyLanguageService(mkdtempSync(path.join(tmpdir(), 'nullable-rewrite-')), () => false);
  service.recordCell('declare const g: ReturnType<typeof tpu.ones> | null;\ndeclare const u: ReturnType<typeof tpu.ones> | undefined;');
  const typed = (cell: string) => {
    const result = service.rewriteOperators(cell, new Map());
    if (!result || 'error' in result) throw new Error(`no rewrite of ${cell}: ${JSON.stringify(result)}`);
    return result.code;
  };

  it.each(['g * 0.1', '1 - u', '-g', 'g[0]', 'g / u'])('as dispatched: %s', (cell) => {
    expect(typed(cell)).toBe(dispatchOperators(cell, cell, ts).code);
  });
});

describe('a nullable tensor in a type-checked session', () => {
  const driver = builtSessions('tpu-nullable-operands-')();
  beforeAll(async () => {
    await driver.session.complete('Mat', 3); // builds the language service: the typed rewrite runs
  });

  it('steps by hand with p.grad * lr, as PyTorch', async () => {
    // w = [1, 2]; d(sum w²)/dw = 2w; three steps w -= 0.1·2w (grad zeroed each time): w·0.8³
    const cell = 'const w = tpu.tensor([1, 2], { requiresGrad: true });\n'
      + 'for (let i = 0; i < 3; i++) { (w * w).sum().backward(); tpu.noGrad(() => { w.sub_(w.grad * 0.1); w.grad.zero_(); }); }\n'
      + 'JSON.stringify([w.detach().array(), (-w.grad).array(), (1 - w.grad).array(), w.grad[1].item()])';
    const value = JSON.parse(JSON.parse((await driver.value(cell)).replace(/^'|'$/g, '"')) as string) as number[][];
    expect(value[0]![0]).toBeCloseTo(0.512, 6);
    expect(value[0]![1]).toBeCloseTo(1.024, 6);
    expect(value.slice(1)).toEqual([[0, 0], [1, 1], 0]); // -0 of -grad reads 0 through JSON
  });
});
