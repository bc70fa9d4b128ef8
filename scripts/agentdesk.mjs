#!/usr/bin/env node
/**
 * The `agentdesk` command (package.json `bin`): the compiled CLI from dist/ when no source changed since
 * the last build (`npm ci` builds it), else the sources through tsx, as `npm start` does.
 */
import { runEntry } from './runEntry.mjs'

await runEntry('cli/main')
