import { timingSafeEqual } from 'node:crypto'
import type { Context, Hono, MiddlewareHandler } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
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
  { method: 'GET', path: '/metrics' },
] as const

const COOKIE = 'agentdesk_ops'

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
 * token or the cookie the login form sets; without a token configured they do not exist (404), and without
 * the token they show a login form and no figure.
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
  const authorized = (c: Context<AppEnv>) => {
    const header = c.req.header('authorization')
    const bearer = header?.startsWith('Bearer ') ? header.slice('Bearer '.length).trim() : undefined
    return matches(bearer) || matches(getCookie(c, COOKIE))
  }
  const enabled = () => {
    if (token === undefined) throw new NotFoundError()
  }

  app.get('/ops', async (c) => {
    enabled()
    if (!authorized(c)) return c.html(opsLogin(false), 401)
    return c.html(opsPage(await deps.opsReport(), stats.snapshot()))
  })
  app.post('/ops/login', async (c) => {
    enabled()
    const form = await c.req.parseBody()
    const given = typeof form.token === 'string' ? form.token : undefined
    if (!matches(given)) return c.html(opsLogin(true), 401)
    setCookie(c, COOKIE, given as string, { httpOnly: true, sameSite: 'Strict', path: '/', maxAge: 8 * 3600 })
    return c.redirect('/ops', 303)
  })
  app.get('/metrics', async (c) => {
    enabled()
    if (!authorized(c)) return c.text('unauthorized\n', 401)
    c.header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
    return c.body(prometheusText(await deps.opsReport(), stats.snapshot()))
  })
}
