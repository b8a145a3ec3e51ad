// A minimal protocol-buffers writer: varint, length-delimited and 32-bit float fields,
// enough for ONNX ModelProto and XLA CompileOptionsProto. Fields are written in call order.

const textEncoder = new TextEncoder();

export class ProtobufWriter {
  private chunks: number[] = [];

  private varint(value: number | bigint): void {
    let v = BigInt.asUintN(64, BigInt(value));
    while (v >= 0x80n) {
      this.chunks.push(Number(v & 0x7fn) | 0x80);
      v >>= 7n;
    }
    this.chunks.push(Number(v));
  }

  private tag(field: number, wireType: number): void {
    this.varint((field << 3) | wireType);
  }

  int(field: number, value: number | bigint): this {
    this.tag(field, 0);
    this.varint(value);
    return this;
  }

  float(field: number, value: number): this {
    this.tag(field, 5);
    const bytes = new Uint8Array(new Float32Array([value]).buffer);
    for (const b of bytes) this.chunks.push(b);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.tag(field, 2);
    this.varint(value.length);
    for (const b of value) this.chunks.push(b);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, textEncoder.encode(value));
  }

  message(field: number, build: (w: ProtobufWriter) => void): this {
    const inner = new ProtobufWriter();
    build(inner);
    return this.bytes(field, inner.finish());
  }

  /** A packed repeated int64 field. */
  packedInts(field: number, values: readonly number[]): this {
    const inner = new ProtobufWriter();
    for (const v of values) inner.varint(v);
    return this.bytes(field, inner.finish());
  }

  finish(): Uint8Array {
    return Uint8Array.from(this.chunks);
  }
}
