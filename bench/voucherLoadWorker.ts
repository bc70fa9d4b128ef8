/**
 * The callers of the voucher throughput phase, run as a worker thread (`new Worker(code, { eval: true })`)
 * so that their HTTP work does not take the service thread's CPU. One sequence of pre-signed voucher
 * headers per channel; a channel's vouchers are sent in order, one in flight at a time (the next one is
 * only valid once the service has committed the previous), all channels at once, over keep-alive
 * connections (node:http, one socket per channel). The first `warmup` of each channel are sent before
 * the timed window. Non-200 answers and socket errors are failures.
 */
export interface VoucherLoadInput {
  url: string
  groups: string[][]
  warmup: number
}

export interface VoucherLoadResult {
  warmupFailures: number
  served: number
  failures: number
  /** Failures by status (0: socket error). */
  failureStatuses: Record<string, number>
  elapsedMs: number
  callMs: number[]
  /** Server-Timing `gate` and `settle` of each 200. */
  gateMs: number[]
  settleMs: number[]
}

export const VOUCHER_LOAD_WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const http = require('node:http')
const { url, groups, warmup } = workerData
const target = new URL(url)
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity })
const entry = (timing, name) => {
  const m = new RegExp('(?:^|,\\\\s*)' + name + ';dur=([\\\\d.]+)').exec(timing || '')
  return m === null ? undefined : Number(m[1])
}
const call = (header) => new Promise((resolve) => {
  const t0 = performance.now()
  const req = http.request(
    { host: target.hostname, port: target.port, path: target.pathname + target.search, agent,
      headers: { 'PAYMENT-SIGNATURE': header } },
    (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - t0, timing: res.headers['server-timing'] }))
    },
  )
  req.on('error', () => resolve({ status: 0, ms: performance.now() - t0 }))
  req.end()
})
;(async () => {
  let warmupFailures = 0
  await Promise.all(groups.map(async (mine) => {
    for (const header of mine.slice(0, warmup)) if ((await call(header)).status !== 200) warmupFailures++
  }))
  const out = { warmupFailures, served: 0, failures: 0, failureStatuses: {}, callMs: [], gateMs: [], settleMs: [] }
  const started = performance.now()
  await Promise.all(groups.map(async (mine) => {
    for (const header of mine.slice(warmup)) {
      const r = await call(header)
      if (r.status === 200) {
        out.served++
        out.callMs.push(r.ms)
        const gate = entry(r.timing, 'gate')
        const settle = entry(r.timing, 'settle')
        if (gate !== undefined) out.gateMs.push(gate)
        if (settle !== undefined) out.settleMs.push(settle)
      } else {
        out.failures++
        out.failureStatuses[r.status] = (out.failureStatuses[r.status] || 0) + 1
      }
    }
  }))
  out.elapsedMs = performance.now() - started
  agent.destroy()
  parentPort.postMessage(out)
})()
`
