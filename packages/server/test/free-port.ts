export { freePort } from '../src/net/free-port';
