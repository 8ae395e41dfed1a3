import { describe, expect, it } from 'vitest';
import { CORE_METRICS } from '../../core/metrics.js';
import { BUILTIN_METRICS, IMPORT_NAMES, importsOf, MODULES, moduleNamed, modulesOf } from './descriptions.js';
import { HTTP_METRICS, HTTP_PHASES } from './http/metrics.js';

describe("k6's built-in metrics", () => {
  it('lists every built-in metric once, though several modules emit data_sent and data_received', () => {
    const names = BUILTIN_METRICS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names.filter((n) => n === 'data_sent')).toHaveLength(1);
  });

  it('declares the engine, HTTP and timing metrics with their k6 types', () => {
    const byName = new Map(BUILTIN_METRICS.map((m) => [m.name, m]));
    expect(byName.get('http_req_duration')).toEqual({ name: 'http_req_duration', type: 'trend', contains: 'time' });
    expect(byName.get('http_req_failed')?.type).toBe('rate');
    expect(byName.get('vus')?.type).toBe('gauge');
    expect(byName.get('iterations')?.type).toBe('counter');
    for (const phase of HTTP_PHASES) expect(HTTP_METRICS.find((m) => m.name === phase)?.contains).toBe('time');
    for (const m of CORE_METRICS) expect(byName.get(m.name)).toEqual(m);
  });
});

describe('the descriptions of the k6 modules', () => {
  it('names each import name once, so one description answers for it', () => {
    const names = MODULES.flatMap((m) => m.names);
    expect(new Set(names).size).toBe(names.length);
    expect(IMPORT_NAMES).toEqual(names);
  });

  it("finds a module by an alias k6 still documents, and the alias's bundle is described once", () => {
    expect(moduleNamed('k6/experimental/websockets')).toBe(moduleNamed('k6/websockets'));
    expect(modulesOf(['k6/websockets', 'k6/experimental/websockets', 'k6/x/unknown'])).toEqual([moduleNamed('k6/websockets')]);
  });

  it("reads a bundle's imports, with k6/html for one that may call res.html()", () => {
    expect(importsOf('var http = require("k6/http"); var k = require("k6"); http.get(u);')).toEqual(['k6/http', 'k6']);
    expect(importsOf('var http = require("k6/http"); http.get(u).html();')).toEqual(['k6/http', 'k6/html']);
    expect(importsOf('var x = require("k6/html"); x.parseHTML(s).html();')).toEqual(['k6/html']);
  });

  it("says which module is dialtone's own and why k6 cannot run it, and which drives Chromium", () => {
    expect(MODULES.filter((m) => m.own).map((m) => [m.names[0], m.own])).toEqual([['k6/x/dialtone-voice', 'k6 has no WebRTC module']]);
    expect(MODULES.filter((m) => m.drivesChromium).map((m) => m.names[0])).toEqual(['k6/browser']);
  });
});
