/**
 * The privilege records a GRANT/DENY/REVOKE command stands for: one per role × graph ×
 * segment × resource, as SHOW PRIVILEGES lists them.
 */
import type { PrivilegeCommand } from '../../cypher/ast/security.js';
import type { PrivilegeAction, PrivilegeRecord } from './types.js';

/** Records of `command` for `roles`; `parameter` resolves graph names written as `$name`. */
export function privilegesOfCommand(
  command: PrivilegeCommand,
  roles: readonly string[],
  parameter: (name: string) => string,
): PrivilegeRecord[] {
  const graphs = command.graphs.map((g) => (g.startsWith('$') ? parameter(g.slice(1)) : g));
  const segments = command.segments.flatMap((s) =>
    typeof s === 'string' ? [s] : s.names === null ? [`${s.element}(*)`] : s.names.map((n) => `${s.element}(${n})`),
  );
  const access = command.operation === 'DENY' ? 'DENIED' : 'GRANTED';
  const out: PrivilegeRecord[] = [];
  for (const role of roles) {
    for (const graph of graphs) {
      for (const segment of segments) {
        for (const resource of command.resources) {
          out.push({ role, access, action: command.action as PrivilegeAction, resource, graph, segment, immutable: false });
        }
      }
    }
  }
  return out;
}
