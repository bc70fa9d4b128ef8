import { type AddressInfo, connect, createServer, type Socket } from 'node:net'

// A TCP proxy in front of a real server (the machine's Redis or PostgreSQL) that cuts a connection at one
// chosen request, as a network does: after the server answered it (the request took effect and its answer
// is lost) or before the server saw it. It splits each direction into the protocol's exchanges (a
// request, its answer) so that the cut falls exactly on the chosen one; every other byte passes untouched.

/**
 * How a protocol's byte stream splits into exchanges: the length of the first complete request (or
 * answer) at the start of `buf`, undefined while it is incomplete. `first` is true for a connection's
 * first request (PostgreSQL's startup message has no type byte).
 */
export interface Framing {
  request(buf: Buffer, first: boolean): number | undefined
  answer(buf: Buffer): number | undefined
}

/**
 * What becomes of one request: `lose-answer` forwards it and cuts the connection when its answer
 * arrives, instead of relaying it; `drop` cuts the connection without forwarding it.
 */
export type Fault = 'lose-answer' | 'drop'
/** Picks the request to fault (called for every complete request; `connection` numbers the connections). */
export type FaultRule = (request: Buffer, connection: number) => Fault | undefined

export interface FaultProxy {
  port: number
  /** The rule for the requests from now on; the proxy disarms itself after one fault. */
  arm(rule: FaultRule): void
  disarm(): void
  /** Resolves with the fault once it has been applied. */
  readonly applied: Promise<Fault>
  close(): Promise<void>
}

export async function faultProxy(
  upstream: { host: string; port: number },
  framing: Framing,
): Promise<FaultProxy> {
  let rule: FaultRule | undefined
  let connections = 0
  let signal: (fault: Fault) => void = () => {}
  let applied = new Promise<Fault>((r) => {
    signal = r
  })
  const sockets = new Set<Socket>()
  const fire = (fault: Fault) => {
    rule = undefined
    signal(fault)
  }

  const server = createServer((client) => {
    const id = ++connections
    const server = connect(upstream.port, upstream.host)
    for (const s of [client, server]) {
      sockets.add(s)
      s.on('error', () => {})
      s.on('close', () => {
        sockets.delete(s)
        client.destroy()
        server.destroy()
      })
    }
    const cut = () => {
      client.destroy()
      server.destroy()
    }
    let requests = Buffer.alloc(0)
    let answers = Buffer.alloc(0)
    let first = true
    // One entry per forwarded request whose answer has not come yet, in order: cut at that answer?
    const awaiting: boolean[] = []
    client.on('data', (chunk: Buffer) => {
      requests = Buffer.concat([requests, chunk])
      for (;;) {
        const length = framing.request(requests, first)
        if (length === undefined) return
        first = false
        const request = requests.subarray(0, length)
        requests = requests.subarray(length)
        const fault = rule?.(request, id)
        if (fault === 'drop') {
          cut()
          fire(fault)
          return
        }
        awaiting.push(fault === 'lose-answer')
        server.write(request)
      }
    })
    server.on('data', (chunk: Buffer) => {
      answers = Buffer.concat([answers, chunk])
      for (;;) {
        const length = framing.answer(answers)
        if (length === undefined) return
        const answer = answers.subarray(0, length)
        answers = answers.subarray(length)
        if (awaiting.shift() === true) {
          cut()
          fire('lose-answer')
          return
        }
        client.write(answer)
      }
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  const { port } = server.address() as AddressInfo
  return {
    port,
    arm(r) {
      applied = new Promise<Fault>((resolve) => {
        signal = resolve
      })
      rule = r
    },
    disarm() {
      rule = undefined
    },
    get applied() {
      return applied
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}

/** Where the RESP value at `at` ends (RESP2 or RESP3, as ioredis speaks it), or undefined while it is incomplete. */
function respEnd(buf: Buffer, at: number): number | undefined {
  const eol = buf.indexOf('\r\n', at)
  if (eol < 0) return undefined
  const type = String.fromCharCode(buf[at] ?? 0)
  const n = Number(buf.toString('latin1', at + 1, eol))
  switch (type) {
    case '+': // simple string, error, integer, null, double, boolean, big number
    case '-':
    case ':':
    case '_':
    case ',':
    case '#':
    case '(':
      return eol + 2
    case '$': // blob string, blob error, verbatim string
    case '!':
    case '=':
      if (n < 0) return eol + 2
      return buf.length >= eol + 2 + n + 2 ? eol + 2 + n + 2 : undefined
    case '*': // array, set, push, map (pairs), attribute (pairs, then the value it describes)
    case '~':
    case '>':
    case '%':
    case '|': {
      const items = type === '%' || type === '|' ? 2 * n : n
      let end: number | undefined = eol + 2
      for (let i = 0; i < Math.max(items, 0) && end !== undefined; i++) end = respEnd(buf, end)
      if (type === '|' && end !== undefined) return end < buf.length ? respEnd(buf, end) : undefined
      return end
    }
    default:
      throw new Error(`faultProxy: unknown RESP type ${JSON.stringify(type)}`)
  }
}

/** Redis: a request is one command (an array of bulk strings), its answer one value. */
export const redisFraming: Framing = {
  request: (buf) => (buf.length === 0 ? undefined : respEnd(buf, 0)),
  answer: (buf) => (buf.length === 0 ? undefined : respEnd(buf, 0)),
}

/** The arguments of one Redis command as the proxy saw it. */
export function redisArgs(request: Buffer): string[] {
  const args: string[] = []
  let at = request.indexOf('\r\n') + 2
  while (at < request.length) {
    const eol = request.indexOf('\r\n', at)
    const n = Number(request.toString('latin1', at + 1, eol))
    args.push(request.toString('utf8', eol + 2, eol + 2 + n))
    at = eol + 2 + n + 2
  }
  return args
}

/**
 * PostgreSQL's wire protocol (no TLS): a request is the messages up to one that the server answers with
 * ReadyForQuery (a simple Query, an extended query's Sync, or the startup message); its answer runs to
 * that ReadyForQuery.
 */
export const postgresFraming: Framing = {
  request(buf, first) {
    if (first) {
      if (buf.length < 4) return undefined
      const n = buf.readInt32BE(0)
      return buf.length >= n ? n : undefined
    }
    return messagesThrough(buf, (type) => type === 'Q' || type === 'S')
  },
  answer: (buf) => messagesThrough(buf, (type) => type === 'Z'),
}

function messagesThrough(buf: Buffer, last: (type: string) => boolean): number | undefined {
  let at = 0
  while (buf.length >= at + 5) {
    const end = at + 1 + buf.readInt32BE(at + 1)
    if (buf.length < end) return undefined
    const type = String.fromCharCode(buf[at] ?? 0)
    at = end
    if (last(type)) return at
  }
  return undefined
}
