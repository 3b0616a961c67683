import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { serveWeb } from './web';

describe('the built web client', () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>app</title>');
  writeFileSync(path.join(dist, 'assets', 'app-4f2a9c.js'), 'console.log(1)');
  writeFileSync(path.join(dist, 'robots.txt'), 'User-agent: *');
  const app = Fastify();
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('lets a browser keep the hashed assets and asks it to check index.html and other files', async () => {
    await serveWeb(app, dist);
    const asset = await app.inject('/assets/app-4f2a9c.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const route = await app.inject('/contentdossier/12');
    expect(route.statusCode).toBe(200);
    expect(route.body).toContain('<title>app</title>');
    expect(route.headers['cache-control']).toBe('no-cache');
    const other = await app.inject('/robots.txt');
    expect(other.headers['cache-control']).not.toContain('immutable');
    expect((await app.inject('/api/nothing')).statusCode).toBe(404);
  });
});
