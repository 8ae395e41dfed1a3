import { describe, expect, it } from 'vitest';
import type { CaseResult } from '../report/results.js';
import { reportOrder } from './aggregate.js';

const done = (rule: string, file: string, title = rule): CaseResult => ({ rule, title, outcome: 'pass', detail: 'as documented', file, duration_ms: 0 });

describe('the report order of cases', () => {
  const rules = [{ id: 'b.first' }, { id: 'a.second' }, { id: 'c.third' }];

  it('follows the catalogue, then the file, then the order a file declares its cases in, whatever order they ended in', () => {
    const ended = [
      done('c.third', 'conformance/c/x.test.ts'),
      done('a.second', 'conformance/z/later.test.ts', 'a.second in z'),
      done('a.second', 'conformance/a/one.test.ts', 'a.second declared first'),
      done('b.first', 'conformance/b/x.test.ts'),
      done('a.second', 'conformance/a/one.test.ts', 'a.second declared second'),
    ];
    const titles = (cases: CaseResult[]) => [...cases].sort(reportOrder(rules)).map((c) => c.title);
    const expected = ['b.first', 'a.second declared first', 'a.second declared second', 'a.second in z', 'c.third'];
    expect(titles(ended)).toEqual(expected);
    // The same cases collected with their files in another order come out the same.
    expect(titles([...ended.slice(1, 2), ...ended.slice(0, 1), ...ended.slice(2)])).toEqual(expected);
  });
});
