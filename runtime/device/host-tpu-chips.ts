// How many TPU chips this host has, read from the PCI devices the kernel lists (Google's
// vendor id and a TPU device id), with no libtpu: a session asking the tpu backend for more
// chips than that is refused before any device thread starts, naming both counts.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const GOOGLE_PCI_VENDOR = '0x1ae0';
/** PCI device ids of the TPU generations (as Linux lists them under /sys/bus/pci/devices). */
const TPU_PCI_DEVICES: Readonly<Record<string, string>> = { '0x005e': 'v4', '0x0062': 'v5p', '0x0063': 'v5e', '0x006f': 'v6e' };

export interface HostTpuChips {
  readonly chips: number;
  /** The generation of the first chip found (undefined with none). */
  readonly generation?: string;
}

/** The TPU chips among the PCI devices under `root` (a host without /sys has none). */
export function hostTpuChips(root = '/sys/bus/pci/devices'): HostTpuChips {
  let chips = 0;
  let generation: string | undefined;
  let devices: string[];
  try {
    devices = readdirSync(root);
  } catch {
    return { chips: 0 };
  }
  for (const d of devices) {
    const read = (file: string) => {
      try {
        return readFileSync(join(root, d, file), 'utf8').trim();
      } catch {
        return '';
      }
    };
    if (read('vendor') !== GOOGLE_PCI_VENDOR) continue;
    const kind = TPU_PCI_DEVICES[read('device')];
    if (kind === undefined) continue;
    chips++;
    generation ??= kind;
  }
  return { chips, generation };
}

/**
 * Refuses a tpu-backend session of `requested` chips beyond one: more than the host has (both
 * counts named), or several of them (the tpu backend runs one chip of this host so far).
 */
export function checkTpuChipCount(requested: number, host: HostTpuChips): void {
  if (requested <= 1) return;
  const has = `this host's TPU has ${host.chips} chip${host.chips === 1 ? '' : 's'}${host.generation ? ` (${host.generation})` : ''}`;
  const emulate = `unset TPU_KERNEL_BACKEND to emulate ${requested} chips on the embedded backend`;
  if (requested > host.chips) {
    throw new RangeError(`TPU_KERNEL_BACKEND=tpu: the session asks for ${requested} chips (TPU_KERNEL_CHIPS or tpu.setDevice({ chips })), but ${has}; ask for at most ${Math.max(1, host.chips)}, or ${emulate}`);
  }
  throw new RangeError(`TPU_KERNEL_BACKEND=tpu runs one chip of this host so far: the session asks for ${requested} chips and ${has}; ask for 1, or ${emulate}`);
}
