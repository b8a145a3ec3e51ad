// deviceCheck (ops/device-check.ts): XLA has no assert, so the value passes as it is and the
// check's code becomes an extra result of @main, which the backend reads (lower-program.ts).
import type { DeviceCheck } from '../../device-check.js';
import { stablehloLowerings } from './table.js';

stablehloLowerings.register({
  deviceCheck(ctx, [x, code], check: DeviceCheck) {
    ctx.checks.push({ code: code!, check });
    return x!;
  },
});
