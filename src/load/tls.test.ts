import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_TRUST, type Trust } from '../profile/tls.js';
import { makeTlsMaterial, type TlsMaterial } from '../reference-target/tls.js';
import { chromiumTrustArgs, k6TlsEnv, spkiHash, verifiedLeafSpki } from './tls.js';

describe('trusting a gateway served with a private CA', () => {
  let tls: TlsMaterial;
  let server: Server;
  let url = '';
  let trust: Trust;

  beforeAll(async () => {
    tls = await makeTlsMaterial();
    server = createServer({ key: tls.key, cert: tls.cert }, (_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
    trust = { ca: [tls.ca], caFile: '/unused/ca.pem', insecure: false };
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('pins Chromium to the key of the certificate Node verified against the CA', async () => {
    const leaf = tls.cert.split('-----END CERTIFICATE-----')[0] as string;
    const expected = spkiHash(`${leaf}-----END CERTIFICATE-----\n`);
    expect(await verifiedLeafSpki(url, trust)).toBe(expected);
    expect(await chromiumTrustArgs(url, trust)).toEqual([`ignore-certificate-errors-spki-list=${expected}`]);
  });

  it('refuses to pin a certificate the profile does not trust', async () => {
    await expect(verifiedLeafSpki(url, SYSTEM_TRUST)).rejects.toThrow(/certificate/);
  });

  it('turns verification off only when the profile says insecure, and adds nothing for plain http', async () => {
    expect(await chromiumTrustArgs(url, { ...SYSTEM_TRUST, insecure: true })).toEqual(['ignore-certificate-errors']);
    expect(await chromiumTrustArgs('http://127.0.0.1:1', trust)).toEqual([]);
  });

  it('gives k6 a bundle of the system roots plus the CA, and the skip flag only when insecure', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dialtone-k6tls-'));
    const env = k6TlsEnv(trust, dir);
    const bundle = readFileSync(env.SSL_CERT_FILE as string, 'utf8');
    expect(bundle).toContain(tls.ca.trim());
    expect(bundle.split('BEGIN CERTIFICATE').length).toBeGreaterThan(50);
    expect(env.K6_INSECURE_SKIP_TLS_VERIFY).toBeUndefined();
    expect(k6TlsEnv({ ...SYSTEM_TRUST, insecure: true }, dir)).toEqual({ K6_INSECURE_SKIP_TLS_VERIFY: 'true' });
  });
});
