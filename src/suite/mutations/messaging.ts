import type { Proofs } from './spec.js';

export const messagingProofs: Proofs = {};
