import type { Address, PublicClient } from 'viem'
import { type ExposureCheck, exposureOver, type OpenExposure, type PropBook } from '../store/propBook.js'
import { PropError } from './propErrors.js'
import type { Allotment } from './propTerms.js'
import { venueClosed } from './venueClosed.js'

/**
 * What a trade.open of `plan` adds to the desk's open positions and the limits it must stay within: the
 * member's allotment (collateral, and notional = collateral × leverage) and the desk's own
 * (PROP_DESK_MAX_OPEN_USDC), with the positions the venue no longer holds (venueClosed). The claim counts
 * the book's open rows against it under its locks.
 */
export async function exposureCheck(
  ctx: { chain: PublicClient; book: PropBook; desk: Address | undefined; deskMaxOpenUsdc: number },
  plan: { collateralUsdc: number; notionalUsd: number },
  allot: Pick<Allotment, 'maxCollateralUsdc' | 'maxLeverage'>,
): Promise<ExposureCheck> {
  const closedAtVenue =
    ctx.desk === undefined
      ? []
      : await venueClosed(ctx.chain, ctx.desk, await ctx.book.openPositions(), ctx.book.recordFill)
  return {
    collateralUsdc: plan.collateralUsdc,
    notionalUsd: plan.notionalUsd,
    memberMaxCollateralUsdc: allot.maxCollateralUsdc,
    memberMaxNotionalUsd: allot.maxCollateralUsdc * allot.maxLeverage,
    deskMaxCollateralUsdc: ctx.deskMaxOpenUsdc,
    closedAtVenue,
  }
}

/**
 * The refusal of an open that takes the member's open positions past their allotment (collateral, or
 * notional = collateral × leverage) or the desk's past its limit; undefined when it fits. `scope` forces
 * the one the claim found under its locks.
 */
export function exposureRefusal(
  x: ExposureCheck,
  open: OpenExposure,
  scope?: 'member' | 'desk',
): PropError | undefined {
  const round = (n: number) => Math.round(n * 100) / 100
  const which = scope ?? exposureOver(x, open)
  if (which === undefined) return undefined
  const details = {
    scope: which,
    openCollateralUsdc: round(which === 'member' ? open.memberCollateralUsdc : open.deskCollateralUsdc),
    ...(which === 'member'
      ? {
          maxCollateralUsdc: x.memberMaxCollateralUsdc,
          openNotionalUsd: round(open.memberNotionalUsd),
          maxNotionalUsd: x.memberMaxNotionalUsd,
        }
      : { maxCollateralUsdc: x.deskMaxCollateralUsdc }),
    requestedCollateralUsdc: x.collateralUsdc,
  }
  return new PropError(
    'prop_over_exposure',
    which === 'member'
      ? `Your open desk positions hold $${details.openCollateralUsdc} of collateral ($${round(open.memberNotionalUsd)} notional); ` +
          `with this one they would pass your allotment of $${x.memberMaxCollateralUsdc} ($${x.memberMaxNotionalUsd} notional). Close one first.`
      : `The desk's open positions hold $${details.openCollateralUsdc} of its $${x.deskMaxCollateralUsdc} limit: no room for $${x.collateralUsdc} more now.`,
    'params.collateralUsdc',
    details,
  )
}
