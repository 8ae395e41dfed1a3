import type { Proofs } from './spec.js';

export const concurrencyProofs: Proofs = {};
