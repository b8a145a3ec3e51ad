// V8 reaches the shape (map) of an object built by a class through transitions from the class's
// initial map, one per field, and holds those transitions weakly: when no instance of a class
// is alive at a full collection, its shape dies, and every optimized function that checks for
// that shape is deoptimized ("weak objects" in node --trace-deopt), then optimized again once
// the next instances made a new one. Classes whose instances all die within a step (strict
// mode's bindings, an optimizer's live numbers) recompiled ~25 hot functions at every full
// collection of a training loop; each keeps one instance here, made at load, for good.
const kept: object[] = [];

/** Keeps `instance` (and so its class's shape) alive for the life of the process. */
export function keepShape(instance: object): void {
  kept.push(instance);
}
