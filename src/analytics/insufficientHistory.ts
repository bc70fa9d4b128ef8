/** A read that needs more bars than it was given: it says how many, instead of inventing a number. */
export interface InsufficientHistory {
  status: 'insufficient_history'
  /** Bars the read needs (its warm-up). */
  needed: number
  /** Bars it was given. */
  got: number
}

/** The `insufficient_history` result for a read needing `needed` bars that got `got`. */
export function insufficientHistory(needed: number, got: number): InsufficientHistory {
  return { status: 'insufficient_history', needed, got }
}
