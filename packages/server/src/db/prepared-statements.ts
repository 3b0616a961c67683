import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import { isDatabaseUnavailable } from './availability';

// Kysely sends every query as an unnamed statement, which PostgreSQL parses and analyses again on
// each run: for the list call that was about a quarter of the database's work. This pool wrapper
// runs parameterised queries as named prepared statements instead, one per distinct SQL text and
// connection. Every value still travels as a parameter; only the parse is saved.
//
// Bounded: a connection prepares at most `maxStatements` texts. Past that it runs new texts
// unnamed and is closed when it goes back to the pool, so a fresh connection starts an empty cache
// (pg offers no public way to forget one statement).
//
// Plans stay custom (plan_cache_mode = force_custom_plan, set by openDatabase): a generic plan,
// made without the filter values, can pick an index that is right for one value and ruinous for
// another.

export const DEFAULT_MAX_STATEMENTS = 200;

type RawClient = pg.PoolClient;

interface ClientState {
  names: Map<string, string>;
  full: boolean;
  broken: boolean;
}

class PreparingClient implements PostgresPoolClient {
  constructor(
    private readonly raw: RawClient,
    private readonly state: ClientState,
    private readonly maxStatements: number,
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: the overloads of PostgresPoolClient (query text or cursor)
  query(text: any, parameters?: ReadonlyArray<unknown>): any {
    // Cursors, and statements without parameters (DDL, migrations, several statements at once, which
    // only the simple protocol runs), go as they are.
    if (typeof text !== 'string' || !parameters || parameters.length === 0) {
      const result = parameters ? this.raw.query(text, parameters as unknown[]) : this.raw.query(text);
      return typeof result?.catch === 'function' ? result.catch(this.noteBroken) : result;
    }
    const name = this.nameOf(text);
    const values = parameters as unknown[];
    if (!name) return this.raw.query(text, values).catch(this.noteBroken);
    return this.raw.query({ name, text, values }).catch((error: unknown) => {
      // A table changed under a prepared `select *` (a migration run by another node): this
      // connection's statements are stale, so it is replaced when it goes back to the pool.
      if (error instanceof Error && /cached plan must not change result type/.test(error.message))
        this.state.full = true;
      return this.noteBroken(error);
    });
  }

  // A backend terminated during a query hands the query its error before the socket closes, so pg
  // would still count the connection as usable and give it to the next request: it is dropped.
  private readonly noteBroken = (error: unknown): never => {
    if (isDatabaseUnavailable(error)) this.state.broken = true;
    throw error;
  };

  private nameOf(text: string): string | undefined {
    const known = this.state.names.get(text);
    if (known) return known;
    if (this.state.names.size >= this.maxStatements) {
      this.state.full = true;
      return undefined;
    }
    const name = `db_${this.state.names.size + 1}`;
    this.state.names.set(text, name);
    return name;
  }

  release(): void {
    // A full cache, or a broken connection, is dropped (pg's release(error) closes it).
    if (this.state.broken) this.raw.release(new Error('connection broken'));
    else this.raw.release(this.state.full ? new Error('prepared statement cache full') : undefined);
  }
}

/** A Kysely PostgresPool over a pg pool that runs parameterised queries as prepared statements. */
export function preparingPool(pool: pg.Pool, maxStatements = DEFAULT_MAX_STATEMENTS): PostgresPool {
  const clients = new WeakMap<RawClient, PreparingClient>();
  return {
    async connect() {
      const raw = await pool.connect();
      let client = clients.get(raw);
      if (!client) {
        client = new PreparingClient(raw, { names: new Map(), full: false, broken: false }, maxStatements);
        // Kysely keys its connection objects by client, so each pg client keeps one wrapper.
        clients.set(raw, client);
      }
      return client;
    },
    end: () => pool.end(),
  };
}
