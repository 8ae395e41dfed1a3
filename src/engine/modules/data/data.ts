// `k6/data` (/javascript-api/k6-data/sharedarray/): "SharedArray is an array-like object that shares the underlying
// memory between VUs. The function executes only once, and its result is saved in memory once."

/** Arrays made so far in this engine (one per worker thread), by name. */
const made = new Map<string, readonly unknown[]>();

/** The `k6/data` module; SharedArray is the same for every VU of a worker. */
export function dataModule() {
  // A function, not a class: `new SharedArray(…)` then gives the shared array itself (a constructor that returns an
  // object hands that object to `new`), and element reads are what scenarios do with it.
  function SharedArray(name: string, fn: () => unknown[]): readonly unknown[] {
    if (typeof name !== 'string' || name === '') throw new Error('SharedArray: the first argument must be a name');
    let data = made.get(name);
    if (!data) {
      const out = fn();
      if (!Array.isArray(out)) throw new Error(`SharedArray '${name}': the function must return an array`);
      // Frozen so that no VU can change what the others read ("read-only").
      data = Object.freeze(out.map((x) => (typeof x === 'object' && x !== null ? Object.freeze(x) : x)));
      made.set(name, data);
    }
    return data;
  }
  return { SharedArray };
}
