import { SERVICE_MESSAGES } from '@dossierbase/core';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { limitBodyMemory } from './body-memory';
import { HttpError } from './http-errors';

describe('limitBodyMemory', () => {
  it('refuses a body that would overdraw the budget while others are held, and frees it after', async () => {
    const app = Fastify({ bodyLimit: 1000 });
    app.setErrorHandler((error, _request, reply) =>
      error instanceof HttpError ? reply.code(error.statusCode).send(error.body) : reply.send(error),
    );
    limitBodyMemory(app, 100);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    app.post('/hold', async () => {
      await held;
      return { ok: true };
    });
    app.post('/echo', async (request) => request.body);
    app.get('/read', async () => ({ ok: true }));
    await app.ready();

    const big = { text: 'x'.repeat(70) }; // about 81 bytes of JSON
    const holding = app.inject({ method: 'POST', url: '/hold', payload: big });
    await new Promise((resolve) => setTimeout(resolve, 20));

    const refused = await app.inject({ method: 'POST', url: '/echo', payload: { text: 'y'.repeat(30) } });
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({ message: SERVICE_MESSAGES.busy });
    expect(refused.headers['retry-after']).toBe('2');
    // reads carry no body and are never counted
    expect((await app.inject({ method: 'GET', url: '/read' })).statusCode).toBe(200);
    // a small body still fits beside the held one
    expect((await app.inject({ method: 'POST', url: '/echo', payload: { a: 1 } })).statusCode).toBe(200);

    release();
    expect((await holding).statusCode).toBe(200);
    const after = await app.inject({ method: 'POST', url: '/echo', payload: big });
    expect(after.statusCode).toBe(200);
    // over the body limit: 413 from Fastify, not a budget answer
    const huge = await app.inject({ method: 'POST', url: '/echo', payload: { text: 'z'.repeat(2000) } });
    expect(huge.statusCode).toBe(413);
    await app.close();
  });
});
