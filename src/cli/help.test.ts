import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { dialtoneInProcess as dialtone } from '../../tests/in-process-cli.js';
import { EXIT, UsageError } from '../errors.js';
import { defineCommand, exitsOf, parseCommand } from './command.js';
import { commandHelp, commandsMarkdown, overview } from './help.js';
import { commandSpecs } from './main.js';
import { ROOT } from './root.js';

const specs = await commandSpecs();

describe('the commands reference', () => {
  it('is what docs/commands.md holds (regenerate with: npx dialtone help --markdown > docs/commands.md)', () => {
    expect(readFileSync(`${ROOT}docs/commands.md`, 'utf8')).toBe(commandsMarkdown(specs));
  });

  it('changes when a declaration changes, so a stale page fails the check above', () => {
    const [first, ...rest] = specs;
    const changed = { ...first, flags: { ...first?.flags, extra: { type: 'boolean', help: 'a flag the page does not hold.' } } };
    expect(commandsMarkdown([changed as (typeof specs)[number], ...rest])).not.toBe(commandsMarkdown(specs));
  });

  it('names every flag, accepted name and exit code of every command', () => {
    const page = commandsMarkdown(specs);
    for (const spec of specs) {
      for (const name of Object.keys(spec.flags)) expect(page, `${spec.name} --${name}`).toContain(`\`--${name}`);
      for (const names of Object.values(spec.accepts?.() ?? {})) for (const n of names) expect(page, `${spec.name} ${n}`).toContain(n);
    }
  });
});

describe('dialtone --help', () => {
  it('lists every command, one line each, in under 40 lines', async () => {
    const r = await dialtone(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(overview(specs));
    expect(r.stdout.split('\n').length).toBeLessThan(40);
    for (const spec of specs) expect(r.stdout).toMatch(new RegExp(`^  ${spec.name} +\\S`, 'm'));
  });

  it('gives a command its flags, the names it accepts and its exit codes', async () => {
    const r = await dialtone(['load', '--help']);
    expect(r.code).toBe(0);
    // Wherever a scenario added to the folder sorts, chat-turns stays among the names.
    expect(r.stdout).toMatch(/scenarios: [^\n]*\bchat-turns,/);
    expect(r.stdout).toContain('workloads: smoke, nightly, capacity, learned');
    expect(r.stdout).toContain('engines: auto, k6, builtin');
    expect(r.stdout).toMatch(/^ {2}--rate N$/m);
    expect(r.stdout).toMatch(/^ {3}99 {2}a threshold failed/m);
  });

  it('gives conformance the internal-error exit code 4, as every command', () => {
    for (const spec of specs)
      expect(
        exitsOf(spec).map(([code]) => code),
        spec.name,
      ).toEqual(expect.arrayContaining([EXIT.usage, EXIT.internal]));
    const conformance = specs.find((s) => s.name === 'conformance');
    expect(commandHelp(conformance as (typeof specs)[number])).toMatch(/^ {4}4 {2}a fault in dialtone itself/m);
  });

  it('declares only exit codes dialtone has', () => {
    const known = new Set<number>(Object.values(EXIT));
    for (const spec of specs) for (const [code] of exitsOf(spec)) expect(known, `${spec.name} exit ${code}`).toContain(code);
  });

  it('keeps every line of help within 120 columns', () => {
    for (const spec of specs) for (const line of commandHelp(spec).split('\n')) expect(line.length, `${spec.name}: ${line}`).toBeLessThanOrEqual(120);
  });
});

describe('parseCommand', () => {
  const spec = defineCommand({
    name: 'demo',
    summary: 'a demo',
    positionals: 'NAME',
    description: 'Demonstrates.',
    flags: {
      rate: { type: 'string', value: 'N', help: 'a rate.' },
      out: { type: 'string', multiple: true, help: 'outputs.' },
      model: { type: 'string', choices: ['open', 'closed'], help: 'a model.' },
    },
    exits: {},
  });

  it('reads the flags its declaration names', () => {
    const { values, positionals } = parseCommand(spec, ['x', '--rate', '5', '--out', 'a', '--out', 'b']);
    expect(values).toEqual({ rate: '5', out: ['a', 'b'] });
    expect(positionals).toEqual(['x']);
  });

  it('refuses a value its declaration does not list, naming those it does, and shows them in help', () => {
    expect(parseCommand(spec, ['--model', 'closed']).values.model).toBe('closed');
    expect(() => parseCommand(spec, ['--model', 'half'])).toThrow(new UsageError("demo: --model: expected open or closed, got 'half'"));
    expect(commandHelp(spec)).toMatch(/^ {2}--model open\|closed$/m);
  });

  it('refuses a flag its declaration does not name, in one line', () => {
    expect(() => parseCommand(spec, ['--speed', '5'])).toThrow(/^demo: Unknown option '--speed'$/);
  });
});
