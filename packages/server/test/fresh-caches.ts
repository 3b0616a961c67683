// Set-up file of the server suites, run before each test file. The files share their worker's modules
// (isolate: false, which saves the import of the app per file) but each works on a database of its
// own, where ids start again from 1: the per-node caches, keyed by those ids, start empty.
import { clearPromiseCaches } from '../src/promise-cache';

clearPromiseCaches();
