// A per-scope list of insertion keys, kept ascending, so a page is a binary search plus a
// slice: O(log n + page size) whatever the size of the list (the document's pagination: a page costs O(page size), not O(all records)).
export class SortedIndex {
  private keys: number[] = [];

  append(key: number): void {
    const last = this.keys[this.keys.length - 1];
    if (last === undefined || key > last) this.keys.push(key);
    else this.keys.splice(this.lowerBound(key), 0, key);
  }

  remove(key: number): void {
    const at = this.lowerBound(key);
    if (this.keys[at] === key) this.keys.splice(at, 1);
  }

  get size(): number {
    return this.keys.length;
  }

  at(position: number): number | undefined {
    return this.keys[position];
  }

  /** First position whose key is >= key. */
  lowerBound(key: number): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.keys[mid] as number) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
