/** Base class so callers (the upstream simulators) can map every simulator failure in one place. */
export class SimulatorError extends Error {
  override name = 'SimulatorError'
}

export class UnknownSymbolError extends SimulatorError {
  override name = 'UnknownSymbolError'
  constructor(readonly symbol: string) {
    super(`Unknown symbol "${symbol}": not in the devnet universe.`)
  }
}

export class InvalidRangeError extends SimulatorError {
  override name = 'InvalidRangeError'
  constructor(message: string) {
    super(message)
  }
}
