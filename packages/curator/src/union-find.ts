/** Disjoint sets over 0..n-1 (path halving, union by size): groups pairwise links into clusters in near-linear time. */
export function createUnionFind(size: number) {
  const parent = Int32Array.from({ length: size }, (_, index) => index);
  const weight = new Int32Array(size).fill(1);
  const find = (x: number): number => {
    let node = x;
    while (parent[node] !== node) {
      parent[node] = parent[parent[node]!]!;
      node = parent[node]!;
    }
    return node;
  };
  return {
    find,
    union(a: number, b: number): boolean {
      let ra = find(a);
      let rb = find(b);
      if (ra === rb) return false;
      if (weight[ra]! < weight[rb]!) [ra, rb] = [rb, ra];
      parent[rb] = ra;
      weight[ra]! += weight[rb]!;
      return true;
    },
    /** Clusters with at least `minSize` members, each sorted, ordered by their smallest member. */
    groups(minSize = 2): number[][] {
      const byRoot = new Map<number, number[]>();
      for (let index = 0; index < size; index++) {
        const root = find(index);
        let list = byRoot.get(root);
        if (!list) {
          list = [];
          byRoot.set(root, list);
        }
        list.push(index);
      }
      return [...byRoot.values()].filter((group) => group.length >= minSize).sort((a, b) => a[0]! - b[0]!);
    },
  };
}
