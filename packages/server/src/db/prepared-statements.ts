import { type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import type pg from 'pg';
import { isDatabaseUnavailable } from './availability';

// Kysely sends every query as an unnamed statement, which PostgreSQL parses and analyses again on
// each run: for the list call that was about a quarter of the database's work. This pool wrapper
// runs parameterised queries as named prepared statements instead, one per distinct SQL text and
// connection. Every value still travels as a parameter; only the parse is saved.
//
// Bounded: a connection keeps at most `maxStatements` texts. Past that, the one used least recently
// is deallocated (on the same connection, before the new text is prepared) and the new one takes its
// place: statements that name an environment's partition are many per node, one set per active
// environment, and closing a full connection instead would start a new backend with cold catalogue
// caches (15 ms on its first statement) again and again.

// Plans stay custom (plan_cache_mode = force_custom_plan, set by openDatabase): a generic plan,
// made without the filter values, can pick an index that is right for one value and ruinous for
// another.

// Transactions also save round trips, through pg's pipelining (switched on for the connection only
// while a transaction is open: pg refuses cursors on a pipelining connection):
// - a transaction's `begin` goes out together with its first statement (in one write) instead of
//   on its own;
// - a statement marked with lastOfTransaction goes out together with the `commit`. If the statement
//   fails, PostgreSQL turns that commit into a rollback; if the commit fails, the statement fails
//   with it, so nothing is acknowledged that was not committed.
// A create (sign-in read, begin, auto-number, insert with its log entry, commit) went from five
// round trips to three.

export const DEFAULT_MAX_STATEMENTS = 200;

/** Ends a statement's text: it is the last of its transaction, sent with the commit. */
const LAST_OF_TRANSACTION = ' /* last of its transaction */';

/**
 * Marks the last statement of a transaction: on a PostgreSQL server it is sent together with the
 * commit (a round trip fewer). Nothing may run in the transaction after it.
 */
export const lastOfTransaction = <Q extends { modifyEnd(modifier: ReturnType<typeof sql.raw>): Q }>(
  query: Q,
) => query.modifyEnd(sql.raw(LAST_OF_TRANSACTION));

type RawClient = pg.PoolClient & { pipeline?: boolean };

/** What Kysely's `begin` is answered while the real one is still on its way. */
const BEGUN = { command: 'BEGIN', rowCount: null, rows: [], fields: [] };

/** The transaction open on a connection: the begin not yet awaited, the commit already sent. */
interface OpenTransaction {
  begun: Promise<unknown> | null;
  committed: Promise<unknown> | null;
}

/** `result` once `before` has succeeded too; the first failure otherwise (both are awaited). */
async function after<T>(before: Promise<unknown>, result: Promise<T>): Promise<T> {
  const [settledBefore, settled] = await Promise.allSettled([before, result]);
  if (settledBefore.status === 'rejected') throw settledBefore.reason;
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

interface ClientState {
  /** text -> statement name, least recently used first */
  names: Map<string, string>;
  /** statements prepared on this connection so far (names are never reused) */
  prepared: number;
  stale: boolean;
  broken: boolean;
}

class PreparingClient implements PostgresPoolClient {
  private transaction: OpenTransaction | null = null;
  private writesHeld = false;

  constructor(
    private readonly raw: RawClient,
    private readonly state: ClientState,
    private readonly maxStatements: number,
  ) {}

  // biome-ignore lint/suspicious/noExplicitAny: the overloads of PostgresPoolClient (query text or cursor)
  query(text: any, parameters?: ReadonlyArray<unknown>): any {
    if (typeof text === 'string' && (!parameters || parameters.length === 0)) {
      if (text === 'begin' && 'pipeline' in this.raw) return this.begin();
      if (this.transaction && (text === 'commit' || text === 'rollback')) return this.end(text);
    }
    const transaction = this.transaction;
    if (!transaction) return this.send(text, parameters);
    if (transaction.committed) throw new Error('A statement ran after the last of its transaction');
    const last = typeof text === 'string' && text.endsWith(LAST_OF_TRANSACTION);
    if (last) this.holdWrites();
    let result = this.send(text, parameters);
    if (last) {
      transaction.committed = this.sent(this.raw.query('commit'));
      result = after(transaction.committed, result);
    }
    this.flushWrites();
    if (transaction.begun) {
      result = after(transaction.begun, result);
      transaction.begun = null;
    }
    return result;
  }

  /** Kysely's `begin`: sent with the statement after it (one write), awaited with it. */
  private begin() {
    this.raw.pipeline = true;
    this.holdWrites();
    this.transaction = { begun: this.sent(this.raw.query('begin')), committed: null };
    return Promise.resolve(BEGUN);
  }

  /** Kysely's `commit` or `rollback`; a commit already sent with the last statement is not sent again. */
  private end(text: 'commit' | 'rollback') {
    const { begun, committed } = this.transaction as OpenTransaction;
    this.transaction = null;
    let result = committed && text === 'commit' ? committed : this.sent(this.raw.query(text));
    this.flushWrites();
    if (begun) result = after(begun, result);
    return result.finally(() => {
      this.raw.pipeline = false;
    });
  }

  /**
   * Messages queued from now on wait in the socket until flushWrites: statements sent together go
   * in one write (a system call costs about 0.1 ms here, as much as a small statement's execution).
   */
  private holdWrites() {
    if (this.writesHeld) return;
    this.writesHeld = true;
    this.socket().cork();
  }

  private flushWrites() {
    if (!this.writesHeld) return;
    this.writesHeld = false;
    this.socket().uncork();
  }

  private socket() {
    return (this.raw as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection
      .stream;
  }

  /** A query already sent: a failure marks a broken connection, and is never left unhandled. */
  private sent<T>(result: Promise<T>): Promise<T> {
    const noted = result.catch(this.noteBroken);
    noted.catch(() => {});
    return noted;
  }

  // biome-ignore lint/suspicious/noExplicitAny: the overloads of PostgresPoolClient (query text or cursor)
  private send(text: any, parameters?: ReadonlyArray<unknown>): any {
    // Cursors, and statements without parameters (DDL, migrations, several statements at once, which
    // only the simple protocol runs), go as they are.
    if (typeof text !== 'string' || !parameters || parameters.length === 0) {
      const result = parameters ? this.raw.query(text, parameters as unknown[]) : this.raw.query(text);
      return typeof result?.catch === 'function' ? result.catch(this.noteBroken) : result;
    }
    const name = this.nameOf(text);
    const values = parameters as unknown[];
    return this.raw.query({ name, text, values }).catch((error: unknown) => {
      // A table changed under a prepared `select *` (a migration run by another node): this
      // connection's statements are stale, so it is replaced when it goes back to the pool.
      if (error instanceof Error && /cached plan must not change result type/.test(error.message))
        this.state.stale = true;
      // A text that failed may not have been prepared (a parse error): it is not deallocated later.
      if (this.state.names.get(text) === name) this.state.names.delete(text);
      return this.noteBroken(error);
    });
  }

  // A backend terminated during a query hands the query its error before the socket closes, so pg
  // would still count the connection as usable and give it to the next request: it is dropped.
  private readonly noteBroken = (error: unknown): never => {
    if (isDatabaseUnavailable(error)) this.state.broken = true;
    throw error;
  };

  private nameOf(text: string): string {
    const { names } = this.state;
    const known = names.get(text);
    if (known) {
      // the most recently used last
      names.delete(text);
      names.set(text, known);
      return known;
    }
    if (names.size >= this.maxStatements) {
      const [oldestText, oldest] = names.entries().next().value as [string, string];
      names.delete(oldestText);
      // Queued before the new statement on this connection (pg runs a client's queries in order).
      this.raw
        .query(`deallocate ${oldest}`)
        .catch(this.noteBroken)
        .catch(() => {});
      // pg remembers every name it prepared on the connection (Connection.parsedStatements, not a
      // public API); the name is never used again, so forgetting it only keeps that record small.
      delete (this.raw as unknown as { connection?: { parsedStatements?: Record<string, string> } })
        .connection?.parsedStatements?.[oldest];
    }
    this.state.prepared += 1;
    const name = `db_${this.state.prepared}`;
    names.set(text, name);
    return name;
  }

  release(): void {
    this.flushWrites();
    this.transaction = null;
    this.raw.pipeline = false;
    // A broken connection, or one with stale statements, is dropped (pg's release(error) closes it).
    if (this.state.broken) this.raw.release(new Error('connection broken'));
    else this.raw.release(this.state.stale ? new Error('prepared statements stale') : undefined);
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
        client = new PreparingClient(
          raw,
          { names: new Map(), prepared: 0, stale: false, broken: false },
          maxStatements,
        );
        // Kysely keys its connection objects by client, so each pg client keeps one wrapper.
        clients.set(raw, client);
      }
      return client;
    },
    end: () => pool.end(),
  };
}
