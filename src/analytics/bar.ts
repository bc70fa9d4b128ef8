/** One candle, oldest first in any series; `t` is the bar's open time in unix seconds; `volume` null where the source has none. */
export interface Bar {
  t: number
  open: number
  high: number
  low: number
  close: number
  volume: number | null
}
