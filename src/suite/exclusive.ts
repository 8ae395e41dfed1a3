import { mkdirSync, rmdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { getCurrentSuite } from 'vitest/suite';
import type { Capability } from '../profile/schema.js';
import { PROFILE_ENV } from './context.js';

/**
 * What the cases of a surface share on a target without a control surface, where they cannot mint an account of their
 * own: the profile key's account, and with it a documented limit (at most 10 alert rules an account, 409 beyond) that
 * cases side by side would reach together. Such cases run one at a time, one file at a time across every worker.
 */
const SHARED_WITHOUT_CONTROL: Readonly<Record<string, string>> = {
  alerts: 'account',
  webhooks: 'account',
};

/** The resource a case of `surface` must hold alone on a target with these capabilities, if any. */
export function sharedResource(surface: string, capabilities: ReadonlySet<Capability>): string | undefined {
  return capabilities.has('control') ? undefined : SHARED_WITHOUT_CONTROL[surface];
}

const POLL_MS = 25;
/** vitest's hook timeout is off: a file waits for the files before it, each case of theirs bounded by its own timeout. */
const NO_TIMEOUT = 0;
/** Far beyond what every such file takes one after another across a slow network: only a holder that never let go. */
const LONGEST_WAIT_MS = 15 * 60_000;

/** Directory locks: mkdir is atomic, so a lock holds across worker threads and processes alike. */
function lockPath(resource: string): string | undefined {
  const handover = process.env[PROFILE_ENV];
  return handover ? join(dirname(handover), `lock-${resource}`) : undefined;
}

async function acquire(lock: string, resource: string): Promise<void> {
  const deadline = Date.now() + LONGEST_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(lock);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (Date.now() > deadline) throw new Error(`waited ${LONGEST_WAIT_MS / 60_000} minutes for the ${resource} another file held, which it never freed`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
  }
}

const holding = new WeakSet<object>();

/**
 * Holds `resource` alone while the file being collected runs: the first call of a file registers a hook that waits for
 * the lock before its first case, and one that frees it after its last. The lock lives beside the run's handover file,
 * in the runner's own folder, so runs of other runners never meet it.
 */
export function holdDuringFile(resource: string): void {
  const file = getCurrentSuite().file ?? getCurrentSuite();
  if (holding.has(file)) return;
  holding.add(file);
  const lock = lockPath(resource);
  if (!lock) return;
  let held = false;
  beforeAll(async () => {
    await acquire(lock, resource);
    held = true;
  }, NO_TIMEOUT);
  afterAll(() => {
    if (held) rmdirSync(lock);
    held = false;
  });
}
