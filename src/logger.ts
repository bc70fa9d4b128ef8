import { pino } from 'pino'

export type Logger = pino.Logger
export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'

/** Structured JSON logs on stdout; one line per event, `msg` plus fields. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { service: 'agentdesk' }, timestamp: pino.stdTimeFunctions.isoTime })
}
