// A pure function's answers remembered per publisher or per business, when the same inputs come back across
// reviews (dates, words). Bounded: past `max` inputs, new ones are computed each time and not kept, so memory
// stays flat on content that never repeats.

export function boundedMemo<K, V>(compute: (key: K) => V, max: number): (key: K) => V {
  const memo = new Map<K, V>();
  return (key) => {
    let value = memo.get(key);
    if (value === undefined) {
      value = compute(key);
      if (memo.size < max) memo.set(key, value);
    }
    return value;
  };
}
