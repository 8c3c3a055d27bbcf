/**
 * Average-linkage agglomerative clustering (UPGMA) by the nearest-neighbour chain, O(n²) time
 * and memory: two groups merge when the mean similarity of their members' pairs is at least the
 * threshold. Unlike single linkage (any one shared pair joins two groups), one keyword that
 * names two topics cannot chain their groups together: it moves the mean of all pairs little.
 */

/** A group of the dendrogram: a leaf (one item) or the merge of two groups. */
export type Tree = { item: number } | { left: Tree; right: Tree; size: number };

/** How many items a group holds. */
const sizeOf = (tree: Tree): number => ("item" in tree ? 1 : tree.size);

/** The items of a group, in the order they were merged. */
function itemsOf(tree: Tree): number[] {
  return "item" in tree ? [tree.item] : [...itemsOf(tree.left), ...itemsOf(tree.right)];
}

/**
 * The groups of `count` items whose pairwise similarities (0–1) the symmetric matrix `sim`
 * holds (`sim[i * count + j]`; overwritten), merged while the mean similarity between two groups
 * is at least `threshold`. Each group is returned as its dendrogram, so a group too large can be
 * cut where it last merged. Deterministic: ties go to the lower index.
 */
export function averageLinkage(sim: Float64Array, count: number, threshold: number): Tree[] {
  const trees: Array<Tree | undefined> = Array.from({ length: count }, (_, item) => ({ item }));
  const alive = new Uint8Array(count).fill(1);
  const done: Tree[] = [];
  const chain: number[] = [];
  let first = 0;
  while (first < count) {
    if (!chain.length) chain.push(first);
    const a = chain.at(-1)!;
    const previous = chain.at(-2);
    let best = previous ?? -1;
    for (let c = first; c < count; c++) {
      if (alive[c] && c !== a && (best < 0 || sim[a * count + c]! > sim[a * count + best]!)) best = c;
    }
    if (best < 0 || sim[a * count + best]! < threshold) {
      // Merging others never brings a group nearer to `a` than the nearest of them: `a` is final.
      chain.pop();
      alive[a] = 0;
      done.push(trees[a]!);
    } else if (best === previous) {
      chain.splice(-2);
      merge(a, best);
    } else chain.push(best);
    while (first < count && !alive[first]) first++;
  }
  return done.sort((x, y) => Math.min(...itemsOf(x)) - Math.min(...itemsOf(y)));

  /** Group `b` into `a`'s slot, the mean similarity to every other group weighted by size (Lance–Williams). */
  function merge(a: number, b: number): void {
    const [sa, sb] = [sizeOf(trees[a]!), sizeOf(trees[b]!)];
    for (let c = 0; c < count; c++) {
      if (!alive[c] || c === a || c === b) continue;
      sim[a * count + c] = sim[c * count + a] = (sa * sim[a * count + c]! + sb * sim[b * count + c]!) / (sa + sb);
    }
    const [left, right] = a < b ? [trees[a]!, trees[b]!] : [trees[b]!, trees[a]!];
    trees[a] = { left, right, size: sa + sb };
    trees[b] = undefined;
    alive[b] = 0;
  }
}

/**
 * A group's items in parts of at most `most`: as few parts as that takes, of near-equal size,
 * each a run of the dendrogram's order (which keeps the nearest items side by side), so a large
 * group becomes a few articles on its sub-topics rather than one and a tail of single keywords.
 */
export function cutToSize(tree: Tree, most: number): number[][] {
  const items = itemsOf(tree);
  const parts = Math.ceil(items.length / most);
  return Array.from({ length: parts }, (_, p) =>
    items.slice(Math.round((p * items.length) / parts), Math.round(((p + 1) * items.length) / parts)),
  );
}
