import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { transformSync } from 'esbuild';
import { VoicePaths } from '../contract/voice/shapes.js';
import { ROOT } from '../root.js';

/** Where the reference gateway serves the browser voice client for a person at a browser. */
export const VOICE_CLIENT_PATH = '/dialtone/voice-client.html';

let cached: string | undefined;

/** `<` inside an inline script would end it early; JSON allows the escape. */
const inline = (s: string) => s.replace(/</g, '\\u003c');

/**
 * The browser voice client as one self-contained page (no CDN, no other request but the gateway's own): the TypeScript
 * of `browser.ts`, compiled once by esbuild. Two homes: the reference gateway serves it for a person at a browser
 * (`#token=…&mode=echo&source=tone`; signaling and ice-servers then on the page's own host), and the voice-browser load
 * scenario serves it itself (k6/browser `page.route`), so a gateway that serves no page can be loaded too: the scenario
 * hands over the gateway's URL, its ice servers and the token with `page.evaluate`
 * (`window.dialtoneVoice.start({token, gatewayUrl, iceServers, calls})`) and reads `window.dialtoneVoice.results`. The inline icon spares the browser a favicon
 * request (a 404 that k6 would count as a failed browser request).
 */
export function voiceClientPage(): string {
  if (cached) return cached;
  const source = readFileSync(join(ROOT, 'src', 'voice-client', 'browser.ts'), 'utf8');
  const { code } = transformSync(source, { loader: 'ts', format: 'iife', target: 'es2020' });
  const config = inline(JSON.stringify({ signalPath: VoicePaths.signal, iceServersPath: VoicePaths.iceServers }));
  cached = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>dialtone voice client</title><link rel="icon" href="data:,">
<style>body{font:14px system-ui,sans-serif;margin:2rem}pre{background:#f4f4f4;padding:1rem}</style></head>
<body>
<h1>dialtone voice client</h1>
<p>Open with <code>#token=VOICE_AUTH_TOKEN&amp;mode=echo&amp;source=tone&amp;calls=1</code>, or call <code>window.dialtoneVoice.start({token, mode, calls})</code>. Results: <code>window.dialtoneVoice.results</code>; <code>stop()</code> hangs up.</p>
<div id="players"></div>
<pre id="result">idle</pre>
<script type="application/json" id="dialtone-config">${config}</script>
<script>${code.replace(/<\/script/gi, '<\\/script')}</script>
</body>
</html>
`;
  return cached;
}
