// DeviceMesh: the chips of the session arranged in an n-d grid with named axes (PyTorch's
// init_device_mesh). `chips` lists chip ids row-major; mesh.get(axis) is the sub-mesh view
// along one axis, whose groups are the lines of chips along it (for [2, 2] dp×tp, the tp
// groups are [0, 1] and [2, 3], the dp groups [0, 2] and [1, 3]).
import { settings } from '../device/settings.js';
import { readOptions } from '../options.js';
import { specialized } from '../jit/live-number.js';

export interface MeshOptions {
  /** One name per dimension (default 'dim0', 'dim1', ...). */
  names?: readonly string[];
}

export class DeviceMesh {
  /** Chip ids, row-major over `shape`. */
  readonly chips: readonly number[];

  /** Use tpu.initDeviceMesh. `axis`: the one axis a sub-mesh view runs along (null: the whole mesh). */
  constructor(readonly shape: readonly number[], readonly names: readonly string[], readonly axis: string | null = null) {
    this.chips = Array.from({ length: shape.reduce((a, b) => a * b, 1) }, (_, i) => i);
  }

  get size(): number {
    return this.chips.length;
  }

  get ndim(): number {
    return this.shape.length;
  }

  /** The sub-mesh along `axis`: collectives given it run within each of its groups. */
  get(axis: string): DeviceMesh {
    this.axisIndex(axis, 'mesh.get');
    return new DeviceMesh(this.shape, this.names, axis);
  }

  /** The index of a named axis; throws naming the mesh's axes. */
  axisIndex(axis: string, who: string): number {
    const i = this.names.indexOf(axis);
    if (i < 0) throw new RangeError(`${who}: the mesh has no axis ${JSON.stringify(axis)}; its axes are ${this.names.map((n) => JSON.stringify(n)).join(', ')}`);
    return i;
  }

  /**
   * The groups of chips a collective along `axis` runs in (all chips in one group when null):
   * chips that differ only in that axis' coordinate, in its order.
   */
  groups(axis: string | null = this.axis): number[][] {
    if (axis === null) return [[...this.chips]];
    const d = this.axisIndex(axis, 'collective');
    const stride = this.shape.slice(d + 1).reduce((a, b) => a * b, 1);
    const n = this.shape[d]!;
    const groups: number[][] = [];
    for (const c of this.chips) {
      if (Math.floor(c / stride) % n !== 0) continue; // c is the first of its line
      groups.push(Array.from({ length: n }, (_, k) => c + k * stride));
    }
    return groups;
  }

  /** Each chip's place in its group along `axis` (mesh.chips order): its coordinate on that axis (its index when null). */
  ranks(axis: string | null = this.axis): number[] {
    const groups = this.groups(axis);
    return this.chips.map((c) => groups.find((g) => g.includes(c))!.indexOf(c));
  }

  toString(): string {
    const dims = this.shape.map((n, i) => `${this.names[i]}=${n}`).join(', ');
    return `DeviceMesh(${dims}${this.axis ? `; along ${this.axis}` : ''})`;
  }
}

/**
 * A mesh over the session's chips (torch.distributed.init_device_mesh): its size must be the chip count.
 * @example
 * tpu.initDeviceMesh([tpu.device().chips], { names: ['dp'] }).names // ['dp']
 * // on 4 chips: tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] }).get('tp').groups() is [[0, 1], [2, 3]]
 */
export function initDeviceMesh(shape: readonly number[], opts?: MeshOptions): DeviceMesh {
  const who = 'tpu.initDeviceMesh';
  shape = specialized(shape); // tpu.compile number arguments: their values, the trace specialized on them
  if (!Array.isArray(shape) || shape.length === 0 || !shape.every((n) => Number.isInteger(n) && n > 0)) {
    throw new TypeError(`${who}: shape must be a non-empty array of positive integers like [4] or [2, 2]; got ${JSON.stringify(shape)}`);
  }
  const o = readOptions<MeshOptions>(who, opts, ['names']);
  const names = o.names ?? shape.map((_, i) => `dim${i}`);
  if (!Array.isArray(names) || names.length !== shape.length || !names.every((n) => typeof n === 'string' && n.length > 0)) {
    throw new TypeError(`${who}: names must give one non-empty string per dimension of shape ${JSON.stringify(shape)}; got ${JSON.stringify(names)}`);
  }
  if (new Set(names).size !== names.length) throw new TypeError(`${who}: names must be distinct; got ${JSON.stringify(names)}`);
  const size = shape.reduce((a, b) => a * b, 1);
  const chips = settings.chips();
  if (size !== chips) {
    throw new RangeError(`${who}: a mesh of shape ${JSON.stringify(shape)} has ${size} chips, but the session has ${chips} (set TPU_KERNEL_CHIPS=${size} or call tpu.setDevice({ chips: ${size} }) first)`);
  }
  return new DeviceMesh([...shape], [...names]);
}
