// Charts for the report pages: Vega-Lite specs rendered to SVG in Node (no browser, no network), so
// a page that inlines the SVG opens offline.
import * as vega from 'vega';
import * as vl from 'vega-lite';

/**
 * Renders a Vega-Lite spec to a standalone SVG string.
 *
 * @example
 * const svg = await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'line', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } } });
 */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const compiled = vl.compile(spec).spec;
  return new vega.View(vega.parse(compiled), { renderer: 'none' }).toSVG();
}
