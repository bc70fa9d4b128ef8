import { parseAbi } from 'viem'
import type { BuilderEngine, BuildPlan } from '../builderEngine.js'
import { SimulationRevertedError } from '../builderErrors.js'
import type { BuilderEnvelope } from '../txStep.js'

/** Aave v3 Pool (protocols.md §3): what the supply and withdraw builders encode. */
export const aavePoolAbi = parseAbi([
  'function supply(address asset, uint256 amount, address onBehalfOf, uint16 referralCode)',
  'function withdraw(address asset, uint256 amount, address to) returns (uint256)',
])

/**
 * Aave v3.4+ reverts with argument-less custom errors (aave-v3-origin Errors.sol); these are the ones a
 * supply or withdraw can hit. Older pools (v3.0–v3.3, the devnet's v1.19.3) revert with numeric strings
 * instead: see AAVE_STRING_ERRORS.
 */
export const aaveRevertAbi = parseAbi([
  'error InvalidAmount()',
  'error ReserveInactive()',
  'error ReserveFrozen()',
  'error ReservePaused()',
  'error NotEnoughAvailableUserBalance()',
  'error HealthFactorLowerThanLiquidationThreshold()',
  'error SupplyCapExceeded()',
  'error LtvValidationFailed()',
  'error WithdrawToAToken()',
  'error SupplyToAToken()',
])

/** v3.0–v3.3 Errors.sol codes a supply or withdraw can revert with (`require(…, '35')` → Error("35")). */
const AAVE_STRING_ERRORS: Readonly<Record<string, string>> = {
  '26': 'INVALID_AMOUNT',
  '27': 'RESERVE_INACTIVE',
  '28': 'RESERVE_FROZEN',
  '29': 'RESERVE_PAUSED',
  '32': 'NOT_ENOUGH_AVAILABLE_USER_BALANCE',
  '35': 'HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD',
  '51': 'SUPPLY_CAP_EXCEEDED',
  '57': 'LTV_VALIDATION_FAILED',
  '93': 'WITHDRAW_TO_ATOKEN',
  '94': 'SUPPLY_TO_ATOKEN',
}

/**
 * `engine.finish` with Aave's reverts made readable: custom errors decode through the revert ABI, and an
 * older pool's bare numeric `Error("35")` gets its Errors.sol name appended, so a caller is told
 * `Error(35): Aave HEALTH_FACTOR_LOWER_THAN_LIQUIDATION_THRESHOLD` rather than a number.
 */
export async function finishAave<A>(
  engine: BuilderEngine,
  plan: Omit<BuildPlan<A>, 'revertAbi'>,
): Promise<BuilderEnvelope<A>> {
  try {
    return await engine.finish({ ...plan, revertAbi: aaveRevertAbi })
  } catch (err) {
    if (!(err instanceof SimulationRevertedError)) throw err
    const { stepIndex, reason, ...rest } = err.details ?? {}
    const code = typeof reason === 'string' ? /^Error\((\d+)\)$/.exec(reason)?.[1] : undefined
    const name = code === undefined ? undefined : AAVE_STRING_ERRORS[code]
    if (name === undefined || typeof stepIndex !== 'number') throw err
    throw new SimulationRevertedError(stepIndex, `${reason}: Aave ${name}`, rest)
  }
}
