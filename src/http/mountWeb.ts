import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { AppDeps } from '../deps.js'
import { NotFoundError } from '../errors.js'
import type { Route } from '../routes/route.js'
import { landingPage } from '../web/landingPage.js'
import { opsLogin, opsPage } from '../web/opsPage.js'
import { prometheusText } from '../web/prometheusText.js'
import type { RouteStats } from '../web/routeStats.js'
import type { AppEnv } from './env.js'

/** The web pages' paths (the method matcher answers 405 on them for other methods). */
export const WEB_PATHS = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/ops' },
  { method: 'POST', path: '/ops/login' },
  { method: 'POST', path: '/ops/logout' },
  { method: 'GET', path: '/metrics' },
] as const

const COOKIE = 'agentdesk_ops'
/** How long an `/ops` session lasts after its login. */
export const OPS_SESSION_MS = 8 * 3600 * 1000
/** Where a session lives in the shared state (a digest of its id: the store never holds a usable cookie). */
const sessionKey = (id: string) => `ops:session:${createHash('sha256').update(id).digest('base64url')}`
const SESSION_ID = /^[A-Za-z0-9_-]{43}$/

/** Counts every answer of the app by its matched route (what `/ops` and `/metrics` show per route). */
export function routeStatsMiddleware(stats: RouteStats): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      stats.record(`${c.req.method} ${c.req.routePath}`, c.res.status, performance.now() - started)
    }
  }
}

/**
 * `/`: the landing page (public). `/ops` and `/metrics`: the operator's, behind `OPS_TOKEN`, as a bearer
 * token or a session the login form opens; without a token configured they do not exist (404), and without
 * the token they show a login form and no figure. A session is a random 256-bit id in an `HttpOnly`,
 * `SameSite=Strict` cookie (`Secure` when PUBLIC_URL or the request is https), kept in the shared state
 * (Redis across instances) for OPS_SESSION_MS; `POST /ops/logout` ends it. The cookie is never the token.
 */
export function mountWeb(
  app: Hono<AppEnv>,
  routes: readonly Route[],
  deps: AppDeps,
  stats: RouteStats,
): void {
  const landing = landingPage(routes, deps.config)
  app.get('/', (c) => c.html(landing))

  const token = deps.config.opsToken
  const matches = (given: string | undefined) => {
    if (token === undefined || given === undefined) return false
    const [a, b] = [Buffer.from(given), Buffer.from(token)]
    return a.length === b.length && timingSafeEqual(a, b)
  }
  const sessionOf = (c: Context<AppEnv>) => {
    const id = getCookie(c, COOKIE)
    return id !== undefined && SESSION_ID.test(id) ? id : undefined
  }
  const authorized = async (c: Context<AppEnv>) => {
    const header = c.req.header('authorization')
    const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined
    if (matches(bearer)) return true
    const id = sessionOf(c)
    return id !== undefined && (await deps.state.get(sessionKey(id))) !== undefined
  }
  const secure = (c: Context<AppEnv>) =>
    deps.config.publicUrl.startsWith('https:') || new URL(c.req.url).protocol === 'https:'
  const enabled = () => {
    if (token === undefined) throw new NotFoundError()
  }

  app.get('/ops', async (c) => {
    enabled()
    if (!(await authorized(c))) return c.html(opsLogin(false), 401)
    return c.html(opsPage(await deps.opsReport(), stats.snapshot()))
  })
  app.post('/ops/login', async (c) => {
    enabled()
    const form = await c.req.parseBody()
    const given = typeof form.token === 'string' ? form.token : undefined
    if (!matches(given)) return c.html(opsLogin(true), 401)
    const id = randomBytes(32).toString('base64url')
    await deps.state.put(sessionKey(id), '1', OPS_SESSION_MS)
    setCookie(c, COOKIE, id, {
      httpOnly: true,
      sameSite: 'Strict',
      secure: secure(c),
      path: '/',
      maxAge: OPS_SESSION_MS / 1000,
    })
    return c.redirect('/ops', 303)
  })
  app.post('/ops/logout', async (c) => {
    enabled()
    const id = sessionOf(c)
    if (id !== undefined) await deps.state.release(sessionKey(id))
    deleteCookie(c, COOKIE, { path: '/', secure: secure(c) })
    return c.redirect('/ops', 303)
  })
  app.get('/metrics', async (c) => {
    enabled()
    if (!(await authorized(c))) return c.text('unauthorized\n', 401)
    c.header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
    return c.body(prometheusText(await deps.opsReport(), stats.snapshot()))
  })
}
