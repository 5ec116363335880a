/** What the `graphdb user` commands share: reading a new password and checking it against the policy. */
import { Errors } from '@oclif/core';
import { passwordProblem } from '../engine/auth/index.js';
import { ConfigError, loadConfig } from '../engine/config/index.js';

/**
 * The new password for `username`: the flag's value, else a masked prompt (asked twice) on a
 * terminal. Refused (exit status 2) when missing or against the policy (`auth.password_min_length`,
 * never the user name).
 */
export async function newPassword(username: string, given: string | undefined): Promise<string> {
  let password = given;
  if (password === undefined && process.stdin.isTTY === true) {
    const { password: prompt } = await import('@inquirer/prompts');
    password = await prompt({ message: `Password for ${username}:`, mask: '*' });
    const again = await prompt({ message: 'Repeat the password:', mask: '*' });
    if (again !== password) throw new Errors.CLIError('The passwords do not match.', { exit: 2 });
  }
  if (password === undefined || password === '')
    throw new Errors.CLIError('A password is required (--password, GRAPHDB_NEW_PASSWORD or a terminal prompt).', { exit: 2 });
  const problem = passwordProblem(username, password, minimumLength());
  if (problem !== null) throw new Errors.CLIError(problem, { exit: 2 });
  return password;
}

function minimumLength(): number {
  try {
    return loadConfig().config.auth.password_min_length;
  } catch (error) {
    if (error instanceof ConfigError) throw new Errors.CLIError(error.message, { exit: 2 });
    throw error;
  }
}
