import type { Db } from './database';

/**
 * State a node keeps per database (a cache, counts of uses, the jobs running), made on first use and
 * let go with its database object: a test process opens many databases, and one database's state
 * must never answer for another's.
 */
export function perDatabase<State>(make: () => State): (db: Db) => State {
  const states = new WeakMap<Db, State>();
  return (db) => {
    let state = states.get(db);
    if (state === undefined) {
      state = make();
      states.set(db, state);
    }
    return state;
  };
}
