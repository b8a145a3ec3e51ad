// A setup file: one event-loop turn after every test. A file of synchronous tests (the device
// waits block the thread) otherwise gives vitest's worker no macrotask turn between them, so
// the reply to its "onTaskUpdate" call waits unread until its 60 s timeout fires first: the run
// then fails with "Timeout calling onTaskUpdate" though every test passed (seen under load).
import { afterEach } from 'vitest';

afterEach(() => new Promise<void>((resolve) => setImmediate(resolve)));
