// Help text and docs/commands.md, both written from the commands' declarations (src/cli/command.ts).
import { type CommandSpec, exitsOf, type FlagSpec } from './command.js';
import { expectedOf } from './flag-values.js';

const WIDTH = 118;

/** Wraps text to `width` columns, every line after the first indented by `indent`; a blank line keeps paragraphs apart. */
function wrap(text: string, width: number, indent: string): string {
  return text
    .split(/\n\s*\n/)
    .map((paragraph) => {
      const lines: string[] = [];
      let line = '';
      for (const word of paragraph.split(/\s+/).filter(Boolean)) {
        const longer = line ? `${line} ${word}` : word;
        if (line && indent.length + longer.length > width) {
          lines.push(line);
          line = word;
        } else line = longer;
      }
      if (line) lines.push(line);
      return lines.map((l, i) => (i ? indent + l : l)).join('\n');
    })
    .join(`\n\n${indent}`);
}

/** `--name VALUE` as the synopsis and the flag list show it. */
function flagLabel(name: string, f: FlagSpec): string {
  return `--${name}${f.type === 'string' ? ` ${f.value ?? f.choices?.join('|') ?? 'VALUE'}` : ''}${f.multiple ? '...' : ''}`;
}

/**
 * A flag's help with what it takes, its default and its repeatability, each from the field the parser reads (choices
 * are in its label already), said once and the same way everywhere.
 */
function flagText(f: FlagSpec): string {
  const takes = f.kind === undefined ? undefined : expectedOf(f);
  const fallback = f.default ?? f.defaultText;
  const extra = [takes ? `Takes ${takes}.` : '', f.multiple ? 'Repeatable.' : '', fallback === undefined ? '' : `Default: ${fallback}.`];
  return [f.help, ...extra.filter(Boolean)].join(' ');
}

/** The names a command accepts, one line per kind. */
function acceptedLines(spec: CommandSpec): [string, string][] {
  return Object.entries(spec.accepts?.() ?? {}).map(([kind, names]) => [kind, names.join(', ')]);
}

/** The first line of a command's help: how it is called. */
export function synopsis(spec: CommandSpec): string {
  return ['dialtone', spec.name, spec.positionals, Object.keys(spec.flags).length ? '[flags]' : ''].filter(Boolean).join(' ');
}

/**
 * `dialtone COMMAND --help`: how it is called, what it does, its flags, the names it accepts and its exit codes.
 *
 * @example
 * console.log(commandHelp(loadSpec));
 */
export function commandHelp(spec: CommandSpec): string {
  const out = [`usage: ${synopsis(spec)}`, '', wrap(spec.description, WIDTH, '')];
  if (spec.example) out.push('', 'example:', ...spec.example.split('\n').map((l) => `  ${l}`));
  const flags = Object.entries(spec.flags);
  if (flags.length) {
    out.push('', 'flags:');
    for (const [name, f] of flags) out.push(`  ${flagLabel(name, f)}`, `      ${wrap(flagText(f), WIDTH, '      ')}`);
  }
  const accepted = acceptedLines(spec);
  if (accepted.length) {
    out.push('', 'accepts:');
    for (const [kind, names] of accepted) out.push(`  ${wrap(`${kind}: ${names}`, WIDTH, '    ')}`);
  }
  out.push('', 'exit codes:');
  for (const [code, meaning] of exitsOf(spec)) out.push(`  ${String(code).padStart(3)}  ${wrap(meaning, WIDTH, '       ')}`);
  return out.join('\n');
}

/**
 * `dialtone --help`: the commands, one line each, and where to read more.
 *
 * @example
 * process.stdout.write(overview(specs));
 */
export function overview(specs: readonly CommandSpec[]): string {
  const width = Math.max(...specs.map((s) => s.name.length));
  return [
    'dialtone: load and conformance harness for a conversational-AI platform',
    '',
    'usage: dialtone COMMAND [flags]      dialtone COMMAND --help      dialtone --version',
    '',
    'commands:',
    ...specs.map((s) => `  ${s.name.padEnd(width)}  ${s.summary}`),
    '',
    'Every command: exit 2 for a usage or profile error, 4 for a fault in dialtone itself.',
    'All flags, exit codes and accepted names: docs/commands.md, or dialtone COMMAND --help.',
    '',
  ].join('\n');
}

/** Markdown text with the characters that would start markup escaped. */
const md = (text: string): string => text.replace(/([\\*_<>[\]|])/g, '\\$1');

/**
 * docs/commands.md: every command's declaration as a page (regenerate with `npx dialtone help --markdown > docs/commands.md`).
 *
 * @example
 * writeFileSync('docs/commands.md', commandsMarkdown(specs));
 */
export function commandsMarkdown(specs: readonly CommandSpec[]): string {
  const out = [
    '# Commands',
    '',
    "<!-- Generated from the commands' declarations in src/cli/commands/: npx dialtone help --markdown > docs/commands.md -->",
    '',
    ...specs.map((s) => wrap(`- [\`${s.name}\`](#${s.name.replace(/ /g, '-')}): ${md(s.summary)}`, WIDTH, '  ')),
  ];
  for (const spec of specs) {
    out.push('', `## ${spec.name}`, '', '```', synopsis(spec), '```', '', wrap(md(spec.description), WIDTH, ''));
    if (spec.example) out.push('', '### Example', '', '```', spec.example, '```');
    const flags = Object.entries(spec.flags);
    if (flags.length) {
      out.push('', '### Flags', '');
      for (const [name, f] of flags) out.push(wrap(`- \`${flagLabel(name, f)}\`: ${md(flagText(f))}`, WIDTH, '  '));
    }
    const accepted = acceptedLines(spec);
    if (accepted.length) {
      out.push('', '### Accepts', '');
      for (const [kind, names] of accepted) out.push(wrap(`- ${kind}: ${md(names)}`, WIDTH, '  '));
    }
    out.push('', '### Exit codes', '');
    for (const [code, meaning] of exitsOf(spec)) out.push(wrap(`- ${code}: ${md(meaning)}`, WIDTH, '  '));
  }
  return `${out.join('\n')}\n`;
}
