import { createHmac, randomBytes } from 'node:crypto';
import type { IceServersResponse } from '../../contract/voice/shapes.js';

/** How long issued TURN credentials stay valid. Reference-target choice: the document does not give a lifetime. */
export const TURN_CREDENTIAL_TTL_S = 600;

export interface IceServerOptions {
  /** The gateway's host name as the client reached it: the TURN URLs name it, so nothing points off the machine. */
  readonly host: string;
  /** Unix time in seconds, from the target's clock. */
  readonly nowS: number;
  /** The port of the `turns:` URL; 443 as documented (a defect moves it). */
  readonly turnsPort?: number;
  /** Issue one fixed username and credential instead of fresh ones (a defect). */
  readonly staticCredentials?: boolean;
}

/**
 * Issues ICE servers with ephemeral TURN credentials in the TURN REST API form (username `<expiry>:<nonce>`,
 * credential = base64 HMAC-SHA1 of the username under a shared secret), fresh on every call.
 *
 * No TURN server runs on the reference target: the URLs name the gateway's own host, where nothing listens on those
 * ports, so a peer connection accepts them, tries them, and connects through host candidates on loopback.
 */
export class IceServerIssuer {
  readonly #secret = randomBytes(32);

  issue(options: IceServerOptions): IceServersResponse {
    const username = options.staticCredentials ? 'dialtone:static' : `${options.nowS + TURN_CREDENTIAL_TTL_S}:${randomBytes(9).toString('base64url')}`;
    const credential = createHmac('sha1', this.#secret).update(username).digest('base64');
    return {
      iceServers: [
        {
          urls: [`turn:${options.host}:3478?transport=udp`, `turns:${options.host}:${options.turnsPort ?? 443}?transport=tcp`],
          username,
          credential,
        },
      ],
    };
  }

  /** Whether a username/credential pair was issued here and has not expired (what a TURN server would check). */
  verify(username: string, credential: string, nowS: number): boolean {
    const expiry = Number(username.split(':')[0]);
    const expected = createHmac('sha1', this.#secret).update(username).digest('base64');
    return expected === credential && (!Number.isFinite(expiry) || expiry > nowS);
  }
}
