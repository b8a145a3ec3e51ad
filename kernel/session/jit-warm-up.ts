// TypeScript's parser, binder, checker and the kernel's rewrites and emit run once or a few
// times a cell, so V8 optimizes them only after some hundreds of cells: before that a cell's
// compile runs in V8's baseline tiers, several times slower (a cell's parse took 100-120 us in
// the kernel against 18-26 optimized). In quiet spells (no cell for a while, as the language
// service's own build waits for), practice cells go through what an executed cell's compile
// does, the type-checked path (on the check chain: nothing is recorded, no program is made) and
// the dispatched one (`%typecheck off`), then the host's share (the kernel's protocol,
// SessionOptions.practice), and nothing runs. A request that arrives waits for one
// slice at most; the practice stops for good after PRACTICE_CELLS.

import { withPracticeTiering } from './cells/cell-tiering.js';

/**
 * Quiet time (no cell running, none finished) before practising: longer than a notebook's "run
 * all" leaves between cells, or a benchmark between its blocks of cells, so practice takes no
 * core from cells that come in a row (a person reading a cell's output leaves longer).
 */
const QUIET_MS = 2000;
/** A slice of practice: at most this long on the thread before a request can be read. */
const SLICE_MS = 5;
/** Practice cells in all, per kernel. */
const PRACTICE_CELLS = 400;

/** Cells of the kinds a notebook has (declarations, tensor operators, functions, loops, classes, templates); `i` makes each new. */
const PRACTICE: ReadonlyArray<(i: number) => string> = [
  (i) => `const w${i}: number = ${i} * 2;\nw${i} + 1`,
  (i) => `const x${i} = tpu.randn([4, 3]);\nconst y${i} = (x${i} * 2 + 1).relu();\ny${i}.sum().item()`,
  (i) => `function f${i}(a: number, b = 2): number {\n  return a ** b - a / 3;\n}\nf${i}(${i})`,
  (i) => `let s${i} = 0;\nfor (let k = 0; k < 10; k++) if (k % 2 === 0) s${i} += k;\ns${i}`,
  (i) => `const o${i} = { name: 'n${i}', sizes: [1, 2, 3].map((n) => n * ${i}) };\nconsole.log(\`\${o${i}.name}: \${o${i}.sizes.join(', ')}\`);`,
  (i) => `class C${i} {\n  n: number;\n  constructor(n: number) { this.n = n; }\n  twice(): number { return this.n * 2; }\n}\nnew C${i}(${i}).twice()`,
  (i) => `const t${i} = tpu.tensor([[1, 2], [3, 4]]);\nconst m${i} = t${i}[0][1] > 1 ? t${i}.mean() : t${i}.max();\nm${i}`,
];

/** The `i`th practice cell. */
export const practiceCell = (i: number): string => PRACTICE[i % PRACTICE.length]!(i);

export class JitWarmUp {
  private done = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastCellAt = performance.now();

  /**
   * `busy()`: a cell is running. `ready()`: the language service is built (its own quiet-spell
   * build comes first). `practise(cell)`: one cell's compile paths, nothing run or recorded.
   */
  constructor(private readonly busy: () => boolean, private readonly ready: () => boolean, private readonly practise: (cell: string) => void) {
    this.schedule(QUIET_MS);
  }

  /** A cell ended: practice waits for the next quiet spell. */
  cellEnded(): void {
    this.lastCellAt = performance.now();
    if (this.done < PRACTICE_CELLS && !this.timer) this.schedule(QUIET_MS);
  }

  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.done = PRACTICE_CELLS;
  }

  private schedule(delay: number): void {
    this.timer = setTimeout(() => this.slice(), delay);
    this.timer.unref();
  }

  private slice(): void {
    this.timer = undefined;
    if (this.busy() || !this.ready()) return this.schedule(QUIET_MS);
    const quietFor = performance.now() - this.lastCellAt;
    if (quietFor < QUIET_MS) return this.schedule(QUIET_MS - quietFor);
    const start = performance.now();
    try {
      withPracticeTiering(() => {
        while (this.done < PRACTICE_CELLS && performance.now() - start < SLICE_MS) {
          this.practise(practiceCell(this.done));
          this.done++;
        }
      });
    } catch {
      // Practice only makes later cells faster: a failure ends it, and no cell's output reports it.
      this.done = PRACTICE_CELLS;
    }
    if (this.done < PRACTICE_CELLS) this.schedule(0);
  }
}
