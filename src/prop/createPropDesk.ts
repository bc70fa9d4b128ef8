import type { Address, Hex, PublicClient, TransactionReceipt } from 'viem'
import { usdInUtil } from '../analytics/utilUsdValue.js'
import type { BuilderEngine } from '../builders/builderEngine.js'
import type { BuilderEnvelope } from '../builders/txStep.js'
import { DEAD_ADDRESS } from '../chain/addresses.js'
import { ReceiptTimeoutError } from '../chain/pollReceipt.js'
import { readUtilTransfer } from '../chain/readUtilTransfer.js'
import type { ExposureCheck, PropBook } from '../store/propBook.js'
import type { UtilSendBook } from '../store/utilSendBook.js'
import { DeskRevertError, type DeskSender, type DeskStep } from './deskSender.js'
import { openedOrder } from './gtradeOrders.js'
import { exposureCheck, exposureRefusal } from './openExposure.js'
import { type PropPlan, type PropRequest, planAction } from './planAction.js'
import { PropError } from './propErrors.js'
import type { PropQuoteTokens } from './propQuoteToken.js'
import { actionCostUsd, allotment, matchFactor, membership, PROP_TERMS } from './propTerms.js'
import { readMemberStanding, type StandingSources } from './readMemberStanding.js'
import { createUtilSendIndex, IndexBehindError } from './utilSendIndex.js'

export interface PropDeskDeps {
  chain: PublicClient
  engine: BuilderEngine
  book: PropBook
  /** Undefined when no desk key is configured: quotes still answer, actions are refused (503). */
  sender: DeskSender | undefined
  /** Null where this deployment has no UTIL token or pool: the desk answers 503. */
  sources:
    | (Omit<StandingSources, 'deskRecipient' | 'dead' | 'sends'> & {
        deskRecipient: Address | undefined
        /** The first block worth reading for burns and sends (the token's deployment). */
        logsFromBlock: bigint
      })
    | null
  /** Where the index of members' burns and sends is kept. */
  sendBook: UtilSendBook
  /** The widest block range of one `eth_getLogs` (RPC_LOGS_MAX_BLOCKS). */
  logsMaxBlocks: number
  cooldownSec: number
  clock: () => number
  /** Signs the quotes execute honours (the instance's QUOTE_SECRET). */
  quotes: PropQuoteTokens
  /** The most collateral the desk holds open across every member (PROP_DESK_MAX_OPEN_USDC). */
  deskMaxOpenUsdc: number
}

export type PropDesk = ReturnType<typeof createPropDesk>

/**
 * The prop desk (issue 25; the spec's "Prop desk authorization"): members pay for an action with a UTIL
 * transfer of their own (to the desk recipient, or a burn), and the desk runs it with the desk's capital,
 * signed by the desk's key, within the member's allotment, and attributes the position to the member.
 * Everything that can refuse an action (membership, allotment, the transfer, the build's simulation) runs
 * before the transfer's hash is claimed, so a refusal changes nothing and costs nothing.
 */
export function createPropDesk(deps: PropDeskDeps) {
  const { chain, book, engine } = deps
  const deskAddress = deps.sender?.address
  const deskRecipient = deps.sources?.deskRecipient ?? deskAddress
  const { sends, sources } = standingSourcesOf(deps, deskRecipient)
  const nowSec = () => Math.floor(deps.clock() / 1000)

  /** Everything a quote says and an execution checks, for `payer` asking `request`. */
  const assess = async (payer: Address, request: PropRequest) => {
    const plan = await planAction(request, { book, chain, payer, desk: deskAddress ?? payer })
    const executed = await book.executedCount(payer)
    const { standing, price } = await readMemberStanding(chain, sources(), payer, executed).catch(
      (err: unknown) => {
        if (err instanceof IndexBehindError)
          throw unavailable(`it is reading UTIL transfers (${err.blocksBehind} blocks to go)`, err)
        throw err
      },
    )
    const member = membership(standing)
    const factor = matchFactor(standing)
    const allot = allotment(factor)
    const refusals = plan.kind === 'open' ? allotmentRefusals(plan, allot) : []
    // The member's and the desk's open positions, with this open: judged by the claim, under its locks.
    const exposure =
      plan.kind === 'open'
        ? await exposureCheck(
            { chain, book, desk: deskAddress, deskMaxOpenUsdc: deps.deskMaxOpenUsdc },
            plan,
            allot,
          )
        : undefined
    const costUsd = actionCostUsd(
      plan.kind === 'open'
        ? { actionId: 'trade.open', notionalUsd: plan.notionalUsd }
        : { actionId: 'trade.close' },
    )
    const utilCost = usdInUtil(BigInt(Math.round(costUsd * 1e6)), price.sqrtPriceX96, price.utilIsToken0)
    const age = await book.lastActionAgeSec(payer)
    const cooldownRemainingSec = age === undefined ? 0 : Math.max(0, Math.ceil(deps.cooldownSec - age))
    return {
      plan,
      standing,
      member,
      factor,
      allot,
      refusals,
      exposure,
      costUsd,
      utilCost,
      cooldownRemainingSec,
    }
  }

  return {
    /** Moves the index of members' burns and sends toward the head (the reconcile rounds). */
    advanceIndex: (): Promise<void> => sends?.advance() ?? Promise.resolve(),
    async quote(paying: Address | undefined, request: PropRequest) {
      const payer = proven(paying)
      const a = await assess(payer, request)
      // What the claim would say of the exposure now (execute leaves the verdict to the claim's locks).
      const overExposure =
        a.exposure === undefined
          ? undefined
          : exposureRefusal(a.exposure, await book.openExposure(payer, a.exposure.closedAtVenue))
      const reasons = [
        ...a.member.lacks,
        ...a.refusals.map((r) => r.message),
        ...(overExposure === undefined ? [] : [overExposure.message]),
        ...(a.cooldownRemainingSec > 0
          ? [`cooldown: ${a.cooldownRemainingSec} s before the next action`]
          : []),
        ...(a.plan.kind === 'close' && a.plan.problem !== undefined ? [a.plan.problem.message] : []),
      ]
      const expiresAt = nowSec() + PROP_TERMS.quoteValidSec
      return {
        actionId: request.actionId,
        utilCost: a.utilCost.toString(),
        utilCostUsd: a.costUsd,
        quote: {
          token: deps.quotes.sign(payer, request, a.utilCost, expiresAt),
          expiresAt,
          tolerancePct: PROP_TERMS.quoteTolerancePct,
        },
        matchFactor: a.factor,
        eligible: a.member.eligible,
        reasons,
        membership: membershipOf(a),
        allotment: { ...a.allot, pairs: [...a.allot.pairs] },
        cooldownRemainingSec: a.cooldownRemainingSec,
        send: {
          agents: { to: deskRecipient ?? null, field: 'payTxHash' as const },
          humans: { to: DEAD_ADDRESS, field: 'burnTxHash' as const },
        },
      }
    },

    async execute(
      paying: Address | undefined,
      request: PropRequest & { payTxHash?: string; burnTxHash?: string; quoteToken?: string },
    ) {
      const payer = proven(paying)
      const sender = deps.sender
      if (sender === undefined) throw unavailable('no desk key is configured here')
      const auth = authorizingHash(request)
      const a = await assess(payer, request)
      if (!a.member.eligible) {
        throw new PropError('prop_ineligible', `${a.member.lacks.join('; ')}.`, undefined, {
          combinedUsd: round2(a.member.combinedUsd),
          thresholdUsd: PROP_TERMS.qualificationUsd,
          heldUsd: round2(a.standing.heldUsd),
          burnedUsd: round2(a.standing.burnedUsd),
          sentUsd: round2(a.standing.sentUsd),
        })
      }
      const refusal = a.refusals[0]
      if (refusal !== undefined) throw refusal
      if (a.plan.kind === 'close' && a.plan.problem !== undefined) throw a.plan.problem
      if (a.cooldownRemainingSec > 0) throw cooldown(a.cooldownRemainingSec)

      // The member's own transfer, of at least the cost at today's price.
      const transfer = await readUtilTransfer(chain, auth.hash, {
        token: sources().util,
        to: auth.kind === 'pay' ? (deskRecipient as Address) : DEAD_ADDRESS,
        from: payer,
        maxAgeSec: PROP_TERMS.maxTransferAgeSec,
        nowSec: nowSec(),
      })
      if ('problem' in transfer) throw badHash(auth.kind, transfer.problem)
      const { required, quote } = requiredUtil(
        a.utilCost,
        deps.quotes.verify(request.quoteToken, payer, request, nowSec()),
      )
      if (transfer.amount < required) {
        throw badHash(auth.kind, 'too_small', {
          required: required.toString(),
          sent: transfer.amount.toString(),
          utilCostNow: a.utilCost.toString(),
          quote,
          tolerancePct: PROP_TERMS.quoteTolerancePct,
        })
      }

      // Built and simulated from the desk's wallet before anything is claimed: a refused build is free.
      const envelope = await a.plan.build(engine)
      const steps = deskSteps(envelope)
      const claim = await book.claim({
        member: payer,
        action: request.actionId,
        params: a.plan.record,
        authTxHash: auth.hash as `0x${string}`,
        authKind: auth.kind,
        utilAmount: transfer.amount,
        plannedSteps: steps.length,
        cooldownSec: deps.cooldownSec,
        ...(a.exposure === undefined ? {} : { exposure: a.exposure }),
      })
      if (claim.kind === 'used') throw badHash(auth.kind, 'used')
      if (claim.kind === 'exposure') {
        throw exposureRefusal(a.exposure as ExposureCheck, claim.open, claim.scope) as PropError
      }
      if (claim.kind === 'cooldown') throw cooldown(claim.retryAfterSec)

      let receipts: TransactionReceipt[]
      try {
        receipts = await sender.send(steps, (hash) => book.addDeskTx(claim.id, hash))
      } catch (err) {
        // A transaction whose outcome is unknown stays `submitted` for the reconciler; anything else failed
        // and frees the member's transfer for another try.
        if (!(err instanceof ReceiptTimeoutError)) {
          await book.fail(claim.id, err instanceof DeskRevertError ? err.message : String(err))
        }
        throw unavailable(
          err instanceof DeskRevertError
            ? 'the desk’s transaction reverted; your transfer can authorize another try'
            : 'the desk’s transaction could not be confirmed; the action is reconciled from the chain',
          err,
        )
      }
      const result = actionResult(a.plan, receipts, sender.address)
      await book.finish(claim.id, result)
      return {
        actionId: request.actionId,
        status: 'executed' as const,
        txHash: (receipts.at(-1)?.transactionHash ?? null) as Hex | null,
        positionId: a.plan.kind === 'open' ? claim.id : a.plan.positionId,
        member: payer,
        desk: sender.address,
        utilPaid: transfer.amount.toString(),
        deskTxs: receipts.map((r) => r.transactionHash),
        position: result.position,
      }
    },
  }
}

/** A member's standing as a quote shows it: what counts toward membership, against the threshold. */
function membershipOf(a: {
  standing: { heldUsd: number; burnedUsd: number; sentUsd: number; executedActions: number }
  member: { combinedUsd: number }
}) {
  return {
    heldUsd: round2(a.standing.heldUsd),
    burnedUsd: round2(a.standing.burnedUsd),
    sentUsd: round2(a.standing.sentUsd),
    combinedUsd: round2(a.member.combinedUsd),
    thresholdUsd: PROP_TERMS.qualificationUsd,
    executedActions: a.standing.executedActions,
  }
}

/** What a finished action records (and answers): the position as the desk holds it for the member. */
export function actionResult(
  plan: Pick<PropPlan, 'kind'> & Partial<PropPlan>,
  receipts: TransactionReceipt[],
  desk: Address,
) {
  const last = receipts.at(-1)
  if (plan.kind === 'open') {
    const order = last === undefined ? undefined : openedOrder(last, desk)
    return {
      deskTxs: receipts.map((r) => r.transactionHash),
      position: {
        state: 'pending_fill' as const,
        openBlock: last === undefined ? null : Number(last.blockNumber),
        orderIndex: order?.index ?? null,
      },
    }
  }
  return { deskTxs: receipts.map((r) => r.transactionHash), position: { state: 'closing' as const } }
}

function allotmentRefusals(plan: Extract<PropPlan, { kind: 'open' }>, allot: ReturnType<typeof allotment>) {
  const out: PropError[] = []
  if (!allot.pairs.includes(plan.pairIndex)) {
    out.push(
      new PropError(
        'prop_pair_not_allowed',
        `The desk does not trade pair ${plan.pairIndex}.`,
        'params.pairIndex',
        {
          allowed: [...allot.pairs],
        },
      ),
    )
  }
  if (plan.collateralUsdc > allot.maxCollateralUsdc) {
    out.push(
      new PropError(
        'prop_over_allotment',
        `collateralUsdc ${plan.collateralUsdc} is above the member’s allotment of ${allot.maxCollateralUsdc} USDC.`,
        'params.collateralUsdc',
        { maxCollateralUsdc: allot.maxCollateralUsdc },
      ),
    )
  }
  if (plan.leverage > allot.maxLeverage) {
    out.push(
      new PropError(
        'prop_over_allotment',
        `leverage ${plan.leverage} is above the member’s allotment of ${allot.maxLeverage}x.`,
        'params.leverage',
        { maxLeverage: allot.maxLeverage },
      ),
    )
  }
  return out
}

/** The desk sends a builder's steps with the gas limits its simulation suggested. */
function deskSteps(envelope: BuilderEnvelope<unknown>): DeskStep[] {
  return envelope.steps.map((step, i) => {
    const gas = envelope.simulation.steps[i]?.gasLimit
    if (gas === undefined) throw new Error(`the build has no gas limit for step ${i}`)
    return { to: step.to, data: step.data, value: BigInt(step.value), gas: BigInt(gas) }
  })
}

function authorizingHash(request: { payTxHash?: string; burnTxHash?: string }): {
  kind: 'pay' | 'burn'
  hash: string
} {
  if (request.payTxHash !== undefined && request.burnTxHash !== undefined) {
    throw badHash(
      'pay',
      'both',
      undefined,
      'pass one of payTxHash (agents) or burnTxHash (humans), not both.',
    )
  }
  if (request.payTxHash !== undefined) return { kind: 'pay', hash: request.payTxHash }
  if (request.burnTxHash !== undefined) return { kind: 'burn', hash: request.burnTxHash }
  throw badHash(
    'pay',
    'missing',
    undefined,
    'pass payTxHash (agents: UTIL sent to the desk) or burnTxHash (humans: UTIL burned).',
  )
}

/**
 * The UTIL an action's transfer must carry. With a quote of ours that is still valid, its cost holds
 * while the cost at the pool's price now is within the tolerance above it (the pool ticked between quote
 * and execute); a quote above today's cost never asks for more than today's. Without one (absent,
 * expired, edited, for another action or member), or past the tolerance, the cost at the price now.
 */
export function requiredUtil(
  costNow: bigint,
  quoted: ReturnType<PropQuoteTokens['verify']>,
): { required: bigint; quote: 'honoured' | 'beyond_tolerance' | 'absent' | 'expired' | 'invalid' } {
  if (quoted.verdict !== 'valid') return { required: costNow, quote: quoted.verdict }
  const tolerance = BigInt(Math.round(PROP_TERMS.quoteTolerancePct * 100))
  // costNow ≤ quoted × (1 + tolerance), in integers: costNow × 10,000 ≤ quoted × (10,000 + bps).
  if (costNow * 10_000n > quoted.utilCost * (10_000n + tolerance)) {
    return { required: costNow, quote: 'beyond_tolerance' }
  }
  const required = quoted.utilCost < costNow ? quoted.utilCost : costNow
  return { required, quote: 'honoured' }
}

const REASONS: Record<string, string> = {
  malformed: 'is not a 0x-prefixed 32-byte transaction hash',
  unknown: 'names no transaction the chain knows',
  not_mined: 'is not mined yet; send the request again once it is',
  reverted: 'reverted: it moved no UTIL',
  wrong_token: 'moved no UTIL',
  wrong_destination: 'did not send UTIL to the expected destination',
  wrong_sender: 'sent UTIL from another wallet than the one paying this request',
  too_old: 'is 24 hours old or older',
  too_small:
    'sent less UTIL than the action costs (`details.required`: its quote’s cost while the quote holds, else the cost at the pool’s price now)',
  used: 'already authorized another desk action',
}

function badHash(
  kind: 'pay' | 'burn',
  reason: string,
  details?: Record<string, unknown>,
  message?: string,
): PropError {
  const field = kind === 'pay' ? 'payTxHash' : 'burnTxHash'
  return new PropError(
    kind === 'pay' ? 'bad_pay_tx_hash' : 'bad_burn_tx_hash',
    `${field} ${message ?? `${REASONS[reason] ?? reason}.`}`,
    field,
    { reason, ...details },
  )
}

/** The paying wallet, as its payment proves it: the desk acts for nobody else. */
function proven(payer: Address | undefined): Address {
  if (payer === undefined) {
    throw new PropError(
      'prop_payer_unproven',
      'This payment does not prove which wallet pays: pay with exact, or from a channel whose payerAuthorizer is the payer.',
    )
  }
  return payer
}

function cooldown(retryAfterSec: number): PropError {
  return new PropError(
    'prop_cooldown',
    `The member’s last desk action is too recent: retry in ${retryAfterSec} s.`,
    undefined,
    { retryAfterSec },
    retryAfterSec,
  )
}

/** Where members' standing is read: the UTIL pool and the store's index of their burns and sends. */
function standingSourcesOf(deps: PropDeskDeps, deskRecipient: Address | undefined) {
  const sends =
    deps.sources === null || deskRecipient === undefined
      ? undefined
      : createUtilSendIndex({
          chain: deps.chain,
          book: deps.sendBook,
          util: deps.sources.util,
          recipients: [deskRecipient, DEAD_ADDRESS],
          fromBlock: deps.sources.logsFromBlock,
          maxBlocks: deps.logsMaxBlocks,
        })
  const sources = (): StandingSources => {
    if (deps.sources === null) throw unavailable('this deployment has no UTIL token or UTIL/USDC pool')
    if (deskRecipient === undefined || sends === undefined)
      throw unavailable('no desk key or recipient is configured')
    return { ...deps.sources, deskRecipient, dead: DEAD_ADDRESS, sends }
  }
  return { sends, sources }
}

function unavailable(why: string, cause?: unknown): PropError {
  const err = new PropError('prop_desk_unavailable', `The desk cannot act: ${why}.`)
  if (cause !== undefined) (err as { cause?: unknown }).cause = cause
  return err
}

const round2 = (n: number) => Math.round(n * 100) / 100
