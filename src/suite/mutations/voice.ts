import type { Proofs } from './spec.js';

export const voiceProofs: Proofs = {};
