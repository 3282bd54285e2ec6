import { allRoles, type RoleId } from '../../game/index.ts';
import { err, ok, type Result } from '../../result.ts';

/**
 * Reads a typed role list: comma-separated names or ids, each optionally counted
 * ("townsperson x3", "3 townsperson", "2x mafia"). Unknown names are refused with the list of roles.
 */
export function parseRoleList(text: string): Result<RoleId[], string> {
  const roles: RoleId[] = [];
  const known = allRoles();
  for (const raw of text.split(/[,;\n]/)) {
    const piece = raw.trim().toLowerCase();
    if (!piece) continue;
    const match = /^(?:(\d+)\s*x?\s+)?([a-z][a-z ]*?)(?:\s*(?:x\s*|\*\s*)(\d+))?$/.exec(piece);
    const name = match?.[2]?.trim();
    const role = name ? known.find((r) => r.id === name || r.name.toLowerCase() === name) : undefined;
    if (!match || !role) {
      return err(`I do not know the role "${name ?? raw.trim()}". Roles: ${known.map((r) => r.id).join(', ')}.`);
    }
    const count = Number(match[1] ?? match[3] ?? 1);
    if (count < 1 || count > 24) return err(`"${raw.trim()}": a count must be 1–24.`);
    for (let n = 0; n < count; n++) roles.push(role.id);
  }
  if (roles.length === 0) return err('The role list is empty.');
  return ok(roles);
}
