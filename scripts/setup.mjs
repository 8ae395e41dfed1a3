#!/usr/bin/env node
// postinstall. It never fails `npm install`: what it cannot do it says in one line.
// dialtone never fetches, builds or ships k6 (it is AGPL): load runs on the user's own k6 when they installed one, else
// on dialtone's built-in engine, so nothing here is about k6.
// First dist/, the sources transpiled (scripts/build.mjs). Then, in dialtone's own repository only, the pinned Go tools
// its tests use (actionlint, kubeconform), built from tools/NAME. The package does not ship tools/ (package.json
// "files"), so an install into a user's project builds no Go tool.
// Then, in dialtone's own repository only, Prometheus, the store the engine's remote-write output is tested against:
// root with apt-get installs Debian's `prometheus` package; anyone else gets one line (the tests skip, saying so).
// DIALTONE_SKIP_PROMETHEUS=1 skips this step.
// Then Chromium, for the voice-browser scenario (k6/browser): when none is found, root with apt-get
// installs Debian's `chromium` package; anyone else gets one line saying how. DIALTONE_SKIP_CHROMIUM=1
// skips this step.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const root = new URL('..', import.meta.url).pathname;

// dist/: the sources transpiled, so no process of dialtone's needs tsx to start (scripts/build.mjs). Without it
// dialtone runs its sources through tsx, only slower to start.
const build = spawnSync(process.execPath, [new URL('./build.mjs', import.meta.url).pathname], { encoding: 'utf8', timeout: 120_000 });
if (build.status === 0) console.log(build.stdout.trim());
else {
  const why = `${build.stderr ?? ''}`.trim().split('\n')[0] || `exit ${build.status ?? build.signal}`;
  console.error(`dialtone: building dist/ failed (${why}); dialtone runs its TypeScript sources through tsx instead`);
}

// The pinned Go tools the tests use: actionlint (CI workflows) and kubeconform (k6-operator manifests).
// Built from tools/NAME/go.mod + go.sum (checksum-verified); DIALTONE_SKIP_TOOLS=1 skips them.
if (process.env.DIALTONE_SKIP_TOOLS !== '1' && existsSync(new URL('../tools/', import.meta.url))) {
  const { ensureGoTool, GO_TOOLS } = await import('../src/tools/go-tools.ts');
  for (const name of Object.keys(GO_TOOLS)) {
    try {
      console.log(`dialtone: ${name} ready (${ensureGoTool(root, name)})`);
    } catch (e) {
      console.error(`dialtone: ${e.message}`);
    }
  }
}

/** apt-get as setup runs it: quiet, unattended, its error output kept for the one line that says why it failed. */
const apt = (args, timeout) =>
  spawnSync('apt-get', args, {
    stdio: ['ignore', 'ignore', 'pipe'],
    encoding: 'utf8',
    timeout,
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
const canApt = process.getuid?.() === 0 && spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
const onPath = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;

// Prometheus for the remote-write output's tests (src/engine/metrics/outputs/prometheus-rw.test.ts); a user's project
// never needs it, so only dialtone's own repository (it has tools/) installs it.
if (process.env.DIALTONE_SKIP_PROMETHEUS !== '1' && existsSync(new URL('../tools/', import.meta.url)) && !onPath('prometheus')) {
  if (canApt) {
    console.log("dialtone: installing Debian's prometheus package for the remote-write output's tests (apt-get)");
    apt(['-qq', 'update'], 300_000);
    const install = apt(['-y', '-qq', 'install', '--no-install-recommends', 'prometheus'], 600_000);
    if (!onPath('prometheus')) {
      const why = (install.stderr ?? '').trim().split('\n').pop() || `exit ${install.status ?? install.signal}`;
      console.error(`dialtone: 'apt-get install prometheus' failed (${why}); the remote-write output's tests skip`);
    }
  } else console.error("dialtone: no prometheus on PATH; the remote-write output's tests skip (install Debian's prometheus package)");
}

if (process.env.DIALTONE_SKIP_CHROMIUM !== '1') {
  try {
    const { CHROMIUM_HINT, findChromium } = await import('../src/load/chromium.ts');
    let found = findChromium();
    // An explicit DIALTONE_CHROMIUM that is wrong is the user's to fix; installing a package would not change it.
    if (!found.path && !process.env.DIALTONE_CHROMIUM && canApt) {
      console.log("dialtone: no Chromium found; installing Debian's chromium package for the voice-browser scenario (apt-get, about a minute)");
      // An update that fails (offline, a broken source) may still leave lists the install can use: try it anyway.
      apt(['-qq', 'update'], 300_000);
      const install = apt(['-y', '-qq', 'install', 'chromium'], 900_000);
      found = findChromium();
      if (!found.path) {
        const why = (install.stderr ?? '').trim().split('\n').pop() || `exit ${install.status ?? install.signal}`;
        console.error(`dialtone: 'apt-get install chromium' did not give a working Chromium (${why}); the voice-browser scenario needs one`);
      }
    }
    if (found.path) console.log(`dialtone: Chromium ready (${found.path})`);
    else if (!canApt || process.env.DIALTONE_CHROMIUM) console.error(`dialtone: ${found.problem}; the voice-browser scenario needs Chromium: ${CHROMIUM_HINT}`);
  } catch (e) {
    console.error(`dialtone: checking for Chromium failed (${e.message}); the voice-browser scenario needs Chromium`);
  }
}
