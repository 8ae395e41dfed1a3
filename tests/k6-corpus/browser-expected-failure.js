// A browser test whose navigation is expected to fail: a host that is down must show as an error. page.goto
// (https://grafana.com/docs/k6/latest/javascript-api/k6-browser/page/goto/) returns "A Promise that fulfills with the
// Response", rejected when the navigation fails; the script catches it and checks that it failed, and ran as written.
import { check } from 'k6';
import { browser } from 'k6/browser';

export const options = {
  scenarios: {
    ui: { executor: 'shared-iterations', iterations: 1, options: { browser: { type: 'chromium' } } },
  },
};

export default async function () {
  const page = await browser.newPage();
  let failed = false;
  try {
    await page.goto(`${__ENV.DOWN_URL}/`, { timeout: 10000 });
  } catch (_e) {
    failed = true;
  } finally {
    await page.close();
  }
  check(failed, { 'the navigation to a host that is down failed': (f) => f === true });
}
