/**
 * The decisions subcommands are one table read two ways: commander (help and
 * errors) and the fast parser main.ts tries first. Where the fast parser
 * answers, it must hand the command exactly what commander would; where
 * commander would refuse the command line, the fast parser must decline it.
 */
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { type CommandSpec, parseCommandLine } from '../../src/cli/command-table.js';
import { addTableCommand } from '../../src/cli/command-table-commander.js';
import { DECISIONS_COMMANDS } from '../../src/cli/decisions-commands.js';

function recording(spec: CommandSpec, seen: { value?: unknown }): CommandSpec {
  return {
    ...spec,
    run: async (argument, options) => {
      seen.value = { argument, options: { ...options } };
    },
  };
}

/** What commander passes to the command for `argv` (after `decisions`), or 'refused'. */
function viaCommander(argv: string[]): unknown {
  const seen: { value?: unknown } = {};
  const program = new Command('moor')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const decisions = program.command('decisions').exitOverride();
  for (const spec of DECISIONS_COMMANDS) addTableCommand(decisions, recording(spec, seen)).exitOverride();
  try {
    program.parse(['decisions', ...argv], { from: 'user' });
  } catch {
    return 'refused';
  }
  return seen.value;
}

function viaFastParser(argv: string[]): unknown {
  const spec = DECISIONS_COMMANDS.find((c) => c.name === argv[0]);
  const parsed = spec && parseCommandLine(spec, argv.slice(1));
  return parsed && { argument: parsed.argument, options: { ...parsed.options } };
}

const ACCEPTED = [
  ['search', 'event', 'sourcing'],
  ['search', 'sqlite', '-w', '/ws', '-d', 'docs/adr', '--json'],
  ['search', 'x', '-n', '3', '--status', 'accepted'],
  ['search', 'x', '--limit=7', '-s', 'proposed', '-w/ws'],
  ['search', '--', '-w', 'words'],
  ['show', 'ADR-3', '--json'],
  ['show', '--workspace', '/ws', '7'],
  ['context', 'src/a.ts', 'src/b.ts', '-w', '/ws'],
  ['context', '--staged', '--json'],
  ['context', '--since=main'],
  ['context', '--since', 'main', '-d', 'adr'],
  ['context'],
  ['superseded', '-w', '/ws'],
  ['check'],
  ['check', '--format', 'sarif', '-w', '/ws'],
  ['check', '--format=github', '--json'],
];

const REFUSED = [
  ['search'],
  ['search', 'x', '-n', '0'],
  ['search', 'x', '-n', 'many'],
  ['search', 'x', '--bogus'],
  ['search', 'x', '-w'],
  ['search', 'x', '--json=yes'],
  ['show'],
  ['show', '1', '2'],
  ['superseded', 'extra'],
  ['check', '--format', 'xml'],
  ['check', '--format'],
];

describe('the decisions command table', () => {
  it.each(ACCEPTED)('parses %j as commander does', (...argv) => {
    const expected = viaCommander(argv);
    expect(expected).not.toBe('refused');
    expect(viaFastParser(argv)).toEqual(expected);
  });

  it.each(REFUSED)('leaves %j, which commander refuses, to commander', (...argv) => {
    expect(viaCommander(argv)).toBe('refused');
    expect(viaFastParser(argv)).toBeUndefined();
  });

  it('declines help and unknown subcommands', () => {
    for (const argv of [
      ['search', 'x', '--help'],
      ['check', '-h'],
      ['nosuchcommand'],
      ['--json', 'search', 'x'],
      [],
    ])
      expect(viaFastParser(argv)).toBeUndefined();
  });

  it('fills defaults and checks values as commander does', () => {
    expect(viaFastParser(['check'])).toEqual({ argument: undefined, options: { format: 'text' } });
    expect(viaFastParser(['search', 'a', 'b', '-n', '12'])).toEqual({
      argument: ['a', 'b'],
      options: { limit: 12 },
    });
  });
});
