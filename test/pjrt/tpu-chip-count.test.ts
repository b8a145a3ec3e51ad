// A tpu-backend session of several chips is refused before any device thread starts, naming
// the chips asked for and the chips this host's TPU has (counted from the PCI devices Linux
// lists, with no libtpu): tested with a made-up /sys tree, the count check itself, and a real
// session asking for 4 chips on this machine.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTpuChipCount, hostTpuChips } from '../../dist/runtime/device/host-tpu-chips.js';

const root = mkdtempSync(join(tmpdir(), 'pci-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
function device(address: string, vendor: string, id: string) {
  mkdirSync(join(root, address));
  writeFileSync(join(root, address, 'vendor'), `${vendor}\n`);
  writeFileSync(join(root, address, 'device'), `${id}\n`);
}

describe("the host's TPU chips", () => {
  it('are the PCI devices with Google\'s vendor id and a TPU device id', () => {
    device('0000:00:04.0', '0x1ae0', '0x0063'); // v5e
    device('0000:00:05.0', '0x1ae0', '0x0063'); // v5e
    device('0000:00:06.0', '0x1ae0', '0x0042'); // a Google network card, not a TPU
    device('0000:00:07.0', '0x1af4', '0x1000'); // virtio
    expect(hostTpuChips(root)).toEqual({ chips: 2, generation: 'v5e' });
    expect(hostTpuChips(join(root, 'missing'))).toEqual({ chips: 0 });
  });

  it('a session asking for more chips than that, or for several, is refused naming both counts', () => {
    expect(() => checkTpuChipCount(1, { chips: 0 })).not.toThrow();
    expect(() => checkTpuChipCount(4, { chips: 0 })).toThrow(
      "TPU_KERNEL_BACKEND=tpu: the session asks for 4 chips (TPU_KERNEL_CHIPS or tpu.setDevice({ chips })), but this host's TPU has 0 chips; ask for at most 1, or unset TPU_KERNEL_BACKEND to emulate 4 chips on the embedded backend",
    );
    expect(() => checkTpuChipCount(8, { chips: 4, generation: 'v5e' })).toThrow(/asks for 8 chips .*, but this host's TPU has 4 chips \(v5e\); ask for at most 4,/);
    expect(() => checkTpuChipCount(2, { chips: 4, generation: 'v4' })).toThrow(
      "TPU_KERNEL_BACKEND=tpu runs one chip of this host so far: the session asks for 2 chips and this host's TPU has 4 chips (v4); ask for 1, or unset TPU_KERNEL_BACKEND to emulate 2 chips on the embedded backend",
    );
  });

  it("TPU_KERNEL_BACKEND=tpu with TPU_KERNEL_CHIPS=4 on this machine: the first op throws naming 4 and the host's count; the process goes on", () => {
    // This machine's count, read here: Google's PCI vendor id with a TPU device id.
    const pci = '/sys/bus/pci/devices';
    const ids = ['0x005e', '0x0062', '0x0063', '0x006f'];
    const read = (d: string, f: string) => readFileSync(join(pci, d, f), 'utf8').trim();
    let devices: string[] = [];
    try {
      devices = readdirSync(pci);
    } catch { /* no /sys: no chips */ }
    const have = devices.filter((d) => read(d, 'vendor') === '0x1ae0' && ids.includes(read(d, 'device'))).length;
    const script = `
import { tpu } from ${JSON.stringify(new URL('../../dist/runtime/index.js', import.meta.url).href)};
try { tpu.ones([2]); console.log('started'); } catch (e) { console.log('ERR ' + e.message); }
delete process.env.TPU_KERNEL_BACKEND;
console.log('onnx ' + JSON.stringify(await tpu.tensor([1, 2], { chip: 3 }).add(1).array()));
`;
    const env = { ...process.env, TPU_KERNEL_BACKEND: 'tpu', TPU_KERNEL_CHIPS: '4' };
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 60_000 });
    const err = r.stdout.split('\n').find((l) => l.startsWith('ERR'));
    expect(err).toMatch(have < 4 ? new RegExp(`asks for 4 chips .*, but this host's TPU has ${have} chips?\\b`) : /runs one chip of this host so far: the session asks for 4 chips/);
    expect(r.stdout).toContain('onnx [2,3]'); // unset: the next op opens 4 emulated chips
    expect(r.status).toBe(0);
  });
});
