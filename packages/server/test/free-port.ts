export { freePort, reservePort } from '../src/net/free-port';
