// k6/html against the sentences of k6's documentation it follows (/javascript-api/k6-html/, /examples/parse-html/).
import { describe, expect, it } from 'vitest';
import { type Element, parseHTML } from './html.js';

const page = `<!doctype html><html lang="en"><head><title>k6 docs</title></head><body>
  <dl><dt id="term-1">Value term 1</dt><dt id="term-2" class="b c">Value term 2</dt></dl>
  <ul><li><a href="/a">A</a></li><li class="x"><a href="/b">B</a></li><li><a href="/c" data-n="3">C</a></li></ul>
  <form><input name="user" value="ann"><input name="pin" value="42"><select name="s"><option value="o" selected>o</option></select></form>
</body></html>`;

describe('k6/html', () => {
  // parseHTML docs: "Parse an HTML string and populate a Selection object." Its example: doc.find('head title').text()
  // and doc.find('html').attr('lang').
  it('parses a page and reads it as the parseHTML example does', () => {
    const doc = parseHTML(page);
    expect(doc.find('head title').text()).toBe('k6 docs');
    expect(doc.find('html').attr('lang')).toBe('en');
    expect(doc.find('html').attr('missing')).toBeUndefined();
    expect(doc.find('html').attr('missing', 'fallback')).toBe('fallback');
  });

  // Parse HTML example: `parseHTML(content).find('dl').children()`, then sel.get(0).nodeName(), .id(), .textContent().
  it('gives Elements from get() with the methods the parse-HTML example calls', () => {
    const sel = parseHTML(page).find('dl').children();
    const el1 = sel.get(0) as Element;
    expect([el1.nodeName(), el1.id(), el1.textContent()]).toEqual(['dt', 'term-1', 'Value term 1']);
    const el2 = sel.get(1) as Element;
    expect(el2.classList()).toEqual(['b', 'c']);
    expect(el2.getAttribute('id')).toBe('term-2');
    expect(el2.previousElementSibling()?.id()).toBe('term-1');
    expect(sel.get(2)).toBeUndefined();
  });

  // k6-html docs: Selection is "A jQuery-like API for accessing HTML DOM elements"; the facts sheet (§15): "`each(fn(i,
  // Element))`; `map(fn(i, Selection))` → Array", "`size()` → number", "`toArray()` → Selection[]".
  it('iterates and narrows a Selection as jQuery does', () => {
    const links = parseHTML(page).find('li a');
    expect(links.size()).toBe(3);
    const hrefs: string[] = [];
    links.each((i, el) => {
      hrefs.push(`${i}:${el.getAttribute('href')}`);
    });
    expect(hrefs).toEqual(['0:/a', '1:/b', '2:/c']);
    expect(links.map((_, s) => s.text())).toEqual(['A', 'B', 'C']);
    expect(links.eq(1).attr('href')).toBe('/b');
    expect(links.first().text()).toBe('A');
    expect(links.last().data('n')).toBe(3);
    expect(links.filter((_, s) => s.text() !== 'B').size()).toBe(2);
    expect(links.toArray().map((s) => s.attr('href'))).toEqual(['/a', '/b', '/c']);
    expect(parseHTML(page).find('li').filter('.x').children('a').text()).toBe('B');
    expect(parseHTML(page).find('li.x').is('.x')).toBe(true);
  });

  // The facts sheet (§15): "`attr(n)|val()|html()` → string of the first element", "`serializeObject()` → object".
  it('reads form fields with val, serialize and serializeObject', () => {
    const form = parseHTML(page).find('form');
    expect(form.find('input').val()).toBe('ann');
    expect(form.serializeObject()).toEqual({ user: 'ann', pin: '42', s: 'o' });
    expect(form.serialize()).toBe('user=ann&pin=42&s=o');
  });
});
