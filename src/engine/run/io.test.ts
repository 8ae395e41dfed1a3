// The run is a library: it reaches the world only through the EngineIo it is given (io.ts), so a test can run it in its
// own process with captured streams and a signal source of its own. Only the CLI (cli.ts) hands it the process's.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ENGINE = join(import.meta.dirname, '..');

/** What only the CLI may touch: the process's streams, signals, variables and exit. */
const PROCESS_WORLD = /\bprocess\s*\.\s*(stdout|stderr|on|once|off|env|exit|channel|connected)\b/;

/** The run's modules: run.ts and every module under run/, tests left out. */
function runModules(): string[] {
  const under = readdirSync(join(ENGINE, 'run'), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));
  return [join(ENGINE, 'run.ts'), ...under];
}

/** `file:line` of each line of `text` that touches the process's world. */
function touches(file: string, text: string): string[] {
  return text.split('\n').flatMap((line, i) => (PROCESS_WORLD.test(line) && !/^\s*(\/\/|\/\*|\*)/.test(line) ? [`${file}:${i + 1}`] : []));
}

describe('the run as a library', () => {
  it('never touches process.stdout, process.stderr, process.on, process.env or process.exit in run.ts or under run/', () => {
    const found = runModules().flatMap((f) => touches(relative(ENGINE, f), readFileSync(f, 'utf8')));
    expect(found).toEqual([]);
  });

  it('would catch a module that did, so the check can fail', () => {
    const planted = [
      'const a = 1;',
      "process.stderr.write('x');",
      'if (process.env.X) process.exit(1);',
      '// process.env in a comment',
      ' * process.exit in TSDoc',
    ].join('\n');
    expect(touches('planted.ts', planted)).toEqual(['planted.ts:2', 'planted.ts:3']);
  });

  it('finds the modules it checks', () => {
    expect(runModules().map((f) => relative(ENGINE, f))).toEqual(expect.arrayContaining(['run.ts', join('run', 'io.ts'), join('run', 'stop.ts')]));
  });
});
