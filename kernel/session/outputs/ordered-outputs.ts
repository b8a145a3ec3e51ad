// Outputs of cells reach the Publisher in call order. Most outputs are ready at
// once and go out synchronously; a display whose rendering is async (a
// tensor's display is a device sync point) holds back every later output
// (stream, display, update, clear) until it is published. Each output goes to
// the publisher of the moment it was emitted (a cell's, a comm message's, an
// Output widget's), also when it is held back.
import type { Publisher } from '../../language-session.js';

export type Send = (publisher: Publisher) => void;

export class OrderedOutputs {
  /** Settles when every output emitted so far is published; undefined when none waits. */
  private tail: Promise<void> | undefined;

  /** `publisher()` is the running request's publisher, asked when an output is emitted. */
  constructor(private readonly publisher: () => Publisher | undefined) {}

  /** Publishes now, or right after the outputs still waiting ahead of it. */
  emit(send: Send): void {
    const target = this.publisher();
    if (!target) return;
    if (this.tail) this.enqueue(this.tail.then(() => send(target)));
    else send(target);
  }

  /**
   * Publishes an output whose content is still being computed, in its place in
   * the order. The returned promise settles once it is published, or rejects
   * with the rendering's error (later outputs go out regardless).
   */
  emitWhenReady<T>(content: Promise<T>, send: (publisher: Publisher, content: T) => void): Promise<void> {
    const target = this.publisher();
    const published = (this.tail ?? Promise.resolve()).then(() => content).then((ready) => target && send(target, ready));
    this.enqueue(published);
    return published;
  }

  /** Settles once every output emitted so far is published. */
  settled(): Promise<void> {
    return this.tail ?? Promise.resolve();
  }

  private enqueue(work: Promise<void>): void {
    // A publisher that throws loses that output only, never the ones after it.
    const tail = (this.tail = work.catch(() => undefined));
    void tail.then(() => {
      if (this.tail === tail) this.tail = undefined;
    });
  }
}
