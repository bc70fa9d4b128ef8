/**
 * The `bazaar` extension is built with the 402 challenge, in src/payments/gate/bazaarExtension.ts (payments sit
 * below discovery). Its example path stays importable here for the end-to-end tests that name it.
 */
export { examplePath } from '../payments/gate/bazaarExtension.js'
