// A binary min-heap: the earliest of many due times in O(log n) per change.
export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    for (let i = items.length - 1; i > 0;) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as T, items[parent] as T)) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (last === undefined || items.length === 0) return top;
    items[0] = last;
    for (let i = 0; ;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let best = i;
      if (l < items.length && this.before(items[l] as T, items[best] as T)) best = l;
      if (r < items.length && this.before(items[r] as T, items[best] as T)) best = r;
      if (best === i) break;
      [items[i], items[best]] = [items[best] as T, items[i] as T];
      i = best;
    }
    return top;
  }

  clear(): void {
    this.items.length = 0;
  }
}
