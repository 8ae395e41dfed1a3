import type { LoadedProfile } from '../profile/load.js';
import { type Exchange, request, trustFor } from './exchange.js';

/** Client of the reference target's control surface. Exists only when the profile has `control`. */
export class ControlClient {
  readonly log: Exchange[] = [];
  constructor(private readonly loaded: LoadedProfile) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const control = this.loaded.profile.control;
    const token = this.loaded.secrets.control_token;
    if (!control || !token) throw new Error('this target has no control surface');
    const res = await request<T>({
      method,
      url: `${control.url.replace(/\/$/, '')}${path}`,
      headers: { 'x-dialtone-control': token, 'Content-Type': 'application/json' },
      body,
      trust: trustFor(this.loaded),
      control: true,
    });
    if (res.status >= 400) throw new Error(`control ${method} ${path} answered ${res.status}: ${res.text}`);
    return res.json as T;
  }

  advanceClock(ms: number) {
    return this.call<{ now: string }>('POST', '/clock/advance', { ms });
  }
  conversation(id: string) {
    return this.call<{ id: string; variant_id: string | null; status: string; turns: number }>('GET', `/conversations/${encodeURIComponent(id)}`);
  }
}
