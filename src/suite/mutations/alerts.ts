import type { Proofs } from './spec.js';

export const alertsProofs: Proofs = {};
