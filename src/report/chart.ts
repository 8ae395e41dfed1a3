import * as vega from 'vega';
import * as vl from 'vega-lite';

/**
 * Renders a Vega-Lite spec to a self-contained SVG string in Node, with no browser and no canvas:
 * Vega-Lite compiles it to a Vega spec and a headless Vega view (renderer 'none') draws the SVG.
 * Data must be inline (`data: { values }`): nothing is fetched.
 *
 * @example
 * const svg = await renderSvg({ data: { values: [{ x: 1, y: 2 }] }, mark: 'line', encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type:
 * 'quantitative' } } });
 */
export async function renderSvg(spec: vl.TopLevelSpec): Promise<string> {
  const view = new vega.View(vega.parse(vl.compile(spec).spec), { renderer: 'none' });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
