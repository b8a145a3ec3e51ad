// Something refused while a function runs (reading tensor values, switching modes while
// tpu.compile traces): `during(message, fn)` refuses it, `check(what)` throws `what: message`.
export class Refusal {
  private message: string | null = null;
  /** The first refusal since `firstIn` started (null: none), even if the caller caught it. */
  private first: Error | null = null;

  during<T>(message: string, fn: () => T): T {
    const before = this.message;
    this.message = message;
    try {
      return fn();
    } finally {
      this.message = before;
    }
  }

  check(what: string): void {
    if (this.message === null) return;
    const e = new Error(`${what}: ${this.message}`);
    this.first ??= e;
    throw e;
  }

  /** fn's result, and the first refusal inside it even if fn caught that error (null: none). */
  firstIn<T>(fn: () => T): [T, Error | null] {
    const before = this.first;
    this.first = null;
    try {
      const result = fn();
      return [result, this.first];
    } finally {
      this.first = before;
    }
  }
}
