// A browser test that never loads a URL nor sets content: it works in a blank page, as k6's cookies, waitForEvent
// and waitforfunction examples do. On the way it uses what k6's examples expect of k6/browser: page.evaluate
// with two arguments (evaluate.js), isEditable of a div (elementstate.js), a user agent without "Headless"
// (useragent.js), two setChecked at once (elementstate.js).
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
    const product = await page.evaluate((x, y) => x * y, 5, 6);
    const agent = await page.evaluate(() => navigator.userAgent);
    const div = await page.evaluateHandle(() => {
      const d = document.createElement('div');
      d.textContent = 'edit me';
      document.body.appendChild(d);
      return d;
    });
    const editable = await div.asElement().isEditable();
    // Two clicks the script starts together, as k6-utils' check() runs async checks (elementstate.js): one at a time.
    await page.evaluate(() => {
      document.body.insertAdjacentHTML('beforeend', '<input type="checkbox" id="a"><input type="checkbox" id="b" checked>');
    });
    const [a, b] = [await page.$('#a'), await page.$('#b')];
    await Promise.all([a.setChecked(true), b.setChecked(false)]);
    const toggled = (await a.isChecked()) && !(await b.isChecked());
    check(null, {
      'evaluate passes every argument': () => product === 30,
      'the user agent says no Headless': () => !agent.includes('Headless') && !browser.userAgent().includes('Headless'),
      'a div that is not disabled is editable': () => editable === true,
      'two clicks started together both land': () => toggled,
    });
  } finally {
    await page.close();
  }
}
