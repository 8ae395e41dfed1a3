import { describe, expect, it } from 'vitest';
import { dialtone } from '../../tests/run-cli.js';
import { DEFAULT_SEARCH } from '../capacity/search.js';
import { searchDefaultsFor } from '../capacity/units.js';
import { UsageError } from '../errors.js';
import { type CommandSpec, defineCommand, parseCommand } from './command.js';
import { checkedValue, durationSeconds, expectedOf } from './flag-values.js';
import { commandHelp } from './help.js';
import { commandSpecs } from './main.js';

const specs = await commandSpecs();
const specOf = (name: string): CommandSpec => specs.find((s) => s.name === name) as CommandSpec;

/** The one-line message parseCommand refuses `argv` with. */
function refusal(spec: CommandSpec, argv: string[]): string {
  try {
    parseCommand(spec, argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`${spec.name} took ${argv.join(' ')}`);
}

describe("a flag's declared kind", () => {
  it.each([
    ['load', ['--rate', '2.5'], "load: --rate: expected a whole number, 1 or more, got '2.5'"],
    ['load', ['--rate', '-5'], "load: --rate: expected a whole number, 1 or more, got '-5'"],
    ['load', ['--max-start-lag', '0'], "load: --max-start-lag: expected a number above 0, got '0'"],
    ['load', ['--duration', 'soon'], "load: --duration: expected a duration such as 30s, 5m or 1h, got 'soon'"],
    ['load', ['--segments', '17'], "load: --segments: expected a whole number from 1 to 16, got '17'"],
    ['load', ['--engine', 'v8'], "load: --engine: expected auto, k6 or builtin, got 'v8'"],
    ['capacity', ['--factor', '1'], "capacity: --factor: expected a number above 1, got '1'"],
    ['capacity', ['--repeats', '6'], "capacity: --repeats: expected a whole number from 0 to 5, got '6'"],
    ['capacity', ['--max-steps', ''], "capacity: --max-steps: expected a whole number, 1 or more, got ''"],
    ['target', ['--traffic-growth', '2'], "target: --traffic-growth: expected a percentage such as 2%, got '2'"],
    ['target', ['--traffic-scale', '1.5'], "target: --traffic-scale: expected a number above 0 and at most 1, got '1.5'"],
    ['k8s-job', ['--parallelism', '65'], "k8s-job: --parallelism: expected a whole number from 1 to 64, got '65'"],
  ])('refuses %s %j in one line saying what it expected and what it got', (command, argv, message) => {
    expect(refusal(specOf(command), argv)).toBe(message);
  });

  it('is what help says the flag takes, in the same words as its refusal', () => {
    for (const spec of specs)
      for (const [name, f] of Object.entries(spec.flags)) {
        if (f.kind === undefined) continue;
        const takes = expectedOf(f) as string;
        expect(commandHelp(spec).replace(/\s+/g, ' '), `${spec.name} --${name}`).toContain(`Takes ${takes}.`);
        expect(() => checkedValue(spec.name, name, 'x', f)).toThrow(`${spec.name}: --${name}: expected ${takes}, got 'x'`);
      }
  });

  it('gives the command a number for a numeric kind and the text of a duration', () => {
    const { values } = parseCommand(specOf('capacity'), ['chat-turns', '--start-rate', '0.5', '--repeats', '2', '--step', '2m']);
    expect(values).toMatchObject({ 'start-rate': 0.5, repeats: 2, step: '2m' });
    expect(durationSeconds('2m')).toBe(120);
    expect(parseCommand(specOf('target'), ['--traffic-growth', '2.5%']).values['traffic-growth']).toBe(2.5);
  });

  it('refuses a bad value through the CLI with exit code 2 and one line on stderr', async () => {
    const r = await dialtone(['capacity', 'chat-turns', '--repeats', '9']);
    expect([r.code, r.stderr]).toEqual([2, "dialtone: capacity: --repeats: expected a whole number from 0 to 5, got '9'\n"]);
  });
});

describe("a flag's declared default", () => {
  it('is the value the command gets when the flag is absent, and the one help shows', () => {
    let seen = 0;
    for (const spec of specs) {
      const { values } = parseCommand(spec, []);
      const help = commandHelp(spec).replace(/\s+/g, ' ');
      for (const [name, f] of Object.entries(spec.flags)) {
        if (f.default === undefined) continue;
        seen++;
        expect((values as Record<string, unknown>)[name], `${spec.name} --${name}`).toEqual(checkedValue(spec.name, name, f.default, f));
        expect(help, `${spec.name} --${name}`).toContain(`Default: ${f.default}.`);
      }
    }
    expect(seen).toBeGreaterThan(5);
  });

  it('is never declared on a repeatable flag, whose absence is an empty list', () => {
    for (const spec of specs) for (const [name, f] of Object.entries(spec.flags)) expect(f.multiple && f.default, `${spec.name} --${name}`).toBeFalsy();
  });

  it('is absent from what the command gets for a flag whose default the command works out, which help only describes', () => {
    const spec = defineCommand({
      name: 'demo',
      summary: 'a demo',
      description: 'Demonstrates.',
      flags: { n: { type: 'string', kind: 'positive-integer', help: 'a count.', defaultText: 'one per core' } },
      exits: {},
    });
    expect(parseCommand(spec, []).values.n).toBeUndefined();
    expect(commandHelp(spec)).toContain('Takes a whole number, 1 or more. Default: one per core.');
  });

  it("is the capacity search's own for each scenario, as help lists them", () => {
    const help = commandHelp(specOf('capacity')).replace(/\s+/g, ' ');
    expect(help).toContain(`Default: ${DEFAULT_SEARCH.stepSeconds}s (chat-turns ${searchDefaultsFor('chat-turns').stepSeconds}s,`);
    expect(help).toContain(`Default: ${DEFAULT_SEARCH.maxSteps} (voice-browser ${searchDefaultsFor('voice-browser').maxSteps}).`);
  });
});
