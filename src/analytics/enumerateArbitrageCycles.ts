/**
 * Every cycle that starts and ends in `target` through the `intermediates`: two legs (T → X → T) for each
 * X, then three legs (T → X → Y → T) for each ordered pair X ≠ Y, in the order the intermediates are given
 * (so the same inputs always give the same list). An intermediate equal to the target is skipped, and so
 * are repeats: a cycle never visits a token twice before it returns.
 */
export function enumerateArbitrageCycles<T extends string>(target: T, intermediates: readonly T[]): T[][] {
  const via = [...new Set(intermediates)].filter((x) => x !== target)
  const cycles: T[][] = via.map((x) => [target, x, target])
  for (const x of via) for (const y of via) if (x !== y) cycles.push([target, x, y, target])
  return cycles
}
