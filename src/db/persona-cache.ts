import type { Persona } from '../persona/persona.ts';
import { Prisma, type PrismaClient } from './generated/client.ts';

/** Enough for every persona a busy bot seats at once; the oldest loaded goes first past it. */
const MAX_CACHED = 512;

/**
 * Personas as last loaded, each with the row version it was read at. Loading one through Prisma is
 * nine queries and a large parse (12–30 ms), and a game's start loads each AI seat's persona three
 * times; the row version (PostgreSQL's `xmin`, new with every write to the row) is one indexed
 * read. Every change to what a persona loads writes its row: its own edits, its links, its arc
 * stage, and an edit of a part it uses (which drops its compiled copies), so a persona changed by
 * another process is read again, not served stale.
 */
export class PersonaCache {
  private readonly byId = new Map<string, { readonly version: string; readonly persona: Persona }>();
  /** Reads under way, by persona and row version. */
  private readonly reading = new Map<string, Promise<Persona | null>>();

  constructor(private readonly prisma: PrismaClient) {}

  /** The persona, from memory while its row is unchanged, else from `read`; null if it is gone. */
  async load(id: string, read: () => Promise<Persona | null>): Promise<Persona | null> {
    const [row] = await this.prisma.$queryRaw<{ version: string }[]>(
      Prisma.sql`SELECT xmin::text AS version FROM "Persona" WHERE id = ${id}`,
    );
    if (row === undefined) {
      this.byId.delete(id);
      return null;
    }
    const cached = this.byId.get(id);
    if (cached?.version === row.version) return structuredClone(cached.persona);
    // Ten games starting at once seat the same personas: one read for all of them.
    const key = `${id}@${row.version}`;
    let reading = this.reading.get(key);
    if (reading === undefined) {
      reading = this.readAndKeep(id, row.version, read).finally(() => this.reading.delete(key));
      this.reading.set(key, reading);
    }
    const persona = await reading;
    return persona === null ? null : structuredClone(persona);
  }

  private async readAndKeep(id: string, version: string, read: () => Promise<Persona | null>): Promise<Persona | null> {
    // Read after the version: if the row changes in between, the next load sees a newer version and reads again.
    const persona = await read();
    this.byId.delete(id);
    if (persona === null) return null;
    this.byId.set(id, { version, persona });
    if (this.byId.size > MAX_CACHED) this.byId.delete(this.byId.keys().next().value as string);
    return persona;
  }
}
