// k6/html (/javascript-api/k6-html/): parseHTML, and what `res.html()` of k6/http parses with.
import { describeModule, type ModuleCode } from '../module-description.js';

/** k6/html, as the engine provides it. */
export const description = describeModule({
  names: ['k6/html'],
  // `res.html()` parses with k6/html: loaded for a script that imports k6/http and may call it.
  impliedBy: { module: 'k6/http', code: /\.html\(/ },
  code: async () => {
    const html = await import('./html.js');
    (await import('../http/http.js')).useHtmlParser(html.parseHTML);
    return html.htmlModule as ModuleCode;
  },
});
