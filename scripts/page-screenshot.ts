// node --import tsx scripts/page-screenshot.ts PAGE.html OUT.png [--height 900] [--full] [--at HEADING]: a report page as
// a reader sees it in a 1400 px wide window, in the system Chromium (DIALTONE_CHROMIUM, else chromium on PATH). Makes
// the screenshots under docs/ that the README and docs/ show; the first viewport unless --full, or the viewport from
// the h2 whose text is HEADING with --at.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { height: { type: 'string', default: '900' }, full: { type: 'boolean', default: false }, at: { type: 'string' } },
});
const [pagePath, out] = positionals;
if (!pagePath || !out) {
  console.error('page-screenshot: give the page and the PNG to write, e.g. reports/load/chat-turns/index.html docs/load-page.png');
  process.exit(2);
}
const executable =
  process.env.DIALTONE_CHROMIUM || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
if (!executable) {
  console.error('page-screenshot: no Chromium: set DIALTONE_CHROMIUM or put chromium on PATH');
  process.exit(3);
}
const browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: Number(values.height) } });
  await page.goto(`file://${resolve(pagePath)}`);
  if (values.at)
    await page
      .locator('h2', { hasText: values.at })
      .first()
      .evaluate((h) => window.scrollTo(0, h.getBoundingClientRect().top + window.scrollY));
  await page.screenshot({ path: out, fullPage: values.full });
  console.log(`page-screenshot: ${out}`);
} finally {
  await browser.close();
}
