/**
 * Keeps the first and the last `limit` bytes of a stream and counts what fell between, so that a
 * gate printing gigabytes costs a fixed amount of memory. Failures tend to sit at both ends.
 */
export class BoundedCapture {
  private readonly head: Buffer[] = [];
  private headSize = 0;
  private tail: Buffer[] = [];
  private tailSize = 0;
  private omitted = 0;

  constructor(private readonly limit: number) {}

  push(chunk: Buffer): void {
    if (this.headSize < this.limit) {
      const take = Math.min(chunk.length, this.limit - this.headSize);
      this.head.push(chunk.subarray(0, take));
      this.headSize += take;
      chunk = chunk.subarray(take);
      if (chunk.length === 0) return;
    }
    this.tail.push(chunk);
    this.tailSize += chunk.length;
    while (this.tailSize - (this.tail[0]?.length ?? 0) >= this.limit) {
      const dropped = this.tail.shift();
      this.tailSize -= dropped?.length ?? 0;
      this.omitted += dropped?.length ?? 0;
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const tail = Buffer.concat(this.tail).toString('utf8');
    if (this.omitted === 0) return head + tail;
    return `${head}\n[gate: ${this.omitted} bytes of output omitted here]\n${tail}`;
  }
}
