/** Idle keep-alive sockets stay open this long (ms): past any client's or load balancer's idle timeout. */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000
