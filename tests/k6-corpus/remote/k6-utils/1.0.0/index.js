// A utilities module of dialtone's own, shaped like the helpers k6 scripts import from a CDN: served by the corpus's
// HTTPS module server (tests/k6-corpus/module-server.ts). Its relative import is resolved against this module's URL.
import { hex } from './lib/hex.js';

/** A whole number from min to max, both included. */
export function randomIntBetween(min, max) {
  return Math.floor(Math.random() * (max - min + 1) + min);
}

/** One element of the array, each as likely. */
export function randomItem(items) {
  return items[Math.floor(Math.random() * items.length)];
}

/** A random version-4 UUID (RFC 9562 section 5.4): version 4, variant 10. */
export function uuidv4() {
  const b = [];
  for (let i = 0; i < 16; i++) b.push(Math.floor(Math.random() * 256));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = hex(b);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
