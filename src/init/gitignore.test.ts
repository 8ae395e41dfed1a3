import { describe, expect, it } from 'vitest';
import { appendix, IGNORE_LINES, missingIgnoreLines } from './gitignore.js';

describe('the .gitignore lines of dialtone init', () => {
  it('are node_modules, the reports and the local target folder', () => {
    expect(IGNORE_LINES).toEqual(['node_modules/', 'reports/', '.dialtone/']);
  });

  it('are all missing from no file or an empty one', () => {
    expect(missingIgnoreLines(undefined)).toEqual(['node_modules/', 'reports/', '.dialtone/']);
    expect(missingIgnoreLines('')).toEqual(['node_modules/', 'reports/', '.dialtone/']);
  });

  it('count as present in any spelling that ignores the folder, on any line, CRLF included', () => {
    expect(missingIgnoreLines('node_modules/\n/reports\n')).toEqual(['.dialtone/']);
    expect(missingIgnoreLines('node_modules\r\nreports\r\n.dialtone\r\n')).toEqual([]);
    expect(missingIgnoreLines('  /.dialtone/  \nreports/\n/node_modules')).toEqual([]);
    expect(missingIgnoreLines('node_modules/\n# reports/\n!reports/\nmy-reports/\n')).toEqual(['reports/', '.dialtone/']);
  });

  it('are appended on a line of their own, never glued to the last entry', () => {
    expect(appendix('node_modules/', ['reports/'])).toBe('\nreports/\n');
    expect(appendix('node_modules/\n', ['reports/', '.dialtone/'])).toBe('reports/\n.dialtone/\n');
    expect(appendix('', ['reports/'])).toBe('reports/\n');
  });
});
