import { runCli } from './runCli.js'

// `agentdesk …` (scripts/agentdesk.mjs loads this, compiled or through tsx).
process.exitCode = await runCli(process.argv.slice(2))
