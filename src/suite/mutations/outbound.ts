import type { Proofs } from './spec.js';

export const outboundProofs: Proofs = {};
