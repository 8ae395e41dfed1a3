import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EnvironmentError } from '../errors.js';
import { loadProfile } from '../profile/load.js';
import { makeTlsMaterial } from '../reference-target/tls.js';
import { probe } from './probe.js';

// An https server whose CA the profile may or may not name: the probe's hint must follow from what failed.
describe('the probe of a target whose certificate the run does not trust', () => {
  const dir = mkdtempSync(join(tmpdir(), 'dialtone-probe-'));
  let server: Server;
  let url: string;

  beforeAll(async () => {
    const [served, other] = await Promise.all([makeTlsMaterial(), makeTlsMaterial()]);
    writeFileSync(join(dir, 'right-ca.pem'), served.ca);
    writeFileSync(join(dir, 'other-ca.pem'), other.ca);
    server = createServer({ key: served.key, cert: served.cert }, (_req, res) => res.end('{"data":[]}'));
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  const profileWith = (name: string, tls?: object) => {
    const file = join(dir, `${name}.json`);
    const profile = { name, environment: 'pre-release', region: 'us-1', hosts: { base_url: url }, account_id: 'a', project_id: 'p', tls };
    writeFileSync(file, JSON.stringify(profile));
    return file;
  };
  const failureOf = async (file: string) => {
    try {
      await probe(loadProfile(file, {}), file, 3_000);
    } catch (e) {
      return e as Error;
    }
    return undefined;
  };

  it('says a CA file of the wrong CA does not sign the server certificate, and who does', async () => {
    const file = profileWith('wrong-ca', { ca_file: 'other-ca.pem' });
    const e = await failureOf(file);
    expect(e).toBeInstanceOf(EnvironmentError);
    expect(e?.message).toContain(
      `the CA in tls.ca_file of ${file} (other-ca.pem) does not sign the server's certificate (it is signed by 'dialtone reference target CA'): name ` +
        `the CA that does`,
    );
    expect(e?.message).not.toContain('name that CA in tls.ca_file');
  });

  it('asks for the CA in tls.ca_file when the profile names none', async () => {
    const file = profileWith('no-ca');
    const e = await failureOf(file);
    expect(e?.message).toContain(
      `is not signed by a CA this machine trusts (it is signed by 'dialtone reference target CA'): name that CA in tls.ca_file of ${file}`,
    );
  });

  it('passes with the CA that signs the certificate', async () => {
    expect(await failureOf(profileWith('right-ca', { ca_file: 'right-ca.pem' }))).toBeUndefined();
  });
});
