/**
 * What /ready reports: every component the service needs registers here and flips to ready once up.
 * The service is ready when all registered components are.
 */
export interface Readiness {
  register(component: string): void
  markReady(component: string): void
  markDown(component: string): void
  state(): { ready: boolean; components: Record<string, boolean> }
}

export function createReadiness(): Readiness {
  const components = new Map<string, boolean>()
  return {
    register: (component) => void components.set(component, false),
    markReady: (component) => void components.set(component, true),
    markDown: (component) => void components.set(component, false),
    state() {
      const snapshot = Object.fromEntries(components)
      return { ready: components.size > 0 && [...components.values()].every(Boolean), components: snapshot }
    },
  }
}
