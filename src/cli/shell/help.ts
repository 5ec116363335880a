/** The shell's `:help` texts: the command list and one entry per command (`:help :source`). */

/** One line per command, as `:help` prints them. */
const COMMANDS: readonly (readonly [string, string, string])[] = [
  [':begin', ':begin', 'Open a transaction; statements run in it until :commit or :rollback.'],
  [':commit', ':commit', 'Commit the currently open transaction.'],
  [':rollback', ':rollback', 'Roll back the currently open transaction.'],
  [':use', ':use <database>', 'Set the active database (not inside an open transaction).'],
  [
    ':param',
    ':param name => <expression>',
    'Set a parameter; the expression is evaluated by the database.\n  Also :param {name: expression, ...} to set several at once.',
  ],
  [':params', ':params [clear]', 'Print the parameters as :param lines that can be pasted back, or remove them all.'],
  [
    ':source',
    ':source <file>',
    'Run the statements and commands of a Cypher script file; stops at its first error\n  and names the statement and the file line.',
  ],
  [':format', ':format <table|plain|csv|json>', 'Output format of results.'],
  [':history', ':history', 'Statements entered in this and earlier sessions.'],
  [':help', ':help [command]', 'Show this help message, or the help of one command.'],
  [':exit', ':exit', 'Exit the shell (also Ctrl-D, or Ctrl-C twice at an empty prompt).'],
];

/** `:help` text. */
export const HELP_TEXT = [
  'Available commands:',
  ...COMMANDS.map(([, usage, text]) => `  ${usage.padEnd(32)}${text.split('\n')[0]}`),
  'Statements end with a semicolon (;) and may span several lines. Ctrl-C cancels a running query.',
  'Keys: Ctrl-A/E start/end, Ctrl-W/U/K delete word/to start/to end, Ctrl-Y paste, Ctrl-R history search, Ctrl-L clear.',
].join('\n');

/** `:help <command>` texts, by command name (`:source`). */
export const COMMAND_HELP: ReadonlyMap<string, string> = new Map(
  COMMANDS.map(([name, usage, text]) => [name, `usage: ${usage}\n  ${text}`]),
);
