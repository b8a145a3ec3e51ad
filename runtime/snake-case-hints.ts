// PyTorch's snake_case name of a camelCase member, as a property that throws naming the member:
// a read of `x.requires_grad` or a write of `group.weight_decay` would otherwise be silently
// undefined or a key nothing reads.

/** maskedFill -> masked_fill, requiresGrad_ -> requires_grad_. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A camelCase name PyTorch spells in snake_case: starts with two lowercase letters, no two capitals in a row (not mT, toJSON). */
const hasSnakeForm = (name: string): boolean => /^[a-z]{2}[a-zA-Z0-9_]*[A-Z]/.test(name) && !/[A-Z]{2}/.test(name);

/**
 * Makes the snake_case name of each camelCase member of `target` (its own properties and
 * `fields`) a property that throws naming `${owner}.${camel}`; not enumerable.
 */
export function installHints(target: object, owner: string, fields: readonly string[]): void {
  for (const camel of [...Object.getOwnPropertyNames(target), ...fields].filter(hasSnakeForm)) {
    const snake = snakeCase(camel);
    if (snake in target) continue;
    const hint = (): TypeError => new TypeError(`${owner}.${snake}: PyTorch's ${snake} is ${owner}.${camel} here (tpu's names are camelCase)`);
    Object.defineProperty(target, snake, {
      get: () => {
        throw hint();
      },
      set: () => {
        throw hint();
      },
      configurable: true,
    });
  }
}
