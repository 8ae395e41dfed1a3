import type { Proofs } from './spec.js';

export const chatProofs: Proofs = {};
