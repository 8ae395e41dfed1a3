// A browser test that loads no URL: it sets the page's content, as k6's page.setContent example does
// (https://grafana.com/docs/k6/latest/javascript-api/k6-browser/page/setcontent/: "This sets up a given HTML to the
// page"). It sends nothing to any target on purpose, and ran as written.
import { check } from 'k6';
import { browser } from 'k6/browser';

export const options = {
  scenarios: {
    ui: { executor: 'shared-iterations', iterations: 1, options: { browser: { type: 'chromium' } } },
  },
};

export default async function () {
  const page = await browser.newPage();
  try {
    await page.setContent('<!doctype html><html><body><h1 id="t">set, not loaded</h1></body></html>');
    const text = await page.locator('#t').textContent();
    check(text, { 'the content was set': (t) => t === 'set, not loaded' });
  } finally {
    await page.close();
  }
}
