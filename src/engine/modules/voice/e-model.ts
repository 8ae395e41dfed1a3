// The estimated MOS of a call: the E-model's transmission rating R (ITU-T G.107) in the simplified form of Cole and
// Rosenbluth ("Voice over IP performance monitoring", ACM SIGCOMM CCR 31(2), 2001), which keeps G.107's default values
// for everything a caller cannot see and varies only delay, loss and codec:
//
//   R   = 93.2 − Id − Ie,eff
//   Id  = 0.024·d + 0.11·(d − 177.3)·H(d − 177.3)             d: one-way mouth-to-ear delay in ms, H the step function
//   Ie,eff = Ie + (95 − Ie) · Ppl / (Ppl + Bpl)               Ppl: packet loss in %, random loss (BurstR = 1)
//   MOS = 1 + 0.035·R + R·(R − 60)·(100 − R)·7·10⁻⁶           (G.107 Annex B), 1 below R = 0, 4.5 above R = 100
//
// G.113 tabulates no Ie or Bpl for Opus; the codec row used is G.711 with packet loss concealment (G.113 Appendix I:
// Ie = 0, Bpl = 25.1), a stand-in for Opus at a voice bit rate with its own concealment, stated in the report.

/** The codec's impairment factors: equipment impairment Ie and packet-loss robustness Bpl. */
export interface CodecImpairment {
  readonly ie: number;
  readonly bpl: number;
}

/** Opus with concealment, read as G.711 with PLC (G.113 Appendix I), on the narrowband scale of G.107. */
export const OPUS_AS_G711_PLC: CodecImpairment = { ie: 0, bpl: 25.1 };

/** What the estimate is made of, each as the caller measured it. */
export interface EModelInput {
  /** One-way mouth-to-ear delay in milliseconds. */
  readonly delayMs: number;
  /** Share of packets lost, 0..1. */
  readonly loss: number;
  readonly codec?: CodecImpairment;
}

/**
 * The R-factor of a call (G.107, simplified as above).
 *
 * @example
 * rFactor({ delayMs: 0, loss: 0 }); // 93.2
 */
export function rFactor(input: EModelInput): number {
  const d = Math.max(0, input.delayMs);
  const id = 0.024 * d + (d > 177.3 ? 0.11 * (d - 177.3) : 0);
  const { ie, bpl } = input.codec ?? OPUS_AS_G711_PLC;
  const ppl = Math.min(100, Math.max(0, input.loss * 100));
  const ieEff = ie + ((95 - ie) * ppl) / (ppl + bpl);
  return 93.2 - id - ieEff;
}

/**
 * The MOS of an R-factor (G.107 Annex B).
 *
 * @example
 * mosOf(93.2); // ≈ 4.41
 */
export function mosOf(r: number): number {
  if (r <= 0) return 1;
  if (r >= 100) return 4.5;
  return 1 + 0.035 * r + r * (r - 60) * (100 - r) * 7e-6;
}

/**
 * The one-way delay the estimate uses: half the round trip (0 where the gateway sent no RTCP), the 20 ms frame the
 * caller packs, and a jitter buffer of twice the measured jitter, as a receiver would hold.
 */
export function mouthToEarMs(link: { rttMs: number | null; jitterMs: number; frameMs: number }): number {
  return (link.rttMs ?? 0) / 2 + link.frameMs + 2 * link.jitterMs;
}
